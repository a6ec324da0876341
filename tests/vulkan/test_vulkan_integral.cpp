// SPDX-License-Identifier: Apache-2.0
// integralImage (upright) and imboxfilt on the Vulkan device against
// brute-force references written here and against the CPU reference, across
// both sides of each route switch: the exact integral route (integer and
// logical planes) and the ordered one (single, double, and 32-bit integers
// whose sums could pass 2^53); imboxfilt's direct window sums (8- and 16-bit
// classes, windows up to 17 x 17) and its integral route (larger windows,
// the other classes). Odd sizes, 1xN, Nx1, several planes, every padding.
#include <algorithm>
#include <cmath>

#include "vulkan_compare.hpp"

namespace {

using namespace vk_test;

struct Plane {
    ipt_dtype dt;
    int64_t rows, cols, channels;
    std::vector<uint8_t> bytes;
    double at(int64_t ch, int64_t r, int64_t c) const { return at_index(ch * rows * cols + r * cols + c); }
    double at_index(int64_t i) const {
        switch (dt) {
        case IPT_LOGICAL:
        case IPT_UINT8: return bytes[i];
        case IPT_UINT16: return get<uint16_t>(i);
        case IPT_INT16: return get<int16_t>(i);
        case IPT_INT32: return get<int32_t>(i);
        case IPT_UINT32: return get<uint32_t>(i);
        case IPT_SINGLE: return get<float>(i);
        default: return get<double>(i);
        }
    }
    template <class T>
    double get(int64_t i) const {
        T v;
        std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
        return static_cast<double>(v);
    }
};

Plane random_plane(Random& rnd, ipt_dtype dt, int64_t rows, int64_t cols, int64_t channels) {
    return {dt, rows, cols, channels, rnd.bytes(dt, rows * cols * channels)};
}

ipt::Image upload(const Plane& p) {
    return ipt_test::context().upload(p.dt, p.rows, p.cols, p.bytes.data(), p.channels);
}

std::string label(const Plane& p) {
    return std::to_string(p.rows) + "x" + std::to_string(p.cols) + "x" + std::to_string(p.channels) + " " +
           ipt_dtype_name(p.dt);
}

// cumsum(cumsum(I, 1), 2) in double, MATLAB's order, with the zero row and column.
std::vector<double> brute_integral(const Plane& p) {
    const int64_t m = p.rows, n = p.cols, w = n + 1;
    std::vector<double> J(static_cast<size_t>((m + 1) * w * p.channels), 0.0);
    for (int64_t ch = 0; ch < p.channels; ++ch) {
        double* j = J.data() + ch * (m + 1) * w;
        for (int64_t c = 0; c < n; ++c) {
            double acc = 0;
            for (int64_t r = 0; r < m; ++r) {
                acc += p.at(ch, r, c);
                j[(r + 1) * w + c + 1] = acc;
            }
        }
        for (int64_t r = 1; r <= m; ++r)
            for (int64_t c = 1; c <= n; ++c) j[r * w + c] = j[r * w + c - 1] + j[r * w + c];
    }
    return J;
}

void expect_equal(const std::vector<double>& want, const Output& got, const std::string& what) {
    ASSERT_EQ(static_cast<int64_t>(want.size()), got.numel()) << what;
    int reported = 0;
    for (int64_t i = 0; i < got.numel(); ++i) {
        const double w = want[static_cast<size_t>(i)], g = got.at(i);
        const bool ok = (std::isnan(w) && std::isnan(g)) || w == g;
        if (!ok && reported++ < 8) ADD_FAILURE() << what << ": element " << i << " want " << w << " got " << g;
    }
}

void check_integral(const Plane& p) {
    const ipt::Image img = upload(p);
    const Setup setup = [&](ipt::Call& c) { c.image("I", img); };
    const std::vector<double> want = brute_integral(p);
    const auto ref = run_on(IPT_DEVICE_HOST, "", "ipt.integralimage", setup, {"J"});
    expect_equal(want, ref.at("J"), "cpu " + label(p));
    for (const std::string& v : variants("ipt.integralimage")) {
        const auto got = run_on(vulkan_device().id, v, "ipt.integralimage", setup, {"J"});
        expect_equal(want, got.at("J"), "vulkan " + v + " " + label(p));
    }
}

TEST(VulkanIntegral, ExactRouteEveryIntegerClass) {
    REQUIRE_VULKAN();
    Random rnd(41);
    // Widths across one and several scan segments (512 or 1024 columns),
    // heights across chunks of 8 rows, ragged ends.
    const int64_t shapes[][3] = {{1, 1, 1}, {1, 37, 1}, {37, 1, 1}, {9, 1100, 1}, {23, 17, 3}, {70, 2100, 1}};
    for (ipt_dtype dt : {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32})
        for (const auto& s : shapes) check_integral(random_plane(rnd, dt, s[0], s[1], s[2]));
}

TEST(VulkanIntegral, OrderedRouteFloating) {
    REQUIRE_VULKAN();
    Random rnd(42);
    const int64_t shapes[][3] = {{1, 1, 1}, {1, 40, 1}, {40, 1, 1}, {33, 65, 1}, {70, 45, 3}, {130, 97, 1}};
    for (ipt_dtype dt : {IPT_SINGLE, IPT_DOUBLE})
        for (const auto& s : shapes) check_integral(random_plane(rnd, dt, s[0], s[1], s[2]));
}

TEST(VulkanIntegral, OrderedRouteForLarge32BitSums) {
    REQUIRE_VULKAN();
    Random rnd(43);
    // Values near 2^32 over 1500 x 1907 elements: the sums pass 2^53 and are
    // no longer exact, so the order of the additions must be MATLAB's.
    Plane p{IPT_UINT32, 1500, 1907, 1, {}};
    p.bytes.resize(1500 * 1907 * sizeof(uint32_t));
    for (size_t i = 0; i < 1500 * 1907; ++i) {
        const uint32_t v = 4294967295u - rnd.pick(1000);
        std::memcpy(p.bytes.data() + i * sizeof v, &v, sizeof v);
    }
    check_integral(p);
}

TEST(VulkanIntegral, EmptyPlanes) {
    REQUIRE_VULKAN();
    Random rnd(44);
    check_integral(random_plane(rnd, IPT_UINT8, 0, 4, 1));
    check_integral(random_plane(rnd, IPT_DOUBLE, 5, 0, 1));
}

// ---- imboxfilt ---------------------------------------------------------------------

struct Class {
    double lo, hi;
};

Class range_of(ipt_dtype dt) {
    switch (dt) {
    case IPT_UINT8: return {0, 255};
    case IPT_UINT16: return {0, 65535};
    case IPT_INT16: return {-32768, 32767};
    case IPT_INT32: return {-2147483648.0, 2147483647.0};
    case IPT_UINT32: return {0, 4294967295.0};
    default: return {-INFINITY, INFINITY};
    }
}

// MATLAB's conversion to an integer class: round half away, saturate.
double to_class(double v, ipt_dtype dt) {
    if (dt == IPT_SINGLE) return static_cast<float>(v);
    if (dt == IPT_DOUBLE) return v;
    if (std::isnan(v)) return 0;
    const Class k = range_of(dt);
    return std::clamp(std::round(v), k.lo, k.hi);
}

// Index of padded position i (any) in [0, n) under a padding, -1 for the constant.
int64_t pad_index(const std::string& pad, int64_t i, int64_t n) {
    if (i >= 0 && i < n) return i;
    if (pad == "replicate") return i < 0 ? 0 : n - 1;
    if (pad == "circular") return ((i % n) + n) % n;
    if (pad == "symmetric") {
        int64_t k = ((i % (2 * n)) + 2 * n) % (2 * n);
        return k < n ? k : 2 * n - 1 - k;
    }
    return -1;
}

// Each window summed exactly (integers: int64), times the factor, converted.
std::vector<double> brute_box(const Plane& p, int64_t fr, int64_t fc, const std::string& pad, double x, double norm) {
    const double padv = to_class(x, p.dt);
    const int64_t top = (fr - 1) / 2, left = (fc - 1) / 2;
    std::vector<double> out;
    for (int64_t ch = 0; ch < p.channels; ++ch)
        for (int64_t r = 0; r < p.rows; ++r)
            for (int64_t c = 0; c < p.cols; ++c) {
                int64_t s = 0;
                for (int64_t i = 0; i < fr; ++i)
                    for (int64_t j = 0; j < fc; ++j) {
                        const int64_t ar = pad_index(pad, r + i - top, p.rows);
                        const int64_t ac = pad_index(pad, c + j - left, p.cols);
                        s += static_cast<int64_t>(ar < 0 || ac < 0 ? padv : p.at(ch, ar, ac));
                    }
                out.push_back(to_class(static_cast<double>(s) * norm, p.dt));
            }
    return out;
}

void check_box(const Plane& p, int64_t fr, int64_t fc, const std::string& pad, double x, double norm, bool given_norm) {
    const ipt::Image img = upload(p);
    const Setup setup = [&](ipt::Call& c) {
        c.image("A", img).numbers("filterSize", {double(fr), double(fc)}).option("Padding", pad).number("X", x);
        if (given_norm) c.number("NormalizationFactor", norm);
    };
    const std::string what = label(p) + " " + std::to_string(fr) + "x" + std::to_string(fc) + " " + pad +
                             " f=" + std::to_string(norm);
    const std::vector<double> want = brute_box(p, fr, fc, pad, x, norm);
    const auto ref = run_on(IPT_DEVICE_HOST, "", "ipt.imboxfilt", setup, {"B"});
    expect_equal(want, ref.at("B"), "cpu " + what);
    for (const std::string& v : variants("ipt.imboxfilt")) {
        const auto got = run_on(vulkan_device().id, v, "ipt.imboxfilt", setup, {"B"});
        expect_equal(want, got.at("B"), "vulkan " + v + " " + what);
    }
}

TEST(VulkanBox, DirectAndIntegralRoutesOfSmallIntegers) {
    REQUIRE_VULKAN();
    Random rnd(45);
    const int64_t shapes[][3] = {{1, 1, 1}, {1, 40, 1}, {40, 1, 1}, {37, 70, 1}, {33, 65, 3}};
    // Up to 17 x 17 the direct route; 19 and 21 the integral one.
    const int64_t sizes[][2] = {{1, 1}, {3, 3}, {5, 5}, {7, 3}, {1, 17}, {17, 1}, {17, 17}, {19, 3}, {3, 21}};
    const char* pads[] = {"replicate", "symmetric", "circular", "constant"};
    int turn = 0;
    for (ipt_dtype dt : {IPT_UINT8, IPT_UINT16, IPT_INT16})
        for (const auto& s : shapes) {
            const Plane p = random_plane(rnd, dt, s[0], s[1], s[2]);
            for (const auto& f : sizes) {
                const std::string pad = pads[turn++ % 4];
                check_box(p, f[0], f[1], pad, turn % 2 ? 300.5 : -2.5, 1.0 / double(f[0] * f[1]), false);
            }
            // Local sums (factor 1) saturate; a factor of 0.5 makes ties.
            check_box(p, 3, 5, "replicate", 0, 1, true);
            check_box(p, 1, 3, "constant", 7, 0.5, true);
        }
}

TEST(VulkanBox, IntegralRouteOfOtherClasses) {
    REQUIRE_VULKAN();
    Random rnd(46);
    for (ipt_dtype dt : {IPT_INT32, IPT_UINT32}) {
        const Plane p = random_plane(rnd, dt, 29, 31, 1);
        check_box(p, 5, 3, "symmetric", 0, 1.0 / 15, false);
        check_box(p, 3, 3, "constant", -2.5, 1.0 / 9, false);
    }
}

}  // namespace
