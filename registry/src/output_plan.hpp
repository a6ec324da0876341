// SPDX-License-Identifier: Apache-2.0
// What each output of a call must be: for a built-in operator its front-end's
// plan (backends/common/ops), else the schema's rules on outputs. The
// registry refuses an output a plugin asks for that differs.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ipt/ipt_plugin.h"

namespace ipt::reg {

struct ExpectedOutput {
    int32_t dtype = 0;
    int64_t rows = 0, cols = 0, channels = 1;
};

// Made once per run of a call, on the first output asked for.
struct OutputPlan {
    bool made = false;
    bool by_front_end = false;  // a front-end's plan said; else the schema's rules only
    std::vector<std::optional<ExpectedOutput>> outputs;  // by parameter index
};

// "" when output `index` of the call may be dtype, rows x cols x channels;
// otherwise what came and what was expected ("2x2x1 double, but ...").
std::string check_output(const ipt_kernel_call& call, OutputPlan& plan, uint32_t index, int32_t dtype,
                         int64_t rows, int64_t cols, int64_t channels);

}  // namespace ipt::reg
