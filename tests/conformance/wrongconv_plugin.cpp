// SPDX-License-Identifier: Apache-2.0
// libipt_wrongconv: a plugin that is wrong on purpose. It registers ipt.conv2
// on the host device with a higher priority than the CPU backend, and gets
// every size, class and 'shape' right, but never flips the kernel: it
// computes correlation. The conformance suite must catch it and name ipt.conv2.
#include "conv2_test_plugin.hpp"

// Built a second time as "cpu" (tests/plugins/fake_cpu/libipt_cpu.so): a
// plugin on IPT_PLUGIN_PATH that takes the reference's name must not become
// the conformance reference.
#ifndef IPT_WRONGCONV_NAME
#define IPT_WRONGCONV_NAME "wrongconv"
#endif

namespace {

ipt_status run_wrong_conv2(const ipt_kernel_call* call) {
    // The mistake: convolution pairs A(fr-i, fc-j) with k(i,j); this pairs it
    // with the kernel rotated by 180 degrees.
    return ipt::plugin::guarded(
        [&] { conv2_test_plugin::brute_conv2(ipt::plugin::KernelArgs(call), true, [](const ipt::plugin::KernelArgs&) {}); });
}

}  // namespace

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host, const char** reason) {
    return conv2_test_plugin::plugin_entry<run_wrong_conv2>(host, reason, IPT_WRONGCONV_NAME);
}
