# SPDX-License-Identifier: Apache-2.0
# Every built-in operator of the catalogue (api/include/ipt/ipt_ops.h) has a
# planner in registry/src/output_plan.cpp: without one the registry can only
# check a backend's outputs against the schema's rules, not the front-end's
# sizes and classes. Run: cmake -DSOURCE_DIR=<repo> -P <this file>.
file(READ ${SOURCE_DIR}/api/include/ipt/ipt_ops.h catalogue)
file(READ ${SOURCE_DIR}/registry/src/output_plan.cpp planners)
string(REGEX MATCHALL "IPT_SCHEMA\\(\"ipt\\.[A-Za-z0-9_]+\"" entries "${catalogue}")
list(LENGTH entries count)
if(count EQUAL 0)
  message(FATAL_ERROR "no IPT_SCHEMA entries found in ipt_ops.h")
endif()
set(missing "")
foreach(entry ${entries})
  string(REGEX REPLACE "IPT_SCHEMA\\(\"(ipt\\.[A-Za-z0-9_]+)\"" "\\1" op "${entry}")
  string(FIND "${planners}" "{\"${op}\"" at)
  if(at EQUAL -1)
    list(APPEND missing ${op})
  endif()
endforeach()
if(missing)
  message(FATAL_ERROR "operators without a planner in registry/src/output_plan.cpp: ${missing}")
endif()
message(STATUS "${count} catalogue operators, each with an output planner")
