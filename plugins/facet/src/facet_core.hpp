// SPDX-License-Identifier: Apache-2.0
// The robust variable-order facet model for one window, as plain arithmetic
// shared by the CPU reference and the CUDA kernel (header-only, no OpenIPT
// types). See docs/facet.md for the algorithm and its choices.
//
// Two drivers run the same steps:
//   - fit_reference(): one thread, one window, straight loops (the CPU plugin);
//   - fit_team():      a team of threads cooperates on one window in phases
//                      (the CUDA kernel's block-level mapping; on the host a
//                      SerialTeam runs the phases one after another, which the
//                      tests compare bit for bit with fit_reference()).
//
// Both perform the same floating-point operations in the same order: every
// sum runs over ascending indices on one thread, every other operation is an
// IEEE basic operation (+ - * / sqrt, correctly rounded on x86-64 and on CUDA
// with --fmad=false), medians are selections. So the CUDA result equals the
// CPU result bit for bit, and the choice of degree cannot flip between them.
#ifndef FACET_CORE_HPP
#define FACET_CORE_HPP

#include <algorithm>
#include <cmath>
#include <cstdint>

#if defined(__CUDACC__)
#define FACET_HD __host__ __device__
#else
#define FACET_HD
#endif

namespace facet {

inline constexpr int kMaxDegree = 3;
inline constexpr int kMaxCoefficients = 10;  // cubic: 1, r, c, r^2, rc, c^2, r^3, r^2c, rc^2, c^3
inline constexpr int kMaxWindow = 15;
inline constexpr int kMaxWindowPixels = kMaxWindow * kMaxWindow;
// MAD of a normal sample times this estimates its standard deviation.
inline constexpr double kMadToSigma = 1.4826;

// Number of coefficients of a polynomial of this total degree in (r, c).
FACET_HD constexpr int coefficient_count(int degree) { return (degree + 1) * (degree + 2) / 2; }

struct Settings {
    int window = 5;       // odd side of the square window, 3..kMaxWindow
    int max_degree = 3;   // 0..3
    int max_iter = 4;     // IRLS iterations per degree, >= 1
    double epsilon = 1e-6;  // stop (and call the fit exact) when the robust scale <= epsilon
    double tuning = 1.345;  // Huber constant, in units of the robust scale
};

// Monomial k of the local coordinates: r = row offset (down), c = column
// offset (right), both 0 at the window centre. Values are small integers, so
// every way of computing them gives the same double.
FACET_HD inline double monomial(int k, double r, double c) {
    switch (k) {
    case 0: return 1.0;
    case 1: return r;
    case 2: return c;
    case 3: return r * r;
    case 4: return r * c;
    case 5: return c * c;
    case 6: return r * r * r;
    case 7: return r * r * c;
    case 8: return r * c * c;
    default: return c * c * c;
    }
}

// Basis value of coefficient k at window pixel i (row-major in the window).
FACET_HD inline double basis(int k, int i, int window) {
    const int half = window / 2;
    return monomial(k, static_cast<double>(i / window - half), static_cast<double>(i % window - half));
}

// MATLAB's 'symmetric' padding (padarray): the image mirrored with its edge
// pixel repeated, periodic with period 2n, so windows wider than the image work.
FACET_HD inline int64_t symmetric_index(int64_t k, int64_t n) {
    const int64_t period = 2 * n;
    int64_t m = k % period;
    if (m < 0) m += period;
    return m < n ? m : period - 1 - m;
}

// Square root of the Huber weight of a residual: 1 inside tuning * scale,
// tuning * scale / |residual| outside. scale > 0.
FACET_HD inline double huber_sqrt_weight(double residual, double scale, double tuning) {
    const double e = std::fabs(residual) / scale;
    return e <= tuning ? 1.0 : std::sqrt(tuning / e);
}

// Fit quality (smaller is better): the robust scale of the residuals,
// floored at epsilon (below it a fit counts as exact), corrected for the
// degrees of freedom as an unbiased variance would be: sigma * sqrt(N / (N - p)).
// The correction grows with p, so among fits of equal scale (exact fits
// included) the lowest degree wins.
FACET_HD inline double fit_quality(double scale, double epsilon, int n, int p) {
    const double floored = scale > epsilon ? scale : epsilon;
    return floored * std::sqrt(static_cast<double>(n) / static_cast<double>(n - p));
}

// ---- Householder QR pieces (columns stored one after another, n rows) -------

// Sum of squares of col[from..n-1], in ascending order.
FACET_HD inline double column_norm2(const double* col, int from, int n) {
    double s = 0.0;
    for (int i = from; i < n; ++i) s += col[i] * col[i];
    return s;
}

// Sum of a[i] * b[i] for i in from..n-1, in ascending order.
FACET_HD inline double column_dot(const double* a, const double* b, int from, int n) {
    double s = 0.0;
    for (int i = from; i < n; ++i) s += a[i] * b[i];
    return s;
}

// The reflection that maps x = col[j..n-1] (with ||x||^2 = norm2) onto
// alpha * e1, alpha = -sign(x0) ||x||: v = x - alpha e1 overwrites x in place
// (only its first element changes), and v'v = 2 ||x|| (||x|| + |x0|) needs no
// second pass. Returns v'v; 0 when x is zero (no reflection, R_jj = 0).
FACET_HD inline double householder_pivot(double* col, int j, double norm2, double* alpha) {
    const double norm = std::sqrt(norm2);
    const double x0 = col[j];
    *alpha = x0 >= 0.0 ? -norm : norm;
    if (norm == 0.0) return 0.0;
    col[j] = x0 - *alpha;  // |x0| + ||x||: no cancellation
    return 2.0 * norm * (norm + std::fabs(x0));
}

// Applies H = I - 2 v v' / (v'v) to col[j..n-1] without forming H:
// col -= (2 v'col / v'v) v.
FACET_HD inline void householder_apply(const double* v, double vv, double* col, int j, int n) {
    const double f = 2.0 * column_dot(v, col, j, n) / vv;
    for (int i = j; i < n; ++i) col[i] -= f * v[i];
}

// The same, also returning the updated column's sum of squares from row j+1
// (the next pivot's norm2), accumulated in the same order as column_norm2.
// vv == 0 leaves the column as it is.
FACET_HD inline double householder_apply_norm2(const double* v, double vv, double* col, int j, int n) {
    const double f = vv != 0.0 ? 2.0 * column_dot(v, col, j, n) / vv : 0.0;
    if (vv != 0.0) col[j] -= f * v[j];
    double s = 0.0;
    for (int i = j + 1; i < n; ++i) {
        if (vv != 0.0) col[i] -= f * v[i];
        s += col[i] * col[i];
    }
    return s;
}

// Solves R a = Q'b by back-substitution. A holds R above the diagonal
// (A[k*n + j], k > j) and Q'b in column p; diag[j] = R_jj.
FACET_HD inline void back_substitute(const double* A, const double* diag, int n, int p, double* coef) {
    const double* qtb = A + static_cast<int64_t>(p) * n;
    for (int j = p - 1; j >= 0; --j) {
        double acc = qtb[j];
        for (int k = j + 1; k < p; ++k) acc -= A[static_cast<int64_t>(k) * n + j] * coef[k];
        coef[j] = diag[j] != 0.0 ? acc / diag[j] : 0.0;
    }
}

// Residual d_i - sum_k phi_k(i) a_k, the sum in ascending k
// (phi[k * n + i] = basis(k, i, window)).
FACET_HD inline double residual_at(const double* d, const double* coef, const double* phi, int p, int i, int n) {
    double f = 0.0;
    for (int k = 0; k < p; ++k) f += phi[k * n + i] * coef[k];
    return d[i] - f;
}

// The basis table phi[k * n + i] of a window.
FACET_HD inline void fill_basis(double* phi, int window) {
    const int n = window * window;
    for (int k = 0; k < kMaxCoefficients; ++k)
        for (int i = 0; i < n; ++i) phi[k * n + i] = basis(k, i, window);
}

// ---- the reference driver (host) ---------------------------------------------

struct Fit {
    double coef[kMaxCoefficients];  // chosen degree's coefficients, zeros beyond p
    int degree;
};

// Scratch memory of one window fit; one per thread.
struct ReferenceWorkspace {
    double r[kMaxWindowPixels];
    double scratch[kMaxWindowPixels];
    double A[(kMaxCoefficients + 1) * kMaxWindowPixels];  // p columns of sqrt(W) Phi, then sqrt(W) d
    double diag[kMaxCoefficients];
    double phi[kMaxCoefficients * kMaxWindowPixels];  // basis table of phi_window
    int phi_window = 0;
};

namespace detail {
// The middle order statistic of n (odd) values: the value the team version's
// rank selection finds too.
inline double median_of(const double* v, int n, double* scratch) {
    std::copy(v, v + n, scratch);
    std::nth_element(scratch, scratch + n / 2, scratch + n);
    return scratch[n / 2];
}
inline double robust_scale(const double* r, int n, double* abs_r, double* scratch) {
    for (int i = 0; i < n; ++i) abs_r[i] = std::fabs(r[i]);
    return kMadToSigma * median_of(abs_r, n, scratch);
}
}  // namespace detail

// Fits degrees 0..max_degree to the window d (window*window values, row-major)
// and returns the best by fit_quality. Settings must have been checked.
inline Fit fit_reference(const double* d, const Settings& st, ReferenceWorkspace& ws) {
    const int n = st.window * st.window;
    double* r = ws.r;
    double* A = ws.A;
    double coef[kMaxCoefficients] = {};
    double abs_r[kMaxWindowPixels];
    if (ws.phi_window != st.window) {
        fill_basis(ws.phi, st.window);
        ws.phi_window = st.window;
    }
    const double* phi = ws.phi;

    // Degree 0: the median, no iterations.
    coef[0] = detail::median_of(d, n, ws.scratch);
    for (int i = 0; i < n; ++i) r[i] = d[i] - coef[0];
    double scale = detail::robust_scale(r, n, abs_r, ws.scratch);
    Fit best{};
    best.coef[0] = coef[0];
    best.degree = 0;
    double best_quality = fit_quality(scale, st.epsilon, n, 1);

    // Higher degrees start from the previous degree's coefficients (the new
    // ones 0) and its residuals; a fit that is already exact ends the search.
    for (int degree = 1; degree <= st.max_degree && scale > st.epsilon; ++degree) {
        const int p = coefficient_count(degree);
        for (int it = 0; it < st.max_iter && scale > st.epsilon; ++it) {
            // Weighted least squares: minimise ||sqrt(W) (Phi a - d)||.
            for (int i = 0; i < n; ++i) {
                const double sw = huber_sqrt_weight(r[i], scale, st.tuning);
                for (int k = 0; k < p; ++k) A[k * n + i] = sw * phi[k * n + i];
                A[p * n + i] = sw * d[i];
            }
            for (int j = 0; j < p; ++j) {
                double* v = A + j * n;
                const double vv = householder_pivot(v, j, column_norm2(v, j, n), &ws.diag[j]);
                if (vv == 0.0) continue;
                for (int k = j + 1; k <= p; ++k) householder_apply(v, vv, A + k * n, j, n);
            }
            back_substitute(A, ws.diag, n, p, coef);
            for (int i = 0; i < n; ++i) r[i] = residual_at(d, coef, phi, p, i, n);
            scale = detail::robust_scale(r, n, abs_r, ws.scratch);
        }
        const double q = fit_quality(scale, st.epsilon, n, p);
        if (q < best_quality) {
            best_quality = q;
            best.degree = degree;
            for (int k = 0; k < kMaxCoefficients; ++k) best.coef[k] = coef[k];
        }
    }
    return best;
}

// ---- the cooperative driver (CUDA kernel; SerialTeam on the host) -------------
//
// A Team runs phases: team.rows(count, f) calls f(i) for i in 0..count-1
// spread over its threads, then waits for all of them; team.one(f) runs f on
// one thread, then waits. Within a phase no f(i) reads what another f(i')
// writes, so the order inside a phase does not matter (the tests run the
// serial team forwards and backwards). Control flow between phases depends
// only on values every thread reads after a wait, so all threads take it
// together.

struct TeamScalars {
    double scale;
    double norm2;  // ||column j||^2 from row j, for the next pivot
    double vv;
    double best_quality;
    int best_degree;
    int pad;
};

// Doubles of per-window working memory for a window of n pixels.
FACET_HD constexpr int team_state_doubles(int n) {
    return 6 /*TeamScalars, rounded up*/ + 2 * n /*d, r*/ + (kMaxCoefficients + 1) * n /*A*/ +
           3 * kMaxCoefficients /*coef, best, diag*/;
}

struct TeamState {
    TeamScalars* sc;
    double* d;
    double* r;
    double* A;
    double* coef;
    double* best;
    double* diag;
};

FACET_HD inline TeamState team_state_at(double* base, int n) {
    TeamState s;
    s.sc = reinterpret_cast<TeamScalars*>(base);
    s.d = base + 6;
    s.r = s.d + n;
    s.A = s.r + n;
    s.coef = s.A + (kMaxCoefficients + 1) * n;
    s.best = s.coef + kMaxCoefficients;
    s.diag = s.best + kMaxCoefficients;
    return s;
}

// The middle order statistic of value(0..n-1), n odd, by rank: element i's
// rank is the number of elements below it plus the equal ones before it, a
// permutation of 0..n-1, so exactly one element has rank n/2 and it calls out.
template <class Team, class Value, class Out>
FACET_HD void team_median(Team& team, int n, Value value, Out out) {
    const int mid = n / 2;
    team.rows(n, [&](int i) {
        const double vi = value(i);
        int rank = 0;
        for (int j = 0; j < n; ++j) {
            const double vj = value(j);
            rank += (vj < vi || (vj == vi && j < i)) ? 1 : 0;
        }
        if (rank == mid) out(vi);
    });
}

// Same result as fit_reference() for the window in s.d (already loaded, and
// visible to the whole team). phi[k * n + i] = basis(k, i, window).
// Leaves the answer in s.best (10 coefficients) and s.sc->best_degree.
template <class Team>
FACET_HD void fit_team(Team& team, const TeamState& s, const double* phi, const Settings& st) {
    const int n = st.window * st.window;
    TeamScalars* sc = s.sc;
    const double* d = s.d;
    double* r = s.r;
    double* A = s.A;
    double* coef = s.coef;

    // Degree 0: the median of the window.
    team_median(team, n, [&](int j) { return d[j]; }, [&](double m) { coef[0] = m; });
    team.rows(n, [&](int i) { r[i] = d[i] - coef[0]; });
    team_median(team, n, [&](int j) { return std::fabs(r[j]); },
                [&](double m) { sc->scale = kMadToSigma * m; });
    team.one([&] {
        for (int k = 1; k < kMaxCoefficients; ++k) coef[k] = 0.0;
        for (int k = 0; k < kMaxCoefficients; ++k) s.best[k] = coef[k];
        sc->best_degree = 0;
        sc->best_quality = fit_quality(sc->scale, st.epsilon, n, 1);
    });

    for (int degree = 1; degree <= st.max_degree && sc->scale > st.epsilon; ++degree) {
        const int p = coefficient_count(degree);
        for (int it = 0; it < st.max_iter && sc->scale > st.epsilon; ++it) {
            const double scale = sc->scale;
            team.rows(n, [&](int i) {
                const double sw = huber_sqrt_weight(r[i], scale, st.tuning);
                for (int k = 0; k < p; ++k) A[k * n + i] = sw * phi[k * n + i];
                A[p * n + i] = sw * d[i];
            });
            team.one([&] { sc->norm2 = column_norm2(A, 0, n); });
            for (int j = 0; j < p; ++j) {
                team.one([&] {
                    sc->vv = householder_pivot(A + j * n, j, sc->norm2, &s.diag[j]);
                });
                const double vv = sc->vv;
                // One thread per remaining column (and the right-hand side):
                // reflect it, and the next pivot column also sums its squares.
                team.rows(p - j, [&](int c) {
                    const int k = j + 1 + c;
                    double* col = A + k * n;
                    if (k == j + 1 && k < p)
                        sc->norm2 = householder_apply_norm2(A + j * n, vv, col, j, n);
                    else if (vv != 0.0)
                        householder_apply(A + j * n, vv, col, j, n);
                });
            }
            team.one([&] { back_substitute(A, s.diag, n, p, coef); });
            team.rows(n, [&](int i) { r[i] = residual_at(d, coef, phi, p, i, n); });
            team_median(team, n, [&](int j) { return std::fabs(r[j]); },
                        [&](double m) { sc->scale = kMadToSigma * m; });
        }
        team.one([&] {
            const double q = fit_quality(sc->scale, st.epsilon, n, p);
            if (q < sc->best_quality) {
                sc->best_quality = q;
                sc->best_degree = degree;
                for (int k = 0; k < kMaxCoefficients; ++k) s.best[k] = coef[k];
            }
        });
    }
}

// Runs a team's phases on one host thread (tests; the order inside a phase
// can be reversed to show that it does not matter).
struct SerialTeam {
    bool reverse = false;
    template <class F> void rows(int count, F&& f) const {
        if (reverse)
            for (int i = count - 1; i >= 0; --i) f(i);
        else
            for (int i = 0; i < count; ++i) f(i);
    }
    template <class F> void one(F&& f) const { f(); }
};

}  // namespace facet

#endif  // FACET_CORE_HPP
