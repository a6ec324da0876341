// SPDX-License-Identifier: Apache-2.0
// Evaluation of an operator's tiling rule (ipt_op_schema.tiling_rule) against
// the parameters of a call: docs/abi.md#tiling.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "internal.hpp"

namespace ipt::reg {

struct TilingResult {
    int32_t tiling = IPT_TILING_UNKNOWN;
    int64_t halo_rows = 0, halo_cols = 0;
    std::string reason;
};

// `values` as the caller set them (before defaults), one per parameter.
// IPT_ERR_PLUGIN for a malformed rule (the message quotes it),
// IPT_ERR_INVALID_ARGUMENT for a value the rule cannot use.
ipt_status evaluate_tiling(const ipt_op_schema& op, const std::vector<ParamValue>& values, TilingResult* out);

}  // namespace ipt::reg
