// SPDX-License-Identifier: Apache-2.0
// ipt.imerode's front-end: the rules are imdilate's without the reflection
// (ops/imdilate.hpp): B(p) = min over the SE as given of A(p + b) - h(b),
// pixels outside the image +Inf / the class's highest / true.
#pragma once

#include "imdilate.hpp"

namespace ipt::frontend {

using ImerodePlan = MorphologyPlan;

inline ImerodePlan plan_imerode(const ipt::plugin::KernelArgs& args) { return morphology_detail::plan(args, false); }

}  // namespace ipt::frontend
