# Runs `gsflow eval --json` for a bundled model on the validation split and checks the issue's
# targets that a short run can show: uniqueness >= 0.99, exact training copies <= 1 %, the model's
# KMAX-mer JS below the PWM baseline's, and (peptides) composition KL < 0.01; and that the JSON
# records the generation parameters it used (the run-parameter JSON of the run store). With
# -DALIGNMENT=1 (peptides) the protein-likeness figures are there and sane: n aligned per set, the
# whole training set searched, real held-out peptides far above their own shuffles (issue 39
# measured 151.8 against 51.2), shuffles never >= 90 % identical, the PWM baseline aligned too;
# without it (DNA) there are none.
cmake_minimum_required(VERSION 3.25)
separate_arguments(args UNIX_COMMAND "${ARGS}")
execute_process(COMMAND ${CMD} eval ${args} --json RESULT_VARIABLE rc OUTPUT_VARIABLE out
                ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "gsflow eval failed (${rc})\nstdout: ${out}\nstderr: ${err}")
endif()
string(JSON split GET "${out}" split)
string(JSON uniq GET "${out}" uniqueness)
string(JSON copies GET "${out}" exact_copy_fraction)
string(JSON js GET "${out}" kmer_js ${KMAX})
string(JSON js_pwm GET "${out}" baselines pwm kmer_js ${KMAX})
string(JSON floor GET "${out}" kmer_js_floor ${KMAX})
string(JSON kl GET "${out}" composition_kl)
string(JSON n GET "${out}" n)
string(JSON params_n GET "${out}" params n)
string(JSON params_seed GET "${out}" params seed)
string(JSON seed GET "${out}" seed)
if(NOT params_n EQUAL n OR NOT params_seed EQUAL seed)
  message(FATAL_ERROR "params record n ${params_n}, seed ${params_seed}; eval used ${n}, ${seed}")
endif()
message(STATUS "split ${split}: uniqueness ${uniq}, copies ${copies}, ${KMAX}-mer JS ${js} "
               "(floor ${floor}, PWM ${js_pwm}), composition KL ${kl}")
if(NOT split STREQUAL "validation")
  message(FATAL_ERROR "split ${split}, validation expected")
endif()
if(uniq LESS 0.99 OR copies GREATER 0.01)
  message(FATAL_ERROR "uniqueness ${uniq} < 0.99 or exact copies ${copies} > 0.01")
endif()
if(NOT js LESS js_pwm)
  message(FATAL_ERROR "${KMAX}-mer JS ${js} is not below the PWM baseline's ${js_pwm}")
endif()
if(DEFINED MAX_KL AND kl GREATER MAX_KL)
  message(FATAL_ERROR "composition KL ${kl} above ${MAX_KL}")
endif()

string(JSON likeness ERROR_VARIABLE no_likeness GET "${out}" protein_likeness)
if(NOT ALIGNMENT)
  if(NOT no_likeness)
    message(FATAL_ERROR "protein_likeness reported for a DNA model")
  endif()
  return()
endif()
if(no_likeness)
  message(FATAL_ERROR "no protein_likeness in the JSON: ${no_likeness}")
endif()
string(JSON training GET "${out}" protein_likeness training_sequences)
string(JSON split_seen GET "${out}" protein_likeness split)
string(JSON matrix GET "${out}" protein_likeness matrix)
if(training LESS 10000 OR NOT split_seen STREQUAL "validation" OR NOT matrix STREQUAL "BLOSUM62")
  message(FATAL_ERROR "protein_likeness: training ${training}, split ${split_seen}, "
                      "matrix ${matrix}")
endif()
foreach(set designs reference shuffled)
  string(JSON set_n GET "${out}" protein_likeness ${set} n)
  string(JSON median_${set} GET "${out}" protein_likeness ${set} score_median)
  string(JSON mean_${set} GET "${out}" protein_likeness ${set} score_mean)
  string(JSON identity_${set} GET "${out}" protein_likeness ${set} identity_median)
  string(JSON guard_${set} GET "${out}" protein_likeness ${set} fraction_identity_at_least)
  if(NOT set_n EQUAL n OR median_${set} LESS 20 OR mean_${set} LESS 20 OR identity_${set} LESS 0
     OR identity_${set} GREATER 1 OR guard_${set} LESS 0 OR guard_${set} GREATER 1)
    message(FATAL_ERROR "protein_likeness ${set}: n ${set_n} (${n} expected), score median "
                        "${median_${set}}, mean ${mean_${set}}, identity ${identity_${set}}, "
                        ">= 0.9 ${guard_${set}}")
  endif()
endforeach()
string(JSON median_pwm GET "${out}" baselines pwm protein_likeness score_median)
message(STATUS "protein-likeness median score: designs ${median_designs}, held-out "
               "${median_reference}, shuffled ${median_shuffled}, PWM ${median_pwm}; identity "
               "${identity_designs} / ${identity_reference} / ${identity_shuffled}")
if(median_reference LESS 100 OR NOT median_shuffled LESS 70 OR guard_shuffled GREATER 0.01)
  message(FATAL_ERROR "held-out median score ${median_reference} (>= 100 expected), shuffled "
                      "${median_shuffled} (< 70), shuffled >= 0.9 fraction ${guard_shuffled}")
endif()
if(median_pwm LESS 20 OR NOT median_pwm LESS median_reference)
  message(FATAL_ERROR "PWM baseline median score ${median_pwm}")
endif()
