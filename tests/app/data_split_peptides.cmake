# `gsflow data split-peptides` on hand-written candidates and a cd-hit .clstr: whole clusters stay
# in one split, headers carry amp/cluster/ribosomal/len, the same seed gives the same split, and a
# sequence missing from the clusters is an input error (exit 2).
cmake_minimum_required(VERSION 3.25)
set(dir ${WORK}/data_split_peptides)
file(REMOVE_RECURSE ${dir})
file(MAKE_DIRECTORY ${dir}/work)
file(WRITE ${dir}/work/candidates.fasta
">A amp=1 ribosomal=0 len=10\nACDEFGHIKL\n>B amp=0 ribosomal=1 len=10\nACDEFGHIKM\n"
">C amp=NA ribosomal=0 len=11\nMNPQRSTVWYA\n>D amp=0 ribosomal=0 len=12\nKKKKKKKKKKKK\n"
">E amp=0 ribosomal=0 len=12\nKKKKKKKKKKKR\n")
file(WRITE ${dir}/work/c.clstr
">Cluster 0\n0\t10aa, >A... *\n1\t10aa, >B... at 90.00%\n>Cluster 1\n0\t11aa, >C... *\n"
">Cluster 2\n0\t12aa, >D... *\n1\t12aa, >E... at 91.67%\n")

function(run_split out_var)
  execute_process(COMMAND ${CMD} data split-peptides --dir ${dir} --clusters ${ARGN} --seed 7
                          --test-fraction 0.2 --validation-fraction 0.2
                  RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
  set(${out_var} "${rc}|${err}" PARENT_SCOPE)
endfunction()

run_split(result ${dir}/work/c.clstr)
if(NOT result MATCHES "^0\\|")
  message(FATAL_ERROR "split-peptides failed: ${result}")
endif()
file(STRINGS ${dir}/clusters.tsv rows)
list(GET rows 0 header)
if(NOT header STREQUAL "accession\tcluster\tsplit")
  message(FATAL_ERROR "clusters.tsv header: ${header}")
endif()
list(LENGTH rows n)
if(NOT n EQUAL 6)
  message(FATAL_ERROR "clusters.tsv: expected 5 rows, got\n${rows}")
endif()
foreach(row IN LISTS rows)
  if(row MATCHES "^([A-E])\t([0-9])\t(train|validation|test)$")
    set(split_${CMAKE_MATCH_1} ${CMAKE_MATCH_3})
    set(cluster_${CMAKE_MATCH_1} ${CMAKE_MATCH_2})
  endif()
endforeach()
if(NOT split_A STREQUAL split_B OR NOT split_D STREQUAL split_E OR NOT cluster_A EQUAL 0
   OR NOT cluster_C EQUAL 1 OR NOT cluster_E EQUAL 2)
  message(FATAL_ERROR "clusters split apart or misnumbered:\n${rows}")
endif()
# With 5 sequences, test and validation each need >= 1 sequence (20 %): three non-empty splits.
if(split_A STREQUAL split_C OR split_A STREQUAL split_D OR split_C STREQUAL split_D)
  message(FATAL_ERROR "expected the three clusters in three splits:\n${rows}")
endif()
file(READ ${dir}/${split_A}.fasta a_file)
if(NOT a_file MATCHES ">A amp=1 cluster=0 ribosomal=0 len=10\nACDEFGHIKL\n>B amp=0 cluster=0 ribosomal=1 len=10\n")
  message(FATAL_ERROR "${split_A}.fasta:\n${a_file}")
endif()
file(READ ${dir}/${split_C}.fasta c_file)
if(NOT c_file STREQUAL ">C amp=NA cluster=1 ribosomal=0 len=11\nMNPQRSTVWYA\n")
  message(FATAL_ERROR "${split_C}.fasta:\n${c_file}")
endif()

# Same seed, same split.
file(READ ${dir}/clusters.tsv first)
run_split(result ${dir}/work/c.clstr)
file(READ ${dir}/clusters.tsv second)
if(NOT first STREQUAL second)
  message(FATAL_ERROR "not deterministic:\n${first}\n---\n${second}")
endif()

# E missing from the clusters: input error naming the .clstr file.
file(WRITE ${dir}/work/bad.clstr ">Cluster 0\n0\t10aa, >A... *\n1\t10aa, >B... at 90.00%\n"
     ">Cluster 1\n0\t11aa, >C... *\n>Cluster 2\n0\t12aa, >D... *\n")
run_split(result ${dir}/work/bad.clstr)
if(NOT result MATCHES "^2\\|.*bad.clstr: sequence E .* is in no cluster")
  message(FATAL_ERROR "expected exit 2 naming bad.clstr and E, got: ${result}")
endif()
