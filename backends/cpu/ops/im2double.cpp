// SPDX-License-Identifier: Apache-2.0
// ipt.im2double: J = im2double(I), planned by backends/common/ops/im2double.hpp;
// every element through ipt::common::convert_image_class, as the shared
// engine of the class conversions does (common/class_conversion.hpp), but in
// a loop of its own that the compiler vectorises (a double out of every
// class, so no store can alias the loop's pointers).
#include <cstdint>
#include <string>

#include "class_scaling.hpp"
#include "common/class_conversion.hpp"
#include "common/elementwise.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/im2double.hpp"

namespace {

void run_im2double(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Im2ClassPlan plan = ipt::frontend::plan_im2double(args);
    const ipt_tensor* J = args.output("J", IPT_DOUBLE, plan.rows, plan.cols, plan.channels);
    ipt::cpu::visit_dtype(plan.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (ipt::cpu::is_image_class_v<T>) {
            const T* in = static_cast<const T*>(plan.I->data);
            double* out = static_cast<double*>(J->data);
            ipt::cpu::for_each_range(plan.numel, sizeof(T) + sizeof(double), [in, out](int64_t first, int64_t last) {
                const T* src = in;
                double* dst = out;
                for (int64_t i = first; i < last; ++i) dst[i] = ipt::common::convert_image_class<double>(src[i]);
            });
        } else {
            ipt::plugin::unsupported("image class conversion: class " + std::to_string(plan.in_dtype) + " to " +
                                     std::to_string(plan.out_dtype));
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.im2double", "", 100, run_im2double)
