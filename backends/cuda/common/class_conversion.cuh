// SPDX-License-Identifier: Apache-2.0
// The engine of ipt.im2double, im2single, im2uint8, im2uint16 and im2int16 on
// CUDA: one packed pass (common/packed.cuh) converting every element with
// ipt::common::convert_image_class (backends/common/class_scaling.hpp), the
// same code the CPU reference runs. Bandwidth-bound; channels are converted
// like any other dimension.
#pragma once

#include <string>
#include <type_traits>

#include "class_scaling.hpp"
#include "common/check.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/packed.cuh"
#include "common/ops/im2class.hpp"

namespace ipt::cuda {
namespace class_conversion {

template <class Out>
struct ConvertClass {
    template <class T>
    __device__ Out operator()(T v) const {
        return ipt::common::convert_image_class<Out>(v);
    }
};

}  // namespace class_conversion

// Runs the conversion the plan describes into output J of class Out (the
// class the front-end planned).
template <class Out>
void run_im2class(const ipt::plugin::KernelArgs& args, const ipt::frontend::Im2ClassPlan& plan) {
    const Device& dev = device_of(args);
    if (plan.out_dtype != ipt::common::dtype_of<Out>())
        ipt::plugin::unsupported("image class conversion: output class");
    const ipt_tensor* J = args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    const int64_t n = plan.numel;
    if (n == 0) return;
    visit_dtype(plan.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, bool> || std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                      std::is_same_v<T, int16_t> || std::is_floating_point_v<T>) {
            packed::run_map(args.op(), dptr<const T>(plan.I), dptr<Out>(J), n, dev.stream,
                            class_conversion::ConvertClass<Out>{});
        } else {
            ipt::plugin::unsupported("image class conversion: input class " + std::to_string(plan.in_dtype));
        }
    });
}

}  // namespace ipt::cuda
