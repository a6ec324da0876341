// SPDX-License-Identifier: Apache-2.0
// stdfilt as the front-end plans it (common/ops/stdfilt.hpp): each pixel
// sums its neighbourhood's offsets through symmetric padding, in double, in
// the members' order, with separately rounded products and sums (no fused
// multiply-add), as the CPU reference does.
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/stdfilt.hpp"

namespace ipt::cuda {
namespace {

template <class T, class Out>
__global__ void stdfilt_kernel(const T* __restrict__ a, Out* __restrict__ j, int64_t rows, int64_t cols,
                               const int* __restrict__ dy, const int* __restrict__ dx, int count) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const int64_t plane = static_cast<int64_t>(blockIdx.z) * rows * cols;
    double sd = 0;
    if (count > 1) {
        double s1 = 0, s2 = 0;
        for (int k = 0; k < count; ++k) {
            const int64_t rr = border_index(Border::Symmetric, r + dy[k], rows);
            const int64_t cc = border_index(Border::Symmetric, c + dx[k], cols);
            const double v = to_double(a[plane + rr * cols + cc]);
            s1 = __dadd_rn(s1, v);
            s2 = __dadd_rn(s2, __dmul_rn(v, v));
        }
        const double n = count;
        const double var = __dsub_rn(s2 / (n - 1), __dmul_rn(s1, s1) / (n * (n - 1)));
        sd = var > 0 ? sqrt(var) : 0.0;  // NaN gives 0, as MATLAB's max(., 0)
    }
    j[plane + r * cols + c] = static_cast<Out>(sd);
}

void run_stdfilt(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::StdfiltPlan plan = ipt::frontend::plan_stdfilt(args);
    const ipt_tensor* in = args.image("I");
    const ipt_tensor* j = args.output("J", plan.out_dtype, plan.rows, plan.cols, plan.channels);
    if (plan.rows == 0 || plan.cols == 0 || plan.channels == 0) return;
    std::vector<int> dy, dx;
    for (const auto& m : plan.nhood.members) {
        dy.push_back(static_cast<int>(m.dr));
        dx.push_back(static_cast<int>(m.dc));
    }
    DeviceArray<int> ddy = to_device(dy, dev.stream), ddx = to_device(dx, dev.stream);
    const int count = plan.zero ? 0 : static_cast<int>(plan.count);
    const dim3 block(32, 8);
    dim3 grid = grid_2d(plan.cols, plan.rows, block);
    grid.z = static_cast<unsigned>(plan.channels);
    visit_dtype(plan.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        if (plan.out_dtype == IPT_SINGLE)
            stdfilt_kernel<T, float><<<grid, block, 0, dev.stream>>>(dptr<const T>(in), dptr<float>(j), plan.rows,
                                                                     plan.cols, ddy.get(), ddx.get(), count);
        else
            stdfilt_kernel<T, double><<<grid, block, 0, dev.stream>>>(dptr<const T>(in), dptr<double>(j), plan.rows,
                                                                      plan.cols, ddy.get(), ddx.get(), count);
    });
    check_launch("ipt.stdfilt");
}

IPT_CUDA_OP("ipt.stdfilt", "", 100, run_stdfilt)

}  // namespace
}  // namespace ipt::cuda
