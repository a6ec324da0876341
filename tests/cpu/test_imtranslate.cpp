// SPDX-License-Identifier: Apache-2.0
// ipt.imtranslate against shifts worked by hand and the independent resampler
// of warp_reference.hpp (A padded by the fill value, sampled at (j - tx, i - ty)).
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ipt_test.hpp"
#include "warp_reference.hpp"

namespace {

using ipt_test::image;

ipt::Image translate(const ipt::Image& a, std::vector<double> t, const std::string& method = "",
                     const std::string& view = "", std::vector<double> fill = {}) {
    ipt::Call call(ipt_test::context(), "ipt.imtranslate");
    call.image("A", a).numbers("translation", t);
    if (!method.empty()) call.option("method", method);
    if (!view.empty()) call.option("OutputView", view);
    if (!fill.empty()) call.numbers("FillValues", fill);
    call.run();
    ipt::Image b = call.take("B");
    EXPECT_EQ(b.dtype(), a.dtype());
    return b;
}

TEST(Imtranslate, IntegralShiftsByHand) {
    const ipt::Image a = image<double>(3, 3, {1, 2, 3, 4, 5, 6, 7, 8, 9});
    for (const char* m : {"nearest", "linear", "cubic"}) {
        EXPECT_EQ(translate(a, {1, 0}, m).download<double>(), (std::vector<double>{0, 1, 2, 0, 4, 5, 0, 7, 8})) << m;
        EXPECT_EQ(translate(a, {0, -1}, m, "same", {9}).download<double>(),
                  (std::vector<double>{4, 5, 6, 7, 8, 9, 9, 9, 9}))
            << m;
    }
}

TEST(Imtranslate, HalfPixelByHand) {
    // Linear (the default) mixes the first column with the fill value.
    const ipt::Image a = image<double>(1, 3, {1, 2, 3});
    EXPECT_EQ(translate(a, {0.5, 0}).download<double>(), (std::vector<double>{0.5, 1.5, 2.5}));
    EXPECT_EQ(translate(a, {0.5, 0}, "linear", "same", {10}).download<double>(), (std::vector<double>{5.5, 1.5, 2.5}));
    // uint8: 0.5 rounds away from zero.
    EXPECT_EQ(translate(image<uint8_t>(1, 3, {1, 2, 3}), {0.5, 0}).download<uint8_t>(),
              (std::vector<uint8_t>{1, 2, 3}));
    // Nearest: x = j - 0.5 rounds half away, to j.
    EXPECT_EQ(translate(a, {0.5, 0}, "nearest").download<double>(), (std::vector<double>{1, 2, 3}));
}

TEST(Imtranslate, FullView) {
    const ipt::Image a = image<uint16_t>(2, 2, {1, 2, 3, 4});
    ipt::Image b = translate(a, {1, -2}, "nearest", "full", {7});
    EXPECT_EQ(b.rows(), 4);
    EXPECT_EQ(b.cols(), 3);
    EXPECT_EQ(b.download<uint16_t>(), (std::vector<uint16_t>{7, 1, 2, 7, 3, 4, 7, 7, 7, 7, 7, 7}));
}

TEST(Imtranslate, FillPerPlane) {
    const ipt::Image a = image<uint8_t>(1, 2, {10, 20, 30, 40, 50, 60}, 3);
    EXPECT_EQ(translate(a, {-1, 0}, "nearest", "same", {1, 2, 300}).download<uint8_t>(),
              (std::vector<uint8_t>{20, 1, 40, 2, 60, 255}));
}

template <class T>
void against_reference(double lo, double hi, double tol) {
    std::vector<T> values;
    const warp_reference::Planes a = warp_reference::random_planes<T>(9, 12, 3, lo, hi, 11, &values);
    const ipt::Image img = image<T>(a.rows, a.cols, values, a.channels);
    for (const std::vector<double>& t : {std::vector<double>{2.3, -1.7}, std::vector<double>{-0.25, 4.6}})
        for (const char* m : {"nearest", "linear", "cubic"}) {
            const double ref[6] = {double(a.rows), double(a.cols), 0.5, a.cols + 0.5, 0.5, a.rows + 0.5};
            auto inverse = [&](double x, double y, double* uu, double* vv) {
                *uu = x - t[0];
                *vv = y - t[1];
            };
            const warp_reference::Planes want = warp_reference::warp(a, ref, inverse, m, {3, 5, 1});
            const std::vector<T> got = translate(img, t, m, "same", {3, 5, 1}).download<T>();
            ASSERT_EQ(got.size(), want.v.size());
            for (size_t e = 0; e < got.size(); ++e) {
                EXPECT_NEAR(static_cast<double>(got[e]), warp_reference::in_class<T>(want.v[e]), tol) << m << " " << e;
            }
        }
}

TEST(Imtranslate, DoubleAgainstBruteForce) { against_reference<double>(-1, 2, 1e-9); }
TEST(Imtranslate, Uint8AgainstBruteForce) { against_reference<uint8_t>(0, 255, 1); }
TEST(Imtranslate, Int32AgainstBruteForce) { against_reference<int32_t>(-1e9, 1e9, 1); }

TEST(Imtranslate, LogicalAndEmpty) {
    const ipt::Image a = ipt_test::logical(1, 3, {1, 0, 1});
    EXPECT_EQ(translate(a, {1, 0}, "nearest").download<uint8_t>(), (std::vector<uint8_t>{0, 1, 0}));
    // 0.5 * 1 + 0.5 * 0 rounds to 1.
    EXPECT_EQ(translate(a, {0.5, 0}).download<uint8_t>(), (std::vector<uint8_t>{1, 1, 1}));
    ipt::Image e = translate(image<float>(0, 4, {}), {1, 1});
    EXPECT_EQ(e.rows(), 0);
    EXPECT_EQ(e.cols(), 4);
}

}  // namespace
