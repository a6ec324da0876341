// SPDX-License-Identifier: Apache-2.0
// The one shape of a registration line in every backend:
//
//   IPT_CPU_OP("ipt.conv2", "", 100, run_conv2)
//   IPT_CUDA_OP("ipt.conv2", "fft", 110, run_conv2_fft)
//   IPT_VK_OP("ipt.intlut", "wave32", 60, run_intlut)
//   IPT_VK_OP("ipt.intlut", "wave64", 50, run_intlut)
//
// op is the operator, variant "" or the name the registry, the selection and
// the tuning cache see, priority the static priority, and the last argument
// the body (its parameter is the backend's: KernelArgs on CPU and CUDA,
// OpContext on Vulkan). A body offered in two variants has two lines.
//
// A backend supplies a Registry type with
//   template <body> static ipt_status entry(const ipt_kernel_call*);
//   static void add(const char* op, const char* variant, int32_t priority, ipt_kernel_fn);
// and defines its macro as IPT_REGISTER_OP(Registry, op, variant, priority, body).
#pragma once

#include <cstdint>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::backend {

// The entry of a body that reads the call through KernelArgs: no exception
// leaves it.
template <void (*Body)(const ipt::plugin::KernelArgs&)>
ipt_status kernel_entry(const ipt_kernel_call* call) {
    return ipt::plugin::guarded([&] { Body(ipt::plugin::KernelArgs(call)); });
}

// The Registry of a backend whose bodies read the call through KernelArgs.
// Backend supplies `static constexpr const char* kind` (its device kind) and
// `static std::vector<ipt_impl_desc>& impls()` (where descriptions collect).
template <class Backend>
struct KernelArgsRegistry {
    template <void (*Body)(const ipt::plugin::KernelArgs&)>
    static ipt_status entry(const ipt_kernel_call* call) {
        return kernel_entry<Body>(call);
    }
    static void add(const char* op, const char* variant, int32_t priority, ipt_kernel_fn fn) {
        Backend::impls().push_back(
            ipt_impl_desc{sizeof(ipt_impl_desc), op, variant, Backend::kind, priority, fn, nullptr});
    }
};

template <class Registry>
struct Registration {
    Registration(const char* op, const char* variant, int32_t priority, ipt_kernel_fn fn) {
        Registry::add(op, variant, priority, fn);
    }
};

}  // namespace ipt::backend

#define IPT_REGISTER_CONCAT2(a, b) a##b
#define IPT_REGISTER_CONCAT(a, b) IPT_REGISTER_CONCAT2(a, b)
#define IPT_REGISTER_OP(Registry, op_name, variant, priority, body)                                   \
    static const ::ipt::backend::Registration<Registry> IPT_REGISTER_CONCAT(ipt_registration_,        \
                                                                            __COUNTER__)(             \
        op_name, variant, priority, &Registry::entry<body>);
