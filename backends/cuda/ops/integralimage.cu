// SPDX-License-Identifier: Apache-2.0
// ipt.integralImage (common/ops/integralimage.hpp): the upright table through
// the shared integral-image passes (common/integral_image.cuh); the rotated
// one by its recurrence, one block per plane filling the rows in order (row
// y needs rows y-1 and y-2 only), every entry's five terms added left to
// right as in the CPU reference.
#include "common/context.hpp"
#include "common/integral_image.cuh"
#include "common/op_registry.hpp"
#include "common/ops/integralimage.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::IntegralImagePlan;

template <class T>
__global__ void __launch_bounds__(1024) integral_rotated(const T* __restrict__ a, double* J, int64_t m, int64_t n) {
    const int64_t w = n + 2;
    for (int64_t x = threadIdx.x; x < w; x += blockDim.x) {
        J[x] = 0;
        J[w + x] = (x >= 1 && x <= n) ? to_double(a[x - 1]) : 0.0;
    }
    __syncthreads();
    for (int64_t y = 2; y <= m; ++y) {
        const double* up = J + (y - 1) * w;
        const double* up2 = J + (y - 2) * w;
        for (int64_t x = threadIdx.x; x < w; x += blockDim.x) {
            double v;
            if (x == 0) {
                v = up[1];
            } else if (x == w - 1) {
                v = up[w - 2];
            } else {
                v = __dadd_rn(up[x - 1], up[x + 1]);
                v = __dsub_rn(v, up2[x]);
                v = __dadd_rn(v, to_double(a[(y - 1) * n + x - 1]));
                v = __dadd_rn(v, to_double(a[(y - 2) * n + x - 1]));
            }
            J[y * w + x] = v;
        }
        __syncthreads();
    }
}

void run_integralimage(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const IntegralImagePlan p = ipt::frontend::plan_integralimage(args);
    const ipt_tensor* J = args.output("J", IPT_DOUBLE, p.out_rows, p.out_cols, p.channels);
    const int64_t plane = p.out_rows * p.out_cols;
    if (plane * p.channels == 0) return;
    visit_dtype(p.I->dtype, [&](auto tag) {
        using T = decltype(tag);
        for (int64_t ch = 0; ch < p.channels; ++ch) {
            const T* a = dptr<const T>(p.I) + ch * p.rows * p.cols;
            double* j = dptr<double>(J) + ch * plane;
            if (p.rotated) {
                integral_rotated<T><<<1, 1024, 0, dev.stream>>>(a, j, p.rows, p.cols);
                check_launch("ipt.integralimage");
            } else {
                IntegralGeometry g;
                g.m = g.pm = p.rows;
                g.n = g.pn = p.cols;
                integral_image_async(a, j, g, dev.stream, "ipt.integralimage");
            }
        }
    });
}

IPT_CUDA_OP("ipt.integralimage", "", 100, run_integralimage)

}  // namespace
}  // namespace ipt::cuda
