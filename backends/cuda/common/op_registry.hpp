// How an operator file of the CUDA backend registers an implementation:
//
//   static void run_conv2(const ipt::plugin::KernelArgs& args) { ... }
//   IPT_CUDA_OP("ipt.conv2", "", 100, run_conv2)
//
// plugin.cu collects every registration; adding an operator means adding a
// file under ops/, never editing the plugin table.
#pragma once

#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::cuda {

inline constexpr const char* kDeviceKind = "cuda";

std::vector<ipt_impl_desc>& registered_impls();

struct Registration {
    Registration(const char* op, const char* variant, int32_t priority, ipt_kernel_fn fn) {
        registered_impls().push_back(
            ipt_impl_desc{sizeof(ipt_impl_desc), op, variant, kDeviceKind, priority, fn, nullptr});
    }
};

}  // namespace ipt::cuda

#define IPT_CUDA_CONCAT2(a, b) a##b
#define IPT_CUDA_CONCAT(a, b) IPT_CUDA_CONCAT2(a, b)
#define IPT_CUDA_OP(op_name, variant, priority, body)                                  \
    static ipt_status IPT_CUDA_CONCAT(body, _entry)(const ipt_kernel_call* call) {     \
        return ipt::plugin::guarded([&] { body(ipt::plugin::KernelArgs(call)); });     \
    }                                                                                  \
    static const ipt::cuda::Registration IPT_CUDA_CONCAT(body, _registration)(         \
        op_name, variant, priority, IPT_CUDA_CONCAT(body, _entry));
