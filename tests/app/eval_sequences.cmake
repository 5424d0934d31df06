# `gsflow eval --sequences FILE`. The validation split's own records evaluated against the
# validation split: n is the file's record count, the k-mer JS is 0 at every k (the same k-mer
# distribution), GC and TATA equal the split's own figures (GC profile MAE and TATA histogram L1
# are 0), the file is recorded in the JSON and there is no Linear FM baseline (nothing is
# generated). A DNA record with a letter outside ACGT fails with exit code 2 naming the file, the
# line of its record and the position; --n together with --sequences is a usage error. Peptide
# training records evaluated as designs are their own nearest training hit: protein-likeness
# identity 1 for every one (median 1, all >= 0.9), scores far above their shuffles.
cmake_minimum_required(VERSION 3.25)
if(NOT "$ENV{GSFLOW_DATA}" STREQUAL "")
  set(data $ENV{GSFLOW_DATA})
else()
  set(data ${SOURCE}/data)
endif()
set(fasta ${data}/dna256/validation.fasta)
file(STRINGS ${fasta} headers REGEX "^>")
list(LENGTH headers records)

execute_process(COMMAND ${CMD} eval --model dna-promoter --sequences ${fasta} --json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gsflow eval --sequences failed (${rc})\nstdout: ${out}\nstderr: ${err}")
endif()
string(JSON n GET "${out}" n)
string(JSON recorded GET "${out}" sequences)
if(NOT n EQUAL records OR NOT recorded STREQUAL fasta)
  message(FATAL_ERROR "n ${n} (file has ${records} records), sequences '${recorded}'")
endif()
foreach(k 1 2 3 4 5 6)
  string(JSON js GET "${out}" kmer_js ${k})
  if(js GREATER 1e-12)
    message(FATAL_ERROR "${k}-mer JS of the split against itself is ${js}, not 0")
  endif()
endforeach()
string(JSON gc GET "${out}" gc mean)
string(JSON gc_split GET "${out}" gc reference_mean)
string(JSON tata GET "${out}" tata window_fraction)
string(JSON tata_split GET "${out}" tata reference_window_fraction)
string(JSON gc_mae GET "${out}" gc profile_mae)
string(JSON tata_l1 GET "${out}" tata histogram_l1)
if(NOT gc EQUAL gc_split OR NOT tata EQUAL tata_split OR NOT gc_mae EQUAL 0 OR NOT tata_l1 EQUAL 0)
  message(FATAL_ERROR "GC ${gc} (split ${gc_split}), TATA ${tata} (split ${tata_split}), "
                      "GC profile MAE ${gc_mae}, TATA histogram L1 ${tata_l1}")
endif()
string(JSON linear ERROR_VARIABLE missing GET "${out}" baselines linear_fm)
if(NOT missing)
  message(FATAL_ERROR "a Linear FM baseline was generated for --sequences")
endif()
message(STATUS "${n} records, 6-mer JS ${js}")

set(bad ${WORK}/eval-sequences-bad.fasta)
file(WRITE ${bad} ">one\nACGTACGT\n>two\nACGTXCGT\n")
execute_process(COMMAND ${CMD} eval --model dna-promoter --sequences ${bad}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2 OR NOT err MATCHES "eval-sequences-bad.fasta:3: record .two.: letter .X. at position 5")
  message(FATAL_ERROR "bad letter: exit ${rc} (2 expected), stderr: ${err}")
endif()
execute_process(COMMAND ${CMD} eval --model dna-promoter --sequences ${bad} --n 5
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 2)
  message(FATAL_ERROR "--n with --sequences: exit ${rc} (2 expected), stderr: ${err}")
endif()

# Protein-likeness: the first training peptides evaluated as if designed.
file(READ ${data}/peptide/train.fasta head LIMIT 3000)
string(FIND "${head}" "\n>" cut REVERSE)
string(SUBSTRING "${head}" 0 ${cut} head)
set(copies ${WORK}/eval-sequences-training-copies.fasta)
file(WRITE ${copies} "${head}\n")
file(STRINGS ${copies} copy_headers REGEX "^>")
list(LENGTH copy_headers copy_records)
execute_process(COMMAND ${CMD} eval --model peptide --sequences ${copies} --json
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gsflow eval --sequences (peptides) failed (${rc})\nstderr: ${err}")
endif()
string(JSON aligned GET "${out}" protein_likeness designs n)
string(JSON identity GET "${out}" protein_likeness designs identity_median)
string(JSON identity_mean GET "${out}" protein_likeness designs identity_mean)
string(JSON guard GET "${out}" protein_likeness designs fraction_identity_at_least)
string(JSON near_copies GET "${out}" protein_likeness designs fraction_near_copies)
string(JSON score GET "${out}" protein_likeness designs score_median)
string(JSON shuffled GET "${out}" protein_likeness shuffled score_median)
string(JSON shuffled_n GET "${out}" protein_likeness shuffled n)
message(STATUS "${copy_records} training copies: identity ${identity} (mean ${identity_mean}), "
               ">= 0.9 ${guard}, median score ${score}, shuffled held-out ${shuffled}")
if(copy_records LESS 10 OR NOT aligned EQUAL copy_records OR NOT shuffled_n EQUAL copy_records)
  message(FATAL_ERROR "aligned ${aligned} designs, ${shuffled_n} shuffles; "
                      "file has ${copy_records}")
endif()
if(NOT identity EQUAL 1 OR NOT identity_mean EQUAL 1 OR NOT guard EQUAL 1 OR
   NOT near_copies EQUAL 1)
  message(FATAL_ERROR "training copies: identity median ${identity}, mean ${identity_mean}, "
                      ">= 0.9 fraction ${guard}, near copies ${near_copies}; 1 expected for each")
endif()
if(NOT score GREATER 100 OR NOT shuffled LESS 70)
  message(FATAL_ERROR "training copies median score ${score}, shuffled held-out ${shuffled}")
endif()
# --no-alignment leaves the figures out.
execute_process(COMMAND ${CMD} eval --model peptide --sequences ${copies} --json --no-alignment
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
string(JSON likeness ERROR_VARIABLE no_likeness GET "${out}" protein_likeness)
if(NOT rc EQUAL 0 OR NOT no_likeness)
  message(FATAL_ERROR "--no-alignment: exit ${rc}, protein_likeness ${likeness}")
endif()
