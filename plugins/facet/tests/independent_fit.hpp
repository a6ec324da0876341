// SPDX-License-Identifier: Apache-2.0
// An independent implementation of the robust facet fit for the tests,
// written from the definition in docs/facet.md without the plugin's code:
// sorted medians, Huber weights min(1, c/|e|), and each weighted least-squares
// step solved through the normal equations Phi'W Phi a = Phi'W d in long
// double with Gauss-Jordan elimination (partial pivoting). It agrees with the
// plugin's Householder QR to rounding, not bit for bit.
#ifndef FACET_TESTS_INDEPENDENT_FIT_HPP
#define FACET_TESTS_INDEPENDENT_FIT_HPP

#include <algorithm>
#include <array>
#include <cmath>
#include <utility>
#include <vector>

namespace facet_test {

// Exponents (of r, of c) of the ten monomials, in the plugin's documented order.
inline const std::array<std::pair<int, int>, 10> kExponents = {
    {{0, 0}, {1, 0}, {0, 1}, {2, 0}, {1, 1}, {0, 2}, {3, 0}, {2, 1}, {1, 2}, {0, 3}}};

struct IndependentResult {
    double coef[10] = {};
    int degree = 0;
    double quality[4] = {};  // per degree tried
    int tried = 0;           // degrees 0..tried-1 were fitted
};

inline double sorted_median(std::vector<double> v) {
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

// window: w*w values, row-major, centre at (w/2, w/2).
inline IndependentResult independent_fit(const std::vector<double>& d, int w, int max_degree, int max_iter,
                                         double eps, double tuning) {
    const int n = w * w, h = w / 2;
    auto phi = [&](int i, int k) {
        const double r = i / w - h, c = i % w - h;
        return std::pow(r, kExponents[k].first) * std::pow(c, kExponents[k].second);
    };
    auto scale_of = [&](const std::vector<double>& res) {
        std::vector<double> a(res.size());
        for (size_t i = 0; i < res.size(); ++i) a[i] = std::fabs(res[i]);
        return 1.4826 * sorted_median(a);
    };
    auto quality = [&](double s, int p) { return std::max(s, eps) * std::sqrt(double(n) / double(n - p)); };

    IndependentResult out;
    std::vector<double> a(10, 0.0), res(n);
    a[0] = sorted_median(d);
    for (int i = 0; i < n; ++i) res[i] = d[i] - a[0];
    double s = scale_of(res);
    out.coef[0] = a[0];
    out.quality[0] = quality(s, 1);
    out.tried = 1;
    double best = out.quality[0];

    for (int deg = 1; deg <= max_degree && s > eps; ++deg) {
        const int p = (deg + 1) * (deg + 2) / 2;
        for (int it = 0; it < max_iter && s > eps; ++it) {
            std::vector<long double> M(p * (p + 1), 0.0L);  // augmented [Phi'W Phi | Phi'W d]
            for (int i = 0; i < n; ++i) {
                const double e = std::fabs(res[i]) / s;
                const long double wt = e <= tuning ? 1.0L : tuning / (long double)e;
                for (int r = 0; r < p; ++r) {
                    for (int c = 0; c < p; ++c) M[r * (p + 1) + c] += wt * phi(i, r) * phi(i, c);
                    M[r * (p + 1) + p] += wt * phi(i, r) * d[i];
                }
            }
            for (int col = 0; col < p; ++col) {
                int piv = col;
                for (int r = col + 1; r < p; ++r)
                    if (std::fabs((double)M[r * (p + 1) + col]) > std::fabs((double)M[piv * (p + 1) + col])) piv = r;
                for (int c = 0; c <= p; ++c) std::swap(M[col * (p + 1) + c], M[piv * (p + 1) + c]);
                for (int r = 0; r < p; ++r) {
                    if (r == col) continue;
                    const long double f = M[r * (p + 1) + col] / M[col * (p + 1) + col];
                    for (int c = col; c <= p; ++c) M[r * (p + 1) + c] -= f * M[col * (p + 1) + c];
                }
            }
            for (int k = 0; k < p; ++k) a[k] = (double)(M[k * (p + 1) + p] / M[k * (p + 1) + k]);
            for (int i = 0; i < n; ++i) {
                double f = 0;
                for (int k = 0; k < p; ++k) f += phi(i, k) * a[k];
                res[i] = d[i] - f;
            }
            s = scale_of(res);
        }
        out.quality[deg] = quality(s, p);
        out.tried = deg + 1;
        if (out.quality[deg] < best) {
            best = out.quality[deg];
            out.degree = deg;
            for (int k = 0; k < 10; ++k) out.coef[k] = k < p ? a[k] : 0.0;
        }
    }
    return out;
}

// True when the choice of degree is clear: no two qualities tried are within
// `rel` of each other (near-ties may go either way under different rounding).
inline bool clear_choice(const IndependentResult& r, double rel = 1e-6) {
    for (int i = 0; i < r.tried; ++i)
        for (int j = i + 1; j < r.tried; ++j)
            if (std::fabs(r.quality[i] - r.quality[j]) <= rel * std::max(r.quality[i], r.quality[j])) return false;
    return true;
}

// MATLAB padarray(A, [h h], 'symmetric') written out, then the window around (r, c).
inline std::vector<double> window_at(const std::vector<double>& img, int rows, int cols, int r, int c, int w) {
    const int h = w / 2;
    auto mirror = [](int k, int len) {
        // Reflect repeatedly until inside: ... 1 0 | 0 1 2 .. len-1 | len-1 len-2 ...
        while (k < 0 || k >= len) k = k < 0 ? -k - 1 : 2 * len - 1 - k;
        return k;
    };
    std::vector<double> out;
    out.reserve(w * w);
    for (int dr = -h; dr <= h; ++dr)
        for (int dc = -h; dc <= h; ++dc) out.push_back(img[mirror(r + dr, rows) * cols + mirror(c + dc, cols)]);
    return out;
}

}  // namespace facet_test

#endif  // FACET_TESTS_INDEPENDENT_FIT_HPP
