// SPDX-License-Identifier: Apache-2.0
// The CUDA kernels of facet.robust, behind a plain C++ interface used by the
// plugin (facet_cuda_impl.cpp) and by the block-shape benchmark (bench/).
#ifndef FACET_CUDA_HPP
#define FACET_CUDA_HPP

#include <cstddef>
#include <cstdint>

#include <cuda_runtime_api.h>

#include "facet_core.hpp"

namespace facet::cuda {

// Block-level mapping: a tile of `tile` threads (8, 16 or 32: part of one
// warp, or all of it) fits one pixel's window in shared memory;
// a block holds `pixels` such tiles, so blockDim.x = tile * pixels.
struct Shape {
    int tile = 16;
    int pixels = 4;
};

// The shape the plugin uses (chosen from bench/results, see docs/facet.md).
Shape default_shape(int window);

// Tile sizes the kernel is built for.
bool tile_supported(int tile);

// Dynamic shared memory of one block: the basis table plus one working set
// per pixel.
size_t shared_bytes(int window, Shape shape);

// Blocks of this shape that one multiprocessor holds at once (occupancy).
int resident_blocks_per_sm(int window, Shape shape);

// Converts `count` input values of class `dtype` (ipt_dtype) to doubles and
// lowers *first_bad (device) to the index of the first value that is not
// finite or exceeds `max_magnitude`. *first_bad must hold UINT64_MAX before.
cudaError_t convert_and_check(const void* input, int dtype, int64_t count, double max_magnitude,
                              double* image, unsigned long long* first_bad, cudaStream_t stream);

// The shape launch_fit really uses for `requested`: fewer pixels per block
// when shared memory or registers do not allow that many.
cudaError_t usable_shape(int window, Shape requested, Shape* out);

// Fits every pixel of the rows x cols double image. coefficients may be null
// (else 10 planes of rows*cols). The shape is reduced as usable_shape() says.
cudaError_t launch_fit(const double* image, int64_t rows, int64_t cols, const Settings& settings,
                       float* J, uint8_t* degree, float* coefficients, Shape shape,
                       cudaStream_t stream);

}  // namespace facet::cuda

#endif  // FACET_CUDA_HPP
