// SPDX-License-Identifier: Apache-2.0
// ipt.im2uint16's front-end: J = im2uint16(I), the size of I, class uint16
// (docs/matlab-semantics.md#image-scaling; the plan is common to the class
// conversions, ops/im2class.hpp).
#pragma once

#include "im2class.hpp"

namespace ipt::frontend {

inline Im2ClassPlan plan_im2uint16(const ipt::plugin::KernelArgs& args) { return plan_im2class(args, IPT_UINT16); }

}  // namespace ipt::frontend
