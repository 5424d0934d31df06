# Fails if the executable CMD itself depends on a library matching FORBID (default libQt) in its
# DT_NEEDED entries. Debian's LibTorch pulls Qt 5 in transitively (libtorch -> libopencv_highgui
# -> libQt5*): that is the package's choice, not ours, and not what this test is about.
cmake_minimum_required(VERSION 3.25)
execute_process(COMMAND readelf -d ${CMD} OUTPUT_VARIABLE dyn RESULT_VARIABLE rc)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "readelf failed on ${CMD}")
endif()
if(NOT dyn MATCHES "NEEDED")
  message(FATAL_ERROR "no NEEDED entries read from ${CMD}: the check would pass vacuously")
endif()
if(NOT DEFINED FORBID)
  set(FORBID libQt)
endif()
if(dyn MATCHES "NEEDED[^\n]*${FORBID}")
  message(FATAL_ERROR "${CMD} links ${FORBID} directly:\n${dyn}")
endif()
