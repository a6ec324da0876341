// SPDX-License-Identifier: Apache-2.0
// Typed views of the images a CPU implementation receives, and dispatch from
// a run-time class (ipt_dtype) to a C++ element type.
#pragma once

#include <cstdint>
#include <string>
#include <type_traits>

#include "ipt/ipt_plugin.hpp"
#include "dtype.hpp"

namespace ipt::cpu {

// A row-major plane stack over host memory (tightly packed, see ipt_tensor).
template <class T>
struct View {
    T* data = nullptr;
    int64_t rows = 0, cols = 0, channels = 1;

    T& operator()(int64_t r, int64_t c, int64_t ch = 0) const {
        return data[(ch * rows + r) * cols + c];
    }
    T* row(int64_t r, int64_t ch = 0) const { return data + (ch * rows + r) * cols; }
    T* plane(int64_t ch) const { return data + ch * rows * cols; }
    int64_t numel() const { return rows * cols * channels; }
    int64_t plane_size() const { return rows * cols; }
    bool empty() const { return rows == 0 || cols == 0; }
};

template <class T>
View<const T> view(const ipt_tensor* t) {
    return {static_cast<const T*>(t->data), t->rows, t->cols, t->channels};
}
template <class T>
View<T> mutable_view(const ipt_tensor* t) {
    return {static_cast<T*>(t->data), t->rows, t->cols, t->channels};
}

// C++ element type of each class. logical is stored as one byte 0/1 (bool).
template <int32_t D> struct dtype_type;
template <> struct dtype_type<IPT_LOGICAL> { using type = bool; };
template <> struct dtype_type<IPT_UINT8> { using type = uint8_t; };
template <> struct dtype_type<IPT_UINT16> { using type = uint16_t; };
template <> struct dtype_type<IPT_INT16> { using type = int16_t; };
template <> struct dtype_type<IPT_INT32> { using type = int32_t; };
template <> struct dtype_type<IPT_UINT32> { using type = uint32_t; };
template <> struct dtype_type<IPT_SINGLE> { using type = float; };
template <> struct dtype_type<IPT_DOUBLE> { using type = double; };

using ipt::common::dtype_of;

using ipt::common::visit_dtype;

template <class T>
constexpr bool is_float_v = std::is_floating_point_v<T>;

}  // namespace ipt::cpu
