# `gsflow data dna` on a hand-written 7-record FASTA with window 4: cropping at the 3' end, the N
# policy, dedup with the test arm winning, the arm splits, the start-site coordinate on both
# strands and the promoter labels (a sequence seen with both labels is dropped).
cmake_minimum_required(VERSION 3.25)
set(dir ${WORK}/data_dna)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
file(WRITE ${dir}/in.fa
">NM_1_up_2000_chr2R_100_f chr2R:100-111
aaaaccccgggg
>NM_2_up_2000_chr2L_200_r chr2L:200-211
ttttacgt
GGGG
>NM_3_up_2000_chr3L_300_f chr3L:300-311
acgtacgtnacg
>NM_4_up_2000_chrX_400_f chrX:400-411
ccccaaaatcga
>NM_5_up_2000_chr3L_500_f chr3L:500-511
gggggggggatc
>NM_6_up_2000_chrX_600_r chrX:600-611
ccccaaaatcga
>NM_7_up_2000_chr2R_1_f chr2R:1-3
acg
")
execute_process(COMMAND ${CMD} data dna --input ${dir}/in.fa --window 4 --out ${dir}/out
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gsflow data dna failed (${rc}):\n${out}\n${err}")
endif()

function(expect_file name expected)
  file(READ ${dir}/out/${name} got)
  if(NOT got STREQUAL expected)
    message(FATAL_ERROR "${name}: expected\n${expected}\ngot\n${got}")
  endif()
endfunction()
# NM_1's GGGG also occurs on chr2L (NM_2): the test-arm copy is kept. NM_3's window has an N.
# NM_6 repeats NM_4 (first kept). NM_7 is shorter than the window.
expect_file(train.fasta ">NM_4 chr=chrX tss=412 strand=f\nTCGA\n")
expect_file(validation.fasta ">NM_5 chr=chr3L tss=512 strand=f\nGATC\n")
expect_file(test.fasta ">NM_2 chr=chr2L tss=199 strand=r\nGGGG\n")
# GGGG is proximal (label 1) in NM_1/NM_2 and distal (label 0) in NM_5: dropped everywhere.
expect_file(labels/train.fasta
  ">NM_1_distal label=0 window=distal chr=chr2R tss=112 strand=f\nAAAA\n>NM_4_proximal label=1 window=proximal chr=chrX tss=412 strand=f\nTCGA\n>NM_4_distal label=0 window=distal chr=chrX tss=412 strand=f\nCCCC\n")
expect_file(labels/validation.fasta
  ">NM_3_distal label=0 window=distal chr=chr3L tss=312 strand=f\nACGT\n>NM_5_proximal label=1 window=proximal chr=chr3L tss=512 strand=f\nGATC\n")
expect_file(labels/test.fasta ">NM_2_distal label=0 window=distal chr=chr2L tss=199 strand=r\nTTTT\n")

file(READ ${dir}/out/summary.json summary)
foreach(pair "records;7" "dropped_shorter_than_window;1" "dropped_with_n;1" "duplicates_removed;2"
        "windows_shared_across_splits;1" "unique_windows;3" "sequences_with_both_labels_dropped;1")
  list(GET pair 0 key)
  list(GET pair 1 value)
  if(NOT summary MATCHES "\"${key}\": ${value}[,\n]")
    message(FATAL_ERROR "summary.json: expected ${key} = ${value}\n${summary}")
  endif()
endforeach()

# A header that is not dm3 upstream2000 is an input error (exit 2) naming the file and line.
file(WRITE ${dir}/bad.fa ">NM_1_up_2000_chr2R_100_f chr2R:100-111\nACGTACGTACGT\n>weird header\nACGT\n")
execute_process(COMMAND ${CMD} data dna --input ${dir}/bad.fa --window 4 --out ${dir}/bad
                RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "bad.fa:3: record weird")
  message(FATAL_ERROR "expected exit 2 naming bad.fa:3, got ${rc}: ${err}")
endif()
