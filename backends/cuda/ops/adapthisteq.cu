// SPDX-License-Identifier: Apache-2.0
// ipt.adapthisteq as the front-end plans it (common/ops/adapthisteq.hpp):
// one block per tile counts the tile's histogram of the symmetrically padded
// image (shared-memory counts up to kSharedBins bins, global atomics above),
// with I's least and greatest value for 'Range' 'original'; the counts come
// back and the clipped tables and value bins are built on the host; then one
// pass blends every pixel with MATLAB's order of operations (no contraction:
// adapthisteq_blend uses __dmul_rn, __dadd_rn and __ddiv_rn on the device).
#include <type_traits>
#include <vector>

#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/reduce.cuh"
#include "common/stretchlim.cuh"
#include "common/ops/adapthisteq.hpp"

namespace ipt::cuda {
namespace {

using namespace ipt::frontend;

constexpr int kSharedBins = 8192;

struct TileGeometry {
    int64_t rows, cols, tiles_r, tiles_c, tile_h, tile_w, pad_top, pad_left, H, W;
};

TileGeometry geometry(const AdapthisteqPlan& p) {
    return {p.rows, p.cols, p.tiles_r, p.tiles_c, p.tile_h, p.tile_w, p.pad_top, p.pad_left, p.H, p.W};
}

template <class T>
__global__ void tile_histograms(const T* __restrict__ a, TileGeometry g, int nbins, unsigned* __restrict__ hist) {
    extern __shared__ unsigned local[];
    const int64_t tile = blockIdx.x;
    const int64_t y0 = (tile / g.tiles_c) * g.tile_h, x0 = (tile % g.tiles_c) * g.tile_w;
    unsigned* out = hist + tile * nbins;
    const bool shared = nbins <= kSharedBins;
    if (shared) {
        for (int b = threadIdx.x; b < nbins; b += blockDim.x) local[b] = 0u;
        __syncthreads();
    }
    const int64_t n = g.tile_h * g.tile_w;
    for (int64_t k = threadIdx.x; k < n; k += blockDim.x) {
        const int64_t y = clahe_source(y0 + k / g.tile_w, g.pad_top, g.rows);
        const int64_t x = clahe_source(x0 + k % g.tile_w, g.pad_left, g.cols);
        const int b = stretch_bin(a[y * g.cols + x], nbins);
        if (shared) atomicAdd(&local[b], 1u);
        else atomicAdd(&out[b], 1u);
    }
    if (shared) {
        __syncthreads();
        for (int b = threadIdx.x; b < nbins; b += blockDim.x)
            if (local[b] != 0u) atomicAdd(&out[b], local[b]);
    }
}

template <class T>
__device__ inline double working(T v) {
    if constexpr (std::is_same_v<T, int16_t>) return static_cast<double>(v) + 32768.0;
    else return static_cast<double>(v);
}

template <class T>
__global__ void blend(const T* __restrict__ a, TileGeometry g, const int32_t* __restrict__ bins, int64_t nvalue,
                      const double* __restrict__ tab, int64_t nbins, double top, T* __restrict__ j) {
    constexpr bool integer = !std::is_floating_point_v<T>;
    IPT_GRID_STRIDE(i, g.rows * g.cols) {
        const int64_t r = i / g.cols, c = i % g.cols;
        int64_t r0, r1, rw, rn, c0, c1, cw, cn;
        clahe_axis(r + g.pad_top, g.tile_h, g.tiles_r, g.H, r0, r1, rw, rn);
        clahe_axis(c + g.pad_left, g.tile_w, g.tiles_c, g.W, c0, c1, cw, cn);
        const int64_t b = bins[clahe_grayxform_index(working(a[i]), integer, top, nvalue)];
        const double v = adapthisteq_blend(tab[(r0 * g.tiles_c + c0) * nbins + b], tab[(r0 * g.tiles_c + c1) * nbins + b],
                                           tab[(r1 * g.tiles_c + c0) * nbins + b], tab[(r1 * g.tiles_c + c1) * nbins + b],
                                           rw, rn, cw, cn);
        if constexpr (integer) j[i] = static_cast<T>(clahe_integer_out(v, top, std::is_same_v<T, int16_t>));
        else j[i] = static_cast<T>(v);
    }
}

// (-working(I(i)), working(I(i))): one pass gives minus the minimum and the maximum.
template <class T>
struct LoadNegatedAndValue {
    const T* p;
    __device__ double2 operator()(int64_t i) const {
        const double v = working(p[i]);
        return make_double2(-v, v);
    }
};

struct StoreLimits {
    double* limits;
    __device__ void operator()(double2 v) const {
        limits[0] = -v.x;
        limits[1] = v.y;
    }
};

template <class T>
void equalize(const AdapthisteqPlan& p, const ipt_tensor* J, cudaStream_t s) {
    const T* a = dptr<const T>(p.I);
    const TileGeometry g = geometry(p);
    const int64_t tiles = p.tiles_r * p.tiles_c;
    DeviceArray<unsigned> hist(static_cast<size_t>(tiles * p.nbins), s);
    hist.zero();
    const int nbins = static_cast<int>(p.nbins);
    const size_t shared = nbins <= kSharedBins ? static_cast<size_t>(nbins) * sizeof(unsigned) : 0;
    tile_histograms<T><<<static_cast<unsigned>(tiles), kThreads, shared, s>>>(a, g, nbins, hist.get());
    check_launch("ipt.adapthisteq");
    double limits[2] = {0, 0};
    if (p.original) {
        DeviceArray<double> dl(2, s);
        reduce_max(LoadNegatedAndValue<T>{a}, p.rows * p.cols, StoreLimits{dl.get()}, s, "ipt.adapthisteq");
        check(cudaMemcpyAsync(limits, dl.get(), sizeof limits, cudaMemcpyDeviceToHost, s),
              "cudaMemcpyAsync (adapthisteq limits)");
    }
    std::vector<unsigned> counts(static_cast<size_t>(tiles * p.nbins));
    check(cudaMemcpyAsync(counts.data(), hist.get(), hist.bytes(), cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync (adapthisteq histograms)");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (adapthisteq histograms)");
    const ClaheRange range = clahe_range(p, limits[0], limits[1]);
    const DeviceArray<double> tab = to_device(adapthisteq_tables(p, counts.data(), range), s);
    const std::vector<int32_t> host_bins = adapthisteq_value_bins(p, range);
    const DeviceArray<int32_t> bins = to_device(host_bins, s);
    blend<T><<<grid_for(p.rows * p.cols, kThreads, 528), kThreads, 0, s>>>(
        a, g, bins.get(), static_cast<int64_t>(host_bins.size()), tab.get(), p.nbins, p.top, dptr<T>(J));
    check_launch("ipt.adapthisteq");
}

void run_adapthisteq(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const AdapthisteqPlan plan = plan_adapthisteq(args);
    const ipt_tensor* J = args.output("J", plan.out_dtype, plan.rows, plan.cols, 1);
    switch (plan.dtype) {
    case IPT_UINT8: equalize<uint8_t>(plan, J, dev.stream); break;
    case IPT_UINT16: equalize<uint16_t>(plan, J, dev.stream); break;
    case IPT_INT16: equalize<int16_t>(plan, J, dev.stream); break;
    case IPT_SINGLE: equalize<float>(plan, J, dev.stream); break;
    default: equalize<double>(plan, J, dev.stream); break;
    }
}

IPT_CUDA_OP("ipt.adapthisteq", "", 100, run_adapthisteq)

}  // namespace
}  // namespace ipt::cuda
