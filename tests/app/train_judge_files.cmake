# `gsflow train-judge --positives/--negatives` on a few hundred real peptides (a few seconds): a
# judge of `ribosomal` (GO translation, header ribosomal=0/1) from the VALIDATION split's first
# 80 positives and 160 negatives, scored on the first records of the TRAIN split (other clusters)
# as a labelled --test file: CV and held-out AUROC well above 0.5, the file usable by `gsflow
# score --judge`. Then bad input: exit 2 with a message naming the file (and line).
cmake_minimum_required(VERSION 3.25)
set(dir ${WORK}/train-judge-files)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
foreach(split validation train)
  if(NOT EXISTS ${DATA}/peptide/${split}.fasta)
    message(FATAL_ERROR "${DATA}/peptide/${split}.fasta missing: run scripts/fetch-data")
  endif()
endforeach()

# Validation records by their ribosomal label into two plain FASTA files (headers cut to the id).
file(STRINGS ${DATA}/peptide/validation.fasta lines LIMIT_COUNT 6000)
set(pos "")
set(neg "")
set(n_pos 0)
set(n_neg 0)
set(side "")
foreach(line IN LISTS lines)
  if(line MATCHES "^>([^ ]+) .*ribosomal=([01])")
    set(id ${CMAKE_MATCH_1})
    set(side "")
    if(CMAKE_MATCH_2 STREQUAL "1" AND n_pos LESS 80)
      set(side pos)
      math(EXPR n_pos "${n_pos} + 1")
    elseif(CMAKE_MATCH_2 STREQUAL "0" AND n_neg LESS 160)
      set(side neg)
      math(EXPR n_neg "${n_neg} + 1")
    endif()
    if(side)
      string(APPEND ${side} ">${id}\n")
    endif()
  elseif(line MATCHES "^>")
    set(side "")
  elseif(side)
    string(APPEND ${side} "${line}\n")
  endif()
endforeach()
if(NOT n_pos EQUAL 80 OR NOT n_neg EQUAL 160)
  message(FATAL_ERROR "validation.fasta: found ${n_pos} ribosomal=1 and ${n_neg} ribosomal=0")
endif()
file(WRITE ${dir}/pos.fasta "${pos}")
file(WRITE ${dir}/neg.fasta "${neg}")
# The train split's first ~600 records, labelled label=0|1 (NA kept as NA: skipped).
file(STRINGS ${DATA}/peptide/train.fasta lines LIMIT_COUNT 1600)
set(test "")
set(keep FALSE)
foreach(line IN LISTS lines)
  if(line MATCHES "^>([^ ]+) .*ribosomal=([^ ]+)")
    string(APPEND test ">${CMAKE_MATCH_1} label=${CMAKE_MATCH_2}\n")
    set(keep TRUE)
  elseif(line MATCHES "^>")
    set(keep FALSE)  # unlabelled: left out
  elseif(keep)
    string(APPEND test "${line}\n")
  endif()
endforeach()
string(REGEX REPLACE ">[^\n]*\n$" "" test "${test}")  # a header cut off from its sequence
file(WRITE ${dir}/test.fasta "${test}")

execute_process(COMMAND ${CMD} train-judge --positives ${dir}/pos.fasta
                        --negatives ${dir}/neg.fasta --test ${dir}/test.fasta
                        --out ${dir}/judge.json --json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gsflow train-judge failed (${rc})\nstdout: ${out}\nstderr: ${err}")
endif()
string(JSON cv_auroc GET "${out}" cv_auroc)
string(JSON test_auroc GET "${out}" splits test auroc)
string(JSON test_n GET "${out}" splits test sequences)
string(JSON kmax GET "${out}" kmax)
string(JSON positives GET "${out}" positives)
message(STATUS "ribosomal judge from 240 validation peptides: k = 1..${kmax}, CV AUROC "
               "${cv_auroc}, AUROC on ${test_n} train-split peptides ${test_auroc}")
if(NOT positives EQUAL 80)
  message(FATAL_ERROR "${positives} positives read, 80 expected")
endif()
if(NOT cv_auroc GREATER 0.8 OR NOT test_auroc GREATER 0.8)
  message(FATAL_ERROR "AUROC not well above 0.5: CV ${cv_auroc}, held out ${test_auroc}")
endif()
if(NOT EXISTS ${dir}/judge.json)
  message(FATAL_ERROR "no judge file written")
endif()
execute_process(COMMAND ${CMD} score ${dir}/pos.fasta --judge ${dir}/judge.json --csv
                        --out ${dir}/scored.csv
                RESULT_VARIABLE rc ERROR_VARIABLE err)
file(READ ${dir}/scored.csv scored)
if(NOT rc EQUAL 0 OR NOT scored MATCHES "judge:")
  message(FATAL_ERROR "gsflow score --judge ${dir}/judge.json failed (${rc}): ${err}")
endif()

# Bad input: exit 2, a message matching `pattern`, no judge file.
function(expect_bad what pattern)
  file(REMOVE ${dir}/bad.json)
  execute_process(COMMAND ${CMD} train-judge ${ARGN} RESULT_VARIABLE rc OUTPUT_VARIABLE out
                  ERROR_VARIABLE err)
  if(NOT rc EQUAL 2 OR NOT err MATCHES "${pattern}")
    message(FATAL_ERROR "${what}: expected exit 2 and '${pattern}', got ${rc}: ${out}${err}")
  endif()
  if(EXISTS ${dir}/bad.json)
    message(FATAL_ERROR "${what}: a failed train-judge wrote ${dir}/bad.json")
  endif()
endfunction()
file(WRITE ${dir}/empty.fasta "")
file(WRITE ${dir}/few.fasta ">a\nMKVLAAGIVGLLLA\n>b\nMSKGEELFTGVVPILV\n>c\nMAHHHHHHSSGLVPRG\n")
file(WRITE ${dir}/letters.fasta ">odd\nMKVLAJZQ\n${pos}")
file(READ ${dir}/neg.fasta neg_text)
string(REGEX MATCH "^>[^\n]*\n[^>]*" first_neg "${neg_text}")
file(WRITE ${dir}/pos-and-neg.fasta "${pos}${first_neg}")
string(REGEX REPLACE "label=0" "label=1" test_one_class "${test}")
file(WRITE ${dir}/test-one-class.fasta "${test_one_class}")
set(files --negatives ${dir}/neg.fasta --out ${dir}/bad.json)

expect_bad("empty positives" "empty.fasta: no sequences \\(positives\\)"
           --positives ${dir}/empty.fasta ${files})
expect_bad("one class only" "empty.fasta: no sequences \\(negatives\\)"
           --positives ${dir}/pos.fasta --negatives ${dir}/empty.fasta --out ${dir}/bad.json)
expect_bad("too few" "few.fasta:5: training data: only 3 positive sequences"
           --positives ${dir}/few.fasta ${files})
expect_bad("letters" "letters.fasta:1: record 'odd': letter 'J'"
           --positives ${dir}/letters.fasta ${files})
expect_bad("same sequence in both files" "the same sequence labelled both ways.*pos-and-neg.fasta"
           --positives ${dir}/pos-and-neg.fasta ${files})
expect_bad("test with one class" "test-one-class.fasta: test data: one class only"
           --positives ${dir}/pos.fasta ${files} --test ${dir}/test-one-class.fasta)
expect_bad("output exists" "judge.json already exists \\(--force replaces it\\)"
           --positives ${dir}/pos.fasta --negatives ${dir}/neg.fasta --out ${dir}/judge.json)
expect_bad("both modes" "--objective .* and --positives/--negatives .* exclude each other"
           --objective amp --positives ${dir}/pos.fasta ${files})
expect_bad("file option with --objective" "--test is for --positives/--negatives"
           --objective amp --test ${dir}/test.fasta)
expect_bad("neither mode" "give --objective promoter\\|amp, or --positives"
           --out ${dir}/bad.json)
expect_bad("no output" "give --out FILE or --name NAME"
           --positives ${dir}/pos.fasta --negatives ${dir}/neg.fasta)
expect_bad("bundled judge's name" "--name amp: a judge of that name exists"
           --positives ${dir}/pos.fasta --negatives ${dir}/neg.fasta --name amp)
