// SPDX-License-Identifier: Apache-2.0
// ipt.imgaussfilt: the front-end's route and taps (common/ops/imgaussfilt.hpp)
// on the shared correlation engine (tiles in shared memory), through the two
// routes of common/imgaussfilt.cuh.
#include <type_traits>

#include "common/context.hpp"
#include "common/imgaussfilt.cuh"
#include "common/op_registry.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::ImgaussfiltPlan;

void run_imgaussfilt(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ImgaussfiltPlan p = ipt::frontend::plan_imgaussfilt(args);
    if (p.kr > INT32_MAX || p.kc > INT32_MAX) ipt::plugin::unsupported("ipt.imgaussfilt: filters of 2^31 taps a side");
    const ipt_tensor* B = args.output("B", p.out_class, p.rows, p.cols, p.channels);
    if (p.rows * p.cols * p.channels == 0) return;
    visit_dtype(p.out_class, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, bool>) {
            const T* a = dptr<const T>(p.A);
            T* b = dptr<T>(B);
            const char* what = "ipt.imgaussfilt";
            if (!p.separable) imgaussfilt_direct_async<T>(p, a, b, dev.stream, what);
            else if (p.work_class == IPT_SINGLE) imgaussfilt_separable_async<T, float>(p, a, b, dev.stream, what);
            else imgaussfilt_separable_async<T, double>(p, a, b, dev.stream, what);
        }
    });
}

IPT_CUDA_OP("ipt.imgaussfilt", "", 100, run_imgaussfilt)

}  // namespace
}  // namespace ipt::cuda
