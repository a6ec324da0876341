// SPDX-License-Identifier: Apache-2.0
// Device-side helpers shared by every CUDA operator: element types of the
// MATLAB classes, conversion with MATLAB's rounding and saturation, the
// padding index rules, and launch geometry. Host and device share the same
// definitions so that a value converted on either side is the same value.
#pragma once

#include <cuda_runtime.h>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <type_traits>

#include "common/check.hpp"
#include "ipt/ipt_plugin.hpp"
#include "dtype.hpp"

namespace ipt::cuda {

// ---- classes ----------------------------------------------------------------

using ipt::common::visit_dtype;

using ipt::common::dtype_of;

template <class T>
inline constexpr bool is_float_v = std::is_floating_point_v<T>;

// Lowest and highest value of a class (-Inf/+Inf for floating classes): the
// identities of max and min, used for pixels outside the image in morphology.
template <class T>
__host__ __device__ inline T lowest_value() {
    if constexpr (std::is_same_v<T, bool>) return false;
    else if constexpr (std::is_same_v<T, float>) return -INFINITY;
    else if constexpr (std::is_same_v<T, double>) return -static_cast<double>(INFINITY);
    else return std::numeric_limits<T>::lowest();
}
template <class T>
__host__ __device__ inline T highest_value() {
    if constexpr (std::is_same_v<T, bool>) return true;
    else if constexpr (std::is_same_v<T, float>) return INFINITY;
    else if constexpr (std::is_same_v<T, double>) return static_cast<double>(INFINITY);
    else return std::numeric_limits<T>::max();
}

// ---- conversion (docs/matlab-semantics.md#rounding) ----------------------------

// Integers of up to 32 bits to and from double on the device through the
// bits of 1.5 * 2^52, where the low 32 mantissa bits are the integer: one
// double add instead of a conversion instruction, whose throughput (16 per
// clock per multiprocessor on sm_80 and sm_90, a quarter of the double adds)
// bounds kernels that convert every element of an image. Exact: every
// integer of that range is a double, and so is the sum.
#ifdef __CUDA_ARCH__
constexpr double kIntegerBits = 6755399441055744.0;  // 1.5 * 2^52
__device__ inline double exact_to_double(int32_t v) {
    // 1.5 * 2^52 + 2^31 + v: the sign bit flipped makes the low word v + 2^31.
    return __hiloint2double(0x43380000, v ^ INT32_MIN) - (kIntegerBits + 2147483648.0);
}
__device__ inline double exact_to_double(uint32_t v) {
    return __hiloint2double(0x43380000, static_cast<int>(v)) - kIntegerBits;
}
// r: an integer with |r| < 2^31 (or in [0, 2^32) read back as uint32).
__device__ inline int32_t integral_to_int32(double r) { return __double2loint(r + kIntegerBits); }
#endif

// floor(x) as a double and as an integer, for |x| < 2^31: on the device one
// add rounded down into the bits of 1.5 * 2^52 instead of a floor and a
// conversion, both at the conversion rate.
__host__ __device__ inline int32_t floor_to_int32(double x, double* floor_x) {
#ifdef __CUDA_ARCH__
    const double t = __dadd_rd(x, kIntegerBits);
    *floor_x = t - kIntegerBits;
    return __double2loint(t);
#else
    *floor_x = std::floor(x);
    return static_cast<int32_t>(*floor_x);
#endif
}

// double -> class: round half away from zero, saturate, NaN -> 0; floating
// classes convert with round-to-nearest as the host does.
template <class T>
__host__ __device__ inline T saturate_round(double v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v != 0 && !(v != v);
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(v);
    } else {
        if (v != v) return T(0);
        constexpr double lo = static_cast<double>(std::numeric_limits<T>::lowest());
        constexpr double hi = static_cast<double>(std::numeric_limits<T>::max());
        double r = round(v);  // CUDA's and C's round: half away from zero
        if (r <= lo) return std::numeric_limits<T>::lowest();
        if (r >= hi) return std::numeric_limits<T>::max();
#ifdef __CUDA_ARCH__
        if constexpr (sizeof(T) <= 4) return static_cast<T>(integral_to_int32(r));
        else return static_cast<T>(r);
#else
        return static_cast<T>(r);
#endif
    }
}

template <class T>
__host__ __device__ inline double to_double(T v) {
    if constexpr (std::is_same_v<T, bool>) {
        return v ? 1.0 : 0.0;
    } else {
#ifdef __CUDA_ARCH__
        if constexpr (std::is_integral_v<T> && sizeof(T) <= 4 && std::is_signed_v<T>)
            return exact_to_double(static_cast<int32_t>(v));
        else if constexpr (std::is_integral_v<T> && sizeof(T) <= 4)
            return exact_to_double(static_cast<uint32_t>(v));
        else
            return static_cast<double>(v);
#else
        return static_cast<double>(v);
#endif
    }
}

// Value on MATLAB's [0,1] intensity scale (im2double).
template <class T>
__host__ __device__ inline double to_unit(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? 1.0 : 0.0;
    else if constexpr (std::is_floating_point_v<T>) return static_cast<double>(v);
    else if constexpr (std::is_same_v<T, int16_t>) return (static_cast<double>(v) + 32768.0) / 65535.0;
    else return static_cast<double>(v) / static_cast<double>(std::numeric_limits<T>::max());
}

// im2single: integer classes scaled to [0,1] in single precision.
template <class T>
__host__ __device__ inline float to_unit_single(T v) {
    if constexpr (std::is_same_v<T, bool>) return v ? 1.0f : 0.0f;
    else if constexpr (std::is_same_v<T, float>) return v;
    else if constexpr (std::is_same_v<T, double>) return static_cast<float>(v);
    else return static_cast<float>(to_unit(v));
}

// ---- padding (docs/matlab-semantics.md#imfilter-boundary) -----------------------

enum class Border : int { Constant = 0, Symmetric = 1, Replicate = 2, Circular = 3 };

// Maps i onto [0, n), or -1 for "use the constant".
__host__ __device__ inline int64_t border_index(Border b, int64_t i, int64_t n) {
    if (i >= 0 && i < n) return i;
    switch (b) {
    case Border::Symmetric: {
        if (n == 1) return 0;
        const int64_t period = 2 * n;
        i %= period;
        if (i < 0) i += period;
        return i < n ? i : period - 1 - i;
    }
    case Border::Replicate: return i < 0 ? 0 : n - 1;
    case Border::Circular: {
        i %= n;
        return i < 0 ? i + n : i;
    }
    case Border::Constant: break;
    }
    return -1;
}

// Stages a th x tw tile of a rows x cols plane (rows r0.., columns c0.., the
// border resolved, `pad` for the constant) into shared memory, converted once
// to the tile's type, by the whole 2-D block. A tile that lies inside the
// plane (most of them) is copied without any border arithmetic. TW > 0: the
// tile width is a compile-time constant, so the flat index splits into row
// and column with a multiply instead of a division; TW == 0: row by row.
template <class TS, class TIn>
__device__ __forceinline__ TS tile_value(TIn v) {
    if constexpr (std::is_same_v<TS, TIn>) return v;
    else return static_cast<TS>(to_double(v));
}

template <int TW, class TIn, class TS>
__device__ __forceinline__ void stage_tile(const TIn* __restrict__ plane, int64_t rows, int64_t cols, Border border,
                                           TIn pad, int64_t r0, int64_t c0, int th, int tw, TS* tile) {
    const bool inside = r0 >= 0 && r0 + th <= rows && c0 >= 0 && c0 + tw <= cols;
    if constexpr (TW > 0) {
        const int threads = static_cast<int>(blockDim.x * blockDim.y);
        const TIn* origin = plane + (inside ? r0 * cols + c0 : 0);
        for (int idx = threadIdx.y * blockDim.x + threadIdx.x; idx < th * TW; idx += threads) {
            const int tr = idx / TW, tc = idx - tr * TW;
            TIn v;
            if (inside) {
                v = origin[static_cast<int64_t>(tr) * cols + tc];
            } else {
                const int64_t ri = border_index(border, r0 + tr, rows);
                const int64_t ci = border_index(border, c0 + tc, cols);
                v = (ri < 0 || ci < 0) ? pad : plane[ri * cols + ci];
            }
            tile[idx] = tile_value<TS>(v);
        }
        return;
    }
    const bool columns_inside = c0 >= 0 && c0 + tw <= cols;
    for (int tr = threadIdx.y; tr < th; tr += blockDim.y) {
        const int64_t ri = inside ? r0 + tr : border_index(border, r0 + tr, rows);
        TS* dst = tile + tr * tw;
        if (ri < 0) {
            for (int tc = threadIdx.x; tc < tw; tc += blockDim.x) dst[tc] = tile_value<TS>(pad);
            continue;
        }
        const TIn* row = plane + ri * cols;
        for (int tc = threadIdx.x; tc < tw; tc += blockDim.x) {
            const int64_t ci = columns_inside ? c0 + tc : border_index(border, c0 + tc, cols);
            dst[tc] = tile_value<TS>(ci < 0 ? pad : row[ci]);
        }
    }
}

// Centre of a kernel, domain or SE along one dimension, 0-based (docs/matlab-semantics.md#centre).
__host__ __device__ inline int64_t kernel_origin(int64_t size) { return (size + 1) / 2 - 1; }

// ---- launch geometry ----------------------------------------------------------

constexpr int kThreads = 256;

// Blocks for a grid-stride loop over n items: enough to fill the chip, never
// more than needed.
inline unsigned grid_for(int64_t n, int threads = kThreads, int64_t cap = 132 * 16) {
    int64_t blocks = (n + threads - 1) / threads;
    if (blocks > cap) blocks = cap;
    if (blocks < 1) blocks = 1;
    return static_cast<unsigned>(blocks);
}

inline dim3 grid_2d(int64_t cols, int64_t rows, dim3 block) {
    return dim3(static_cast<unsigned>((cols + block.x - 1) / block.x),
                static_cast<unsigned>((rows + block.y - 1) / block.y), 1);
}

#define IPT_GRID_STRIDE(i, n)                                                           \
    for (int64_t i = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < (n); \
         i += static_cast<int64_t>(blockDim.x) * gridDim.x)

// Typed device pointer of a tensor (data is a device address for images that
// live on this plugin's device).
template <class T>
inline T* dptr(const ipt_tensor* t) {
    return static_cast<T*>(t->data);
}
inline int64_t numel(const ipt_tensor* t) { return t->rows * t->cols * t->channels; }

}  // namespace ipt::cuda
