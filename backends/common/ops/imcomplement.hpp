// SPDX-License-Identifier: Apache-2.0
// ipt.imcomplement's front-end: J = imcomplement(I)
// (docs/matlab-semantics.md#imcomplement). J has the class and size of I;
// each element, every channel alike, is
//   logical           ~I
//   unsigned integer  intmax - I
//   signed integer    intmin + intmax - I = -1 - I (the bitwise complement)
//   single, double    1 - I, in the class of I (NaN stays NaN)
// None of these can overflow or round, so every backend gives the same bits.
#pragma once

#include <cstdint>
#include <limits>
#include <type_traits>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct ImcomplementPlan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = 0;  // of I and J
    int64_t rows = 0, cols = 0, channels = 1;
    int64_t numel = 0;
};

// The complement of one element (constexpr: CUDA kernels call it too).
template <class T>
constexpr T imcomplement_value(T x) {
    if constexpr (std::is_same_v<T, bool>) return !x;
    else if constexpr (std::is_floating_point_v<T>) return T(1) - x;
    else if constexpr (std::is_unsigned_v<T>) return static_cast<T>(std::numeric_limits<T>::max() - x);
    else return static_cast<T>(-1 - x);
}

inline ImcomplementPlan plan_imcomplement(const ipt::plugin::KernelArgs& args) {
    ImcomplementPlan p;
    p.I = args.image("I");
    p.dtype = p.I->dtype;
    p.rows = p.I->rows;
    p.cols = p.I->cols;
    p.channels = p.I->channels;
    p.numel = p.rows * p.cols * p.channels;
    return p;
}

}  // namespace ipt::frontend
