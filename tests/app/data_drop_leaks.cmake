# `gsflow data drop-leaks` on hand-written splits: a held-out peptide that one training peptide
# reproduces (a copy with 2 of 40 residues changed, a 12-residue piece of one) is removed and kept
# in work/leaks-SPLIT.fasta with its identity; an unrelated one and one that only contains a
# training piece (12 of its 40 residues) stay; counts in summary.json and clusters.tsv follow; a
# second run drops nothing; a missing split file is an input error (exit 2) naming it.
cmake_minimum_required(VERSION 3.25)
set(dir ${WORK}/data_drop_leaks)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir})
set(T1 YKNTARICGENSIPVEWIAHQKGPGDFYYRFFAAHHGGLM)
set(T2 HVHGHPLANQGFKDMLYWAYMDLNLSMGSSGCKANPAVQN)
file(WRITE ${dir}/train.fasta ">T1 amp=0 cluster=0 ribosomal=0 len=40\n${T1}\n"
                              ">T2 amp=1 cluster=1 ribosomal=0 len=40\n${T2}\n")
# V1: T1 with residues 10 and 30 changed (38 / 40 identical). V2: unrelated. V3: T2's residues
# 5-16. V4: T2's residues 5-16 inside 28 unrelated residues (12 / 40).
set(V1 YKNTARICGWNSIPVEWIAHQKGPGDFYYWFFAAHHGGLM)
set(V2 PWARCGYHEIRNTNTKREWNLCQDHMTYNFMKVDLMLGDF)
set(V3 HPLANQGFKDML)
set(V4 LSGCDYVPCIYNKRHPLANQGFKDMLQEGQNFCQLFRYGT)
file(WRITE ${dir}/validation.fasta ">V1 amp=0 cluster=2 ribosomal=0 len=40\n${V1}\n"
     ">V2 amp=1 cluster=3 ribosomal=0 len=40\n${V2}\n>V3 amp=1 cluster=4 ribosomal=1 len=12\n${V3}\n")
file(WRITE ${dir}/test.fasta ">V4 amp=0 cluster=5 ribosomal=0 len=40\n${V4}\n")
file(WRITE ${dir}/clusters.tsv
     "accession\tcluster\tsplit\nT1\t0\ttrain\nT2\t1\ttrain\nV1\t2\tvalidation\nV2\t3\tvalidation\n"
     "V3\t4\tvalidation\nV4\t5\ttest\n")
file(WRITE ${dir}/summary.json "{\"component\": \"peptide\", \"policies\": {}, \"counts\": {\"validation\": {\"sequences\": 3}}}\n")

function(drop out_var)
  execute_process(COMMAND ${CMD} data drop-leaks --dir ${dir} --splits ${ARGN} --threads 1
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_var} "${rc}|${err}" PARENT_SCOPE)
endfunction()

drop(result validation test)
if(NOT result MATCHES "^0\\|")
  message(FATAL_ERROR "drop-leaks failed: ${result}")
endif()
file(READ ${dir}/validation.fasta val)
if(NOT val STREQUAL ">V2 amp=1 cluster=3 ribosomal=0 len=40\n${V2}\n")
  message(FATAL_ERROR "validation.fasta should hold V2 only:\n${val}")
endif()
file(READ ${dir}/test.fasta test)
if(NOT test MATCHES "^>V4 ")
  message(FATAL_ERROR "test.fasta should keep V4 (12 of 40 residues):\n${test}")
endif()
file(READ ${dir}/work/leaks-validation.fasta leaks)
if(NOT leaks MATCHES ">V1 [^\n]* identity_to_train=0\\.950\n${V1}\n>V3 [^\n]* identity_to_train=1\\.000\n${V3}\n")
  message(FATAL_ERROR "leaks-validation.fasta:\n${leaks}")
endif()
file(READ ${dir}/clusters.tsv tsv)
if(NOT tsv MATCHES "V1\t2\tdropped\nV2\t3\tvalidation\nV3\t4\tdropped\nV4\t5\ttest\n")
  message(FATAL_ERROR "clusters.tsv:\n${tsv}")
endif()
file(READ ${dir}/summary.json summary)
string(JSON kept GET "${summary}" counts validation sequences)
string(JSON amp GET "${summary}" counts validation amp_1)
string(JSON dropped GET "${summary}" leak_filter validation dropped)
string(JSON test_dropped GET "${summary}" leak_filter test dropped)
if(NOT kept EQUAL 1 OR NOT amp EQUAL 1 OR NOT dropped EQUAL 2 OR NOT test_dropped EQUAL 0)
  message(FATAL_ERROR "summary.json counts: kept ${kept} amp ${amp} dropped ${dropped} "
                      "test dropped ${test_dropped}\n${summary}")
endif()

# Idempotent: nothing left to drop.
drop(result validation test)
file(READ ${dir}/summary.json summary)
string(JSON dropped GET "${summary}" leak_filter validation dropped)
if(NOT result MATCHES "^0\\|" OR NOT dropped EQUAL 0)
  message(FATAL_ERROR "second run: ${result}, dropped ${dropped}")
endif()

file(READ ${dir}/summary.json before)
drop(result validation test-extra)
file(READ ${dir}/summary.json after)
if(NOT result MATCHES "^2\\|.*test-extra.fasta" OR NOT before STREQUAL after)
  message(FATAL_ERROR "expected exit 2 naming test-extra.fasta and nothing rewritten, got: ${result}")
endif()
