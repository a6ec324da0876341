// SPDX-License-Identifier: Apache-2.0
// ipt.rgb2gray as the front-end plans it (common/ops/rgb2gray.hpp): the
// weighted sum of the three planes in double, converted once to RGB's class
// (uint8: the same results through common/weighted_sum_u8.hpp).
#include <algorithm>
#include <cstdint>
#include <type_traits>

#include "common/convert.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/weighted_sum_u8.hpp"
#include "common/ops/rgb2gray.hpp"

namespace {

constexpr int64_t kChunk = 1 << 14;

template <class T>
void to_gray(const T* rgb, T* out, int64_t plane) {
    const T* r = rgb;
    const T* g = rgb + plane;
    const T* b = rgb + 2 * plane;
    const int64_t chunks = (plane + kChunk - 1) / kChunk;
    if constexpr (std::is_same_v<T, uint8_t>) {
        static const ipt::cpu::FixedPointSum fixed = ipt::cpu::fixed_point_sum(
            {ipt::frontend::kRgb2grayR, ipt::frontend::kRgb2grayG, ipt::frontend::kRgb2grayB}, 0.0);
        ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
            uint8_t near[kChunk];
            const int64_t first = c * kChunk, count = std::min(kChunk, plane - first);
            ipt::cpu::weighted_sum_u8(fixed, r + first, g + first, b + first, out + first, near, count,
                                      [](uint8_t x0, uint8_t x1, uint8_t x2) {
                                          return ipt::cpu::to_class<uint8_t>(ipt::frontend::rgb2gray_value(x0, x1, x2));
                                      });
        });
        return;
    }
    ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
        const int64_t first = c * kChunk, last = std::min(plane, first + kChunk);
        for (int64_t i = first; i < last; ++i)
            out[i] = ipt::cpu::to_class<T>(ipt::frontend::rgb2gray_value(
                static_cast<double>(r[i]), static_cast<double>(g[i]), static_cast<double>(b[i])));
    });
}

void run_rgb2gray(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Rgb2grayPlan plan = ipt::frontend::plan_rgb2gray(args);
    const ipt_tensor* I = args.output("I", plan.dtype, plan.rows, plan.cols, 1);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_floating_point_v<T>)
            to_gray(static_cast<const T*>(plan.RGB->data), static_cast<T*>(I->data), plan.plane);
        else
            ipt::plugin::unsupported("ipt.rgb2gray: class not handled");
    });
}

}  // namespace

IPT_CPU_OP("ipt.rgb2gray", "", 100, run_rgb2gray)
