// SPDX-License-Identifier: Apache-2.0
// Index mapping for the padding rules of MATLAB (docs/matlab-semantics.md#imfilter-boundary).
// Each maps a possibly out-of-range index i onto [0, n) or returns -1 for
// "use the constant".
#pragma once

#include <cstdint>

namespace ipt::cpu {

enum class Border { Constant, Symmetric, Replicate, Circular };

// 'symmetric': mirror including the edge pixel: c b a | a b c | c b a.
inline int64_t symmetric_index(int64_t i, int64_t n) {
    if (n == 1) return 0;
    const int64_t period = 2 * n;
    i %= period;
    if (i < 0) i += period;
    return i < n ? i : period - 1 - i;
}

inline int64_t replicate_index(int64_t i, int64_t n) { return i < 0 ? 0 : (i >= n ? n - 1 : i); }

inline int64_t circular_index(int64_t i, int64_t n) {
    i %= n;
    return i < 0 ? i + n : i;
}

inline int64_t border_index(Border b, int64_t i, int64_t n) {
    if (i >= 0 && i < n) return i;
    switch (b) {
    case Border::Symmetric: return symmetric_index(i, n);
    case Border::Replicate: return replicate_index(i, n);
    case Border::Circular: return circular_index(i, n);
    case Border::Constant: break;
    }
    return -1;
}

// Centre of a kernel, domain or SE along one dimension, 0-based:
// floor((size+1)/2) - 1 (docs/matlab-semantics.md#centre).
inline int64_t kernel_origin(int64_t size) { return (size + 1) / 2 - 1; }

}  // namespace ipt::cpu
