// SPDX-License-Identifier: Apache-2.0
// Helpers of the Vulkan backend tests: find the Vulkan device (or say why
// there is none), run one call on a chosen device and variant, and compare
// outputs with the CPU reference under the catalogue's comparison rules.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <limits>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"
#include "ipt_test.hpp"

namespace vk_test {

// Validation layers on for every test process (before the context exists);
// the plugin turns each validation error into a call error.
inline const bool validation_requested = [] {
    setenv("IPT_VULKAN_VALIDATION", "1", 0);
    return true;
}();

struct VulkanDevice {
    bool found = false;
    uint32_t id = 0;
    std::string name;
    std::string why;  // why none was found
};

inline const VulkanDevice& vulkan_device() {
    static const VulkanDevice dev = [] {
        VulkanDevice d;
        ipt::Context& ctx = ipt_test::context();
        for (const auto& info : ctx.devices()) {
            if (std::string(info.kind) == "vulkan") {
                d.found = true;
                d.id = info.id;
                d.name = info.name;
                return d;
            }
        }
        d.why = "libipt_vulkan was not loaded";
        for (const auto& r : ctx.plugin_reports()) {
            if (std::string(r.name) == "vulkan" || std::string(r.path).find("ipt_vulkan") != std::string::npos) {
                d.why = r.outcome == IPT_LOAD_LOADED ? std::string("libipt_vulkan reports no device: ") + r.device_note
                                                     : std::string("libipt_vulkan failed to load: ") + r.error;
            }
        }
        return d;
    }();
    return dev;
}

#define REQUIRE_VULKAN()                                                                     \
    do {                                                                                     \
        if (!::vk_test::vulkan_device().found)                                               \
            GTEST_SKIP() << "no Vulkan device: " << ::vk_test::vulkan_device().why;          \
    } while (0)

// An output brought back to the host.
struct Output {
    ipt_dtype dtype = IPT_DOUBLE;
    int64_t rows = 0, cols = 0, channels = 0;
    std::vector<uint8_t> bytes;

    int64_t numel() const { return rows * cols * channels; }
    double at(int64_t i) const {
        switch (dtype) {
        case IPT_LOGICAL:
        case IPT_UINT8: return bytes[i];
        case IPT_UINT16: return reinterpret_cast<const uint16_t*>(bytes.data())[i];
        case IPT_INT16: return reinterpret_cast<const int16_t*>(bytes.data())[i];
        case IPT_INT32: return reinterpret_cast<const int32_t*>(bytes.data())[i];
        case IPT_UINT32: return reinterpret_cast<const uint32_t*>(bytes.data())[i];
        case IPT_SINGLE: return reinterpret_cast<const float*>(bytes.data())[i];
        default: return reinterpret_cast<const double*>(bytes.data())[i];
        }
    }
};

inline Output fetch(const ipt::Image& img) {
    Output o;
    ipt_image_info info = img.info();
    o.dtype = static_cast<ipt_dtype>(info.dtype);
    o.rows = info.rows;
    o.cols = info.cols;
    o.channels = info.channels;
    o.bytes.resize(static_cast<size_t>(o.numel()) * ipt_dtype_size(o.dtype));
    if (!o.bytes.empty()) img.download(o.bytes.data());
    return o;
}

using Setup = std::function<void(ipt::Call&)>;

// Runs op on a device (and variant, if not empty); returns the named outputs.
inline std::map<std::string, Output> run_on(uint32_t device, const std::string& variant, const char* op,
                                            const Setup& setup, const std::vector<const char*>& outputs) {
    ipt::Call call(ipt_test::context(), op);
    setup(call);
    call.device(device);
    if (!variant.empty()) call.variant(variant);
    for (const char* o : outputs) {
        const ipt_op_schema* s = ipt_op_find(ipt_test::context().get(), op);
        for (uint32_t i = 0; i < s->param_count; ++i)
            if (std::strcmp(ipt_op_param(s, i)->name, o) == 0 && (ipt_op_param(s, i)->flags & IPT_P_OPTIONAL)) call.want(o);
    }
    call.run();
    std::map<std::string, Output> result;
    for (const char* o : outputs) result[o] = fetch(call.take(o));
    return result;
}

inline double eps_of(ipt_dtype dt) {
    return dt == IPT_SINGLE ? std::numeric_limits<float>::epsilon() : std::numeric_limits<double>::epsilon();
}

// Exact comparison (NaN matches NaN) for integer and logical outputs; for
// floating outputs |x - ref| <= bound(i) when a bound is given, else exact.
inline void expect_match(const Output& ref, const Output& got, const std::string& what,
                         const std::function<double(int64_t)>& bound = nullptr) {
    ASSERT_EQ(ref.dtype, got.dtype) << what;
    ASSERT_EQ(ref.rows, got.rows) << what;
    ASSERT_EQ(ref.cols, got.cols) << what;
    ASSERT_EQ(ref.channels, got.channels) << what;
    int reported = 0;
    for (int64_t i = 0; i < ref.numel(); ++i) {
        const double r = ref.at(i), g = got.at(i);
        bool ok;
        if (std::isnan(r) || std::isnan(g)) ok = std::isnan(r) && std::isnan(g);
        else if (r == g) ok = true;
        else ok = bound && std::abs(r - g) <= bound(i);
        if (!ok && reported++ < 8)
            ADD_FAILURE() << what << ": element " << i << " (row " << (i % (ref.rows * ref.cols)) / std::max<int64_t>(ref.cols, 1)
                          << ", col " << i % std::max<int64_t>(ref.cols, 1) << ", plane " << i / std::max<int64_t>(ref.rows * ref.cols, 1)
                          << "): reference " << r << ", vulkan " << g << std::hexfloat << " (" << r << " vs " << g << ")"
                          << std::defaultfloat;
    }
}

// IPT_CMP_RANGE_EPS: tol * eps(class) * max(1, max|ref|).
inline std::function<double(int64_t)> range_eps(const Output& ref, double tol) {
    double m = 1;
    for (int64_t i = 0; i < ref.numel(); ++i)
        if (std::isfinite(ref.at(i))) m = std::max(m, std::abs(ref.at(i)));
    const double b = tol * eps_of(ref.dtype) * m;
    return [b](int64_t) { return b; };
}

// Random images of every class, with the class's extremes mixed in.
class Random {
public:
    explicit Random(uint32_t seed) : gen_(seed) {}

    std::vector<uint8_t> bytes(ipt_dtype dt, int64_t n, bool specials = true) {
        std::vector<uint8_t> out(static_cast<size_t>(n) * ipt_dtype_size(dt));
        for (int64_t i = 0; i < n; ++i) {
            const bool special = specials && pick(10) == 0;
            switch (dt) {
            case IPT_LOGICAL: out[i] = static_cast<uint8_t>(pick(2)); break;
            case IPT_UINT8: put<uint8_t>(out, i, special ? (pick(2) ? 0 : 255) : pick(256)); break;
            case IPT_UINT16: put<uint16_t>(out, i, special ? (pick(2) ? 0 : 65535) : pick(65536)); break;
            case IPT_INT16: put<int16_t>(out, i, special ? (pick(2) ? -32768 : 32767) : int(pick(65536)) - 32768); break;
            case IPT_INT32: put<int32_t>(out, i, special ? (pick(2) ? INT32_MIN : INT32_MAX) : int32_t(gen_())); break;
            case IPT_UINT32: put<uint32_t>(out, i, special ? (pick(2) ? 0u : UINT32_MAX) : uint32_t(gen_())); break;
            case IPT_SINGLE: put<float>(out, i, special ? float_special() : float(unit())); break;
            default: put<double>(out, i, special ? float_special() : unit()); break;
            }
        }
        return out;
    }
    ipt::Image image(ipt_dtype dt, int64_t rows, int64_t cols, int64_t channels = 1, bool specials = true) {
        auto data = bytes(dt, rows * cols * channels, specials);
        return ipt_test::context().upload(dt, rows, cols, data.data(), channels);
    }
    double unit() { return std::uniform_real_distribution<double>(0.0, 1.0)(gen_); }
    double uniform(double lo, double hi) { return std::uniform_real_distribution<double>(lo, hi)(gen_); }
    uint32_t pick(uint32_t n) { return static_cast<uint32_t>(gen_() % n); }
    std::mt19937& gen() { return gen_; }

private:
    template <class T, class V>
    static void put(std::vector<uint8_t>& out, int64_t i, V v) {
        T t = static_cast<T>(v);
        std::memcpy(out.data() + i * sizeof(T), &t, sizeof(T));
    }
    double float_special() {
        switch (pick(6)) {
        case 0: return 0.0;
        case 1: return 1.0;
        case 2: return -0.5;
        case 3: return 1.5;
        case 4: return 0.5;
        default: return std::nan("");
        }
    }
    std::mt19937 gen_;
};

// The variants the Vulkan device offers for op (IPT_VULKAN_VARIANT may have
// narrowed them to one).
inline std::vector<std::string> variants(const char* op) {
    std::vector<std::string> v;
    for (const auto& impl : ipt_test::context().impls(op))
        if (impl.device_id == vulkan_device().id) v.push_back(impl.variant);
    return v;
}

// Shapes that are not multiples of any tile, plus the degenerate ones.
struct Shape {
    int64_t rows, cols, channels;
};
inline const std::vector<Shape>& shapes() {
    static const std::vector<Shape> s = {{1, 1, 1}, {1, 9, 1}, {9, 1, 1}, {13, 17, 1}, {64, 65, 1},
                                         {37, 129, 1}, {11, 7, 3}, {0, 5, 1}};
    return s;
}

}  // namespace vk_test
