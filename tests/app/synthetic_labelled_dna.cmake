# write_split(FILE COUNT): COUNT synthetic labelled DNA records in ${WORK}/FILE for the
# train-classifier tests: odd records (label=1) carry TATAAAAG between 16 random bases on each
# side, even ones (label=0) 8 random bases there. Seed string(RANDOM) before calling.
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
