# Shared by the train-classifier test scripts.
# write_split(FILE COUNT): COUNT synthetic labelled DNA records in ${WORK}/FILE: odd records
# (label=1) carry TATAAAAG between 16 random bases on each side, even ones (label=0) 8 random bases
# there. Seed string(RANDOM) before calling.
# run(RC ARGS...): gsflow ARGS must exit RC (last_out, last_err set); expect_error(TEXT ARGS...):
# exit 2 with TEXT on stderr.
function(write_split file count)
  set(text "")
  foreach(i RANGE 1 ${count})
    math(EXPR label "${i} % 2")
    string(RANDOM LENGTH 16 ALPHABET ACGT left)
    string(RANDOM LENGTH 16 ALPHABET ACGT right)
    if(label)
      set(middle TATAAAAG)
    else()
      string(RANDOM LENGTH 8 ALPHABET ACGT middle)
    endif()
    string(APPEND text ">s${i} label=${label}\n${left}${middle}${right}\n")
  endforeach()
  file(WRITE "${WORK}/${file}" "${text}")
endfunction()

function(run expect_rc)
  execute_process(COMMAND ${CMD} ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  if(NOT rc EQUAL expect_rc)
    message(FATAL_ERROR "gsflow ${ARGN}: exit ${rc}, ${expect_rc} expected\n${out}\n${err}")
  endif()
  set(last_out "${out}" PARENT_SCOPE)
  set(last_err "${err}" PARENT_SCOPE)
endfunction()
function(expect_error needle)
  run(2 ${ARGN})
  string(FIND "${last_err}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "gsflow ${ARGN}: the error does not say '${needle}':\n${last_err}")
  endif()
endfunction()
