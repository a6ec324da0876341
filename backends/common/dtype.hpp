// SPDX-License-Identifier: Apache-2.0
// The class of an element type, and dispatch from a run-time class (ipt_dtype) to the C++ element type that
// holds it, shared by every backend's host code. logical is one byte holding
// 0 or 1; bool has the same layout.
#pragma once

#include <cstdint>
#include <string>

#include "ipt/ipt_plugin.hpp"

namespace ipt::common {

// The class of an element type.
template <class T> constexpr int32_t dtype_of();
template <> constexpr int32_t dtype_of<bool>() { return IPT_LOGICAL; }
template <> constexpr int32_t dtype_of<uint8_t>() { return IPT_UINT8; }
template <> constexpr int32_t dtype_of<uint16_t>() { return IPT_UINT16; }
template <> constexpr int32_t dtype_of<int16_t>() { return IPT_INT16; }
template <> constexpr int32_t dtype_of<int32_t>() { return IPT_INT32; }
template <> constexpr int32_t dtype_of<uint32_t>() { return IPT_UINT32; }
template <> constexpr int32_t dtype_of<float>() { return IPT_SINGLE; }
template <> constexpr int32_t dtype_of<double>() { return IPT_DOUBLE; }

// Calls f(T{}) with T the element type of dtype; a class the catalogue does
// not know is declined (IPT_ERR_UNSUPPORTED).
template <class F>
decltype(auto) visit_dtype(int32_t dtype, F&& f) {
    switch (dtype) {
    case IPT_LOGICAL: return f(bool{});
    case IPT_UINT8: return f(uint8_t{});
    case IPT_UINT16: return f(uint16_t{});
    case IPT_INT16: return f(int16_t{});
    case IPT_INT32: return f(int32_t{});
    case IPT_UINT32: return f(uint32_t{});
    case IPT_SINGLE: return f(float{});
    case IPT_DOUBLE: return f(double{});
    }
    ipt::plugin::unsupported("class " + std::to_string(dtype) + " is not handled");
}

}  // namespace ipt::common
