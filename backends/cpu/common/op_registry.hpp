// How an operator file of the CPU backend registers its implementation:
//
//   static void run_conv2(const ipt::plugin::KernelArgs& args) { ... }
//   IPT_CPU_OP("ipt.conv2", "", 100, run_conv2)
//
// The plugin's entry collects every registration; adding an operator means
// adding a file, never editing the plugin table.
#pragma once

#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::cpu {

std::vector<ipt_impl_desc>& registered_impls();

struct Registration {
    Registration(const char* op, const char* variant, int32_t priority, ipt_kernel_fn fn) {
        registered_impls().push_back(
            ipt_impl_desc{sizeof(ipt_impl_desc), op, variant, IPT_KIND_HOST, priority, fn, nullptr});
    }
};

}  // namespace ipt::cpu

#define IPT_CPU_CONCAT2(a, b) a##b
#define IPT_CPU_CONCAT(a, b) IPT_CPU_CONCAT2(a, b)
#define IPT_CPU_OP(op_name, variant, priority, body)                                   \
    static ipt_status IPT_CPU_CONCAT(body, _entry)(const ipt_kernel_call* call) {      \
        return ipt::plugin::guarded([&] { body(ipt::plugin::KernelArgs(call)); });     \
    }                                                                                  \
    static const ipt::cpu::Registration IPT_CPU_CONCAT(body, _registration)(           \
        op_name, variant, priority, IPT_CPU_CONCAT(body, _entry));
