// bwdist: distance to the nearest nonzero pixel, exact for every metric, with
// IDX (1-based column-major index; ties go to the lowest index).
//
// Phase 1, one thread per column (coalesced): the nearest feature row in the
// column, ties to the upper one. Phase 2, one thread per pixel: the metrics
// are increasing in |row difference|, so the nearest feature is the best of
// the column-nearest features of all columns; columns are visited outward
// from the pixel's own and the search stops once the column distance alone
// exceeds the best distance found (exact; cost grows with the distance).
#include <cmath>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"

namespace ipt::cuda {
namespace {

enum class Metric : int { Euclidean, Cityblock, Chessboard, Quasi };

template <class T>
__global__ void nearest_in_column(const T* __restrict__ bw, int* __restrict__ near_row, int64_t rows, int64_t cols) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c >= cols) return;
    int last = -1;
    for (int64_t r = 0; r < rows; ++r) {
        if (to_double(bw[r * cols + c]) != 0.0) last = static_cast<int>(r);
        near_row[r * cols + c] = last;
    }
    int next = -1;
    for (int64_t r = rows - 1; r >= 0; --r) {
        if (to_double(bw[r * cols + c]) != 0.0) next = static_cast<int>(r);
        const int above = near_row[r * cols + c];
        int pick = above;
        if (next >= 0 && (above < 0 || next - r < r - above)) pick = next;
        near_row[r * cols + c] = pick;
    }
}

// Distance as a comparable number: squared for Euclidean (exact integer).
__device__ inline double metric(Metric m, double dr, double dc) {
    switch (m) {
    case Metric::Euclidean: return dr * dr + dc * dc;
    case Metric::Cityblock: return dr + dc;
    case Metric::Chessboard: return dr > dc ? dr : dc;
    default: {
        const double hi = dr > dc ? dr : dc, lo = dr > dc ? dc : dr;
        return hi + (1.4142135623730951 - 1.0) * lo;
    }
    }
}
// Smallest possible distance at column offset k.
__device__ inline double column_bound(Metric m, double k) { return m == Metric::Euclidean ? k * k : k; }

__global__ void nearest_feature(const int* __restrict__ near_row, float* __restrict__ d, uint32_t* __restrict__ idx,
                                int64_t rows, int64_t cols, Metric m) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const int* row = near_row + r * cols;
    double best = INFINITY;
    int64_t best_index = -1;  // 0-based column-major
    auto consider = [&](int64_t cc, int64_t k) {
        const int nr = row[cc];
        if (nr < 0) return;
        const double dist = metric(m, fabs(static_cast<double>(nr - r)), static_cast<double>(k));
        const int64_t index = cc * rows + nr;
        if (dist < best || (dist == best && index < best_index)) {
            best = dist;
            best_index = index;
        }
    };
    for (int64_t k = 0; k < cols; ++k) {
        if (column_bound(m, static_cast<double>(k)) > best) break;
        if (c - k >= 0) consider(c - k, k);
        if (k > 0 && c + k < cols) consider(c + k, k);
    }
    const int64_t out = r * cols + c;
    if (best_index < 0) {
        d[out] = INFINITY;
        if (idx) idx[out] = 0;
        return;
    }
    d[out] = m == Metric::Euclidean ? static_cast<float>(sqrt(best)) : static_cast<float>(best);
    if (idx) idx[out] = static_cast<uint32_t>(best_index + 1);
}

void run_bwdist(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* bw = args.image("BW");
    const std::string method = args.text("method");
    const Metric m = method == "cityblock" ? Metric::Cityblock
                     : method == "chessboard" ? Metric::Chessboard
                     : method == "quasi-euclidean" ? Metric::Quasi
                                                   : Metric::Euclidean;
    const int64_t rows = bw->rows, cols = bw->cols;
    if (rows * cols >= (int64_t{1} << 32))
        ipt::plugin::unsupported("ipt.bwdist: images of 2^32 pixels or more do not fit IDX");
    const ipt_tensor* d = args.output("D", IPT_SINGLE, rows, cols, 1);
    const ipt_tensor* idx = args.wanted("IDX") ? args.output("IDX", IPT_UINT32, rows, cols, 1) : nullptr;
    if (rows == 0 || cols == 0) return;
    cudaStream_t s = dev.stream;
    DeviceArray<int> near_row(static_cast<size_t>(rows) * cols, s);
    visit_dtype(bw->dtype, [&](auto tag) {
        using T = decltype(tag);
        nearest_in_column<T><<<static_cast<unsigned>((cols + 127) / 128), 128, 0, s>>>(dptr<const T>(bw),
                                                                                       near_row.get(), rows, cols);
    });
    check_launch("ipt.bwdist (columns)");
    dim3 block(32, 8);
    nearest_feature<<<grid_2d(cols, rows, block), block, 0, s>>>(near_row.get(), dptr<float>(d),
                                                                idx ? dptr<uint32_t>(idx) : nullptr, rows, cols, m);
    check_launch("ipt.bwdist");
}

IPT_CUDA_OP("ipt.bwdist", "", 100, run_bwdist)

}  // namespace
}  // namespace ipt::cuda
