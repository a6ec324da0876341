// SPDX-License-Identifier: Apache-2.0
// ipt.im2double's front-end: J = im2double(I), the size of I, class double
// (docs/matlab-semantics.md#image-scaling; the plan is common to the class
// conversions, ops/im2class.hpp).
#pragma once

#include "im2class.hpp"

namespace ipt::frontend {

inline Im2ClassPlan plan_im2double(const ipt::plugin::KernelArgs& args) { return plan_im2class(args, IPT_DOUBLE); }

}  // namespace ipt::frontend
