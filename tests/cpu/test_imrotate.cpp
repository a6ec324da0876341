// SPDX-License-Identifier: Apache-2.0
// ipt.imrotate against rot90 written out by hand, values worked by hand and
// the independent resampler of warp_reference.hpp: the rotation
// [cos -sin; sin cos] (counter-clockwise on screen) about the world origin,
// the loose output view as imwarp's default one, 'crop' centred on I.
#include <cmath>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ipt_test.hpp"
#include "warp_reference.hpp"

namespace {

using ipt_test::image;

ipt::Image rotate(const ipt::Image& a, double angle, const std::string& method = "nearest",
                  const std::string& bbox = "loose") {
    ipt::Call call(ipt_test::context(), "ipt.imrotate");
    call.image("I", a).number("angle", angle).option("method", method).option("bbox", bbox);
    call.run();
    ipt::Image j = call.take("J");
    EXPECT_EQ(j.dtype(), a.dtype());
    EXPECT_EQ(j.channels(), a.channels());
    return j;
}

TEST(Imrotate, MultiplesOf90AreRot90) {
    const ipt::Image a = image<double>(2, 3, {1, 2, 3, 4, 5, 6});
    for (const char* m : {"nearest", "bilinear", "bicubic"}) {
        ipt::Image b = rotate(a, 90, m);
        EXPECT_EQ(b.rows(), 3);
        EXPECT_EQ(b.download<double>(), (std::vector<double>{3, 6, 2, 5, 1, 4})) << m;
        EXPECT_EQ(rotate(a, -90, m).download<double>(), (std::vector<double>{4, 1, 5, 2, 6, 3})) << m;
        EXPECT_EQ(rotate(a, 270, m).download<double>(), (std::vector<double>{4, 1, 5, 2, 6, 3})) << m;
        EXPECT_EQ(rotate(a, 180, m).download<double>(), (std::vector<double>{6, 5, 4, 3, 2, 1})) << m;
        EXPECT_EQ(rotate(a, -540, m).download<double>(), (std::vector<double>{6, 5, 4, 3, 2, 1})) << m;
        EXPECT_EQ(rotate(a, 0, m).download<double>(), (std::vector<double>{1, 2, 3, 4, 5, 6})) << m;
        EXPECT_EQ(rotate(a, 720, m, "crop").download<double>(), (std::vector<double>{1, 2, 3, 4, 5, 6})) << m;
    }
    // Inf and NaN move unchanged (no arithmetic).
    const ipt::Image s = image<float>(1, 2, {INFINITY, NAN});
    const auto r = rotate(s, 90, "bicubic").download<float>();
    EXPECT_TRUE(std::isnan(r[0]));
    EXPECT_EQ(r[1], INFINITY);
}

TEST(Imrotate, CropOf90RotatesTheCentralSquare) {
    // 2 x 3: offset |floor(2/2) - floor(3/2)| = 0; column 3 is 0.
    EXPECT_EQ(rotate(image<uint8_t>(2, 3, {1, 2, 3, 4, 5, 6}), 90, "nearest", "crop").download<uint8_t>(),
              (std::vector<uint8_t>{2, 5, 0, 1, 4, 0}));
    // 2 x 4: offset 1 along the columns.
    EXPECT_EQ(rotate(image<uint8_t>(2, 4, {1, 2, 3, 4, 5, 6, 7, 8}), 90, "bilinear", "crop").download<uint8_t>(),
              (std::vector<uint8_t>{0, 3, 7, 0, 0, 2, 6, 0}));
    // 4 x 2, clockwise: offset 1 along the rows.
    EXPECT_EQ(rotate(image<int16_t>(4, 2, {1, 2, 3, 4, 5, 6, 7, 8}), -90, "nearest", "crop").download<int16_t>(),
              (std::vector<int16_t>{0, 0, 5, 3, 6, 4, 0, 0}));
    // Square: all of it.
    EXPECT_EQ(rotate(image<uint16_t>(2, 2, {1, 2, 3, 4}), 90, "nearest", "crop").download<uint16_t>(),
              (std::vector<uint16_t>{2, 4, 1, 3}));
}

TEST(Imrotate, OnePixelAt45ByHand) {
    // The loose view is 2 x 2; every pixel centre lies 1/sqrt(2) from the
    // pixel's centre along an axis, beyond the reach of nearest.
    const ipt::Image a = image<double>(1, 1, {100});
    ipt::Image b = rotate(a, 45);
    EXPECT_EQ(b.rows(), 2);
    EXPECT_EQ(b.cols(), 2);
    EXPECT_EQ(b.download<double>(), std::vector<double>(4, 0.0));
    // Bilinear mixes the pixel with the 0 outside: 100 * (1 - 1/sqrt(2)).
    for (double v : rotate(a, 45, "bilinear").download<double>()) EXPECT_NEAR(v, 100 * (1 - std::sqrt(0.5)), 1e-12);
    // Crop keeps 1 x 1: the centre maps onto the pixel.
    EXPECT_EQ(rotate(image<uint8_t>(1, 1, {7}), 45, "bicubic", "crop").download<uint8_t>(), (std::vector<uint8_t>{7}));
}

TEST(Imrotate, LooseSizes) {
    // 100 x 200 at 30 degrees: 200 cos 30 + 100 sin 30 = 223.2 -> 224 columns,
    // 200 sin 30 + 100 cos 30 = 186.6 -> 187 rows.
    ipt::Image b = rotate(image<uint8_t>(100, 200, std::vector<uint8_t>(20000, 1)), 30);
    EXPECT_EQ(b.rows(), 187);
    EXPECT_EQ(b.cols(), 224);
    ipt::Image c = rotate(image<uint8_t>(100, 200, std::vector<uint8_t>(20000, 1)), 30, "bilinear", "crop");
    EXPECT_EQ(c.rows(), 100);
    EXPECT_EQ(c.cols(), 200);
    // An empty image comes back as it is.
    ipt::Image e = rotate(image<double>(0, 3, {}), 30);
    EXPECT_EQ(e.rows(), 0);
    EXPECT_EQ(e.cols(), 3);
}

// Against the brute force, every method and both views, three planes.
template <class T>
void against_reference(double lo, double hi, double tol) {
    std::vector<T> values;
    const warp_reference::Planes a = warp_reference::random_planes<T>(13, 17, 3, lo, hi, 7, &values);
    const ipt::Image img = image<T>(a.rows, a.cols, values, a.channels);
    // Angles whose sine and cosine put no sample on a nearest-neighbour tie.
    for (double angle : {31.0, -17.5, 100.0, 233.0}) {
        const double phi = angle * M_PI / 180, cs = std::cos(phi), sn = std::sin(phi);
        // Forward: [x y] * [cs -sn; sn cs]; inverse: the transpose.
        auto inverse = [&](double x, double y, double* uu, double* vv) {
            *uu = x * cs - y * sn;
            *vv = x * sn + y * cs;
        };
        double xs[4], ys[4];
        int k = 0;
        for (double x : {0.5, a.cols + 0.5})
            for (double y : {0.5, a.rows + 0.5}) {
                xs[k] = x * cs + y * sn;
                ys[k++] = -x * sn + y * cs;
            }
        const double x0 = *std::min_element(xs, xs + 4), x1 = *std::max_element(xs, xs + 4);
        const double y0 = *std::min_element(ys, ys + 4), y1 = *std::max_element(ys, ys + 4);
        const double nc = std::ceil(x1 - x0), nr = std::ceil(y1 - y0);
        const double loose[6] = {nr, nc, x0 - (nc - (x1 - x0)) / 2, x1 + (nc - (x1 - x0)) / 2,
                                 y0 - (nr - (y1 - y0)) / 2, y1 + (nr - (y1 - y0)) / 2};
        const double xc = (loose[2] + loose[3]) / 2, yc = (loose[4] + loose[5]) / 2;
        const double crop[6] = {double(a.rows), double(a.cols), xc - a.cols / 2.0, xc + a.cols / 2.0,
                                yc - a.rows / 2.0, yc + a.rows / 2.0};
        for (const char* m : {"nearest", "bilinear", "bicubic"})
            for (const char* bbox : {"loose", "crop"}) {
                const double* ref = std::string(bbox) == "loose" ? loose : crop;
                const warp_reference::Planes want = warp_reference::warp(a, ref, inverse, m, {0});
                const ipt::Image got = rotate(img, angle, m, bbox);
                ASSERT_EQ(got.rows(), want.rows) << angle << m << bbox;
                ASSERT_EQ(got.cols(), want.cols) << angle << m << bbox;
                const std::vector<T> g = got.download<T>();
                for (size_t e = 0; e < g.size(); ++e) {
                    EXPECT_NEAR(static_cast<double>(g[e]), warp_reference::in_class<T>(want.v[e]), tol)
                        << angle << " " << m << " " << bbox << " " << e;
                }
            }
    }
}

TEST(Imrotate, DoubleAgainstBruteForce) { against_reference<double>(-2, 3, 1e-9); }
TEST(Imrotate, SingleAgainstBruteForce) { against_reference<float>(0, 1, 1e-5); }
// Integer rounding may fall either side of a tie the brute force computes in another order.
TEST(Imrotate, Uint8AgainstBruteForce) { against_reference<uint8_t>(0, 255, 1); }
TEST(Imrotate, Int16AgainstBruteForce) { against_reference<int16_t>(-32768, 32767, 1); }

TEST(Imrotate, SaturatesBicubicOvershoot) {
    // A bright pixel beside dark ones overshoots and undershoots: uint8 stays in [0, 255].
    std::vector<uint8_t> v(49, 0);
    v[24] = 255;
    v[25] = 255;
    const auto b = rotate(image<uint8_t>(7, 7, v), 20, "bicubic").download<uint8_t>();
    const auto d = rotate(image<double>(7, 7, std::vector<double>(v.begin(), v.end())), 20, "bicubic").download<double>();
    ASSERT_EQ(b.size(), d.size());
    bool below = false;
    for (size_t k = 0; k < b.size(); ++k) {
        below = below || d[k] < 0;
        EXPECT_EQ(b[k], static_cast<uint8_t>(std::clamp(std::round(d[k]), 0.0, 255.0))) << k;
    }
    EXPECT_TRUE(below);
}

TEST(Imrotate, Logical) {
    // Logical reads as 0 and 1; the result is true where it rounds to 1.
    const ipt::Image a = ipt_test::logical(3, 3, {0, 1, 0, 1, 1, 1, 0, 1, 0});
    ipt::Image b = rotate(a, 90);
    EXPECT_EQ(b.dtype(), IPT_LOGICAL);
    EXPECT_EQ(b.download<uint8_t>(), (std::vector<uint8_t>{0, 1, 0, 1, 1, 1, 0, 1, 0}));
    const auto d = rotate(image<double>(3, 3, {0, 1, 0, 1, 1, 1, 0, 1, 0}), 30, "bilinear").download<double>();
    const auto l = rotate(a, 30, "bilinear").download<uint8_t>();
    for (size_t k = 0; k < l.size(); ++k) EXPECT_EQ(l[k], d[k] >= 0.5 ? 1 : 0) << k;
}

}  // namespace
