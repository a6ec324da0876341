// SPDX-License-Identifier: Apache-2.0
// ipt.multithresh: hand-computed thresholds for two- and three-valued images
// (the maxima of Otsu's criterion tie over whole ranges of bins, whose mean
// is taken), NaN ignored, int16's saturating difference, and MATLAB's
// degenerate thresholds for flat, empty, all-NaN and all-Inf inputs; the
// refusals.
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "ipt_test.hpp"

namespace {

using ipt_test::context;
using ipt_test::image;

struct Result {
    ipt::Image thresh;
    double metric;
};

Result multithresh(const ipt::Image& A, int64_t N) {
    ipt::Call call(context(), "ipt.multithresh");
    call.image("A", A);
    call.integer("N", N);
    call.want("metric");
    call.run();
    Result r{call.take("thresh"), call.take("metric").download<double>()[0]};
    EXPECT_EQ(r.thresh.rows(), 1);
    EXPECT_EQ(r.thresh.cols(), N);
    EXPECT_EQ(r.thresh.dtype(), A.dtype());
    return r;
}

const double inf = std::numeric_limits<double>::infinity();

// Two values at bins 0 and 255: every threshold 0..254 separates them, the
// mean bin is 127, mapped to lo + 127/255*(hi - lo).
TEST(Multithresh, TwoValuedImage) {
    const Result r = multithresh(image<uint8_t>(2, 2, {10, 200, 200, 10}), 1);
    EXPECT_EQ(r.thresh.download<uint8_t>(), std::vector<uint8_t>{105});  // 104.63
    EXPECT_NEAR(r.metric, 1, 1e-12);
    const Result d = multithresh(image<double>(1, 4, {0, std::nan(""), 1, 1}), 1);
    EXPECT_EQ(d.thresh.download<double>(), std::vector<double>{127.0 / 255});
    EXPECT_NEAR(d.metric, 1, 1e-12);
}

// 0, 0.5 and 1 fall in bins 0, 128 and 255: the first threshold ties over
// bins 0..127 (mean 63.5), the second over 128..254 (mean 191).
TEST(Multithresh, ThreeValuedImageTwoThresholds) {
    const Result r = multithresh(image<double>(1, 3, {0, 0.5, 1}), 2);
    EXPECT_EQ(r.thresh.download<double>(), (std::vector<double>{63.5 / 255, 191.0 / 255}));
    EXPECT_NEAR(r.metric, 1, 1e-12);
    const Result u = multithresh(image<uint16_t>(3, 1, {1000, 1500, 2000}), 2);
    EXPECT_EQ(u.thresh.download<uint16_t>(), (std::vector<uint16_t>{1249, 1749}));  // 1249.02, 1749.02
}

// int16: A - min(A) saturates at 32767, so 0 and 32767 share the last bin.
TEST(Multithresh, Int16DifferenceSaturates) {
    const Result r = multithresh(image<int16_t>(1, 3, {-32768, 0, 32767}), 1);
    EXPECT_EQ(r.thresh.download<int16_t>(), std::vector<int16_t>{-129});  // -32768 + 127*257
}

TEST(Multithresh, FlatImages) {
    Result r = multithresh(image<uint8_t>(2, 2, {7, 7, 7, 7}), 1);
    EXPECT_EQ(r.thresh.download<uint8_t>(), std::vector<uint8_t>{7});
    EXPECT_EQ(r.metric, 0);
    // The value, and 1 below it.
    EXPECT_EQ(multithresh(image<uint8_t>(1, 2, {7, 7}), 2).thresh.download<uint8_t>(), (std::vector<uint8_t>{1, 7}));
    // 0: the smallest positive integer after it.
    EXPECT_EQ(multithresh(image<uint8_t>(1, 2, {0, 0}), 2).thresh.download<uint8_t>(), (std::vector<uint8_t>{0, 1}));
    EXPECT_EQ(multithresh(image<double>(1, 2, {0.5, 0.5}), 2).thresh.download<double>(),
              (std::vector<double>{0.5, 1}));
    // Infinities do not count as values.
    EXPECT_EQ(multithresh(image<double>(1, 3, {0.25, inf, 0.25}), 1).thresh.download<double>(),
              std::vector<double>{0.25});
}

// Two values and N = 2: no pair of thresholds is viable; both values are returned.
TEST(Multithresh, FewerValuesThanClasses) {
    const Result r = multithresh(image<uint8_t>(1, 3, {5, 5, 9}), 2);
    EXPECT_EQ(r.thresh.download<uint8_t>(), (std::vector<uint8_t>{5, 9}));
    EXPECT_EQ(r.metric, 0);
}

TEST(Multithresh, EmptyNaNAndInfImages) {
    EXPECT_EQ(multithresh(image<double>(0, 3, {}), 2).thresh.download<double>(), (std::vector<double>{1, 2}));
    EXPECT_EQ(multithresh(image<uint16_t>(0, 0, {}), 1).thresh.download<uint16_t>(), std::vector<uint16_t>{1});
    const float fnan = std::nanf("");
    EXPECT_EQ(multithresh(image<float>(1, 2, {fnan, fnan}), 2).thresh.download<float>(),
              (std::vector<float>{1, 2}));
    EXPECT_EQ(multithresh(image<double>(1, 2, {inf, -inf}), 1).thresh.download<double>(), std::vector<double>{-inf});
    EXPECT_EQ(multithresh(image<double>(1, 2, {inf, -inf}), 2).thresh.download<double>(),
              (std::vector<double>{-inf, inf}));
    EXPECT_EQ(multithresh(image<double>(1, 2, {inf, inf}), 2).thresh.download<double>(),
              (std::vector<double>{1, inf}));
}

// Every channel counts.
TEST(Multithresh, ColourImageCountedWhole) {
    const Result r = multithresh(image<uint8_t>(1, 1, {10, 200, 200}, 3), 1);
    EXPECT_EQ(r.thresh.download<uint8_t>(), std::vector<uint8_t>{105});
}

TEST(Multithresh, Refusals) {
    IPT_EXPECT_ERROR(multithresh(image<uint8_t>(1, 4, {1, 2, 3, 4}), 3), IPT_ERR_UNSUPPORTED, "N > 2");
    IPT_EXPECT_ERROR(multithresh(image<int32_t>(1, 2, {1, 2}), 1), IPT_ERR_INVALID_ARGUMENT, "'A'");
}

}  // namespace
