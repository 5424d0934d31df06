# `gsflow train-judge` refuses bad input with exit code 2 and a message that says what is wrong:
# a missing data folder (naming it and how to get the data), and an unknown objective (usage, 1).
cmake_minimum_required(VERSION 3.25)
set(missing ${WORK}/no-such-data-folder)
execute_process(COMMAND ${CMD} train-judge --objective promoter --data ${missing}
                        --out ${WORK}/never-judge.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "missing data folder: expected exit code 2, got ${rc}\n${out}${err}")
endif()
if(NOT err MATCHES "no-such-data-folder: data folder not found" OR NOT err MATCHES "fetch-data")
  message(FATAL_ERROR "missing data folder: unclear message: ${err}")
endif()
if(EXISTS ${WORK}/never-judge.json)
  message(FATAL_ERROR "a failed train-judge wrote ${WORK}/never-judge.json")
endif()
# A data folder without the split files.
file(MAKE_DIRECTORY ${WORK}/empty-data)
execute_process(COMMAND ${CMD} train-judge --objective amp --data ${WORK}/empty-data
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "peptide/validation.fasta: split file not found")
  message(FATAL_ERROR "empty data folder: expected exit 2 naming the file, got ${rc}: ${err}")
endif()
execute_process(COMMAND ${CMD} train-judge --objective frobnicate RESULT_VARIABLE rc
                ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "frobnicate")
  message(FATAL_ERROR "unknown objective: expected usage error 2, got ${rc}: ${err}")
endif()
