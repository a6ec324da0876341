// SPDX-License-Identifier: Apache-2.0
// Structuring elements exactly as MATLAB's strel builds them
// (docs/matlab-semantics.md#strel, #centre and #angles), with their
// decompositions. Header only and host only: every backend builds the
// neighbourhood and the factor list here, then runs its own kernels.
//
// Conventions:
//  - A mask is row-major; its origin (centre) is floor((size+1)/2), 1-based,
//    in each dimension, i.e. index (size+1)/2 - 1 0-based.
//  - An offset is (dr, dc) relative to that origin.
//  - Floating-point steps (line angles, the disk's radial extent) are written
//    in the order MATLAB evaluates them; compile without FMA contraction
//    (ISO C++ mode, the default here) so the roundings are the same.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace ipt::common {

struct StrelOffset {
    int64_t dr = 0, dc = 0;
    friend bool operator==(const StrelOffset&, const StrelOffset&) = default;
    friend bool operator<(const StrelOffset& a, const StrelOffset& b) {
        return a.dr != b.dr ? a.dr < b.dr : a.dc < b.dc;
    }
};

// A 2-D neighbourhood of 0/1 bytes, row-major.
struct StrelMask {
    int64_t rows = 0, cols = 0;
    std::vector<uint8_t> bits;

    StrelMask() = default;
    StrelMask(int64_t r, int64_t c) : rows(r), cols(c), bits(static_cast<size_t>(r * c), 0) {}

    bool at(int64_t r, int64_t c) const { return bits[static_cast<size_t>(r * cols + c)] != 0; }
    void set(int64_t r, int64_t c, bool v = true) {
        bits[static_cast<size_t>(r * cols + c)] = v ? 1 : 0;
    }
    int64_t origin_row() const { return (rows + 1) / 2 - 1; }
    int64_t origin_col() const { return (cols + 1) / 2 - 1; }
    int64_t count() const {
        int64_t n = 0;
        for (uint8_t b : bits) n += b != 0;
        return n;
    }
    bool empty() const { return rows == 0 || cols == 0; }
    friend bool operator==(const StrelMask&, const StrelMask&) = default;
};

// Offsets of the set elements relative to the origin, in row-major order.
inline std::vector<StrelOffset> strel_offsets(const StrelMask& m) {
    std::vector<StrelOffset> out;
    const int64_t r0 = m.origin_row(), c0 = m.origin_col();
    for (int64_t r = 0; r < m.rows; ++r)
        for (int64_t c = 0; c < m.cols; ++c)
            if (m.at(r, c)) out.push_back({r - r0, c - c0});
    return out;
}

// The smallest odd, origin-centred mask that holds the offsets (the box MATLAB
// builds for lines and periodic lines: 2*max|r|+1 by 2*max|c|+1).
inline StrelMask strel_mask_from_offsets(const std::vector<StrelOffset>& offsets) {
    int64_t hr = 0, hc = 0;
    for (const auto& o : offsets) {
        hr = std::max(hr, std::abs(o.dr));
        hc = std::max(hc, std::abs(o.dc));
    }
    StrelMask m(2 * hr + 1, 2 * hc + 1);
    for (const auto& o : offsets) m.set(o.dr + hr, o.dc + hc);
    return m;
}

// The set {-d : d in mask} as a mask of the same size whose origin is that of
// an even-size mask too: dilation uses the reflected SE (docs/matlab-semantics.md#dilation-reflects). Returned
// as an offset list because a reflected even-size mask has no centred box.
inline std::vector<StrelOffset> strel_reflected_offsets(const StrelMask& m) {
    std::vector<StrelOffset> out = strel_offsets(m);
    for (auto& o : out) o = {-o.dr, -o.dc};
    std::sort(out.begin(), out.end());
    return out;
}

// Minkowski sum of offset sets (what MATLAB's imdilate(1, seq, 'full') > 0
// computes for a sequence of flat SEs). Sorted, without duplicates.
inline std::vector<StrelOffset> strel_minkowski_sum(const std::vector<StrelOffset>& a,
                                                    const std::vector<StrelOffset>& b) {
    std::vector<StrelOffset> out;
    out.reserve(a.size() * b.size());
    for (const auto& x : a)
        for (const auto& y : b) out.push_back({x.dr + y.dr, x.dc + y.dc});
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
    return out;
}

// An arithmetic progression of offsets: start + k*step, k = 0..count-1 (a
// line or periodic line, in any direction). Lines are the factors every
// backend runs with running max/min algorithms.
struct StrelLine {
    StrelOffset start, step;
    int64_t count = 0;
};

// The progression an offset set forms, if it forms one (count >= 1; a single
// offset has step (0,0)). The set must be sorted (row-major order).
inline std::optional<StrelLine> strel_as_line(const std::vector<StrelOffset>& sorted) {
    if (sorted.empty()) return std::nullopt;
    StrelLine line{sorted.front(), {0, 0}, static_cast<int64_t>(sorted.size())};
    if (sorted.size() == 1) return line;
    line.step = {sorted[1].dr - sorted[0].dr, sorted[1].dc - sorted[0].dc};
    for (size_t i = 2; i < sorted.size(); ++i)
        if (sorted[i].dr - sorted[i - 1].dr != line.step.dr ||
            sorted[i].dc - sorted[i - 1].dc != line.step.dc)
            return std::nullopt;
    return line;
}

// A structuring element: the neighbourhood and its decomposition. A strel
// that MATLAB does not decompose has one factor, the neighbourhood itself.
// Dilating by each factor in turn (with the image padded by the whole
// extent, as MATLAB does) equals dilating by the neighbourhood.
struct Strel {
    StrelMask nhood;
    std::vector<StrelMask> factors;
};

// ---- construction ----------------------------------------------------------

namespace strel_detail {

inline StrelMask full(int64_t rows, int64_t cols) {
    StrelMask m(rows, cols);
    std::fill(m.bits.begin(), m.bits.end(), uint8_t{1});
    return m;
}

// MATLAB's intline(x1, x2, y1, y2): integer points from (x1,y1) to (x2,y2),
// stepping along the major axis and rounding the other coordinate half away
// from zero, computed as y1 + m*(x - x1) in double.
inline void intline(int64_t x1, int64_t x2, int64_t y1, int64_t y2, std::vector<int64_t>& xs,
                    std::vector<int64_t>& ys) {
    xs.clear();
    ys.clear();
    const int64_t dx = std::abs(x2 - x1), dy = std::abs(y2 - y1);
    if (dx == 0 && dy == 0) {
        xs.push_back(x1);
        ys.push_back(y1);
        return;
    }
    if (dx >= dy) {
        if (x1 > x2) {
            std::swap(x1, x2);
            std::swap(y1, y2);
        }
        const double m = static_cast<double>(y2 - y1) / static_cast<double>(x2 - x1);
        for (int64_t x = x1; x <= x2; ++x) {
            xs.push_back(x);
            ys.push_back(static_cast<int64_t>(
                std::round(static_cast<double>(y1) + m * static_cast<double>(x - x1))));
        }
    } else {
        if (y1 > y2) {
            std::swap(x1, x2);
            std::swap(y1, y2);
        }
        const double m = static_cast<double>(x2 - x1) / static_cast<double>(y2 - y1);
        for (int64_t y = y1; y <= y2; ++y) {
            ys.push_back(y);
            xs.push_back(static_cast<int64_t>(
                std::round(static_cast<double>(x1) + m * static_cast<double>(y - y1))));
        }
    }
    // MATLAB flips the point order when it swapped the ends; the set is the same.
}

// A 3x3 mask from 9 row-major bits.
inline StrelMask mask3(const uint8_t (&b)[9]) {
    StrelMask m(3, 3);
    for (int i = 0; i < 9; ++i) m.bits[static_cast<size_t>(i)] = b[i];
    return m;
}

// Four points at distance d on the axes, without the centre (MATLAB's
// diamond factors), in a (2d+1)-square mask.
inline StrelMask axis_points(int64_t d) {
    StrelMask m(2 * d + 1, 2 * d + 1);
    m.set(0, d);
    m.set(2 * d, d);
    m.set(d, 0);
    m.set(d, 2 * d);
    return m;
}

}  // namespace strel_detail

// strel(nhood) / 'arbitrary': MATLAB decomposes an all-ones neighbourhood into
// a column and a row when prod(size)/sum(size) >= 2 (its speed heuristic).
inline Strel make_strel_arbitrary(const StrelMask& nhood) {
    Strel s{nhood, {}};
    for (auto& b : s.nhood.bits) b = b != 0;
    const bool all_ones = !nhood.empty() && nhood.count() == nhood.rows * nhood.cols;
    if (all_ones && static_cast<double>(nhood.rows * nhood.cols) /
                            static_cast<double>(nhood.rows + nhood.cols) >=
                        2.0) {
        s.factors.push_back(strel_detail::full(nhood.rows, 1));
        s.factors.push_back(strel_detail::full(1, nhood.cols));
    } else {
        s.factors.push_back(s.nhood);
    }
    return s;
}

inline Strel make_strel_rectangle(int64_t rows, int64_t cols) {
    return make_strel_arbitrary(strel_detail::full(rows, cols));
}

inline Strel make_strel_square(int64_t w) { return make_strel_rectangle(w, w); }

// |x|+|y| <= r on -r:r; for r > 2 MATLAB's logarithmic decomposition (van den
// Boomgaard and van Balen): a 3x3 plus, then four axis points at 1, 2, 4, ...,
// 2^(n-1) with n = floor(log2 r), then at r - 2^n if that is > 0.
inline Strel make_strel_diamond(int64_t r) {
    Strel s;
    s.nhood = StrelMask(2 * r + 1, 2 * r + 1);
    for (int64_t i = -r; i <= r; ++i)
        for (int64_t j = -r; j <= r; ++j)
            if (std::abs(i) + std::abs(j) <= r) s.nhood.set(i + r, j + r);
    if (r > 2) {
        s.factors.push_back(strel_detail::mask3({0, 1, 0, 1, 1, 1, 0, 1, 0}));
        int64_t n = 0;
        while ((int64_t{2} << n) <= r) ++n;  // n = floor(log2(r))
        for (int64_t k = 0; k < n; ++k) s.factors.push_back(strel_detail::axis_points(int64_t{1} << k));
        const int64_t q = r - (int64_t{1} << n);
        if (q > 0) s.factors.push_back(strel_detail::axis_points(q));
    } else {
        s.factors.push_back(s.nhood);
    }
    return s;
}

// r a multiple of 3 (the caller checks): |x|+|y| <= r + r/3 on -r:r,
// decomposed into r/3 repetitions of the four 3-point lines (horizontal,
// vertical, diagonal, anti-diagonal).
inline Strel make_strel_octagon(int64_t r) {
    const int64_t k = r / 3;
    Strel s;
    s.nhood = StrelMask(2 * r + 1, 2 * r + 1);
    for (int64_t i = -r; i <= r; ++i)
        for (int64_t j = -r; j <= r; ++j)
            if (std::abs(i) + std::abs(j) <= r + k) s.nhood.set(i + r, j + r);
    if (k >= 1) {
        for (int64_t i = 0; i < k; ++i) {
            s.factors.push_back(strel_detail::mask3({0, 0, 0, 1, 1, 1, 0, 0, 0}));
            s.factors.push_back(strel_detail::mask3({0, 1, 0, 0, 1, 0, 0, 1, 0}));
            s.factors.push_back(strel_detail::mask3({1, 0, 0, 0, 1, 0, 0, 0, 1}));
            s.factors.push_back(strel_detail::mask3({0, 0, 1, 0, 1, 0, 1, 0, 0}));
        }
    } else {
        s.factors.push_back(s.nhood);
    }
    return s;
}

// strel('line', len, deg): theta = deg*pi/180, x = round((len-1)/2*cos theta),
// y = -round((len-1)/2*sin theta), then intline from (-x,-y) to (x,y).
// len < 1 gives MATLAB's empty strel (0x0).
inline Strel make_strel_line(double len, double deg) {
    Strel s;
    if (!(len >= 1)) {
        s.factors.push_back(s.nhood);
        return s;
    }
    const double theta = deg * 3.141592653589793 / 180.0;
    const double half = (len - 1) / 2;
    const auto x = static_cast<int64_t>(std::round(half * std::cos(theta)));
    const auto y = -static_cast<int64_t>(std::round(half * std::sin(theta)));
    std::vector<int64_t> cs, rs;
    strel_detail::intline(-x, x, -y, y, cs, rs);
    std::vector<StrelOffset> offsets;
    for (size_t i = 0; i < cs.size(); ++i) offsets.push_back({rs[i], cs[i]});
    s.nhood = strel_mask_from_offsets(offsets);
    s.factors.push_back(s.nhood);
    return s;
}

// strel('periodicline', p, [vr vc]): the 2p+1 points k*v, k = -p..p.
inline Strel make_strel_periodicline(int64_t p, int64_t vr, int64_t vc) {
    std::vector<StrelOffset> offsets;
    for (int64_t k = -p; k <= p; ++k) offsets.push_back({k * vr, k * vc});
    Strel s;
    s.nhood = strel_mask_from_offsets(offsets);
    s.factors.push_back(s.nhood);
    return s;
}

// strel('disk', r, n). n = 0 (or r < 3): x^2 + y^2 <= r^2. n = 4, 6, 8: the
// radial decomposition into n periodic lines (Adams; Jones and Soille) with
// p = floor(k/|v|), k = 2r/(cot(theta) + 1/sin(theta)), theta = pi/(2n), then
// a horizontal and a vertical line of length 2*(r - rmax - 1) + 1 when that is
// at least 3, where rmax is the largest row offset of the periodic-line sum.
inline Strel make_strel_disk(int64_t r, int n) {
    if (r < 3) n = 0;
    Strel s;
    if (n == 0) {
        s.nhood = StrelMask(2 * r + 1, 2 * r + 1);
        for (int64_t i = -r; i <= r; ++i)
            for (int64_t j = -r; j <= r; ++j)
                if (i * i + j * j <= r * r) s.nhood.set(i + r, j + r);
        s.factors.push_back(s.nhood);
        return s;
    }
    static const int64_t v4[][2] = {{1, 0}, {1, 1}, {0, 1}, {-1, 1}};
    static const int64_t v6[][2] = {{1, 0}, {1, 2}, {2, 1}, {0, 1}, {-1, 2}, {-2, 1}};
    static const int64_t v8[][2] = {{1, 0}, {2, 1},  {1, 1},  {1, 2},
                                    {0, 1}, {-1, 2}, {-1, 1}, {-2, 1}};
    const int64_t(*v)[2] = n == 4 ? v4 : n == 6 ? v6 : v8;
    if (n != 4 && n != 6 && n != 8) throw std::invalid_argument("strel disk: n must be 0, 4, 6 or 8");

    const double pi = 3.141592653589793;
    const double theta = pi / (2 * n);
    const double k = 2 * static_cast<double>(r) / (1.0 / std::tan(theta) + 1.0 / std::sin(theta));

    std::vector<StrelOffset> sum{{0, 0}};
    int64_t half_rows = 0, half_cols = 0;  // extent of the 'full' dilation
    for (int q = 0; q < n; ++q) {
        const double norm = std::sqrt(static_cast<double>(v[q][0] * v[q][0] + v[q][1] * v[q][1]));
        const auto p = static_cast<int64_t>(std::floor(k / norm));
        Strel line = make_strel_periodicline(p, v[q][0], v[q][1]);
        half_rows += line.nhood.rows / 2;
        half_cols += line.nhood.cols / 2;
        sum = strel_minkowski_sum(sum, strel_offsets(line.nhood));
        s.factors.push_back(std::move(line.nhood));
    }
    int64_t max_row = 0;
    for (const auto& o : sum) max_row = std::max(max_row, o.dr);
    const int64_t len = 2 * (r - max_row - 1) + 1;
    if (len >= 3) {
        Strel horizontal = make_strel_line(static_cast<double>(len), 0);
        Strel vertical = make_strel_line(static_cast<double>(len), 90);
        for (Strel* line : {&horizontal, &vertical}) {
            half_rows += line->nhood.rows / 2;
            half_cols += line->nhood.cols / 2;
            sum = strel_minkowski_sum(sum, strel_offsets(line->nhood));
            s.factors.push_back(line->nhood);
        }
    }
    s.nhood = StrelMask(2 * half_rows + 1, 2 * half_cols + 1);
    for (const auto& o : sum) s.nhood.set(o.dr + half_rows, o.dc + half_cols);
    return s;
}

// A factor placed in a mask of the neighbourhood's size with origins aligned
// (the layout of the 'decomposition' output). Throws if it does not fit.
inline StrelMask strel_factor_in_frame(const StrelMask& factor, const StrelMask& frame) {
    StrelMask out(frame.rows, frame.cols);
    for (const auto& o : strel_offsets(factor)) {
        const int64_t r = frame.origin_row() + o.dr, c = frame.origin_col() + o.dc;
        if (r < 0 || r >= frame.rows || c < 0 || c >= frame.cols)
            throw std::logic_error("strel factor does not fit in the neighbourhood frame");
        out.set(r, c);
    }
    return out;
}

// ---- recognising a neighbourhood -------------------------------------------

// If the offset set (sorted) equals the neighbourhood of one of MATLAB's
// decomposed strels (disk with n = 4, 6, 8; diamond; octagon), returns that
// strel's factors, each as a sorted offset set. Kernels that receive only a
// neighbourhood use this to run the cheap decomposition; the result is exact
// because the Minkowski sum of the factors is the set.
inline std::optional<std::vector<std::vector<StrelOffset>>> strel_known_decomposition(
    const std::vector<StrelOffset>& sorted) {
    if (sorted.size() < 9) return std::nullopt;
    int64_t hr = 0, hc = 0;
    for (const auto& o : sorted) {
        hr = std::max(hr, std::abs(o.dr));
        hc = std::max(hc, std::abs(o.dc));
    }
    if (hr != hc) return std::nullopt;
    auto try_strel = [&](const Strel& s) -> std::optional<std::vector<std::vector<StrelOffset>>> {
        if (s.factors.size() < 2) return std::nullopt;
        std::vector<StrelOffset> offsets = strel_offsets(s.nhood);
        std::sort(offsets.begin(), offsets.end());
        if (offsets != sorted) return std::nullopt;
        std::vector<std::vector<StrelOffset>> factors;
        for (const auto& f : s.factors) {
            auto o = strel_offsets(f);
            std::sort(o.begin(), o.end());
            factors.push_back(std::move(o));
        }
        return factors;
    };
    // A decomposed disk of radius r spans 2r-1 (lines added) or 2*rmax+1 with
    // rmax in {r-1, r}: r is hr or hr+1.
    for (int n : {4, 6, 8})
        for (int64_t r : {hr + 1, hr})
            if (r >= 3)
                if (auto f = try_strel(make_strel_disk(r, n))) return f;
    if (auto f = try_strel(make_strel_diamond(hr))) return f;
    if (hr % 3 == 0)
        if (auto f = try_strel(make_strel_octagon(hr))) return f;
    return std::nullopt;
}

}  // namespace ipt::common
