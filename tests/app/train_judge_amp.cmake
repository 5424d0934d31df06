# `gsflow train-judge --objective amp --json` on the real data (8 s): the judge separates the
# train split it never saw (AUROC > 0.65: 0.706 since the leak-free split of 2026-12-06 halved its
# data, 0.79 before), and, when the data is the one the bundled judge was
# trained on (same data hash), it reproduces the bundled judge's CV choice and AUROCs.
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND ${CMD} train-judge --objective amp --json --out ${WORK}/amp-judge.json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gsflow train-judge failed (${rc})\nstdout: ${out}\nstderr: ${err}")
endif()
string(JSON trained_on GET "${out}" trained_on)
string(JSON kmax GET "${out}" kmax)
string(JSON lambda GET "${out}" lambda)
string(JSON hash GET "${out}" data_hash)
string(JSON train_auroc GET "${out}" splits train auroc)
string(JSON test_auroc GET "${out}" splits test auroc)
message(STATUS "amp judge: k = 1..${kmax}, lambda ${lambda}, train-split AUROC ${train_auroc}, "
               "test-split AUROC ${test_auroc}, data ${hash}")
if(NOT trained_on STREQUAL "validation")
  message(FATAL_ERROR "trained on ${trained_on}, validation expected")
endif()
if(NOT train_auroc GREATER 0.65)
  message(FATAL_ERROR "train-split AUROC ${train_auroc} <= 0.65")
endif()
if(NOT EXISTS ${WORK}/amp-judge.json)
  message(FATAL_ERROR "no judge file written")
endif()

file(READ ${BUNDLED} bundled)
string(JSON bundled_hash GET "${bundled}" training data_hash)
if(NOT hash STREQUAL bundled_hash)
  message(FATAL_ERROR "the data (hash ${hash}) is not what ${BUNDLED} was trained on "
                      "(${bundled_hash}): retrain the bundled judge (see its card)")
endif()
string(JSON bundled_kmax GET "${bundled}" features kmax)
string(JSON bundled_lambda GET "${bundled}" regularisation lambda)
string(JSON bundled_train GET "${bundled}" metrics train_split_auroc)
string(JSON bundled_test GET "${bundled}" metrics test_split_auroc)
# Four decimals: the same data and code give the same fit up to rounding in the last bits.
foreach(pair "${train_auroc};${bundled_train}" "${test_auroc};${bundled_test}")
  list(GET pair 0 a)
  list(GET pair 1 b)
  string(SUBSTRING "${a}0000000" 0 6 a)
  string(SUBSTRING "${b}0000000" 0 6 b)
  if(NOT a STREQUAL b)
    message(FATAL_ERROR "AUROC ${a} differs from the bundled judge's ${b}")
  endif()
endforeach()
if(NOT kmax STREQUAL bundled_kmax OR NOT lambda STREQUAL bundled_lambda)
  message(FATAL_ERROR "CV chose k = 1..${kmax}, lambda ${lambda}; the bundled judge has "
                      "k = 1..${bundled_kmax}, lambda ${bundled_lambda}")
endif()
