// SPDX-License-Identifier: Apache-2.0
// Independent brute-force references for the morphology and order-statistic
// suites (strel, imdilate, imerode, ordfilt2, medfilt2, imregionalmax): plain
// loops over MATLAB's documented definitions, sharing no code with the
// backends. Also typed matrices that go to and from ipt::Image.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <random>
#include <string>
#include <type_traits>
#include <vector>

#include "ipt_test.hpp"

namespace morph_test {

template <class T>
using store_t = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;

// Row-major matrix of a MATLAB class (logical stored as bytes 0/1).
template <class T>
struct Mat {
    int64_t rows = 0, cols = 0;
    std::vector<store_t<T>> v;
    Mat() = default;
    Mat(int64_t r, int64_t c, store_t<T> fill = {}) : rows(r), cols(c), v(static_cast<size_t>(r * c), fill) {}
    Mat(int64_t r, int64_t c, std::vector<store_t<T>> values) : rows(r), cols(c), v(std::move(values)) {}
    store_t<T>& operator()(int64_t r, int64_t c) { return v[static_cast<size_t>(r * cols + c)]; }
    const store_t<T>& operator()(int64_t r, int64_t c) const { return v[static_cast<size_t>(r * cols + c)]; }
};
using Mask = Mat<bool>;

inline Mask mask(int64_t rows, int64_t cols, const std::vector<int>& bits) {
    EXPECT_EQ(static_cast<int64_t>(bits.size()), rows * cols);
    Mask m(rows, cols);
    for (size_t i = 0; i < m.v.size() && i < bits.size(); ++i) m.v[i] = bits[i] != 0;
    return m;
}
inline Mask ones(int64_t rows, int64_t cols) { return Mask(rows, cols, uint8_t{1}); }

template <class T>
ipt::Image upload(const Mat<T>& m) {
    return ipt_test::context().upload(ipt::dtype_of<T>(), m.rows, m.cols, m.v.data());
}

template <class T>
Mat<T> download(const ipt::Image& img) {
    EXPECT_EQ(img.dtype(), ipt::dtype_of<T>());
    Mat<T> m(img.rows(), img.cols());
    EXPECT_EQ(img.channels(), 1);
    if (!m.v.empty()) img.download(m.v.data());
    return m;
}

// Exact comparison (NaN equals NaN), reporting the first mismatch.
template <class T>
::testing::AssertionResult same(const Mat<T>& got, const Mat<T>& want) {
    if (got.rows != want.rows || got.cols != want.cols)
        return ::testing::AssertionFailure() << "size " << got.rows << "x" << got.cols << ", expected "
                                             << want.rows << "x" << want.cols;
    for (int64_t r = 0; r < got.rows; ++r)
        for (int64_t c = 0; c < got.cols; ++c) {
            const double g = static_cast<double>(got(r, c)), w = static_cast<double>(want(r, c));
            if (g == w || (std::isnan(g) && std::isnan(w))) continue;
            return ::testing::AssertionFailure() << "at (" << r << "," << c << ") got " << g << ", expected " << w;
        }
    return ::testing::AssertionSuccess();
}

// MATLAB's conversion of a double to a class: round half away from zero,
// saturate, NaN -> 0; logical: nonzero.
template <class T>
store_t<T> to_class(double v) {
    if constexpr (std::is_same_v<T, bool>) {
        return static_cast<uint8_t>(v != 0 && !std::isnan(v));
    } else if constexpr (std::is_floating_point_v<T>) {
        return static_cast<T>(v);
    } else {
        if (std::isnan(v)) return 0;
        const double r = v < 0 ? -std::floor(-v + 0.5) : std::floor(v + 0.5);
        if (r <= static_cast<double>(std::numeric_limits<T>::lowest())) return std::numeric_limits<T>::lowest();
        if (r >= static_cast<double>(std::numeric_limits<T>::max())) return std::numeric_limits<T>::max();
        return static_cast<T>(r);
    }
}

// Random values of a class. `levels` > 0 draws from that many distinct values
// (ties and plateaus); floats include negatives and fractions.
template <class T>
Mat<T> random_mat(int64_t rows, int64_t cols, std::mt19937& rng, int levels = 0) {
    Mat<T> m(rows, cols);
    for (auto& x : m.v) {
        if constexpr (std::is_same_v<T, bool>) {
            x = static_cast<uint8_t>(rng() & 1u);
        } else if (levels > 0) {
            const int k = static_cast<int>(rng() % static_cast<unsigned>(levels));
            if constexpr (std::is_signed_v<T> || std::is_floating_point_v<T>)
                x = static_cast<T>(k - levels / 2);
            else
                x = static_cast<T>(k);
        } else if constexpr (std::is_floating_point_v<T>) {
            x = static_cast<T>(std::uniform_real_distribution<double>(-100, 100)(rng));
        } else {
            std::uniform_int_distribution<int64_t> d(std::numeric_limits<T>::lowest(), std::numeric_limits<T>::max());
            x = static_cast<T>(d(rng));
        }
    }
    return m;
}

inline Mask random_mask(int64_t rows, int64_t cols, std::mt19937& rng, double p = 0.5) {
    Mask m(rows, cols);
    std::bernoulli_distribution d(p);
    for (auto& x : m.v) x = d(rng) ? 1 : 0;
    return m;
}

// 0-based centre floor((size+1)/2) - 1 (docs/matlab-semantics.md#centre).
inline int64_t centre(int64_t size) { return (size + 1) / 2 - 1; }

// dilate(p) = max over b of A(p-b) + h(b); erode(p) = min over b of A(p+b) - h(b);
// pixels outside the image and NaN values are skipped; none left: -Inf / +Inf.
template <class T>
Mat<T> ref_morph(const Mat<T>& a, const Mask& nh, bool dilate, const std::vector<double>* heights = nullptr) {
    Mat<T> out(a.rows, a.cols);
    const int64_t r0 = centre(nh.rows), c0 = centre(nh.cols);
    for (int64_t r = 0; r < a.rows; ++r)
        for (int64_t c = 0; c < a.cols; ++c) {
            double best = dilate ? -INFINITY : INFINITY;
            for (int64_t i = 0; i < nh.rows; ++i)
                for (int64_t j = 0; j < nh.cols; ++j) {
                    if (!nh(i, j)) continue;
                    const int64_t br = i - r0, bc = j - c0;
                    const int64_t qr = dilate ? r - br : r + br, qc = dilate ? c - bc : c + bc;
                    if (qr < 0 || qr >= a.rows || qc < 0 || qc >= a.cols) continue;
                    double x = static_cast<double>(a(qr, qc));
                    if (heights) {
                        const double h = (*heights)[static_cast<size_t>(i * nh.cols + j)];
                        x = dilate ? x + h : x - h;
                    }
                    if (std::isnan(x)) continue;
                    best = dilate ? std::max(best, x) : std::min(best, x);
                }
            // Logical: the -Inf / +Inf of an empty window are false / true.
            if constexpr (std::is_same_v<T, bool>)
                out(r, c) = best > 0 ? 1 : 0;
            else
                out(r, c) = to_class<T>(best);
        }
    return out;
}

enum class Pad { Zeros, Symmetric, Ones };

inline int64_t mirror(int64_t i, int64_t n) {
    while (i < 0 || i >= n) i = i < 0 ? -i - 1 : 2 * n - 1 - i;
    return i;
}

// The sorted window of ordfilt2 at (r, c): A(p + offset) (+ S), padding as
// given; sorted ascending with NaN last (MATLAB's sort).
template <class T>
std::vector<double> window(const Mat<T>& a, int64_t r, int64_t c, const Mask& dom, Pad pad,
                           const std::vector<double>* s = nullptr) {
    std::vector<double> vals;
    const int64_t r0 = centre(dom.rows), c0 = centre(dom.cols);
    for (int64_t i = 0; i < dom.rows; ++i)
        for (int64_t j = 0; j < dom.cols; ++j) {
            if (!dom(i, j)) continue;
            int64_t qr = r + i - r0, qc = c + j - c0;
            double v;
            if (qr >= 0 && qr < a.rows && qc >= 0 && qc < a.cols) {
                v = static_cast<double>(a(qr, qc));
            } else if (pad == Pad::Symmetric) {
                v = static_cast<double>(a(mirror(qr, a.rows), mirror(qc, a.cols)));
            } else {
                v = pad == Pad::Ones ? 1.0 : 0.0;
            }
            if (s) v += (*s)[static_cast<size_t>(i * dom.cols + j)];
            vals.push_back(v);
        }
    std::stable_sort(vals.begin(), vals.end(), [](double x, double y) {
        if (std::isnan(y)) return !std::isnan(x);
        return x < y;
    });
    return vals;
}

template <class T>
Mat<T> ref_ordfilt2(const Mat<T>& a, int64_t order, const Mask& dom, Pad pad) {
    Mat<T> out(a.rows, a.cols);
    for (int64_t r = 0; r < a.rows; ++r)
        for (int64_t c = 0; c < a.cols; ++c)
            out(r, c) = static_cast<store_t<T>>(window(a, r, c, dom, pad)[static_cast<size_t>(order - 1)]);
    return out;
}

template <class T>
Mat<double> ref_ordfilt2_offsets(const Mat<T>& a, int64_t order, const Mask& dom, const std::vector<double>& s,
                                 Pad pad) {
    Mat<double> out(a.rows, a.cols);
    for (int64_t r = 0; r < a.rows; ++r)
        for (int64_t c = 0; c < a.cols; ++c) out(r, c) = window(a, r, c, dom, pad, &s)[static_cast<size_t>(order - 1)];
    return out;
}

// medfilt2: odd m*n the middle order; even the two middle orders a, b combined
// as MATLAB's medfilt2 does: imlincomb(0.5, a, 0.5, b) (computed in double,
// rounded half away from zero for integers), or a | b for logical.
template <class T>
Mat<T> ref_medfilt2(const Mat<T>& a, int64_t m, int64_t n, Pad pad) {
    const Mask dom = ones(m, n);
    const int64_t count = m * n;
    Mat<T> out(a.rows, a.cols);
    for (int64_t r = 0; r < a.rows; ++r)
        for (int64_t c = 0; c < a.cols; ++c) {
            const std::vector<double> w = window(a, r, c, dom, pad);
            if (count % 2 == 1) {
                out(r, c) = static_cast<store_t<T>>(w[static_cast<size_t>(count / 2)]);
                continue;
            }
            const double lo = w[static_cast<size_t>(count / 2 - 1)], hi = w[static_cast<size_t>(count / 2)];
            if constexpr (std::is_same_v<T, bool>)
                out(r, c) = (lo != 0 || hi != 0) ? 1 : 0;
            else
                out(r, c) = to_class<T>(0.5 * lo + 0.5 * hi);
        }
    return out;
}

// Regional maxima by the definition: label every connected plateau of equal
// values (conn 4 or 8) and keep it when no pixel adjacent to it is strictly
// higher. NaN pixels belong to no plateau and are never maxima.
template <class T>
Mask ref_regionalmax(const Mat<T>& a, int conn) {
    Mask out(a.rows, a.cols);
    std::vector<int> seen(static_cast<size_t>(a.rows * a.cols), 0);
    const int dr8[] = {-1, -1, -1, 0, 0, 1, 1, 1}, dc8[] = {-1, 0, 1, -1, 1, -1, 0, 1};
    const int dr4[] = {-1, 0, 0, 1}, dc4[] = {0, -1, 1, 0};
    const int* dr = conn == 8 ? dr8 : dr4;
    const int* dc = conn == 8 ? dc8 : dc4;
    for (int64_t r = 0; r < a.rows; ++r)
        for (int64_t c = 0; c < a.cols; ++c) {
            if (seen[static_cast<size_t>(r * a.cols + c)]) continue;
            const double v = static_cast<double>(a(r, c));
            if (std::isnan(v)) continue;
            std::vector<std::pair<int64_t, int64_t>> plateau{{r, c}};
            seen[static_cast<size_t>(r * a.cols + c)] = 1;
            bool maximum = true;
            for (size_t k = 0; k < plateau.size(); ++k) {
                for (int d = 0; d < conn; ++d) {
                    const int64_t qr = plateau[k].first + dr[d], qc = plateau[k].second + dc[d];
                    if (qr < 0 || qr >= a.rows || qc < 0 || qc >= a.cols) continue;
                    const double w = static_cast<double>(a(qr, qc));
                    if (w > v) maximum = false;
                    if (w == v && !seen[static_cast<size_t>(qr * a.cols + qc)]) {
                        seen[static_cast<size_t>(qr * a.cols + qc)] = 1;
                        plateau.push_back({qr, qc});
                    }
                }
            }
            for (const auto& p : plateau) out(p.first, p.second) = maximum ? 1 : 0;
        }
    return out;
}

// ---- calls -------------------------------------------------------------------

// ipt.imdilate or ipt.imerode of A by nhood (and heights).
template <class T>
Mat<T> run_morph(const char* op, const Mat<T>& a, const Mask& nh, const std::vector<double>* heights = nullptr) {
    ipt::Call call(ipt_test::context(), op);
    ipt::Image ai = upload(a), ni = upload(nh), hi;
    call.image("A", ai).image("nhood", ni);
    if (heights) {
        hi = ipt_test::context().upload(IPT_DOUBLE, nh.rows, nh.cols, heights->data());
        call.image("heights", hi);
    }
    call.run();
    return download<T>(call.take("B"));
}

// The neighbourhood of ipt.strel (for shapes whose decomposition the
// morphology kernels recognise).
template <class Setup>
Mask strel_nhood(const std::string& shape, Setup&& setup) {
    ipt::Call call(ipt_test::context(), "ipt.strel");
    call.option("shape", shape);
    setup(call);
    call.run();
    return download<bool>(call.take("nhood"));
}

// Neighbourhoods that reach every planning route of the kernels: rectangles
// (odd, even, thin), lines in every direction, periodic lines, MATLAB's
// decomposed disks, diamonds and octagons, arbitrary and empty sets, sets
// without the origin.
inline std::vector<std::pair<std::string, Mask>> standard_nhoods() {
    std::vector<std::pair<std::string, Mask>> out;
    out.push_back({"1x1", ones(1, 1)});
    out.push_back({"3x3", ones(3, 3)});
    out.push_back({"4x4", ones(4, 4)});
    out.push_back({"2x3", ones(2, 3)});
    out.push_back({"1x2", ones(1, 2)});
    out.push_back({"1x5", ones(1, 5)});
    out.push_back({"1x12", ones(1, 12)});
    out.push_back({"9x1", ones(9, 1)});
    out.push_back({"15x15", ones(15, 15)});
    out.push_back({"6x11", ones(6, 11)});
    Mask diag(7, 7), anti(5, 5), anti_long(11, 11);
    for (int64_t i = 0; i < 7; ++i) diag(i, i) = 1;
    for (int64_t i = 0; i < 5; ++i) anti(i, 4 - i) = 1;
    for (int64_t i = 0; i < 11; ++i) anti_long(i, 10 - i) = 1;
    out.push_back({"diagonal 7", diag});
    out.push_back({"anti-diagonal 5", anti});
    out.push_back({"anti-diagonal 11", anti_long});
    out.push_back({"periodic (0,2)", mask(1, 5, {1, 0, 1, 0, 1})});
    Mask periodic(9, 5);
    for (int64_t k = -2; k <= 2; ++k) periodic(2 * k + 4, k + 2) = 1;  // k*(2,1)
    out.push_back({"periodic (2,1)", periodic});
    out.push_back({"line 7 30", strel_nhood("line", [](ipt::Call& c) { c.number("len", 7).number("deg", 30); })});
    for (int64_t r : {3, 5, 7})
        out.push_back({"disk " + std::to_string(r), strel_nhood("disk", [&](ipt::Call& c) { c.integer("r", r); })});
    out.push_back({"disk 6 n=8", strel_nhood("disk", [](ipt::Call& c) { c.integer("r", 6).integer("n", 8); })});
    out.push_back({"disk 4 n=0", strel_nhood("disk", [](ipt::Call& c) { c.integer("r", 4).integer("n", 0); })});
    out.push_back({"diamond 5", strel_nhood("diamond", [](ipt::Call& c) { c.integer("r", 5); })});
    out.push_back({"octagon 6", strel_nhood("octagon", [](ipt::Call& c) { c.integer("r", 6); })});
    out.push_back({"cross", mask(3, 3, {0, 1, 0, 1, 0, 1, 0, 1, 0})});
    out.push_back({"no origin 2x4", mask(2, 4, {0, 0, 0, 1, 1, 0, 0, 1})});
    out.push_back({"L shape", mask(3, 4, {1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1})});
    out.push_back({"empty 3x3", Mask(3, 3)});
    std::mt19937 rng(7);
    out.push_back({"random 5x7", random_mask(5, 7, rng)});
    out.push_back({"random 6x4", random_mask(6, 4, rng, 0.3)});
    return out;
}

}  // namespace morph_test
