// SPDX-License-Identifier: Apache-2.0
// ipt.imbinarize: levels by hand at T = 0.5 for every class, ties (I equal
// to the level is false), NaN and Inf, 'global' on documented two-valued
// images (graythresh's T), constant and empty images, a matrix T, the
// refusals, and random images against a transcription of MATLAB's rule
// I > lo + (hi - lo) * T.
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

std::vector<uint8_t> binarize(const ipt::Image& I, const ipt::Image* T = nullptr, const char* method = nullptr) {
    ipt::Call call(context(), "ipt.imbinarize");
    call.image("I", I);
    if (T) call.image("T", *T);
    if (method) call.option("method", method);
    call.run();
    ipt::Image bw = call.take("BW");
    EXPECT_EQ(bw.dtype(), IPT_LOGICAL);
    EXPECT_EQ(bw.rows(), I.rows());
    EXPECT_EQ(bw.cols(), I.cols());
    return bw.download<uint8_t>();
}

std::vector<uint8_t> at(const ipt::Image& I, double t) {
    const ipt::Image T = image<double>(1, 1, {t});
    return binarize(I, &T);
}

using Bits = std::vector<uint8_t>;

// T = 0.5: the level is the middle of the class range.
TEST(Imbinarize, HalfThresholdPerClass) {
    EXPECT_EQ(at(image<uint8_t>(1, 4, {0, 127, 128, 255}), 0.5), (Bits{0, 0, 1, 1}));  // 127.5
    EXPECT_EQ(at(image<uint16_t>(1, 3, {32767, 32768, 65535}), 0.5), (Bits{0, 1, 1}));  // 32767.5
    EXPECT_EQ(at(image<int16_t>(1, 4, {-32768, -1, 0, 32767}), 0.5), (Bits{0, 0, 1, 1}));  // -0.5
    EXPECT_EQ(at(image<uint32_t>(1, 3, {2147483647u, 2147483648u, 4294967295u}), 0.5), (Bits{0, 1, 1}));
    EXPECT_EQ(at(image<int32_t>(1, 3, {-1, 0, std::numeric_limits<int32_t>::min()}), 0.5), (Bits{0, 1, 0}));
    const float above = std::nextafter(0.5f, 1.f);
    EXPECT_EQ(at(image<float>(1, 3, {0.5f, above, -2.f}), 0.5), (Bits{0, 1, 0}));
    const double inf = std::numeric_limits<double>::infinity(), nan = std::nan("");
    EXPECT_EQ(at(image<double>(1, 6, {0.5, 0.5000001, nan, inf, -inf, 2}), 0.5), (Bits{0, 1, 0, 1, 0, 1}));
}

// The level equal to a value: I > T is false there.
TEST(Imbinarize, LevelOnAValueIsNotAbove) {
    EXPECT_EQ(at(image<uint8_t>(1, 3, {0, 1, 255}), 0), (Bits{0, 1, 1}));
    EXPECT_EQ(at(image<uint8_t>(1, 3, {0, 254, 255}), 1), (Bits{0, 0, 0}));
    EXPECT_EQ(at(image<int16_t>(1, 2, {-32768, -32767}), 0), (Bits{0, 1}));
    EXPECT_EQ(at(image<double>(1, 3, {0, 1, 1.5}), 1), (Bits{0, 0, 1}));
    // 0.25 is exact: 255 * 0.25 = 63.75.
    EXPECT_EQ(at(image<uint8_t>(1, 2, {63, 64}), 0.25), (Bits{0, 1}));
}

// graythresh of {0, 255} is 127/255 (its documented two-valued case), so
// the level is 127 up to rounding: 0 is below, 255 above.
TEST(Imbinarize, GlobalUsesOtsusThreshold) {
    EXPECT_EQ(binarize(image<uint8_t>(2, 2, {0, 255, 255, 0})), (Bits{0, 1, 1, 0}));
    EXPECT_EQ(binarize(image<uint8_t>(2, 2, {0, 255, 255, 0}), nullptr, "global"), (Bits{0, 1, 1, 0}));
    // Three of 10 and one of 20: T = 14.5/255, level 14.5.
    EXPECT_EQ(binarize(image<uint8_t>(1, 4, {10, 10, 20, 10})), (Bits{0, 0, 1, 0}));
    EXPECT_EQ(binarize(image<double>(1, 4, {0.2, 0.8, 0.8, 0.2})), (Bits{0, 1, 1, 0}));
    EXPECT_EQ(binarize(image<float>(1, 2, {0.f, 1.f})), (Bits{0, 1}));
    EXPECT_EQ(binarize(image<uint16_t>(1, 2, {65535, 0})), (Bits{1, 0}));
    EXPECT_EQ(binarize(image<int16_t>(1, 3, {-32768, 32767, -32768})), (Bits{0, 1, 0}));
}

// A constant image has T = 0: every value above the class minimum is true.
TEST(Imbinarize, ConstantAndEmptyImages) {
    EXPECT_EQ(binarize(image<uint8_t>(2, 2, {5, 5, 5, 5})), (Bits{1, 1, 1, 1}));
    EXPECT_EQ(binarize(image<uint8_t>(1, 2, {0, 0})), (Bits{0, 0}));
    EXPECT_EQ(binarize(image<int16_t>(1, 2, {-32768, -32768})), (Bits{0, 0}));
    EXPECT_EQ(binarize(image<double>(1, 2, {0.3, 0.3})), (Bits{1, 1}));
    EXPECT_TRUE(binarize(image<double>(0, 4, {})).empty());
    EXPECT_TRUE(at(image<uint8_t>(3, 0, {}), 0.5).empty());
}

TEST(Imbinarize, MatrixThreshold) {
    const ipt::Image I = image<double>(2, 2, {0.1, 0.5, 0.9, 0.3});
    const ipt::Image T = image<double>(2, 2, {0.2, 0.4, 0.8, 0.3});
    EXPECT_EQ(binarize(I, &T), (Bits{0, 1, 1, 0}));
    const ipt::Image U = image<uint8_t>(1, 3, {100, 200, 51});
    const ipt::Image Ts = image<float>(1, 3, {0.5f, 0.5f, 0.25f});  // 127.5, 127.5, 63.75
    EXPECT_EQ(binarize(U, &Ts), (Bits{0, 1, 0}));
    const ipt::Image one = image<float>(1, 1, {0.25f});
    EXPECT_EQ(binarize(U, &one), (Bits{1, 1, 0}));
}

TEST(Imbinarize, Refusals) {
    const ipt::Image I = image<uint8_t>(2, 3, {1, 2, 3, 4, 5, 6});
    const ipt::Image wrong = image<double>(3, 2, {0, 0, 0, 0, 0, 0});
    IPT_EXPECT_ERROR(binarize(I, &wrong), IPT_ERR_INVALID_ARGUMENT, "'T'");
    const ipt::Image integer = image<uint8_t>(1, 1, {1});
    IPT_EXPECT_ERROR(binarize(I, &integer), IPT_ERR_INVALID_ARGUMENT, "'T'");
    IPT_EXPECT_ERROR(binarize(image<int32_t>(1, 1, {1})), IPT_ERR_UNSUPPORTED, "32-bit");
}

template <class T>
void random_against_rule(double lo, double span, double vlo, double vhi) {
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> value(vlo, vhi), unit(0, 1);
    const int64_t rows = 37, cols = 29, n = rows * cols;
    std::vector<T> v(n);
    std::vector<double> t(n);
    for (int64_t i = 0; i < n; ++i) {
        v[i] = static_cast<T>(std::is_floating_point_v<T> ? value(rng) : std::round(value(rng)));
        t[i] = unit(rng);
    }
    // Some elements on their level exactly.
    for (int64_t i = 0; i < n; i += 7) v[i] = static_cast<T>(lo + span * t[i]) , t[i] = (double(v[i]) - lo) / span;
    const ipt::Image I = image<T>(rows, cols, v), Tm = image<double>(rows, cols, t);
    const Bits got = binarize(I, &Tm);
    ASSERT_EQ(got.size(), size_t(n));
    for (int64_t i = 0; i < n; ++i) {
        const double scaled = span * t[i];
        EXPECT_EQ(got[i], double(v[i]) > lo + scaled ? 1 : 0) << i;
    }
}

TEST(Imbinarize, RandomImagesFollowTheRule) {
    random_against_rule<uint8_t>(0, 255, 0, 255);
    random_against_rule<uint16_t>(0, 65535, 0, 65535);
    random_against_rule<int16_t>(-32768, 65535, -32768, 32767);
    random_against_rule<uint32_t>(0, 4294967295.0, 0, 4294967295.0);
    random_against_rule<int32_t>(-2147483648.0, 4294967295.0, -2147483648.0, 2147483647.0);
    random_against_rule<float>(0, 1, -0.2, 1.2);
    random_against_rule<double>(0, 1, -0.2, 1.2);
}

}  // namespace
