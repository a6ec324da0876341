// SPDX-License-Identifier: Apache-2.0
// rangefilt as the front-end plans it (common/ops/rangefilt.hpp): the local
// maximum and minimum of each plane by the morphology engine
// (common/morphology.cuh) with the plan's imdilate and imerode plans, then
// their difference in double converted once to the output class.
#include <type_traits>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/morphology.cuh"
#include "common/op_registry.hpp"
#include "common/ops/rangefilt.hpp"

namespace ipt::cuda {
namespace {

template <class T, class Out>
__global__ void range_difference(const T* __restrict__ hi, const T* __restrict__ lo, Out* __restrict__ out,
                                 int64_t n) {
    IPT_GRID_STRIDE(i, n) {
        if constexpr (std::is_same_v<T, bool>)
            out[i] = hi[i] && !lo[i];
        else if constexpr (std::is_floating_point_v<Out>)
            out[i] = static_cast<Out>(__dsub_rn(to_double(hi[i]), to_double(lo[i])));
        else  // a range is never negative unless nhood is empty: saturated to 0
            out[i] = saturate_round<Out>(to_double(hi[i]) - to_double(lo[i]));
    }
}

// One plane of device memory as a tensor the morphology engine reads or writes.
ipt_tensor plane_tensor(int32_t dtype, int64_t rows, int64_t cols, void* data) {
    ipt_tensor t{};
    t.struct_size = sizeof(ipt_tensor);
    t.dtype = dtype;
    t.rows = rows;
    t.cols = cols;
    t.channels = 1;
    t.data = data;
    return t;
}

void run_rangefilt(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::RangefiltPlan plan = ipt::frontend::plan_rangefilt(args);
    const ipt_tensor* in = args.image("I");
    const ipt_tensor* j = args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (plan.rows == 0 || plan.cols == 0 || plan.channels == 0) return;
    const int64_t plane = plan.rows * plan.cols;
    visit_dtype(plan.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        using Out = std::conditional_t<std::is_same_v<T, int16_t>, uint16_t,
                                       std::conditional_t<std::is_same_v<T, int32_t>, uint32_t, T>>;
        DeviceArray<T> hi(static_cast<size_t>(plane), dev.stream), lo(static_cast<size_t>(plane), dev.stream);
        for (int64_t ch = 0; ch < plan.channels; ++ch) {
            auto* src = const_cast<T*>(dptr<const T>(in) + ch * plane);
            const ipt_tensor a = plane_tensor(plan.in_dtype, plan.rows, plan.cols, src);
            const ipt_tensor bh = plane_tensor(plan.in_dtype, plan.rows, plan.cols, hi.get());
            const ipt_tensor bl = plane_tensor(plan.in_dtype, plan.rows, plan.cols, lo.get());
            run_morphology_plan<true>(&a, &bh, plan.max_plan, dev.stream);
            run_morphology_plan<false>(&a, &bl, plan.min_plan, dev.stream);
            range_difference<T, Out><<<grid_for(plane), kThreads, 0, dev.stream>>>(
                hi.get(), lo.get(), dptr<Out>(j) + ch * plane, plane);
            check_launch("ipt.rangefilt");
        }
    });
}

IPT_CUDA_OP("ipt.rangefilt", "", 100, run_rangefilt)

}  // namespace
}  // namespace ipt::cuda
