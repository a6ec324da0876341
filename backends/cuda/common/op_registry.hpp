// SPDX-License-Identifier: Apache-2.0
// How an operator file of the CUDA backend registers an implementation (the
// line has the same shape in every backend, see op_registration.hpp):
//
//   static void run_conv2(const ipt::plugin::KernelArgs& args) { ... }
//   IPT_CUDA_OP("ipt.conv2", "", 100, run_conv2)
//
// plugin.cu collects every registration; adding an operator means adding a
// file under ops/, never editing the plugin table.
#pragma once

#include <vector>

#include "ipt/ipt_plugin.hpp"
#include "op_registration.hpp"

namespace ipt::cuda {

inline constexpr const char* kDeviceKind = "cuda";

std::vector<ipt_impl_desc>& registered_impls();

struct Backend {
    static constexpr const char* kind = kDeviceKind;
    static std::vector<ipt_impl_desc>& impls() { return registered_impls(); }
};
using Registry = ipt::backend::KernelArgsRegistry<Backend>;

}  // namespace ipt::cuda

#define IPT_CUDA_OP(op_name, variant, priority, body) \
    IPT_REGISTER_OP(::ipt::cuda::Registry, op_name, variant, priority, body)
