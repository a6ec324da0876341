// SPDX-License-Identifier: Apache-2.0
// imregionalmax: exact plateaus. Equal-valued neighbours (conn 4 or 8) are
// joined with a lock-free union-find (atomicMin on roots, as in Playne and
// Hawick's GPU labelling); labels are flattened; every pixel with a strictly
// higher neighbour marks its plateau; a pixel is a regional maximum when its
// plateau is unmarked. No max-filter approximation. NaN pixels are never
// maxima.
#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/imregionalmax.hpp"
#include "common/union_find.cuh"

namespace ipt::cuda {
namespace {

template <class T>
__global__ void merge_plateaus(const T* __restrict__ img, int* label, int rows, int cols, bool eight) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const int p = r * cols + c;
    const T v = img[p];
    if (c > 0 && img[p - 1] == v) uf_unite(label, p, p - 1);
    if (r > 0) {
        if (img[p - cols] == v) uf_unite(label, p, p - cols);
        if (eight) {
            if (c > 0 && img[p - cols - 1] == v) uf_unite(label, p, p - cols - 1);
            if (c + 1 < cols && img[p - cols + 1] == v) uf_unite(label, p, p - cols + 1);
        }
    }
}

template <class T>
__device__ inline bool is_nan_value(T v) {
    if constexpr (std::is_floating_point_v<T>) return v != v;
    else return false;
}

template <class T>
__global__ void mark_lower(const T* __restrict__ img, const int* __restrict__ label, uint8_t* marked, int rows,
                           int cols, bool eight) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const int p = r * cols + c;
    const T v = img[p];
    // A NaN pixel is never a maximum (its plateau is itself: NaN equals
    // nothing) and never disqualifies a neighbour (no comparison with NaN
    // holds), as in the CPU reference.
    bool higher = is_nan_value(v);
    for (int dr = -1; dr <= 1; ++dr)
        for (int dc = -1; dc <= 1; ++dc) {
            if ((dr == 0 && dc == 0) || (!eight && dr != 0 && dc != 0)) continue;
            const int rr = r + dr, cc = c + dc;
            if (rr < 0 || rr >= rows || cc < 0 || cc >= cols) continue;
            if (v < img[rr * cols + cc]) higher = true;
        }
    if (higher) marked[label[p]] = 1;
}

__global__ void write_maxima(const int* __restrict__ label, const uint8_t* __restrict__ marked, bool* bw, int64_t n) {
    IPT_GRID_STRIDE(i, n) bw[i] = marked[label[i]] == 0;
}

void run_imregionalmax(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::ImregionalmaxPlan plan = ipt::frontend::plan_imregionalmax(args);
    const ipt_tensor* img = args.image("I");
    const bool eight = plan.conn == 8;
    const int64_t rows = plan.rows, cols = plan.cols, n = rows * cols;
    if (n >= INT32_MAX) ipt::plugin::unsupported("ipt.imregionalmax: images of 2^31 pixels or more");
    const ipt_tensor* bw = args.output("BW", IPT_LOGICAL, rows, cols, 1);
    if (n == 0) return;
    cudaStream_t s = dev.stream;
    DeviceArray<int> label(n, s);
    DeviceArray<uint8_t> marked(n, s);
    marked.zero();
    uf_init<<<grid_for(n), kThreads, 0, s>>>(label.get(), n);
    check_launch("ipt.imregionalmax");
    dim3 block(32, 8);
    dim3 grid = grid_2d(cols, rows, block);
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        merge_plateaus<T><<<grid, block, 0, s>>>(dptr<const T>(img), label.get(), static_cast<int>(rows),
                                                 static_cast<int>(cols), eight);
        check_launch("ipt.imregionalmax (plateaus)");
        uf_flatten<<<grid_for(n), kThreads, 0, s>>>(label.get(), n);
        check_launch("ipt.imregionalmax (flatten)");
        mark_lower<T><<<grid, block, 0, s>>>(dptr<const T>(img), label.get(), marked.get(), static_cast<int>(rows),
                                             static_cast<int>(cols), eight);
        check_launch("ipt.imregionalmax (boundaries)");
    });
    write_maxima<<<grid_for(n), kThreads, 0, s>>>(label.get(), marked.get(), dptr<bool>(bw), n);
    check_launch("ipt.imregionalmax");
}

IPT_CUDA_OP("ipt.imregionalmax", "", 100, run_imregionalmax)

}  // namespace
}  // namespace ipt::cuda
