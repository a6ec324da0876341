// SPDX-License-Identifier: Apache-2.0
// 1 x 1 outputs computed on the host (a threshold and its metric), written
// to the device outputs.
#pragma once

#include <initializer_list>

#include "op_support.hpp"

namespace ipt::vk {

struct HostScalar {
    const char* name;
    double value;
};

// The first value is always written, the others when the caller asked for them.
void write_host_scalars(OpContext& ctx, int32_t dtype, std::initializer_list<HostScalar> values);

}  // namespace ipt::vk
