# `gsflow train-classifier` on synthetic labelled DNA written here (positives carry TATAAAAG in
# the middle of 40 random bases, negatives are random): trains, scores the test split once,
# writes the checkpoint and the model card, refuses to overwrite, and stops with the file and
# field for bad configs and bad FASTA. No real data needed.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

string(RANDOM LENGTH 1 ALPHABET ACGT RANDOM_SEED 7 unused)
include(${CMAKE_CURRENT_LIST_DIR}/synthetic_labelled_dna.cmake)
write_split(train.fasta 400)
write_split(validation.fasta 100)
write_split(test.fasta 100)

function(write_config file extra_root extra_train)
  file(WRITE "${WORK}/${file}" "{
  \"name\": \"tiny\", \"output\": \"${WORK}/tiny.ckpt\", \"positive\": \"holds TATAAAAG\",
  \"report_every\": 50${extra_root},
  \"data\": {\"alphabet\": \"dna\", \"label\": \"label\", \"train\": \"${WORK}/train.fasta\",
           \"validation\": \"${WORK}/validation.fasta\", \"test\": \"${WORK}/test.fasta\",
           \"min_length\": 40, \"max_length\": 40},
  \"network\": {\"width\": 8, \"blocks\": 1, \"kernel\": 9, \"hidden\": 8},
  \"train\": {\"steps\": 150, \"batch\": 32, \"lr\": 0.01, \"warmup\": 20, \"validate_every\": 50,
            \"threads\": 1, \"seed\": 1${extra_train}}
}
")
endfunction()


write_config(tiny.json "" "")
run(0 train-classifier --config ${WORK}/tiny.json)
foreach(f tiny.ckpt tiny.md)
  if(NOT EXISTS "${WORK}/${f}")
    message(FATAL_ERROR "train-classifier did not write ${f}\n${last_err}")
  endif()
endforeach()
if(NOT last_err MATCHES "step 150/150" OR NOT last_err MATCHES "val AUROC")
  message(FATAL_ERROR "no progress line with validation AUROC for step 150:\n${last_err}")
endif()
# The motif is unmistakable: the test split must be separated almost perfectly.
if(NOT last_err MATCHES "test AUROC (0\\.9[5-9][0-9]*|1\\.0000)")
  message(FATAL_ERROR "test AUROC missing or below 0.95:\n${last_err}")
endif()
file(READ "${WORK}/tiny.md" card)
foreach(needle "| test |" "| validation |" "gsflow train-classifier --config" "parameters")
  string(FIND "${card}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "model card lacks '${needle}':\n${card}")
  endif()
endforeach()
expect_error("already exists" train-classifier --config ${WORK}/tiny.json)
run(0 train-classifier --config ${WORK}/tiny.json --steps 10 --force)

# Bad configs: the error names the file and the dotted field; exit code 2.
write_config(typo.json "" ", \"lrr\": 0.1")
expect_error("typo.json: train.lrr is not a known setting" train-classifier --config ${WORK}/typo.json --force)
write_config(type.json ", \"max_minutes\": \"ten\"" "")
expect_error("type.json: max_minutes has the wrong type" train-classifier --config ${WORK}/type.json --force)
write_config(kernel.json "" ", \"steps\": 0")
expect_error("kernel.json: train.steps must be >= 1" train-classifier --config ${WORK}/kernel.json --force)
file(WRITE "${WORK}/missing.json" "{\"name\": \"x\", \"output\": \"${WORK}/x.ckpt\"}")
expect_error("missing.json: positive is required" train-classifier --config ${WORK}/missing.json)
# A FASTA record without the label field: named by file and line.
file(APPEND "${WORK}/validation.fasta" ">unlabelled\nACGTACGTACGTACGTACGTACGTACGTACGTACGTACGT\n")
expect_error("validation.fasta:201" train-classifier --config ${WORK}/tiny.json --force)
