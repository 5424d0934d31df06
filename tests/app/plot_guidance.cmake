# scripts/plot-guidance draws a PNG from the eval-guidance JSON (a hand-written fixture): the file
# has the PNG signature and a plausible size; a missing file and a result without judge_mean fail
# with a message naming the file and the field. With two reports (FIXTURE2, another method's) it
# draws their judge-against-JS curves on one PNG; the fixtures measure JS at different k (FIXTURE
# has no kmer_js_by_k), which is refused, as is a report for another model.
cmake_minimum_required(VERSION 3.25)
set(out ${WORK}/plot-guidance.png)
file(REMOVE ${out})
execute_process(COMMAND ${SCRIPT} ${FIXTURE} ${out} RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "plot-guidance failed (${rc}): ${err}")
endif()
if(NOT EXISTS ${out})
  message(FATAL_ERROR "plot-guidance wrote no ${out}")
endif()
file(READ ${out} signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "${out} is not a PNG (starts with ${signature})")
endif()
file(SIZE ${out} size)
# Five lines, two axes, a key and a title at 1000 x 640 take ~50 KB; a blank canvas ~5 KB.
if(size LESS 20000)
  message(FATAL_ERROR "${out} is only ${size} bytes: nothing drawn?")
endif()

execute_process(COMMAND ${SCRIPT} ${WORK}/no-such-eval.json ${WORK}/never.png
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "no-such-eval.json: cannot read")
  message(FATAL_ERROR "missing input: expected a failure naming the file, got ${rc}: ${err}")
endif()
file(WRITE ${WORK}/bad-eval.json "{\"results\": [{\"gamma\": 0, \"guide_mean\": 0.5}]}")
execute_process(COMMAND ${SCRIPT} ${WORK}/bad-eval.json ${WORK}/never.png
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "results\\[0\\]: field 'judge_mean' is missing")
  message(FATAL_ERROR "missing field: expected a failure naming it, got ${rc}: ${err}")
endif()
if(EXISTS ${WORK}/never.png)
  message(FATAL_ERROR "a failed plot left ${WORK}/never.png behind")
endif()

# Two methods on one plot: FIXTURE2 against itself relabelled (a copy with another method name and
# the same k), then the refusals.
file(READ ${FIXTURE2} second)
string(REPLACE "\"svdd\"" "\"stgflow\"" first "${second}")
file(WRITE ${WORK}/first-eval.json "${first}")
set(out2 ${WORK}/plot-guidance-methods.png)
file(REMOVE ${out2})
execute_process(COMMAND ${SCRIPT} ${WORK}/first-eval.json ${FIXTURE2} ${out2}
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "plot-guidance with two reports failed (${rc}): ${err}")
endif()
file(READ ${out2} signature LIMIT 8 HEX)
if(NOT signature STREQUAL "89504e470d0a1a0a")
  message(FATAL_ERROR "${out2} is not a PNG (starts with ${signature})")
endif()
file(SIZE ${out2} size)
if(size LESS 20000)
  message(FATAL_ERROR "${out2} is only ${size} bytes: nothing drawn?")
endif()
execute_process(COMMAND ${SCRIPT} ${FIXTURE} ${FIXTURE2} ${WORK}/never.png
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "different k")
  message(FATAL_ERROR "mixed k: expected a refusal, got ${rc}: ${err}")
endif()
string(REPLACE "\"dna-promoter\"" "\"peptide\"" other "${second}")
file(WRITE ${WORK}/other-model-eval.json "${other}")
execute_process(COMMAND ${SCRIPT} ${FIXTURE2} ${WORK}/other-model-eval.json ${WORK}/never.png
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "other-model-eval.json: model 'peptide' differs")
  message(FATAL_ERROR "another model: expected a refusal naming the file, got ${rc}: ${err}")
endif()
# Two guides under one judge compare (the curves name the guides); another judge is refused.
string(REPLACE "\"objective\": \"promoter\"" "\"objective\": \"classifier:x/other-guide.ckpt\""
       guide2 "${second}")
file(WRITE ${WORK}/other-guide-eval.json "${guide2}")
execute_process(COMMAND ${SCRIPT} ${FIXTURE2} ${WORK}/other-guide-eval.json ${WORK}/guides.png
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0 OR NOT EXISTS ${WORK}/guides.png)
  message(FATAL_ERROR "two guides, one judge: expected a plot, got ${rc}: ${err}")
endif()
string(REPLACE "\"judge\": \"promoter\"" "\"judge\": \"other-judge\"" judge2 "${second}")
file(WRITE ${WORK}/other-judge-eval.json "${judge2}")
execute_process(COMMAND ${SCRIPT} ${FIXTURE2} ${WORK}/other-judge-eval.json ${WORK}/never.png
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(rc EQUAL 0 OR NOT err MATCHES "other-judge-eval.json: judge 'other-judge' differs")
  message(FATAL_ERROR "another judge: expected a refusal naming the file, got ${rc}: ${err}")
endif()
if(EXISTS ${WORK}/never.png)
  message(FATAL_ERROR "a failed plot left ${WORK}/never.png behind")
endif()
