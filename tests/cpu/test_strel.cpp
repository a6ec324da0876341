// SPDX-License-Identifier: Apache-2.0
// ipt.strel against MATLAB's documented shapes and sizes
// (docs/matlab-semantics.md#strel; MathWorks strel documentation), and the decomposition checked by an
// independent Minkowski sum of its channels.
#include <set>
#include <utility>

#include "morph_reference.hpp"

using morph_test::Mask;

namespace {

struct StrelResult {
    Mask nhood;
    std::vector<Mask> factors;
};

template <class Setup>
StrelResult strel(const std::string& shape, Setup&& setup) {
    ipt::Call call(ipt_test::context(), "ipt.strel");
    call.option("shape", shape);
    setup(call);
    call.want("decomposition");
    call.run();
    StrelResult out;
    ipt::Image nh = call.take("nhood");
    EXPECT_EQ(nh.dtype(), IPT_LOGICAL);
    out.nhood = morph_test::download<bool>(nh);
    ipt::Image dec = call.take("decomposition");
    EXPECT_EQ(dec.dtype(), IPT_LOGICAL);
    EXPECT_EQ(dec.rows(), out.nhood.rows);
    EXPECT_EQ(dec.cols(), out.nhood.cols);
    std::vector<uint8_t> all(static_cast<size_t>(dec.numel()));
    if (!all.empty()) dec.download(all.data());
    const size_t plane = static_cast<size_t>(out.nhood.rows * out.nhood.cols);
    for (int64_t ch = 0; ch < dec.channels(); ++ch) {
        Mask f(out.nhood.rows, out.nhood.cols);
        std::copy(all.begin() + static_cast<std::ptrdiff_t>(ch * plane),
                  all.begin() + static_cast<std::ptrdiff_t>((ch + 1) * plane), f.v.begin());
        out.factors.push_back(f);
    }
    return out;
}

using OffsetSet = std::set<std::pair<int64_t, int64_t>>;

OffsetSet offsets(const Mask& m) {
    OffsetSet s;
    for (int64_t r = 0; r < m.rows; ++r)
        for (int64_t c = 0; c < m.cols; ++c)
            if (m(r, c)) s.insert({r - morph_test::centre(m.rows), c - morph_test::centre(m.cols)});
    return s;
}

int64_t count(const Mask& m) {
    int64_t n = 0;
    for (auto b : m.v) n += b != 0;
    return n;
}

// Dilating by each factor in turn (padded by the whole extent) equals dilating
// by the Minkowski sum of the factors: that sum must be the neighbourhood.
void expect_decomposition_composes(const StrelResult& s) {
    ASSERT_FALSE(s.factors.empty());
    OffsetSet sum{{0, 0}};
    for (const Mask& f : s.factors) {
        OffsetSet next;
        for (const auto& a : sum)
            for (const auto& b : offsets(f)) next.insert({a.first + b.first, a.second + b.second});
        sum = next;
    }
    EXPECT_EQ(sum, offsets(s.nhood));
}

Mask from_rows(const std::vector<std::string>& rows) {
    Mask m(static_cast<int64_t>(rows.size()), static_cast<int64_t>(rows[0].size()));
    for (size_t r = 0; r < rows.size(); ++r)
        for (size_t c = 0; c < rows[r].size(); ++c) m(static_cast<int64_t>(r), static_cast<int64_t>(c)) = rows[r][c] == '1';
    return m;
}

}  // namespace

TEST(Strel, SquareAndRectangle) {
    auto s3 = strel("square", [](ipt::Call& c) { c.integer("w", 3); });
    EXPECT_TRUE(morph_test::same(s3.nhood, morph_test::ones(3, 3)));
    // MATLAB decomposes an all-ones nhood only when prod/sum >= 2: 9/6 < 2.
    EXPECT_EQ(s3.factors.size(), 1u);

    auto s4 = strel("square", [](ipt::Call& c) { c.integer("w", 4); });
    EXPECT_TRUE(morph_test::same(s4.nhood, morph_test::ones(4, 4)));
    ASSERT_EQ(s4.factors.size(), 2u);  // a column, then a row, through the origin (1-based (2,2))
    EXPECT_TRUE(morph_test::same(s4.factors[0], from_rows({"0100", "0100", "0100", "0100"})));
    EXPECT_TRUE(morph_test::same(s4.factors[1], from_rows({"0000", "1111", "0000", "0000"})));
    expect_decomposition_composes(s4);

    auto r25 = strel("rectangle", [](ipt::Call& c) { c.numbers("size", {2, 5}); });
    EXPECT_TRUE(morph_test::same(r25.nhood, morph_test::ones(2, 5)));
    EXPECT_EQ(r25.factors.size(), 1u);  // 10/7 < 2
    auto r46 = strel("rectangle", [](ipt::Call& c) { c.numbers("size", {4, 6}); });
    EXPECT_EQ(r46.factors.size(), 2u);
    expect_decomposition_composes(r46);

    auto empty = strel("square", [](ipt::Call& c) { c.integer("w", 0); });
    EXPECT_EQ(empty.nhood.rows, 0);
    EXPECT_EQ(empty.nhood.cols, 0);
}

TEST(Strel, Diamond) {
    auto d2 = strel("diamond", [](ipt::Call& c) { c.integer("r", 2); });
    EXPECT_TRUE(morph_test::same(d2.nhood, from_rows({"00100", "01110", "11111", "01110", "00100"})));
    EXPECT_EQ(d2.factors.size(), 1u);  // MATLAB decomposes only for r > 2
    for (int64_t r : {3, 5, 8, 11}) {
        auto d = strel("diamond", [&](ipt::Call& c) { c.integer("r", r); });
        ASSERT_EQ(d.nhood.rows, 2 * r + 1);
        for (int64_t i = 0; i < d.nhood.rows; ++i)
            for (int64_t j = 0; j < d.nhood.cols; ++j)
                EXPECT_EQ(d.nhood(i, j) != 0, std::abs(i - r) + std::abs(j - r) <= r);
        // plus, then axis points at 1, 2, ..., 2^(n-1), then at r - 2^n if > 0.
        int64_t n = 0;
        while ((int64_t{2} << n) <= r) ++n;
        EXPECT_EQ(static_cast<int64_t>(d.factors.size()), 1 + n + (r > (int64_t{1} << n) ? 1 : 0)) << r;
        expect_decomposition_composes(d);
    }
}

TEST(Strel, Octagon) {
    auto o3 = strel("octagon", [](ipt::Call& c) { c.integer("r", 3); });
    EXPECT_TRUE(morph_test::same(o3.nhood, from_rows({"0011100", "0111110", "1111111", "1111111", "1111111",
                                                      "0111110", "0011100"})));
    EXPECT_EQ(count(o3.nhood), 37);
    EXPECT_EQ(o3.factors.size(), 4u);  // four 3-point lines
    expect_decomposition_composes(o3);
    auto o6 = strel("octagon", [](ipt::Call& c) { c.integer("r", 6); });
    EXPECT_EQ(o6.nhood.rows, 13);
    EXPECT_EQ(o6.factors.size(), 8u);
    expect_decomposition_composes(o6);
    auto o0 = strel("octagon", [](ipt::Call& c) { c.integer("r", 0); });
    EXPECT_TRUE(morph_test::same(o0.nhood, morph_test::ones(1, 1)));
}

TEST(Strel, Line) {
    // Pitfall 7: sin(30 deg) = 0.49999999999999994, so y = round(1.4999999999999998) = 1.
    auto l = strel("line", [](ipt::Call& c) { c.number("len", 7).number("deg", 30); });
    EXPECT_TRUE(morph_test::same(l.nhood, from_rows({"0000011", "0011100", "1100000"})));
    EXPECT_EQ(l.factors.size(), 1u);
    // MathWorks example strel('line',10,45): a 7x7 anti-diagonal.
    auto l45 = strel("line", [](ipt::Call& c) { c.number("len", 10).number("deg", 45); });
    ASSERT_EQ(l45.nhood.rows, 7);
    ASSERT_EQ(l45.nhood.cols, 7);
    for (int64_t i = 0; i < 7; ++i)
        for (int64_t j = 0; j < 7; ++j) EXPECT_EQ(l45.nhood(i, j) != 0, i + j == 6);
    auto h = strel("line", [](ipt::Call& c) { c.number("len", 5).number("deg", 0); });
    EXPECT_TRUE(morph_test::same(h.nhood, morph_test::ones(1, 5)));
    auto v = strel("line", [](ipt::Call& c) { c.number("len", 5).number("deg", 90); });
    EXPECT_TRUE(morph_test::same(v.nhood, morph_test::ones(5, 1)));
    // Even length: x = round(1.5) = 2, so MATLAB's line of 4 at 0 degrees has 5 points.
    auto l4 = strel("line", [](ipt::Call& c) { c.number("len", 4).number("deg", 0); });
    EXPECT_TRUE(morph_test::same(l4.nhood, morph_test::ones(1, 5)));
    // -45 degrees goes down to the right.
    auto lm = strel("line", [](ipt::Call& c) { c.number("len", 3).number("deg", -45); });
    EXPECT_TRUE(morph_test::same(lm.nhood, from_rows({"100", "010", "001"})));
    // intline rounds half away from zero, symmetrically: (-2,-1) .. (2,1).
    auto l26 = strel("line", [](ipt::Call& c) { c.number("len", 5).number("deg", 26.565051177077990); });
    EXPECT_TRUE(morph_test::same(l26.nhood, from_rows({"00011", "00100", "11000"})));
    // len < 1: MATLAB's empty strel.
    auto l0 = strel("line", [](ipt::Call& c) { c.number("len", 0.5).number("deg", 0); });
    EXPECT_EQ(l0.nhood.rows, 0);
}

TEST(Strel, PeriodicLine) {
    // MathWorks example strel('periodicline',2,[1 -2]): 5 points in a 5x9 nhood.
    auto p = strel("periodicline", [](ipt::Call& c) { c.integer("P", 2).numbers("V", {1, -2}); });
    ASSERT_EQ(p.nhood.rows, 5);
    ASSERT_EQ(p.nhood.cols, 9);
    EXPECT_EQ(count(p.nhood), 5);
    for (int64_t k = -2; k <= 2; ++k) EXPECT_TRUE(p.nhood(2 + k, 4 - 2 * k)) << k;
    auto p0 = strel("periodicline", [](ipt::Call& c) { c.integer("P", 0).numbers("V", {3, 3}); });
    EXPECT_TRUE(morph_test::same(p0.nhood, morph_test::ones(1, 1)));
}

TEST(Strel, DiskSizesFromMatlab) {
    struct Case {
        int64_t r, size, pixels;
    };
    // docs/matlab-semantics.md#strel: the default n=4 disks are octagons of these sizes.
    for (Case c : {Case{3, 5, 25}, Case{5, 9, 69}, Case{7, 13, 157}, Case{10, 19, 321}}) {
        auto d = strel("disk", [&](ipt::Call& call) { call.integer("r", c.r); });
        EXPECT_EQ(d.nhood.rows, c.size) << c.r;
        EXPECT_EQ(d.nhood.cols, c.size) << c.r;
        EXPECT_EQ(count(d.nhood), c.pixels) << c.r;
        expect_decomposition_composes(d);
        // symmetric about the origin
        for (int64_t i = 0; i < d.nhood.rows; ++i)
            for (int64_t j = 0; j < d.nhood.cols; ++j)
                EXPECT_EQ(d.nhood(i, j), d.nhood(d.nhood.rows - 1 - i, d.nhood.cols - 1 - j));
    }
    auto d3 = strel("disk", [](ipt::Call& call) { call.integer("r", 3); });
    EXPECT_TRUE(morph_test::same(d3.nhood, morph_test::ones(5, 5)));
    // r=5: four periodic lines, then lines of 3 at 0 and 90 degrees.
    auto d5 = strel("disk", [](ipt::Call& call) { call.integer("r", 5); });
    EXPECT_EQ(d5.factors.size(), 6u);
}

TEST(Strel, DiskOtherN) {
    for (int n : {6, 8})
        for (int64_t r : {3, 4, 6, 9, 15}) {
            auto d = strel("disk", [&](ipt::Call& call) { call.integer("r", r).integer("n", n); });
            EXPECT_EQ(static_cast<int64_t>(d.factors.size()) >= n, true);
            expect_decomposition_composes(d);
            EXPECT_LE(d.nhood.rows, 2 * r + 1);
            EXPECT_EQ(d.nhood.rows, d.nhood.cols);
        }
}

TEST(Strel, DiskExactAndSmallRadius) {
    for (int64_t r : {0, 1, 2, 5, 8}) {
        const int n = r < 3 ? 4 : 0;  // r < 3 forces n = 0 even when 4 is asked for
        auto d = strel("disk", [&](ipt::Call& call) { call.integer("r", r).integer("n", n); });
        ASSERT_EQ(d.nhood.rows, 2 * r + 1);
        for (int64_t i = -r; i <= r; ++i)
            for (int64_t j = -r; j <= r; ++j) EXPECT_EQ(d.nhood(i + r, j + r) != 0, i * i + j * j <= r * r);
        EXPECT_EQ(d.factors.size(), 1u);
    }
    auto d1 = strel("disk", [](ipt::Call& call) { call.integer("r", 1); });
    EXPECT_TRUE(morph_test::same(d1.nhood, from_rows({"010", "111", "010"})));
}

TEST(Strel, Arbitrary) {
    const Mask in = morph_test::mask(2, 3, {1, 0, 1, 0, 1, 0});
    ipt::Image img = morph_test::upload(in);
    auto a = strel("arbitrary", [&](ipt::Call& c) { c.image("nhood_in", img); });
    EXPECT_TRUE(morph_test::same(a.nhood, in));
    EXPECT_EQ(a.factors.size(), 1u);
    ipt::Image full = morph_test::upload(morph_test::ones(5, 5));
    auto f = strel("arbitrary", [&](ipt::Call& c) { c.image("nhood_in", full); });
    EXPECT_EQ(f.factors.size(), 2u);  // 25/10 >= 2
    expect_decomposition_composes(f);
}

TEST(Strel, NhoodOnlyWhenDecompositionNotWanted) {
    ipt::Call call(ipt_test::context(), "ipt.strel");
    call.option("shape", "disk").integer("r", 7).run();
    ipt::Image nh = call.take("nhood");
    EXPECT_EQ(nh.rows(), 13);
}

TEST(Strel, BadInput) {
    auto run = [](const std::string& shape, auto setup) {
        ipt::Call call(ipt_test::context(), "ipt.strel");
        call.option("shape", shape);
        setup(call);
        call.run();
    };
    IPT_EXPECT_ERROR(run("disk", [](ipt::Call& c) { c.integer("r", -1); }), IPT_ERR_INVALID_ARGUMENT, "'r'");
    IPT_EXPECT_ERROR(run("octagon", [](ipt::Call& c) { c.integer("r", 4); }), IPT_ERR_INVALID_ARGUMENT, "'r'");
    IPT_EXPECT_ERROR(run("disk", [](ipt::Call&) {}), IPT_ERR_INVALID_ARGUMENT, "'r'");
    IPT_EXPECT_ERROR(run("square", [](ipt::Call& c) { c.integer("r", 3); }), IPT_ERR_INVALID_ARGUMENT, "'w'");
    IPT_EXPECT_ERROR(run("disk", [](ipt::Call& c) { c.integer("r", 3).integer("w", 3); }),
                     IPT_ERR_INVALID_ARGUMENT, "'w'");
    IPT_EXPECT_ERROR(run("disk", [](ipt::Call& c) { c.integer("r", 3).integer("n", 5); }), IPT_ERR_INVALID_ARGUMENT,
                     "'n'");
    IPT_EXPECT_ERROR(run("line", [](ipt::Call& c) { c.number("len", 3); }), IPT_ERR_INVALID_ARGUMENT, "'deg'");
    IPT_EXPECT_ERROR(run("periodicline", [](ipt::Call& c) { c.integer("P", 2).numbers("V", {1.5, 0}); }),
                     IPT_ERR_INVALID_ARGUMENT, "'V'");
    IPT_EXPECT_ERROR(run("arbitrary", [](ipt::Call&) {}), IPT_ERR_INVALID_ARGUMENT, "'nhood_in'");
}
