// SPDX-License-Identifier: Apache-2.0
// ipt.imlincomb against MathWorks' documentation examples and the definition
// (a double sum, left to right, offset last, converted once with round half
// away from zero and saturation; NaN -> 0).
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

struct Out {
    ipt_dtype dtype;
    std::vector<double> v;
};

Out imlincomb(const std::vector<double>& K, const std::vector<const ipt::Image*>& images,
              const std::string& outclass = "") {
    ipt::Call call(context(), "ipt.imlincomb");
    call.numbers("K", K);
    static const char* const names[] = {"A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"};
    for (size_t i = 0; i < images.size(); ++i) call.image(names[i], *images[i]);
    if (!outclass.empty()) call.text("outclass", outclass);
    call.run();
    ipt::Image z = call.take("Z");
    Out o{z.dtype(), {}};
    switch (z.dtype()) {
    case IPT_UINT8: for (auto x : z.download<uint8_t>()) o.v.push_back(x); break;
    case IPT_UINT16: for (auto x : z.download<uint16_t>()) o.v.push_back(x); break;
    case IPT_INT16: for (auto x : z.download<int16_t>()) o.v.push_back(x); break;
    case IPT_INT32: for (auto x : z.download<int32_t>()) o.v.push_back(x); break;
    case IPT_UINT32: for (auto x : z.download<uint32_t>()) o.v.push_back(x); break;
    case IPT_SINGLE: for (auto x : z.download<float>()) o.v.push_back(x); break;
    default: o.v = z.download<double>(); break;
    }
    return o;
}

TEST(Imlincomb, DocExampleAveraging) {
    // X = uint8([255 0 75; 44 225 100]); Y = uint8([50 50 50; 50 50 50]);
    // imlincomb(0.5,X,0.5,Y) = [153 25 63; 47 138 75] (imdivide(imadd(X,Y),2)
    // would give 128 for the first element: imadd saturates first).
    ipt::Image X = image<uint8_t>(2, 3, {255, 0, 75, 44, 225, 100});
    ipt::Image Y = image<uint8_t>(2, 3, {50, 50, 50, 50, 50, 50});
    Out z = imlincomb({0.5, 0.5}, {&X, &Y});
    EXPECT_EQ(z.dtype, IPT_UINT8);
    EXPECT_EQ(z.v, (std::vector<double>{153, 25, 63, 47, 138, 75}));
}

TEST(Imlincomb, DifferenceShiftedTo128RoundsOnce) {
    // K = imlincomb(1, I, -1, J, 128): I - J + 128, not saturate(I - J) + 128.
    ipt::Image I = image<uint8_t>(1, 4, {10, 200, 100, 0});
    ipt::Image J = image<uint8_t>(1, 4, {200, 10, 50, 0});
    EXPECT_EQ(imlincomb({1, -1, 128}, {&I, &J}).v, (std::vector<double>{0, 255, 178, 128}));
    // Adding with a wider output class: imlincomb(1, I, 1, J, 'uint16').
    Out w = imlincomb({1, 1}, {&I, &J}, "uint16");
    EXPECT_EQ(w.dtype, IPT_UINT16);
    EXPECT_EQ(w.v, (std::vector<double>{210, 210, 150, 0}));
}

TEST(Imlincomb, TiesBothSignsAndSaturation) {
    ipt::Image a = image<int16_t>(1, 6, {-3, 3, -1, 1, -5, 5});
    EXPECT_EQ(imlincomb({0.5}, {&a}).v, (std::vector<double>{-2, 2, -1, 1, -3, 3}));
    ipt::Image b = image<int16_t>(1, 2, {-20000, 20000});
    EXPECT_EQ(imlincomb({2}, {&b}).v, (std::vector<double>{-32768, 32767}));
    ipt::Image c = image<uint8_t>(1, 3, {200, 1, 0});
    EXPECT_EQ(imlincomb({2, -2.5}, {&c}).v, (std::vector<double>{255, 0, 0}));  // 397.5, -0.5 -> -1 -> 0, -2.5
    EXPECT_EQ(imlincomb({1, 0.5}, {&c}, "int16").v, (std::vector<double>{201, 2, 1}));
    ipt::Image u = image<uint32_t>(1, 2, {4000000000u, 7});
    EXPECT_EQ(imlincomb({1}, {&u}, "int32").v, (std::vector<double>{2147483647, 7}));
    EXPECT_EQ(imlincomb({-1}, {&u}, "int32").v, (std::vector<double>{-2147483648.0, -7}));
    EXPECT_EQ(imlincomb({1, 0.5}, {&u}).v, (std::vector<double>{4000000001.0, 8}));
    EXPECT_EQ(imlincomb({2}, {&u}).v, (std::vector<double>{4294967295.0, 14}));
}

TEST(Imlincomb, NonFiniteToIntegerClasses) {
    ipt::Image d = image<double>(1, 4, {NAN, INFINITY, -INFINITY, 2.5});
    EXPECT_EQ(imlincomb({1}, {&d}, "uint8").v, (std::vector<double>{0, 255, 0, 3}));
    EXPECT_EQ(imlincomb({-1}, {&d}, "int16").v, (std::vector<double>{0, -32768, 32767, -3}));
    Out same = imlincomb({1}, {&d});
    EXPECT_TRUE(std::isnan(same.v[0]));
    EXPECT_EQ(same.v[1], INFINITY);
}

TEST(Imlincomb, LogicalGivesDoubleAndSingleRoundsOnce) {
    ipt::Image bw = ipt_test::logical(1, 3, {1, 0, 1});
    Out z = imlincomb({0.25, 1}, {&bw});
    EXPECT_EQ(z.dtype, IPT_DOUBLE);
    EXPECT_EQ(z.v, (std::vector<double>{1.25, 1, 1.25}));
    std::vector<float> a = {1, 2, 3, 16777217.0f, 0.1f};
    ipt::Image s = image<float>(1, 5, a);
    ipt::Image t = image<float>(1, 5, {3, 3, 3, 1, 0.2f});
    Out r = imlincomb({1.0 / 3, 0.7, 1e-3}, {&s, &t});
    EXPECT_EQ(r.dtype, IPT_SINGLE);
    const std::vector<float> tv = {3, 3, 3, 1, 0.2f};
    for (size_t i = 0; i < a.size(); ++i)
        EXPECT_EQ(r.v[i], static_cast<float>((1.0 / 3) * a[i] + 0.7 * tv[i] + 1e-3)) << i;
    EXPECT_EQ(imlincomb({1}, {&s}, "double").dtype, IPT_DOUBLE);
}

TEST(Imlincomb, EightRgbImagesAgainstTheDefinition) {
    std::mt19937 rng(4);
    std::uniform_int_distribution<int> d(0, 255);
    std::uniform_real_distribution<double> k(-1, 1);
    std::vector<std::vector<uint8_t>> data(8, std::vector<uint8_t>(31 * 17 * 3));
    std::vector<ipt::Image> imgs;
    std::vector<const ipt::Image*> ptrs;
    for (auto& v : data) {
        for (auto& x : v) x = static_cast<uint8_t>(d(rng));
        imgs.push_back(image<uint8_t>(31, 17, v, 3));
    }
    for (auto& i : imgs) ptrs.push_back(&i);
    std::vector<double> K;
    for (int i = 0; i < 9; ++i) K.push_back(k(rng) * 2);
    K[8] = 100.5;
    Out z = imlincomb(K, ptrs);
    ASSERT_EQ(z.v.size(), data[0].size());
    for (size_t e = 0; e < z.v.size(); ++e) {
        double s = 0;
        for (int i = 0; i < 8; ++i) s += K[i] * data[i][e];
        s += K[8];
        const double want = std::clamp(std::round(s), 0.0, 255.0);
        ASSERT_EQ(z.v[e], want) << e;
    }
}

TEST(Imlincomb, BadInputIsRejectedWithTheParameterNamed) {
    ipt::Image a = image<uint8_t>(1, 2, {1, 2});
    ipt::Image b16 = image<uint16_t>(1, 2, {1, 2});
    ipt::Image wide = image<uint8_t>(1, 3, {1, 2, 3});
    IPT_EXPECT_ERROR(imlincomb({1, 2, 3}, {&a}), IPT_ERR_INVALID_ARGUMENT, "'K'");
    IPT_EXPECT_ERROR(imlincomb({1}, {&a, &a}), IPT_ERR_INVALID_ARGUMENT, "'K'");
    IPT_EXPECT_ERROR(imlincomb({1, 1}, {&a, &b16}), IPT_ERR_INVALID_ARGUMENT, "'A2'");
    IPT_EXPECT_ERROR(imlincomb({1, 1}, {&a, &wide}), IPT_ERR_INVALID_ARGUMENT, "'A2'");
    IPT_EXPECT_ERROR(imlincomb({1}, {&a}, "logical"), IPT_ERR_INVALID_ARGUMENT, "outclass");
    ipt::Call call(context(), "ipt.imlincomb");
    call.numbers("K", {1});
    IPT_EXPECT_ERROR(call.run(), IPT_ERR_INVALID_ARGUMENT, "'A1'");
    IPT_EXPECT_ERROR(call.take("Z"), IPT_ERR_NOT_FOUND, "Z");
}

}  // namespace
