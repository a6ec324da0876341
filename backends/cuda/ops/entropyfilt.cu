// entropyfilt as the front-end plans it (common/ops/entropyfilt.hpp): every
// element binned once (im2uint8, or 0/1 for logical), then each pixel counts
// the bins of its neighbourhood (symmetric padding): a bin's count is taken
// at its first member by a pass over the members, so no histogram is stored
// (n^2 bin reads per pixel, from the cache).
#include <cmath>
#include <type_traits>
#include <vector>

#include "class_scaling.hpp"
#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/entropyfilt.hpp"

namespace ipt::cuda {
namespace {

template <class T>
__global__ void entropy_bins(const T* __restrict__ a, uint8_t* __restrict__ bins, int64_t n) {
    IPT_GRID_STRIDE(i, n) {
        if constexpr (std::is_same_v<T, bool>)
            bins[i] = a[i] ? 1 : 0;
        else
            bins[i] = ipt::common::to_uint8_scale(a[i]);
    }
}

__global__ void entropy_kernel(const uint8_t* __restrict__ bins, double* __restrict__ j, int64_t rows, int64_t cols,
                               const int* __restrict__ dy, const int* __restrict__ dx, int count) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const int64_t plane = static_cast<int64_t>(blockIdx.z) * rows * cols;
    auto bin = [&](int k) {
        const int64_t rr = border_index(Border::Symmetric, r + dy[k], rows);
        const int64_t cc = border_index(Border::Symmetric, c + dx[k], cols);
        return bins[plane + rr * cols + cc];
    };
    const double n = count;
    double e = 0;
    for (int m = 0; m < count; ++m) {
        const uint8_t b = bin(m);
        int k = 0;
        bool first = true;
        for (int q = 0; q < count; ++q) {
            if (bin(q) != b) continue;
            if (q < m) {
                first = false;
                break;
            }
            ++k;
        }
        if (!first) continue;
        const double p = k / n;
        e = __dsub_rn(e, __dmul_rn(p, log2(p)));
    }
    j[plane + r * cols + c] = e;
}

void run_entropyfilt(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::EntropyfiltPlan plan = ipt::frontend::plan_entropyfilt(args);
    const ipt_tensor* in = args.image("I");
    const ipt_tensor* j = args.output("J", IPT_DOUBLE, plan.rows, plan.cols, plan.channels);
    const int64_t n = plan.rows * plan.cols * plan.channels;
    if (n == 0) return;
    DeviceArray<uint8_t> bins(static_cast<size_t>(n), dev.stream);
    visit_dtype(plan.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, int32_t> && !std::is_same_v<T, uint32_t>)  // refused by the front-end
            entropy_bins<T><<<grid_for(n), kThreads, 0, dev.stream>>>(dptr<const T>(in), bins.get(), n);
    });
    check_launch("ipt.entropyfilt");
    std::vector<int> dy, dx;
    for (const auto& m : plan.nhood.members) {
        dy.push_back(static_cast<int>(m.dr));
        dx.push_back(static_cast<int>(m.dc));
    }
    DeviceArray<int> ddy = to_device(dy, dev.stream), ddx = to_device(dx, dev.stream);
    const dim3 block(32, 8);
    dim3 grid = grid_2d(plan.cols, plan.rows, block);
    grid.z = static_cast<unsigned>(plan.channels);
    entropy_kernel<<<grid, block, 0, dev.stream>>>(bins.get(), dptr<double>(j), plan.rows, plan.cols, ddy.get(),
                                                   ddx.get(), static_cast<int>(plan.count));
    check_launch("ipt.entropyfilt");
}

IPT_CUDA_OP("ipt.entropyfilt", "", 100, run_entropyfilt)

}  // namespace
}  // namespace ipt::cuda
