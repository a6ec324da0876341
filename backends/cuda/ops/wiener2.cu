// SPDX-License-Identifier: Apache-2.0
// ipt.wiener2 as the front-end plans it (common/ops/wiener2.hpp), with the
// front-end's arithmetic (no fused multiply-adds): one thread per pixel for
// its local mean and variance, one per column for the column sums of the
// variances, one thread for their ordered total (the noise), then one per
// pixel for the filtered value in I's class. The same order as the CPU
// reference, so every class agrees bit for bit.
#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/wiener2.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::Wiener2Plan;

template <class T>
__global__ void wiener2_local(const T* __restrict__ g, Wiener2Plan p, double* __restrict__ mu,
                              double* __restrict__ var) {
    IPT_GRID_STRIDE(i, p.rows * p.cols) {
        ipt::frontend::wiener2_local(g, p.rows, p.cols, i / p.cols, i % p.cols, p, mu[i], var[i]);
    }
}

__global__ void wiener2_columns(const double* __restrict__ var, int64_t rows, int64_t cols,
                                double* __restrict__ column) {
    IPT_GRID_STRIDE(c, cols) {
        double s = 0;
        for (int64_t r = 0; r < rows; ++r) s = __dadd_rn(s, var[r * cols + c]);
        column[c] = s;
    }
}

// The noise: the given value, or the ordered total of the column sums over
// numel; written to *noise and, when wanted, to noise_out.
__global__ void wiener2_noise(const double* __restrict__ column, int64_t cols, double numel, int given,
                              double value, double* noise, double* noise_out) {
    if (blockIdx.x != 0 || threadIdx.x != 0) return;
    double n = value;
    if (!given) {
        double total = 0;
        for (int64_t c = 0; c < cols; ++c) total = __dadd_rn(total, column[c]);
        n = total / numel;
    }
    *noise = n;
    if (noise_out) *noise_out = n;
}

template <class T>
__global__ void wiener2_apply(const T* __restrict__ g, const double* __restrict__ mu,
                              const double* __restrict__ var, const double* __restrict__ noise, int64_t n,
                              T* __restrict__ J) {
    const double nz = *noise;
    IPT_GRID_STRIDE(i, n) {
        const double v = ipt::common::to_unit_scale<double>(g[i]);
        J[i] = ipt::common::convert_image_class<T>(ipt::frontend::wiener2_value(v, mu[i], var[i], nz));
    }
}

template <class T>
void run_class(const Wiener2Plan& p, const ipt_tensor* J, double* noise_out, cudaStream_t s) {
    const int64_t n = p.rows * p.cols;
    const T* g = dptr<const T>(p.I);
    DeviceArray<double> mu(static_cast<size_t>(n > 0 ? n : 1), s), var(mu.size(), s),
        column(static_cast<size_t>(p.cols > 0 ? p.cols : 1), s), noise(1, s);
    if (n > 0) {
        wiener2_local<T><<<grid_for(n), kThreads, 0, s>>>(g, p, mu.get(), var.get());
        check_launch("ipt.wiener2");
        if (!p.noise_given) {
            wiener2_columns<<<grid_for(p.cols), kThreads, 0, s>>>(var.get(), p.rows, p.cols, column.get());
            check_launch("ipt.wiener2");
        }
    }
    wiener2_noise<<<1, 1, 0, s>>>(column.get(), n > 0 ? p.cols : 0, static_cast<double>(n), p.noise_given ? 1 : 0,
                                  p.noise, noise.get(), noise_out);
    check_launch("ipt.wiener2");
    if (n > 0) {
        wiener2_apply<T><<<grid_for(n), kThreads, 0, s>>>(g, mu.get(), var.get(), noise.get(), n, dptr<T>(J));
        check_launch("ipt.wiener2");
    }
}

void run_wiener2(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const Wiener2Plan p = ipt::frontend::plan_wiener2(args);
    const ipt_tensor* J = args.output("J", p.dtype, p.rows, p.cols, 1);
    double* noise_out = args.wanted("noise_out") ? dptr<double>(args.output("noise_out", IPT_DOUBLE, 1, 1, 1)) : nullptr;
    visit_dtype(p.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t> ||
                      std::is_floating_point_v<T>)
            run_class<T>(p, J, noise_out, dev.stream);
        else
            ipt::plugin::unsupported("ipt.wiener2: class of I");
    });
}

IPT_CUDA_OP("ipt.wiener2", "", 100, run_wiener2)

}  // namespace
}  // namespace ipt::cuda
