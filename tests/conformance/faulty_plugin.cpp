// SPDX-License-Identifier: Apache-2.0
// libipt_crashconv / libipt_hangconv: plugins whose ipt.conv2 is right
// (brute force) except in a few cases, where it crashes the process or never
// returns. `ipt conformance --plugin` must report those cases as failures,
// name them, and go on with the cases after them.
//
//   IPT_FAULT_CRASH: A double 1x1 writes through a null pointer (SIGSEGV),
//                    A single 41x1 calls abort() (SIGABRT).
//   IPT_FAULT_HANG:  A double 1x37 sleeps forever.
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>

#include "conv2_test_plugin.hpp"

namespace {

void misbehave(const ipt_tensor* a) {
#if defined(IPT_FAULT_CRASH)
    if (a->dtype == IPT_DOUBLE && a->rows == 1 && a->cols == 1) {
        volatile int* nowhere = nullptr;
        *nowhere = 1;
    }
    if (a->dtype == IPT_SINGLE && a->rows == 41 && a->cols == 1) std::abort();
#elif defined(IPT_FAULT_HANG)
    if (a->dtype == IPT_DOUBLE && a->rows == 1 && a->cols == 37)
        for (;;) std::this_thread::sleep_for(std::chrono::hours(1));
#else
#error "define IPT_FAULT_CRASH or IPT_FAULT_HANG"
#endif
}

ipt_status run_conv2(const ipt_kernel_call* call) {
    return ipt::plugin::guarded([&] {
        conv2_test_plugin::brute_conv2(ipt::plugin::KernelArgs(call), false, [](const ipt::plugin::KernelArgs& args) {
            const ipt_tensor* a = args.image("A");
            misbehave(a);
            // Outside what this brute force gets right (empty operands' sizes,
            // overflow orders): declined, so only the faults above fail.
            for (const char* name : {"A", "B", "u", "v"})
                if (const ipt_tensor* t = args.image(name); t && t->rows * t->cols == 0)
                    ipt::plugin::unsupported("faulty test plugin: empty operands");
            for (int64_t i = 0; i < a->rows * a->cols; ++i)
                if (std::abs(conv2_test_plugin::value(a, i)) > 1e30)
                    ipt::plugin::unsupported("faulty test plugin: huge values");
        });
    });
}

}  // namespace

extern "C" IPT_PLUGIN_EXPORT const ipt_plugin_table* ipt_plugin_entry(const ipt_host_table* host, const char** reason) {
#if defined(IPT_FAULT_CRASH)
    return conv2_test_plugin::plugin_entry<run_conv2>(host, reason, "crashconv");
#else
    return conv2_test_plugin::plugin_entry<run_conv2>(host, reason, "hangconv");
#endif
}
