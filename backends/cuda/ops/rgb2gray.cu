// SPDX-License-Identifier: Apache-2.0
// rgb2gray as the front-end plans it (common/ops/rgb2gray.hpp): a packed pass
// (common/packed.cuh); each pixel reads R, G and B from the three planes, sums rgb2gray_value in
// double (this backend is built without fused multiply-adds) and converts
// once to RGB's class.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/float_first.cuh"
#include "common/op_registry.hpp"
#include "common/packed.cuh"
#include "common/ops/rgb2gray.hpp"

namespace ipt::cuda {
namespace {

// uint8 sums in single first (common/float_first.cuh, through packed.cuh's
// fast path), a pack in double only where single cannot decide a rounding in
// it; the weights are rgb2gray_value's.
struct Gray {
    FloatFirstSum<3> single_first;
    template <class T>
    __device__ void operator()(const T (&rgb)[3], T (&gray)[1]) const {
        gray[0] = saturate_round<T>(ipt::frontend::rgb2gray_value(to_double(rgb[0]), to_double(rgb[1]),
                                                                  to_double(rgb[2])));
    }
    // The margin test only: rgb2gray's weights are not dyadic, so the exact
    // rounding of float_first.cuh would never be taken.
    __device__ bool fast(const uint8_t (&rgb)[3], uint8_t (&gray)[1]) const {
        const float x[3] = {byte_to_float(rgb[0]), byte_to_float(rgb[1]), byte_to_float(rgb[2])};
        unsigned r;
        const bool decided = float_first_round_floats<false>(single_first, x, &r);
        gray[0] = static_cast<uint8_t>(r);
        return decided;
    }
};

void run_rgb2gray(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Rgb2grayPlan plan = ipt::frontend::plan_rgb2gray(args);
    const ipt_tensor* I = args.output("I", plan.dtype, plan.rows, plan.cols, 1);
    if (plan.plane == 0) return;
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_floating_point_v<T>) {
            constexpr double weights[3] = {ipt::frontend::kRgb2grayR, ipt::frontend::kRgb2grayG,
                                           ipt::frontend::kRgb2grayB};
            packed::run_planes<3, 1>("ipt.rgb2gray", dptr<const T>(plan.RGB), dptr<T>(I), plan.plane, dev.stream,
                                     Gray{float_first_sum<3>(weights, 3, 0.0)});
        } else {
            ipt::plugin::unsupported("ipt.rgb2gray: class not handled");
        }
    });
}

IPT_CUDA_OP("ipt.rgb2gray", "", 100, run_rgb2gray)

}  // namespace
}  // namespace ipt::cuda
