// rgb2gray as the front-end plans it (common/ops/rgb2gray.hpp): one thread
// per pixel reads R, G and B from the three planes, sums rgb2gray_value in
// double (this backend is built without fused multiply-adds) and converts
// once to RGB's class.
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/rgb2gray.hpp"

namespace ipt::cuda {
namespace {

template <class T>
__global__ void rgb2gray_kernel(const T* __restrict__ rgb, T* __restrict__ out, int64_t plane) {
    IPT_GRID_STRIDE(i, plane) {
        const double r = static_cast<double>(rgb[i]);
        const double g = static_cast<double>(rgb[plane + i]);
        const double b = static_cast<double>(rgb[2 * plane + i]);
        out[i] = saturate_round<T>(ipt::frontend::rgb2gray_value(r, g, b));
    }
}

void run_rgb2gray(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::Rgb2grayPlan plan = ipt::frontend::plan_rgb2gray(args);
    const ipt_tensor* I = args.output("I", plan.dtype, plan.rows, plan.cols, 1);
    if (plan.plane == 0) return;
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_floating_point_v<T>) {
            rgb2gray_kernel<T><<<grid_for(plan.plane), kThreads, 0, dev.stream>>>(dptr<const T>(plan.RGB), dptr<T>(I),
                                                                                  plan.plane);
        } else {
            ipt::plugin::unsupported("ipt.rgb2gray: class not handled");
        }
    });
    check_launch("ipt.rgb2gray");
}

IPT_CUDA_OP("ipt.rgb2gray", "", 100, run_rgb2gray)

}  // namespace
}  // namespace ipt::cuda
