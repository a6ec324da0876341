// SPDX-License-Identifier: Apache-2.0
// The engine of ipt.im2double, im2single, im2uint8, im2uint16 and im2int16 on
// the CPU: every element of I converted by ipt::common::convert_image_class
// (backends/common/class_scaling.hpp), in chunks across threads. Channels are
// converted like any other dimension.
#pragma once

#include <algorithm>
#include <type_traits>

#include "common/image.hpp"
#include "common/parallel.hpp"
#include "class_scaling.hpp"
#include "common/ops/im2class.hpp"

namespace ipt::cpu {

template <class T>
constexpr bool is_image_class_v = std::is_same_v<T, bool> || std::is_same_v<T, uint8_t> ||
                                  std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ||
                                  std::is_floating_point_v<T>;

// Runs the conversion the plan describes into output J.
inline void run_im2class(const ipt::plugin::KernelArgs& args, const ipt::frontend::Im2ClassPlan& plan) {
    const ipt_tensor* J = args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    visit_dtype(plan.in_dtype, [&](auto in_tag) {
        using T = decltype(in_tag);
        visit_dtype(plan.out_dtype, [&](auto out_tag) {
            using Out = decltype(out_tag);
            if constexpr (is_image_class_v<T> && (std::is_floating_point_v<Out> || std::is_same_v<Out, uint8_t> ||
                                                  std::is_same_v<Out, uint16_t> || std::is_same_v<Out, int16_t>)) {
                const T* src = static_cast<const T*>(plan.I->data);
                Out* dst = static_cast<Out*>(J->data);
                constexpr int64_t kChunk = 1 << 16;
                const int64_t n = plan.numel;
                parallel_for(0, (n + kChunk - 1) / kChunk, [&](int64_t c) {
                    const int64_t end = std::min(n, (c + 1) * kChunk);
                    for (int64_t i = c * kChunk; i < end; ++i)
                        dst[i] = ipt::common::convert_image_class<Out>(src[i]);
                });
            } else {
                ipt::plugin::unsupported("image class conversion: class " + std::to_string(plan.in_dtype) +
                                         " to " + std::to_string(plan.out_dtype));
            }
        });
    });
}

}  // namespace ipt::cpu
