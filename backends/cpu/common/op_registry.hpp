// SPDX-License-Identifier: Apache-2.0
// How an operator file of the CPU backend registers its implementation (the
// line has the same shape in every backend, see op_registration.hpp):
//
//   static void run_conv2(const ipt::plugin::KernelArgs& args) { ... }
//   IPT_CPU_OP("ipt.conv2", "", 100, run_conv2)
//
// The plugin's entry collects every registration; adding an operator means
// adding a file, never editing the plugin table.
#pragma once

#include <vector>

#include "ipt/ipt_plugin.hpp"
#include "op_registration.hpp"

namespace ipt::cpu {

std::vector<ipt_impl_desc>& registered_impls();

struct Backend {
    static constexpr const char* kind = IPT_KIND_HOST;
    static std::vector<ipt_impl_desc>& impls() { return registered_impls(); }
};
using Registry = ipt::backend::KernelArgsRegistry<Backend>;

}  // namespace ipt::cpu

#define IPT_CPU_OP(op_name, variant, priority, body) \
    IPT_REGISTER_OP(::ipt::cpu::Registry, op_name, variant, priority, body)
