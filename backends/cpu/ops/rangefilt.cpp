// SPDX-License-Identifier: Apache-2.0
// ipt.rangefilt as the front-end plans it (common/ops/rangefilt.hpp): the
// local maximum and minimum of each plane by the morphology kernels
// (common/morphology.hpp), then their difference in double converted once to
// the output class.
#include <cstdint>
#include <memory>
#include <type_traits>

#include "common/image.hpp"
#include "common/morphology.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/rounding.hpp"
#include "common/ops/rangefilt.hpp"

namespace {

// One plane as a tensor the morphology kernels read or write.
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

template <class T, class Out>
void difference(const T* hi, const T* lo, Out* out, int64_t n) {
    ipt::cpu::parallel_for(0, n, [&](int64_t i) {
        if constexpr (std::is_same_v<T, bool>)
            out[i] = hi[i] && !lo[i];
        else if constexpr (std::is_floating_point_v<Out>)
            out[i] = static_cast<Out>(static_cast<double>(hi[i]) - static_cast<double>(lo[i]));
        else  // integers: saturated (a range is never negative unless nhood is empty)
            out[i] = ipt::cpu::saturate_round<Out>(static_cast<double>(hi[i]) - static_cast<double>(lo[i]));
    }, 4096);
}

void run_rangefilt(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::RangefiltPlan p = ipt::frontend::plan_rangefilt(args);
    const ipt_tensor* in = args.image("I");
    const ipt_tensor* j = args.output("J", p.out_dtype, p.rows, p.cols, p.channels);
    if (p.rows == 0 || p.cols == 0) return;
    const int64_t plane = p.rows * p.cols;
    ipt::cpu::visit_dtype(p.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        using Out = std::conditional_t<std::is_same_v<T, int16_t>, uint16_t,
                                       std::conditional_t<std::is_same_v<T, int32_t>, uint32_t, T>>;
        // Not std::vector: vector<bool> has no data().
        const auto hi = std::make_unique<T[]>(static_cast<size_t>(plane));
        const auto lo = std::make_unique<T[]>(static_cast<size_t>(plane));
        for (int64_t ch = 0; ch < p.channels; ++ch) {
            auto* src = const_cast<T*>(static_cast<const T*>(in->data) + ch * plane);
            ipt_tensor a = plane_tensor(p.in_dtype, p.rows, p.cols, src);
            ipt_tensor bh = plane_tensor(p.in_dtype, p.rows, p.cols, hi.get());
            ipt_tensor bl = plane_tensor(p.in_dtype, p.rows, p.cols, lo.get());
            ipt::cpu::morph::run_plan<true>(&a, &bh, p.max_plan);
            ipt::cpu::morph::run_plan<false>(&a, &bl, p.min_plan);
            difference(hi.get(), lo.get(), static_cast<Out*>(j->data) + ch * plane, plane);
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.rangefilt", "", 100, run_rangefilt)
