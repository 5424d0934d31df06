# `gsflow train-classifier` with data.extra_negatives (issue 38, item 3: hard negatives) on
# synthetic labelled DNA written here: positives carry TATAAAAG in the middle of 40 random bases,
# negatives are random; the extra negatives carry the motif too, behind a CCCCCCCC decoy (what a
# guide's exploit looks like: the class's signal plus something the class never has). Checks that
# the extra negatives are counted in the training set (log and card) and change what is learned:
# probes with motif + decoy score high without them and low with them. Malformed extra-negative
# files (bad letter, another alphabet, a label=1 record, a length out of range, a missing file, a
# wrong config type) exit 2 naming the file and line or the config key. No real data needed.
cmake_minimum_required(VERSION 3.25)
file(REMOVE_RECURSE "${WORK}")
file(MAKE_DIRECTORY "${WORK}")

string(RANDOM LENGTH 1 ALPHABET ACGT RANDOM_SEED 11 unused)
include(${CMAKE_CURRENT_LIST_DIR}/synthetic_labelled_dna.cmake)
# Motif plus decoy; `header` is appended to each record's header.
function(write_decoys file count header)
  set(text "")
  foreach(i RANGE 1 ${count})
    string(RANDOM LENGTH 8 ALPHABET AGT left)
    string(RANDOM LENGTH 16 ALPHABET ACGT right)
    string(APPEND text ">d${i}${header}\nCCCCCCCC${left}TATAAAAG${right}\n")
  endforeach()
  file(WRITE "${WORK}/${file}" "${text}")
endfunction()
write_split(train.fasta 400)
write_split(validation.fasta 100)
write_split(test.fasta 100)
write_decoys(hard.fasta 120 " gamma=8")
write_decoys(probe.fasta 40 "")

# write_config(FILE OUTPUT ALPHABET EXTRA_DATA): EXTRA_DATA is inserted into "data".
function(write_config file output alphabet extra_data)
  file(WRITE "${WORK}/${file}" "{
  \"name\": \"tiny\", \"output\": \"${WORK}/${output}\", \"positive\": \"holds TATAAAAG\",
  \"report_every\": 100,
  \"data\": {\"alphabet\": \"${alphabet}\", \"label\": \"label\", \"train\": \"${WORK}/train.fasta\",
           \"validation\": \"${WORK}/validation.fasta\", \"test\": \"${WORK}/test.fasta\",
           \"min_length\": 40, \"max_length\": 40${extra_data}},
  \"network\": {\"width\": 8, \"blocks\": 1, \"kernel\": 9, \"hidden\": 8},
  \"train\": {\"steps\": 300, \"batch\": 32, \"lr\": 0.01, \"warmup\": 20, \"validate_every\": 100,
            \"threads\": 1, \"seed\": 1}
}
")
endfunction()

# high_count(VAR CKPT): how many of the 40 probes the classifier CKPT gives P >= 0.5.
function(high_count var ckpt)
  run(0 score ${WORK}/probe.fasta --guide classifier:${WORK}/${ckpt} --alphabet dna --csv)
  string(REPLACE "\n" ";" lines "${last_out}")
  list(POP_FRONT lines header)
  set(high 0)
  set(n 0)
  foreach(line IN LISTS lines)
    if(line STREQUAL "")
      continue()
    endif()
    string(REPLACE "," ";" cells "${line}")
    list(GET cells -1 p)  # the classifier's column is the last
    if(p MATCHES "^(0\\.[5-9][0-9]*|1(\\.0*)?)$")
      math(EXPR high "${high} + 1")
    endif()
    math(EXPR n "${n} + 1")
  endforeach()
  if(NOT n EQUAL 40)
    message(FATAL_ERROR "score gave ${n} rows for 40 probes:\n${last_out}")
  endif()
  set(${var} ${high} PARENT_SCOPE)
endfunction()

# Without extra negatives: the motif alone decides, the decoy passes.
write_config(plain.json plain.ckpt dna "")
run(0 train-classifier --config ${WORK}/plain.json)
high_count(plain_high plain.ckpt)
# With them: counted in the training set (log and card), only there.
write_config(hard.json hard.ckpt dna ", \"extra_negatives\": [\"${WORK}/hard.fasta\"]")
run(0 train-classifier --config ${WORK}/hard.json)
foreach(needle "train + 120 extra negatives (label=0) from ${WORK}/hard.fasta"
               "training set 520 sequences (200 with label=1)"
               "validation 100 sequences (50 with label=1"
               "test 100 sequences (50 with label=1")
  string(FIND "${last_err}" "${needle}" at)
  if(at EQUAL -1)
    message(FATAL_ERROR "train-classifier log lacks '${needle}':\n${last_err}")
  endif()
endforeach()
file(READ "${WORK}/hard.md" card)
string(FIND "${card}" "| extra negatives (train only) | `${WORK}/hard.fasta` | 120 | 0 | - |" at)
if(at EQUAL -1)
  message(FATAL_ERROR "model card lacks the extra-negatives row:\n${card}")
endif()
high_count(hard_high hard.ckpt)
message(STATUS "probes (motif + decoy) with P >= 0.5: ${plain_high} of 40 without, "
               "${hard_high} of 40 with extra negatives")
if(plain_high LESS 30 OR hard_high GREATER 10)
  message(FATAL_ERROR "extra negatives did not change what was learned: ${plain_high} of 40 "
                      "probes score P >= 0.5 without them, ${hard_high} with them (expected >= 30 "
                      "and <= 10)")
endif()

# Malformed extra negatives: exit 2 naming the file and the line (or the config key).
file(WRITE "${WORK}/letter.fasta"
     ">a\nCCCCCCCCAAAATATAAAAGAAAACCCCAAAAGGGGTTTT\n>b\nCCCCCCCCAAAATATAAAAGAAAACCCCAAAAGGGGTTTE\n")
write_config(letter.json x.ckpt dna ", \"extra_negatives\": [\"${WORK}/letter.fasta\"]")
expect_error("letter.fasta:3: record 'b': letter 'E'" train-classifier --config ${WORK}/letter.json)
file(WRITE "${WORK}/protein.fasta"
     ">p1\nMKWVTFISLLFLFSSAYSRGVFRRDTHKSEIAHRFKDLGE\n")
write_config(protein.json x.ckpt dna ", \"extra_negatives\": [\"${WORK}/protein.fasta\"]")
expect_error("protein.fasta:1: record 'p1': letter 'M'" train-classifier --config ${WORK}/protein.json)
# Another alphabet the other way: DNA letters are amino-acid letters too, so a protein recipe
# refuses a file of DNA only (the training files here are DNA, read as protein).
write_config(dna-as-protein.json x.ckpt protein ", \"extra_negatives\": [\"${WORK}/hard.fasta\"]")
expect_error("hard.fasta:1: every record holds only DNA letters (ACGTN)"
             train-classifier --config ${WORK}/dna-as-protein.json)
file(WRITE "${WORK}/positive.fasta"
     ">a label=0\nCCCCCCCCAAAATATAAAAGAAAACCCCAAAAGGGGTTTT\n>b label=1\nCCCCCCCCAAAATATAAAAGAAAACCCCAAAAGGGGTTTA\n")
write_config(positive.json x.ckpt dna ", \"extra_negatives\": [\"${WORK}/positive.fasta\"]")
expect_error("positive.fasta:3: record 'b' says label=1" train-classifier --config ${WORK}/positive.json)
file(WRITE "${WORK}/short.fasta" ">a\nACGT\n")
write_config(short.json x.ckpt dna ", \"extra_negatives\": [\"${WORK}/short.fasta\"]")
expect_error("short.fasta:1: record 'a' has 4 letters; 40..40 required"
             train-classifier --config ${WORK}/short.json)
write_config(missing.json x.ckpt dna ", \"extra_negatives\": [\"${WORK}/nowhere.fasta\"]")
expect_error("nowhere.fasta: data.extra_negatives: no such file" train-classifier --config ${WORK}/missing.json)
write_config(type.json x.ckpt dna ", \"extra_negatives\": \"${WORK}/hard.fasta\"")
expect_error("type.json: data.extra_negatives must be a list of FASTA files"
             train-classifier --config ${WORK}/type.json)
write_config(item.json x.ckpt dna ", \"extra_negatives\": [3]")
expect_error("item.json: data.extra_negatives[0] must be a file name"
             train-classifier --config ${WORK}/item.json)
if(EXISTS "${WORK}/x.ckpt")
  message(FATAL_ERROR "a refused config wrote ${WORK}/x.ckpt")
endif()
