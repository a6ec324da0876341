# SPDX-License-Identifier: Apache-2.0
# Runs `ipt ARGS...` for ctest and checks the outcome:
#   EXPECT=pass   exit 0
#   EXPECT=fail   exit 1 (a failure was found)
#   EXPECT=usage  exit 2 (bad input reported)
# MATCH, MATCH2, MATCH3 (optional) must each match stdout+stderr. Exit 77 (nothing certified) prints
# CONFORMANCE-SKIP and the reason, which the test's SKIP_REGULAR_EXPRESSION
# turns into a visible skip. COPY_FROM/COPY_TO copy a file first (a plugin
# under a second name and path). PLUGIN_PATH sets IPT_PLUGIN_PATH.
if(COPY_FROM)
  get_filename_component(dir ${COPY_TO} DIRECTORY)
  file(MAKE_DIRECTORY ${dir})
  file(COPY_FILE ${COPY_FROM} ${COPY_TO})
endif()
if(PLUGIN_PATH)
  set(ENV{IPT_PLUGIN_PATH} ${PLUGIN_PATH})
endif()
execute_process(COMMAND ${IPT} ${ARGS} RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
set(all "${out}\n${err}")
message("${all}")
if(rc EQUAL 77)
  message("CONFORMANCE-SKIP: nothing could be certified (see the reason above)")
  return()
endif()
if(EXPECT STREQUAL "pass")
  set(want 0)
elseif(EXPECT STREQUAL "fail")
  set(want 1)
else()
  set(want 2)
endif()
if(NOT rc EQUAL want)
  message(FATAL_ERROR "ipt ${ARGS}: exit code ${rc}, expected ${want} (${EXPECT})")
endif()
foreach(m MATCH MATCH2 MATCH3)
  if(${m} AND NOT all MATCHES "${${m}}")
    message(FATAL_ERROR "ipt ${ARGS}: output does not match '${${m}}'")
  endif()
endforeach()
