// SPDX-License-Identifier: Apache-2.0
// ipt.bwdist against MATLAB's documentation example and a brute-force nearest
// feature search for all four metrics. The implementation promises the lowest
// linear index among equally near features, so IDX is checked at every pixel,
// ties included.
#include <unistd.h>

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

struct Result {
    std::vector<float> d;
    std::vector<uint32_t> idx;
};

Result bwdist(const ipt::Image& bw, const std::string& method = "", bool want_idx = true) {
    ipt::Call call(context(), "ipt.bwdist");
    call.image("BW", bw);
    if (!method.empty()) call.option("method", method);
    if (want_idx) call.want("IDX");
    call.run();
    ipt::Image d = call.take("D");
    EXPECT_EQ(d.dtype(), IPT_SINGLE);
    EXPECT_EQ(d.rows(), bw.rows());
    EXPECT_EQ(d.cols(), bw.cols());
    Result r{d.download<float>(), {}};
    if (want_idx) {
        ipt::Image idx = call.take("IDX");
        EXPECT_EQ(idx.dtype(), IPT_UINT32);
        EXPECT_EQ(idx.rows(), bw.rows());
        EXPECT_EQ(idx.cols(), bw.cols());
        r.idx = idx.download<uint32_t>();
    }
    return r;
}

// Brute force: every pixel against every feature, in increasing column-major
// linear index, keeping the first minimum (the lowest index).
Result brute_force(const std::vector<uint8_t>& bw, int64_t rows, int64_t cols,
                   const std::string& method) {
    const double k = std::sqrt(2.0) - 1;
    Result r{std::vector<float>(rows * cols), std::vector<uint32_t>(rows * cols)};
    for (int64_t y = 0; y < rows; ++y)
        for (int64_t x = 0; x < cols; ++x) {
            double best = std::numeric_limits<double>::infinity();
            uint32_t best_idx = 0;
            for (int64_t c = 0; c < cols; ++c)
                for (int64_t rr = 0; rr < rows; ++rr) {
                    if (!bw[rr * cols + c]) continue;
                    const double dr = std::abs(double(rr - y)), dc = std::abs(double(c - x));
                    double d;
                    if (method == "cityblock") d = dr + dc;
                    else if (method == "chessboard") d = std::max(dr, dc);
                    else if (method == "quasi-euclidean") d = std::max(dr, dc) + k * std::min(dr, dc);
                    else d = dr * dr + dc * dc;  // squared; rooted below
                    if (d < best) {
                        best = d;
                        best_idx = static_cast<uint32_t>(c * rows + rr + 1);
                    }
                }
            if (method == "euclidean" || method.empty()) best = std::sqrt(best);
            r.d[y * cols + x] = static_cast<float>(best);
            r.idx[y * cols + x] = best_idx;
        }
    return r;
}

ipt::Image logical_image(int64_t rows, int64_t cols, const std::vector<uint8_t>& v) {
    return context().upload(IPT_LOGICAL, rows, cols, v.data());
}

void check_against_brute_force(const std::vector<uint8_t>& bw, int64_t rows, int64_t cols,
                               const std::string& method, const std::string& what) {
    const Result want = brute_force(bw, rows, cols, method);
    const Result got = bwdist(logical_image(rows, cols, bw), method);
    for (int64_t i = 0; i < rows * cols; ++i) {
        ASSERT_EQ(got.d[i], want.d[i]) << what << " " << method << " pixel " << i / cols << ","
                                       << i % cols;
        ASSERT_EQ(got.idx[i], want.idx[i]) << what << " " << method << " pixel " << i / cols << ","
                                           << i % cols;
    }
}

const char* kMethods[] = {"euclidean", "cityblock", "chessboard", "quasi-euclidean"};

// MathWorks' example: bw = zeros(5,5); bw(2,2) = 1; bw(4,4) = 1;
// [D,IDX] = bwdist(bw). The five pixels with r + c = 6 are equally near both
// features; MATLAB returns 7, the lower index, at all of them.
TEST(Bwdist, MatlabDocExample) {
    std::vector<uint8_t> bw(25, 0);
    bw[1 * 5 + 1] = 1;
    bw[3 * 5 + 3] = 1;
    Result r = bwdist(logical_image(5, 5, bw));
    const float s2 = std::sqrt(2.0f), s5 = std::sqrt(5.0f), s10 = std::sqrt(10.0f);
    const std::vector<float> d = {s2, 1, s2, s5, s10,  //
                                  1,  0, 1,  2,  s5,   //
                                  s2, 1, s2, 1,  s2,   //
                                  s5, 2, 1,  0,  1,    //
                                  s10, s5, s2, 1, s2};
    const std::vector<uint32_t> idx = {7, 7, 7, 7, 7,    //
                                       7, 7, 7, 7, 19,   //
                                       7, 7, 7, 19, 19,  //
                                       7, 7, 19, 19, 19, //
                                       7, 19, 19, 19, 19};
    EXPECT_EQ(r.d, d);
    EXPECT_EQ(r.idx, idx);
}

TEST(Bwdist, DocExampleOtherMetrics) {
    std::vector<uint8_t> bw(25, 0);
    bw[1 * 5 + 1] = 1;
    bw[3 * 5 + 3] = 1;
    // cityblock at (1,5) 1-based: |1-2|+|5-2| = 4 = |1-4|+|5-4|: a tie, index 7.
    Result city = bwdist(logical_image(5, 5, bw), "cityblock");
    EXPECT_EQ(city.d[0 * 5 + 4], 4.0f);
    EXPECT_EQ(city.idx[0 * 5 + 4], 7u);
    // chessboard at (1,1): max(1,1) = 1.
    Result chess = bwdist(logical_image(5, 5, bw), "chessboard");
    EXPECT_EQ(chess.d[0], 1.0f);
    EXPECT_EQ(chess.d[4 * 5 + 0], 3.0f);  // (5,1): max(3,1) to (2,2); max(1,3) to (4,4)
    EXPECT_EQ(chess.idx[4 * 5 + 0], 7u);
    // quasi-euclidean at (1,5): to (2,2) dc=3 dr=1: 3 + (sqrt2-1).
    Result quasi = bwdist(logical_image(5, 5, bw), "quasi-euclidean");
    EXPECT_EQ(quasi.d[0 * 5 + 4], static_cast<float>(3 + (std::sqrt(2.0) - 1)));
}

TEST(Bwdist, AllZeroGivesInfAndZeroIndex) {
    for (const char* m : kMethods) {
        Result r = bwdist(logical_image(3, 4, std::vector<uint8_t>(12, 0)), m);
        for (int i = 0; i < 12; ++i) {
            EXPECT_TRUE(std::isinf(r.d[i]) && r.d[i] > 0) << m;
            EXPECT_EQ(r.idx[i], 0u) << m;
        }
    }
}

TEST(Bwdist, AllOnesGivesZeroAndOwnIndex) {
    for (const char* m : kMethods) {
        Result r = bwdist(logical_image(3, 4, std::vector<uint8_t>(12, 1)), m);
        for (int y = 0; y < 3; ++y)
            for (int x = 0; x < 4; ++x) {
                EXPECT_EQ(r.d[y * 4 + x], 0.0f);
                EXPECT_EQ(r.idx[y * 4 + x], static_cast<uint32_t>(x * 3 + y + 1));
            }
    }
}

TEST(Bwdist, EdgeShapes) {
    for (const char* m : kMethods) {
        Result one = bwdist(logical_image(1, 1, {1}), m);
        EXPECT_EQ(one.d, std::vector<float>{0});
        EXPECT_EQ(one.idx, std::vector<uint32_t>{1});
        Result none = bwdist(logical_image(1, 1, {0}), m);
        EXPECT_TRUE(std::isinf(none.d[0]));
        EXPECT_EQ(none.idx, std::vector<uint32_t>{0});
        // 1xN and Nx1 with the feature at position 3 (1-based).
        std::vector<uint8_t> v(7, 0);
        v[2] = 1;
        Result row = bwdist(logical_image(1, 7, v), m);
        Result col = bwdist(logical_image(7, 1, v), m);
        EXPECT_EQ(row.d, (std::vector<float>{2, 1, 0, 1, 2, 3, 4})) << m;
        EXPECT_EQ(col.d, row.d) << m;
        EXPECT_EQ(row.idx, std::vector<uint32_t>(7, 3)) << m;
        EXPECT_EQ(col.idx, std::vector<uint32_t>(7, 3)) << m;
        check_against_brute_force({0, 1, 0, 0, 1, 0, 0, 0, 1}, 1, 9, m, "row");
        check_against_brute_force({0, 1, 0, 0, 1, 0, 0, 0, 1}, 9, 1, m, "column");
    }
}

TEST(Bwdist, RandomImagesAgainstBruteForce) {
    std::mt19937 rng(21);
    for (int trial = 0; trial < 40; ++trial) {
        const int64_t rows = 1 + rng() % 23, cols = 1 + rng() % 23;
        // Densities from a single feature to half the pixels; sparse images
        // give long ties.
        const unsigned density = 1 + rng() % 40;
        std::vector<uint8_t> bw(rows * cols);
        for (auto& v : bw) v = (rng() % 80) < density ? 1 : 0;
        if (trial % 5 == 0) {
            std::fill(bw.begin(), bw.end(), 0);
            bw[rng() % bw.size()] = 1;
        }
        for (const char* m : kMethods)
            check_against_brute_force(bw, rows, cols, m, "trial " + std::to_string(trial));
    }
}

TEST(Bwdist, SymmetricFeaturesTieEverywhere) {
    // Features placed symmetrically give ties on whole lines and regions.
    const int64_t rows = 17, cols = 19;
    std::vector<uint8_t> bw(rows * cols, 0);
    for (auto [r, c] : {std::pair{2, 3}, {2, 15}, {14, 3}, {14, 15}, {8, 9}}) bw[r * cols + c] = 1;
    for (const char* m : kMethods) check_against_brute_force(bw, rows, cols, m, "symmetric");
    std::vector<uint8_t> pair(rows * cols, 0);
    pair[0 * cols + 0] = pair[(rows - 1) * cols + (cols - 1)] = 1;
    for (const char* m : kMethods) check_against_brute_force(pair, rows, cols, m, "corners");
}

TEST(Bwdist, LargerImageAgainstBruteForce) {
    std::mt19937 rng(4);
    const int64_t rows = 97, cols = 131;
    std::vector<uint8_t> bw(rows * cols, 0);
    for (int i = 0; i < 60; ++i) bw[rng() % bw.size()] = 1;
    for (const char* m : kMethods) check_against_brute_force(bw, rows, cols, m, "97x131");
}

TEST(Bwdist, EveryInputClassTreatsNonzeroAsFeature) {
    const std::vector<uint8_t> mask = {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 1};
    const Result want = bwdist(logical_image(3, 4, mask));
    auto check = [&](const ipt::Image& img, const char* what) {
        const Result r = bwdist(img);
        EXPECT_EQ(r.d, want.d) << what;
        EXPECT_EQ(r.idx, want.idx) << what;
    };
    check(image<uint8_t>(3, 4, {0, 0, 9, 0, 0, 0, 0, 0, 0, 0, 0, 255}), "uint8");
    check(image<uint16_t>(3, 4, {0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 60000}), "uint16");
    check(image<int16_t>(3, 4, {0, 0, -1, 0, 0, 0, 0, 0, 0, 0, 0, -32768}), "int16");
    check(image<int32_t>(3, 4, {0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, -7}), "int32");
    check(image<uint32_t>(3, 4, {0, 0, 7, 0, 0, 0, 0, 0, 0, 0, 0, 1}), "uint32");
    check(image<float>(3, 4, {0, 0, 0.5f, 0, 0, 0, 0, -0.0f, 0, 0, 0, -2}), "single");
    const double nan = std::numeric_limits<double>::quiet_NaN();
    check(image<double>(3, 4, {0, 0, nan, 0, 0, 0, 0, 0, 0, 0, 0, 1e-300}), "double with NaN");
}

TEST(Bwdist, IndexNotWantedGivesSameDistances) {
    std::mt19937 rng(8);
    std::vector<uint8_t> bw(40 * 30, 0);
    for (int i = 0; i < 25; ++i) bw[rng() % bw.size()] = 1;
    for (const char* m : kMethods) {
        Result with = bwdist(logical_image(40, 30, bw), m, true);
        Result without = bwdist(logical_image(40, 30, bw), m, false);
        EXPECT_EQ(with.d, without.d) << m;
        EXPECT_TRUE(without.idx.empty());
    }
}

TEST(Bwdist, LargeImageSpotChecks) {
    // 600x700 with a few features: every pixel's distance and index against
    // the features directly (large enough for every thread to get rows).
    const int64_t rows = 600, cols = 700;
    std::vector<std::pair<int64_t, int64_t>> feats = {{5, 5}, {300, 350}, {599, 0}, {100, 690}, {450, 120}};
    std::vector<uint8_t> bw(rows * cols, 0);
    for (auto [r, c] : feats) bw[r * cols + c] = 1;
    Result got = bwdist(logical_image(rows, cols, bw));
    for (int64_t y = 0; y < rows; ++y)
        for (int64_t x = 0; x < cols; ++x) {
            int64_t best = -1;
            uint32_t best_idx = 0;
            for (auto [r, c] : feats) {
                const int64_t d2 = (r - y) * (r - y) + (c - x) * (c - x);
                const uint32_t idx = static_cast<uint32_t>(c * rows + r + 1);
                if (best < 0 || d2 < best || (d2 == best && idx < best_idx)) {
                    best = d2;
                    best_idx = idx;
                }
            }
            ASSERT_EQ(got.d[y * cols + x], static_cast<float>(std::sqrt(double(best)))) << y << "," << x;
            ASSERT_EQ(got.idx[y * cols + x], best_idx) << y << "," << x;
        }
}

// MATLAB: bwdist of an empty image is an empty single D (and uint32 IDX) of
// its size. The other side may be huge: nothing loops over it. Run in a child
// process that SIGALRM ends after 10 s, so a loop that never ends fails
// instead of hanging.
void bwdist_of_empty_images() {
    for (auto [rows, cols] : {std::pair<int64_t, int64_t>{int64_t{1} << 30, 0}, {0, int64_t{1} << 30},
                              {(int64_t{1} << 31) - 1, 0}, {0, (int64_t{1} << 31) - 1}, {0, 0}})
        for (std::string method : {"euclidean", "cityblock", "chessboard", "quasi-euclidean"})
            for (bool want_idx : {false, true}) {
                const ipt::Image bw = context().upload(IPT_LOGICAL, rows, cols, nullptr);
                ipt::Call call(context(), "ipt.bwdist");
                call.image("BW", bw).option("method", method);
                if (want_idx) call.want("IDX");
                call.run();
                const std::string what = method + " " + std::to_string(rows) + "x" + std::to_string(cols);
                const ipt::Image d = call.take("D");
                EXPECT_EQ(d.dtype(), IPT_SINGLE) << what;
                EXPECT_EQ(d.rows(), rows) << what;
                EXPECT_EQ(d.cols(), cols) << what;
                if (want_idx) {
                    const ipt::Image idx = call.take("IDX");
                    EXPECT_EQ(idx.dtype(), IPT_UINT32) << what;
                    EXPECT_EQ(idx.rows(), rows) << what;
                    EXPECT_EQ(idx.cols(), cols) << what;
                }
            }
}

TEST(BwdistDeathTest, EmptyImagesWithAHugeOtherSideReturnAtOnce) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    EXPECT_EXIT(
        {
            ::alarm(10);
            bwdist_of_empty_images();
            std::_Exit(::testing::Test::HasFailure() ? 1 : 0);
        },
        ::testing::ExitedWithCode(0), "");
}

TEST(Bwdist, RejectsUnknownMethod) {
    const ipt::Image bw = logical_image(1, 2, {0, 1});
    ipt::Call call(context(), "ipt.bwdist");
    call.image("BW", bw);
    IPT_EXPECT_ERROR(call.option("method", "manhattan").run(), IPT_ERR_INVALID_ARGUMENT, "method");
}

}  // namespace
