// SPDX-License-Identifier: Apache-2.0
// ipt.padarray against MathWorks' documented examples and an independent
// brute force that builds MATLAB's index vectors per dimension (replicate:
// [1 ... 1 1:M M ... M]; circular: mod over M; symmetric: [1:M M:-1:1]
// indexed mod 2M), over every class, RGB, empty A, and pads larger than A.
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

struct Padded {
    ipt_dtype dtype;
    int64_t rows, cols, channels;
    std::vector<double> values;  // plane by plane, row-major
};

double element(const void* data, ipt_dtype d, size_t i) {
    switch (d) {
    case IPT_LOGICAL:
    case IPT_UINT8: return static_cast<const uint8_t*>(data)[i];
    case IPT_UINT16: return static_cast<const uint16_t*>(data)[i];
    case IPT_INT16: return static_cast<const int16_t*>(data)[i];
    case IPT_INT32: return static_cast<const int32_t*>(data)[i];
    case IPT_UINT32: return static_cast<const uint32_t*>(data)[i];
    case IPT_SINGLE: return static_cast<const float*>(data)[i];
    default: return static_cast<const double*>(data)[i];
    }
}

size_t element_size(ipt_dtype d) {
    switch (d) {
    case IPT_LOGICAL:
    case IPT_UINT8: return 1;
    case IPT_UINT16:
    case IPT_INT16: return 2;
    case IPT_DOUBLE: return 8;
    default: return 4;
    }
}

// An image of class d holding v (values already in the class).
ipt::Image make(ipt_dtype d, int64_t rows, int64_t cols, const std::vector<double>& v, int64_t channels = 1) {
    std::vector<unsigned char> bytes(v.size() * element_size(d));
    for (size_t i = 0; i < v.size(); ++i) {
        switch (d) {
        case IPT_LOGICAL:
        case IPT_UINT8: bytes[i] = static_cast<uint8_t>(v[i]); break;
        case IPT_UINT16: { uint16_t x = static_cast<uint16_t>(v[i]); std::memcpy(&bytes[2 * i], &x, 2); break; }
        case IPT_INT16: { int16_t x = static_cast<int16_t>(v[i]); std::memcpy(&bytes[2 * i], &x, 2); break; }
        case IPT_INT32: { int32_t x = static_cast<int32_t>(v[i]); std::memcpy(&bytes[4 * i], &x, 4); break; }
        case IPT_UINT32: { uint32_t x = static_cast<uint32_t>(v[i]); std::memcpy(&bytes[4 * i], &x, 4); break; }
        case IPT_SINGLE: { float x = static_cast<float>(v[i]); std::memcpy(&bytes[4 * i], &x, 4); break; }
        default: std::memcpy(&bytes[8 * i], &v[i], 8); break;
        }
    }
    return context().upload(d, rows, cols, bytes.data(), channels);
}

Padded pad(const ipt::Image& a, std::vector<double> padsize, const std::string& method = "constant",
           double padval = 0, const std::string& direction = "both") {
    ipt::Call call(context(), "ipt.padarray");
    call.image("A", a).numbers("padsize", padsize).text("method", method).number("padval", padval);
    call.text("direction", direction).run();
    ipt::Image b = call.take("B");
    Padded out{b.dtype(), b.rows(), b.cols(), b.channels(), {}};
    std::vector<unsigned char> bytes(static_cast<size_t>(b.rows() * b.cols() * b.channels()) * element_size(b.dtype()));
    if (!bytes.empty()) b.download(bytes.data());
    for (size_t i = 0; i < bytes.size() / element_size(b.dtype()); ++i) out.values.push_back(element(bytes.data(), b.dtype(), i));
    return out;
}

// MATLAB's 1-based index vector along one dimension of size m padded by p (0 = constant).
std::vector<int64_t> index_vector(const std::string& method, int64_t m, int64_t p, const std::string& direction) {
    const int64_t before = direction == "post" ? 0 : p, after = direction == "pre" ? 0 : p;
    std::vector<int64_t> idx;
    for (int64_t k = -before; k < m + after; ++k) {
        if (k >= 0 && k < m) idx.push_back(k + 1);
        else if (method == "constant") idx.push_back(0);
        else if (method == "replicate") idx.push_back(k < 0 ? 1 : m);
        else if (method == "circular") idx.push_back(((k % m) + m) % m + 1);
        else {
            std::vector<int64_t> mirror;
            for (int64_t j = 1; j <= m; ++j) mirror.push_back(j);
            for (int64_t j = m; j >= 1; --j) mirror.push_back(j);
            idx.push_back(mirror[static_cast<size_t>(((k % (2 * m)) + 2 * m) % (2 * m))]);
        }
    }
    return idx;
}

std::vector<double> brute(const std::vector<double>& a, int64_t m, int64_t n, int64_t channels, int64_t pr, int64_t pc,
                          const std::string& method, double fill, const std::string& direction) {
    const std::vector<int64_t> ri = index_vector(method, m, pr, direction), ci = index_vector(method, n, pc, direction);
    std::vector<double> b;
    for (int64_t ch = 0; ch < channels; ++ch)
        for (int64_t r : ri)
            for (int64_t c : ci) b.push_back(r == 0 || c == 0 ? fill : a[static_cast<size_t>((ch * m + r - 1) * n + c - 1)]);
    return b;
}

void expect_same(const std::vector<double>& got, const std::vector<double>& want, const std::string& what) {
    ASSERT_EQ(got.size(), want.size()) << what;
    for (size_t i = 0; i < got.size(); ++i) {
        if (std::isnan(want[i])) ASSERT_TRUE(std::isnan(got[i])) << what << " at " << i;
        else ASSERT_EQ(got[i], want[i]) << what << " at " << i;
    }
}

// MathWorks' example: padarray([1 2 3 4], 3, 9, 'pre') is three rows of 9 above [1 2 3 4].
TEST(Padarray, MatlabDocExampleConstantPre) {
    const Padded b = pad(image<double>(1, 4, {1, 2, 3, 4}), {3}, "constant", 9, "pre");
    EXPECT_EQ(b.rows, 4);
    EXPECT_EQ(b.cols, 4);
    expect_same(b.values, {9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 9, 1, 2, 3, 4}, "doc example");
}

// padarray's help text: padarray([1 2 3 4], 3, 'symmetric', 'pre') is four rows [1 2 3 4].
TEST(Padarray, MatlabDocExampleSymmetricPre) {
    const Padded b = pad(image<double>(1, 4, {1, 2, 3, 4}), {3}, "symmetric", 0, "pre");
    EXPECT_EQ(b.rows, 4);
    EXPECT_EQ(b.cols, 4);
    expect_same(b.values, {1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4}, "doc example 1");
}

// MathWorks' example: padarray([1 2; 3 4], [3 2], 'replicate', 'post').
TEST(Padarray, MatlabDocExampleReplicatePost) {
    const Padded b = pad(image<double>(2, 2, {1, 2, 3, 4}), {3, 2}, "replicate", 0, "post");
    EXPECT_EQ(b.rows, 5);
    EXPECT_EQ(b.cols, 4);
    expect_same(b.values, {1, 2, 2, 2, 3, 4, 4, 4, 3, 4, 4, 4, 3, 4, 4, 4, 3, 4, 4, 4}, "doc example 2");
}

// MathWorks' example pads a 2x2x2 array by [3 3] with 0 on both sides; here
// with three planes: each plane 8x8 with A at rows and columns 4..5.
TEST(Padarray, MatlabDocExampleConstantBothPlanes) {
    const Padded b = pad(image<double>(2, 2, {1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}, 3), {3, 3}, "constant", 0);
    ASSERT_EQ(b.rows, 8);
    ASSERT_EQ(b.cols, 8);
    ASSERT_EQ(b.channels, 3);
    for (int64_t ch = 0; ch < 3; ++ch)
        for (int64_t r = 0; r < 8; ++r)
            for (int64_t c = 0; c < 8; ++c) {
                const bool inside = r >= 3 && r < 5 && c >= 3 && c < 5;
                const double want = inside ? double(ch * 4 + (r - 3) * 2 + (c - 3) + 1) : 0.0;
                EXPECT_EQ(b.values[static_cast<size_t>((ch * 8 + r) * 8 + c)], want) << ch << " " << r << " " << c;
            }
}

// Symmetric and circular keep repeating when the pad is larger than A.
TEST(Padarray, PadsLargerThanTheImageByHand) {
    // [a b c] = [1 2 3], 7 columns each side.
    Padded b = pad(image<double>(1, 3, {1, 2, 3}), {0, 7}, "symmetric");
    expect_same(b.values, {1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3, 2, 1, 1, 2, 3, 3}, "symmetric");
    b = pad(image<double>(1, 3, {1, 2, 3}), {0, 7}, "circular");
    expect_same(b.values, {3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1, 2, 3, 1}, "circular");
    b = pad(image<double>(1, 3, {1, 2, 3}), {0, 4}, "replicate", 0, "pre");
    expect_same(b.values, {1, 1, 1, 1, 1, 2, 3}, "replicate");
    b = pad(image<double>(2, 1, {5, 6}), {5, 0}, "symmetric", 0, "post");
    expect_same(b.values, {5, 6, 6, 5, 5, 6, 6}, "symmetric column");
}

TEST(Padarray, ConstantPadvalConvertedToTheClass) {
    Padded b = pad(image<uint8_t>(1, 1, {9}), {0, 1}, "constant", 2.5);
    EXPECT_EQ(b.dtype, IPT_UINT8);
    expect_same(b.values, {3, 9, 3}, "uint8 tie");
    b = pad(image<uint8_t>(1, 1, {9}), {0, 1}, "constant", -7);
    expect_same(b.values, {0, 9, 0}, "uint8 negative");
    b = pad(image<uint8_t>(1, 1, {9}), {0, 1}, "constant", 1e6);
    expect_same(b.values, {255, 9, 255}, "uint8 saturation");
    b = pad(image<uint8_t>(1, 1, {9}), {0, 1}, "constant", std::numeric_limits<double>::quiet_NaN());
    expect_same(b.values, {0, 9, 0}, "uint8 NaN");
    b = pad(image<int16_t>(1, 1, {-9}), {1, 0}, "constant", -2.5);
    expect_same(b.values, {-3, -9, -3}, "int16 tie");
    b = pad(make(IPT_LOGICAL, 1, 1, {0}), {0, 1}, "constant", 0.2);
    EXPECT_EQ(b.dtype, IPT_LOGICAL);
    expect_same(b.values, {1, 0, 1}, "logical");
    b = pad(image<float>(1, 1, {1}), {0, 1}, "constant", 0.1);
    expect_same(b.values, {double(0.1f), 1, double(0.1f)}, "single");
    b = pad(image<double>(1, 1, {1}), {0, 1}, "constant", -std::numeric_limits<double>::infinity());
    expect_same(b.values, {-INFINITY, 1, -INFINITY}, "double -Inf");
    IPT_EXPECT_ERROR(pad(make(IPT_LOGICAL, 1, 1, {0}), {0, 1}, "constant", std::numeric_limits<double>::quiet_NaN()),
                     IPT_ERR_INVALID_ARGUMENT, "padval");
}

TEST(Padarray, EmptyAIsFilledWithPadval) {
    Padded b = pad(make(IPT_UINT16, 0, 3, {}), {2, 1}, "constant", 7);
    EXPECT_EQ(b.rows, 4);
    EXPECT_EQ(b.cols, 5);
    expect_same(b.values, std::vector<double>(20, 7), "constant");
    b = pad(make(IPT_DOUBLE, 0, 0, {}), {1, 2}, "symmetric", 0, "post");
    EXPECT_EQ(b.rows, 1);
    EXPECT_EQ(b.cols, 2);
    expect_same(b.values, {0, 0}, "symmetric on empty");
    b = pad(make(IPT_UINT8, 0, 2, {}, 3), {0, 0});
    EXPECT_EQ(b.rows, 0);
    EXPECT_EQ(b.cols, 2);
    EXPECT_EQ(b.channels, 3);
}

TEST(Padarray, Refusals) {
    IPT_EXPECT_ERROR(pad(image<double>(2, 2, {1, 2, 3, 4}), {1, 1, 1}), IPT_ERR_INVALID_ARGUMENT, "padsize");
    IPT_EXPECT_ERROR(pad(image<double>(2, 2, {1, 2, 3, 4}), {1.5, 1}), IPT_ERR_INVALID_ARGUMENT, "padsize");
    IPT_EXPECT_ERROR(pad(image<double>(2, 2, {1, 2, 3, 4}), {-1, 1}), IPT_ERR_INVALID_ARGUMENT, "padsize");
    IPT_EXPECT_ERROR(pad(image<double>(2, 2, {1, 2, 3, 4}), {NAN, 1}), IPT_ERR_INVALID_ARGUMENT, "padsize");
    const Padded zero_third = pad(image<double>(1, 1, {4}), {1, 0, 0});
    expect_same(zero_third.values, {0, 4, 0}, "[1 0 0]");
}

// Every class, method and direction against the brute force, on shapes
// with 1xN, Nx1 and pads larger than the image, one plane and three.
TEST(Padarray, EveryClassMethodDirectionAgainstBruteForce) {
    std::mt19937 rng(15);
    const ipt_dtype classes[] = {IPT_LOGICAL, IPT_UINT8, IPT_UINT16, IPT_INT16, IPT_INT32, IPT_UINT32, IPT_SINGLE, IPT_DOUBLE};
    const struct { int64_t m, n, pr, pc; } shapes[] = {{1, 1, 2, 3}, {1, 5, 0, 7}, {6, 1, 9, 1}, {4, 5, 2, 3}, {3, 7, 8, 16}};
    for (ipt_dtype d : classes)
        for (const auto& s : shapes)
            for (int64_t channels : {1, 3})
                for (const char* method : {"constant", "replicate", "circular", "symmetric"})
                    for (const char* direction : {"both", "pre", "post"}) {
                        std::vector<double> a(static_cast<size_t>(s.m * s.n * channels));
                        for (double& x : a) {
                            const int v = static_cast<int>(rng() % 200);
                            x = d == IPT_LOGICAL ? v % 2 : d == IPT_INT16 || d == IPT_INT32 ? v - 100 : v;
                            if (d == IPT_SINGLE || d == IPT_DOUBLE) x /= 7;
                            if (d == IPT_SINGLE) x = static_cast<float>(x);
                        }
                        const double padval = d == IPT_LOGICAL ? 1 : 5;
                        const Padded b = pad(make(d, s.m, s.n, a, channels), {double(s.pr), double(s.pc)}, method, padval,
                                             direction);
                        const std::string what = std::string(method) + " " + direction + " class " + std::to_string(d) +
                                                 " " + std::to_string(s.m) + "x" + std::to_string(s.n) + "x" +
                                                 std::to_string(channels);
                        EXPECT_EQ(b.dtype, d) << what;
                        EXPECT_EQ(b.channels, channels) << what;
                        expect_same(b.values, brute(a, s.m, s.n, channels, s.pr, s.pc, method, padval, direction), what);
                    }
}

// NaN and Inf in A are copied as they are.
TEST(Padarray, SpecialValuesAreCopied) {
    const double nan = std::numeric_limits<double>::quiet_NaN(), inf = std::numeric_limits<double>::infinity();
    const Padded b = pad(image<double>(1, 3, {nan, inf, -inf}), {0, 2}, "symmetric");
    expect_same(b.values, {inf, nan, nan, inf, -inf, -inf, inf}, "special");
}

// A padded array of over half a megabyte a thread is shared among threads by
// rows; constant and replicate padding are written as fills.
TEST(Padarray, LargeArraysEveryMethodAgainstBruteForce) {
    const int64_t m = 523, n = 611, pr = 37, pc = 45;
    std::vector<double> a(static_cast<size_t>(m * n * 3));
    for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<double>(i * 31 % 251);
    for (ipt_dtype d : {IPT_UINT8, IPT_DOUBLE})
        for (const char* method : {"constant", "replicate", "circular", "symmetric"})
            for (const char* direction : {"both", "pre", "post"}) {
                const Padded b = pad(make(d, m, n, a, 3), {double(pr), double(pc)}, method, 7, direction);
                expect_same(b.values, brute(a, m, n, 3, pr, pc, method, 7, direction),
                            std::string(method) + " " + direction + " class " + std::to_string(d));
            }
}

}  // namespace
