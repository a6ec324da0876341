// SPDX-License-Identifier: Apache-2.0
// facet.robust on CUDA: the block-level mapping of Park, Cao, Watson and
// Quek (one group of threads per pixel's fit, everything in shared memory)
// with their Algorithm 2 (Householder reflections applied implicitly).
//
// A block holds `pixels` tiles of `tile` threads; each tile loads its pixel's
// window (symmetric padding) into its own slice of shared memory and runs
// fit_team() from facet_core.hpp: row-parallel phases (weights, sqrt(W) Phi,
// residuals, rank medians) and column-parallel phases (one thread per column
// for each reflection). The basis table Phi is shared by the block.
#include <cooperative_groups.h>
#include <cuda_runtime.h>

#include <ipt/ipt.h>

#include "facet_cuda.hpp"

namespace cg = cooperative_groups;

namespace facet::cuda {
namespace {

template <int G>
struct TileTeam {
    cg::thread_block_tile<G> tile;
    template <class F> __device__ void rows(int count, F&& f) const {
        for (int i = static_cast<int>(tile.thread_rank()); i < count; i += G) f(i);
        tile.sync();
    }
    template <class F> __device__ void one(F&& f) const {
        if (tile.thread_rank() == 0) f();
        tile.sync();
    }
};

template <int G>
__global__ void fit_kernel(const double* __restrict__ image, int64_t rows, int64_t cols, Settings st,
                           int pixels_per_block, float* __restrict__ J, uint8_t* __restrict__ degree,
                           float* __restrict__ coefficients) {
    extern __shared__ double shared[];
    const int w = st.window, n = w * w, half = w / 2;

    // The basis table, once per block.
    double* phi = shared;
    for (int idx = threadIdx.x; idx < kMaxCoefficients * n; idx += blockDim.x)
        phi[idx] = basis(idx / n, idx % n, w);
    __syncthreads();

    const int tile_id = threadIdx.x / G;
    const int64_t count = rows * cols;
    const int64_t pixel = static_cast<int64_t>(blockIdx.x) * pixels_per_block + tile_id;
    if (pixel >= count) return;  // the whole tile leaves; no block-wide barrier follows

    TileTeam<G> team{cg::tiled_partition<G>(cg::this_thread_block())};
    const TeamState s = team_state_at(phi + kMaxCoefficients * n + tile_id * team_state_doubles(n), n);
    const int64_t pr = pixel / cols, pc = pixel % cols;
    team.rows(n, [&](int i) {
        const int64_t r = symmetric_index(pr + i / w - half, rows);
        const int64_t c = symmetric_index(pc + i % w - half, cols);
        s.d[i] = image[r * cols + c];
    });

    fit_team(team, s, phi, st);

    // Lanes write the outputs: J and degree on lane 0, a coefficient each on
    // the others.
    const int lane = static_cast<int>(team.tile.thread_rank());
    if (lane == 0) {
        J[pixel] = static_cast<float>(s.best[0]);
        degree[pixel] = static_cast<uint8_t>(s.sc->best_degree);
    }
    if (coefficients)
        for (int k = lane; k < kMaxCoefficients; k += G) coefficients[k * count + pixel] = static_cast<float>(s.best[k]);
}

template <class T>
__global__ void convert_kernel(const T* __restrict__ in, int64_t count, double max_magnitude,
                               double* __restrict__ out, unsigned long long* first_bad) {
    for (int64_t i = blockIdx.x * static_cast<int64_t>(blockDim.x) + threadIdx.x; i < count;
         i += static_cast<int64_t>(gridDim.x) * blockDim.x) {
        const double v = static_cast<double>(in[i]);
        out[i] = v;
        if (!(fabs(v) <= max_magnitude)) atomicMin(first_bad, static_cast<unsigned long long>(i));
    }
}

template <class T>
cudaError_t convert_as(const void* input, int64_t count, double max_magnitude, double* image,
                       unsigned long long* first_bad, cudaStream_t stream) {
    const int threads = 256;
    const int64_t wanted = (count + threads - 1) / threads;
    const int blocks = static_cast<int>(wanted < 65535 ? (wanted > 0 ? wanted : 1) : 65535);
    convert_kernel<T><<<blocks, threads, 0, stream>>>(static_cast<const T*>(input), count, max_magnitude,
                                                       image, first_bad);
    return cudaGetLastError();
}

template <int G>
cudaError_t launch_tile(const double* image, int64_t rows, int64_t cols, const Settings& st, float* J,
                        uint8_t* degree, float* coefficients, int pixels, size_t smem, cudaStream_t stream) {
    if (smem > 48 * 1024) {
        cudaError_t e = cudaFuncSetAttribute(fit_kernel<G>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                             static_cast<int>(smem));
        if (e != cudaSuccess) return e;
    }
    const int64_t count = rows * cols;
    const int64_t blocks = (count + pixels - 1) / pixels;
    fit_kernel<G><<<static_cast<unsigned>(blocks), G * pixels, smem, stream>>>(image, rows, cols, st, pixels, J,
                                                                                degree, coefficients);
    return cudaGetLastError();
}

}  // namespace

Shape default_shape(int window) {
    // A first choice (half-warp tiles: a 5x5 window has 25 rows and at most
    // 11 columns of work per phase); bench/facet_shapes measures the others,
    // and bench/results/ holds what it found.
    Shape s;
    s.tile = 16;
    s.pixels = window <= 5 ? 8 : 4;
    return s;
}

bool tile_supported(int tile) { return tile == 8 || tile == 16 || tile == 32; }

size_t shared_bytes(int window, Shape shape) {
    const int n = window * window;
    return sizeof(double) * (static_cast<size_t>(kMaxCoefficients) * n +
                             static_cast<size_t>(shape.pixels) * team_state_doubles(n));
}

int resident_blocks_per_sm(int window, Shape shape) {
    const size_t smem = shared_bytes(window, shape);
    int blocks = 0;
    const int threads = shape.tile * shape.pixels;
    cudaError_t e = cudaSuccess;
    switch (shape.tile) {
    case 8:
        (void)cudaFuncSetAttribute(fit_kernel<8>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fit_kernel<8>, threads, smem);
        break;
    case 16:
        (void)cudaFuncSetAttribute(fit_kernel<16>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fit_kernel<16>, threads, smem);
        break;
    default:
        (void)cudaFuncSetAttribute(fit_kernel<32>, cudaFuncAttributeMaxDynamicSharedMemorySize, static_cast<int>(smem));
        e = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, fit_kernel<32>, threads, smem);
        break;
    }
    return e == cudaSuccess ? blocks : -1;
}

cudaError_t convert_and_check(const void* input, int dtype, int64_t count, double max_magnitude, double* image,
                              unsigned long long* first_bad, cudaStream_t stream) {
    if (count == 0) return cudaSuccess;
    switch (dtype) {
    case IPT_UINT8: return convert_as<uint8_t>(input, count, max_magnitude, image, first_bad, stream);
    case IPT_UINT16: return convert_as<uint16_t>(input, count, max_magnitude, image, first_bad, stream);
    case IPT_INT16: return convert_as<int16_t>(input, count, max_magnitude, image, first_bad, stream);
    case IPT_INT32: return convert_as<int32_t>(input, count, max_magnitude, image, first_bad, stream);
    case IPT_UINT32: return convert_as<uint32_t>(input, count, max_magnitude, image, first_bad, stream);
    case IPT_SINGLE: return convert_as<float>(input, count, max_magnitude, image, first_bad, stream);
    case IPT_DOUBLE: return convert_as<double>(input, count, max_magnitude, image, first_bad, stream);
    default: return cudaErrorInvalidValue;
    }
}

cudaError_t usable_shape(int window, Shape requested, Shape* out) {
    if (!tile_supported(requested.tile) || requested.pixels < 1) return cudaErrorInvalidValue;
    int device = 0, smem_limit = 0;
    cudaError_t e = cudaGetDevice(&device);
    if (e == cudaSuccess) e = cudaDeviceGetAttribute(&smem_limit, cudaDevAttrMaxSharedMemoryPerBlockOptin, device);
    cudaFuncAttributes attr{};
    if (e == cudaSuccess) {
        switch (requested.tile) {
        case 8: e = cudaFuncGetAttributes(&attr, fit_kernel<8>); break;
        case 16: e = cudaFuncGetAttributes(&attr, fit_kernel<16>); break;
        default: e = cudaFuncGetAttributes(&attr, fit_kernel<32>); break;
        }
    }
    if (e != cudaSuccess) return e;
    // Fewer pixels per block when their working sets do not fit in shared
    // memory (large windows) or the block needs more registers than there are.
    Shape shape = requested;
    while (shape.pixels > 1 && (shared_bytes(window, shape) > static_cast<size_t>(smem_limit) ||
                                shape.tile * shape.pixels > attr.maxThreadsPerBlock))
        --shape.pixels;
    if (shared_bytes(window, shape) > static_cast<size_t>(smem_limit) || shape.tile > attr.maxThreadsPerBlock)
        return cudaErrorInvalidConfiguration;
    *out = shape;
    return cudaSuccess;
}

cudaError_t launch_fit(const double* image, int64_t rows, int64_t cols, const Settings& st, float* J,
                       uint8_t* degree, float* coefficients, Shape requested, cudaStream_t stream) {
    if (rows * cols == 0) return cudaSuccess;
    Shape shape;
    const cudaError_t e = usable_shape(st.window, requested, &shape);
    if (e != cudaSuccess) return e;
    const size_t smem = shared_bytes(st.window, shape);
    switch (shape.tile) {
    case 8: return launch_tile<8>(image, rows, cols, st, J, degree, coefficients, shape.pixels, smem, stream);
    case 16: return launch_tile<16>(image, rows, cols, st, J, degree, coefficients, shape.pixels, smem, stream);
    default: return launch_tile<32>(image, rows, cols, st, J, degree, coefficients, shape.pixels, smem, stream);
    }
}

}  // namespace facet::cuda
