// SPDX-License-Identifier: Apache-2.0
// The implementations the plugin table lists.
#ifndef FACET_IMPLS_HPP
#define FACET_IMPLS_HPP

#include <ipt/ipt_plugin.h>

namespace facet {

ipt_status run_cpu(const ipt_kernel_call* call);   // device kind "cpu" (facet_cpu.cpp)
#if defined(FACET_HAVE_CUDA)
ipt_status run_cuda(const ipt_kernel_call* call);  // device kind "cuda" (facet_cuda_impl.cpp)
#endif

}  // namespace facet

#endif  // FACET_IMPLS_HPP
