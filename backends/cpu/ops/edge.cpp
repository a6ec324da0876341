// SPDX-License-Identifier: Apache-2.0
// ipt.edge: [BW, thresh] = edge(I, method, threshold, direction, thinning,
// sigma, h), as described in docs/matlab-semantics.md#edge. The front-end
// (common/ops/edge.hpp) resolves the method's defaults and filters.
//
// Integer and logical images are converted with im2single semantics and
// processed in single, like MATLAB's edge; double images are processed in
// double, single in single. The filtering steps are imfilter with
// 'replicate' on the shared correlation engine; thresholds are derived from
// sums taken in double. The pixel decisions (thinning, zero crossings,
// non-maximum suppression) are compiled for the baseline ISA, so no multiply
// is fused with an add and the comparisons see MATLAB's roundings.
//
//  sobel/prewitt/roberts: b = kx*bx^2 + ky*by^2; automatic cutoff =
//      scale*mean(b) (scale 4, or 6 for roberts), thresh = sqrt(cutoff);
//      thinning keeps the local maxima across the dominant gradient direction.
//  log/zerocross: b = imfilter(I, op, 'replicate') with op summing to zero;
//      automatic thresh = 0.75*mean(|b|); edges at zero crossings of interior
//      pixels.
//  canny: Gaussian smoothing and derivative-of-Gaussian filters, magnitude
//      normalised to max 1, thresholds from a 64-bin histogram (high = first
//      bin past 70% of the pixels, divided by 64; low = 0.4 high), non-maximum
//      suppression in 4 sectors with interpolation, hysteresis on
//      8-connected components.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "common/correlate.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/padding.hpp"
#include "common/isa.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"
#include "common/ops/edge.hpp"
#include "common/ops/imfilter.hpp"

namespace {

using ipt::frontend::EdgeMethod;
using ipt::frontend::EdgePlan;
using ipt::plugin::KernelArgs;

// Working images kept between calls on each calling thread, up to 64 MiB in
// all: a fresh 16 MiB image pays its page faults and zeroing on every call
// (about a third of a 2048x2048 sobel/prewitt before they were kept).
template <class T>
struct WorkingSet {
    std::vector<T> image, bx, by, b;
    void trim() {
        const size_t bytes = (image.capacity() + bx.capacity() + by.capacity() + b.capacity()) * sizeof(T);
        if (bytes > (size_t{64} << 20)) *this = WorkingSet{};
    }
};

template <class T>
WorkingSet<T>& working_set() {
    thread_local WorkingSet<T> w;
    return w;
}

// Elements [first, last) of im2single(I) (or the double image itself).
template <class T>
void to_working_range(const ipt_tensor* I, T* out, int64_t first, int64_t last) {
    switch (I->dtype) {
    case IPT_LOGICAL: {
        const uint8_t* p = static_cast<const uint8_t*>(I->data);
        for (int64_t i = first; i < last; ++i) out[i] = p[i] ? T(1) : T(0);
        break;
    }
    case IPT_UINT8: {
        const uint8_t* p = static_cast<const uint8_t*>(I->data);
        for (int64_t i = first; i < last; ++i) out[i] = static_cast<T>(p[i]) / T(255);
        break;
    }
    case IPT_UINT16: {
        const uint16_t* p = static_cast<const uint16_t*>(I->data);
        for (int64_t i = first; i < last; ++i) out[i] = static_cast<T>(p[i]) / T(65535);
        break;
    }
    case IPT_INT16: {
        const int16_t* p = static_cast<const int16_t*>(I->data);
        for (int64_t i = first; i < last; ++i) out[i] = (static_cast<T>(p[i]) + T(32768)) / T(65535);
        break;
    }
    case IPT_SINGLE: {
        const float* p = static_cast<const float*>(I->data);
        for (int64_t i = first; i < last; ++i) out[i] = static_cast<T>(p[i]);
        break;
    }
    case IPT_DOUBLE: {
        const double* p = static_cast<const double*>(I->data);
        for (int64_t i = first; i < last; ++i) out[i] = static_cast<T>(p[i]);
        break;
    }
    default: break;  // refused by to_working
    }
}

// im2single (or the double image itself), row-major, into `out`.
template <class T>
void to_working(const ipt_tensor* I, std::vector<T>& out) {
    switch (I->dtype) {
    case IPT_LOGICAL:
    case IPT_UINT8:
    case IPT_UINT16:
    case IPT_INT16:
    case IPT_SINGLE:
    case IPT_DOUBLE: break;
    default: ipt::plugin::unsupported("ipt.edge: class not handled");
    }
    const int64_t total = I->rows * I->cols;
    out.resize(static_cast<size_t>(total));
    constexpr int64_t kBlock = int64_t{1} << 15;
    ipt::cpu::parallel_for(0, (total + kBlock - 1) / kBlock, [&](int64_t k) {
        ipt::cpu::simd_dispatch(
            [&] { to_working_range<T>(I, out.data(), k * kBlock, std::min(total, (k + 1) * kBlock)); });
    });
}

// imfilter(in, h, 'replicate', 'same', corr or conv) in the working class, into `out`.
template <class T>
void imfilter_replicate_into(const std::vector<T>& in, int64_t rows, int64_t cols, const double* h, int64_t kr,
                             int64_t kc, bool conv, std::vector<T>& out) {
    out.resize(in.size());
    if (in.empty()) return;
    const auto plan = ipt::cpu::make_filter_plan<T>(h, kr, kc, conv, true);
    const int64_t top = ipt::frontend::imfilter_origin(kr), left = ipt::frontend::imfilter_origin(kc);
    const int64_t pcols = cols + kc - 1;
    auto fill = [&](int64_t p, T* dst) {
        const T* src = in.data() + ipt::cpu::replicate_index(p - top, rows) * cols;
        for (int64_t q = 0; q < left; ++q) dst[q] = src[0];
        std::memcpy(dst + left, src, static_cast<size_t>(cols) * sizeof(T));
        for (int64_t q = left + cols; q < pcols; ++q) dst[q] = src[cols - 1];
    };
    ipt::cpu::run_filter_plan_into(plan, rows, cols, fill, out.data(), cols);
}

template <class T>
std::vector<T> imfilter_replicate(const std::vector<T>& in, int64_t rows, int64_t cols, const double* h, int64_t kr,
                                  int64_t kc, bool conv) {
    std::vector<T> out;
    imfilter_replicate_into(in, rows, cols, h, kr, kc, conv, out);
    return out;
}

// A compensated (Neumaier) running sum.
struct CompensatedSum {
    double s = 0, e = 0;
    void add(double a) {
        const double t = s + a;
        e += std::abs(s) >= std::abs(a) ? (s - t) + a : (a - t) + s;
        s = t;
    }
    void add(const CompensatedSum& o) {
        add(o.s);
        e += o.e;
    }
    double value() const { return std::isfinite(s) ? s + e : s; }
};

// sum(x(:), 'double') with compensation, within about one rounding of the
// exact sum. Fixed blocks are summed in parallel, each by four interleaved
// running sums (one chain of dependent additions was a quarter of a
// 2048x2048 sobel), and combined in block order: the same result on any
// number of threads.
// The four running sums are the four lanes of one vector (both branches of
// the compensation computed and one selected: the same values as
// CompensatedSum::add in each lane).
#if defined(__GNUC__)
#define IPT_EDGE_LANES 1
typedef double Lanes4 __attribute__((vector_size(32)));

// s4 and e4: the four sums and their compensations, updated in place.
template <class T, class F>
IPT_ALWAYS_INLINE void add_lanes(const T* __restrict x, int64_t count, F& f, double* s4, double* e4) {
    Lanes4 s, e;
    std::memcpy(&s, s4, sizeof s);
    std::memcpy(&e, e4, sizeof e);
    for (int64_t i = 0; i + 4 <= count; i += 4) {
        const Lanes4 a = {f(x[i]), f(x[i + 1]), f(x[i + 2]), f(x[i + 3])};
        const Lanes4 t = s + a;
        const Lanes4 big_s = (s - t) + a, big_a = (a - t) + s;
        // |s| >= |a| (a NaN compares false either way).
        const Lanes4 abs_s = s < 0 ? -s : s, abs_a = a < 0 ? -a : a;
        e += abs_s >= abs_a ? big_s : big_a;
        s = t;
    }
    std::memcpy(s4, &s, sizeof s);
    std::memcpy(e4, &e, sizeof e);
}
#endif

// `prepare(first, last)` runs on the block [first, last) of x before it is
// summed (it may write those elements of x).
template <class T, class F, class Prepare>
double sum_double(const std::vector<T>& x, F&& f, Prepare&& prepare) {
    constexpr int64_t kBlock = int64_t{1} << 16;
    const int64_t n = static_cast<int64_t>(x.size()), blocks = (n + kBlock - 1) / kBlock;
    std::vector<CompensatedSum> part(static_cast<size_t>(blocks));
    ipt::cpu::parallel_for(0, blocks, [&](int64_t k) {
        CompensatedSum lane[4];
        const int64_t first = k * kBlock, last = std::min(n, first + kBlock);
        prepare(first, last);
        int64_t i = first;
#if IPT_EDGE_LANES
        double s[4] = {0, 0, 0, 0}, e[4] = {0, 0, 0, 0};
        const int64_t whole = (last - first) / 4 * 4;
        ipt::cpu::simd_dispatch([&] { add_lanes(x.data() + first, whole, f, s, e); });
        for (int j = 0; j < 4; ++j) {
            lane[j].s = s[j];
            lane[j].e = e[j];
        }
        i += whole;
#endif
        for (; i + 4 <= last; i += 4)
            for (int j = 0; j < 4; ++j) lane[j].add(f(x[static_cast<size_t>(i + j)]));
        for (; i < last; ++i) lane[0].add(f(x[static_cast<size_t>(i)]));
        for (int j = 1; j < 4; ++j) lane[0].add(lane[j]);
        part[static_cast<size_t>(k)] = lane[0];
    });
    CompensatedSum total;
    for (const CompensatedSum& p : part) total.add(p);
    return total.value();
}

template <class T, class F>
double sum_double(const std::vector<T>& x, F&& f) {
    return sum_double(x, f, [](int64_t, int64_t) {});
}

struct EdgeResult {
    std::vector<uint8_t> bw;  // empty when the method wrote BW itself
    std::vector<double> thresh;
};

// --- sobel, prewitt, roberts ---------------------------------------------------

template <class T>
IPT_ALWAYS_INLINE void squared_magnitude(const T* __restrict bx, const T* __restrict by, T kx, T ky, T* __restrict b,
                                         int64_t n) {
    for (int64_t i = 0; i < n; ++i) b[i] = kx * bx[i] * bx[i] + ky * by[i] * by[i];
}

template <class T>
IPT_ALWAYS_INLINE void above(const T* __restrict b, double cutoff, uint8_t* __restrict bw, int64_t n) {
    for (int64_t i = 0; i < n; ++i) bw[i] = static_cast<double>(b[i]) > cutoff;
}

// Writes every pixel of BW (`bw`, m x n) in place.
template <class T>
EdgeResult gradient_edges(const EdgePlan& c, const std::vector<T>& I, int64_t m, int64_t n, uint8_t* bw) {
    const ipt::frontend::GradientOperators& g = c.operators;
    const int64_t ks = g.size;
    const double scale = g.scale;
    WorkingSet<T>& w = working_set<T>();
    imfilter_replicate_into(I, m, n, g.x.data(), ks, ks, false, w.bx);
    imfilter_replicate_into(I, m, n, g.y.data(), ks, ks, false, w.by);
    const std::vector<T>& bx = w.bx;
    const std::vector<T>& by = w.by;
    const T kx = static_cast<T>(c.kx), ky = static_cast<T>(c.ky);
    std::vector<T>& b = w.b;
    b.resize(I.size());
    // b = kx*bx.^2 + ky*by.^2, block by block just before the block is summed
    // when the threshold is automatic (the block is still in cache).
    auto magnitude = [&, pb = b.data(), px = bx.data(), py = by.data()](int64_t first, int64_t last) {
        ipt::cpu::simd_dispatch([&] { squared_magnitude(px + first, py + first, kx, ky, pb + first, last - first); });
    };

    EdgeResult res;
    double cutoff;
    if (c.threshold_given || b.empty()) {
        constexpr int64_t kBlock = int64_t{1} << 16;
        const int64_t total = static_cast<int64_t>(b.size());
        ipt::cpu::parallel_for(0, (total + kBlock - 1) / kBlock,
                               [&](int64_t k) { magnitude(k * kBlock, std::min(total, (k + 1) * kBlock)); });
    }
    if (c.threshold_given) {
        cutoff = c.cutoff;
        res.thresh = c.given;
    } else {
        cutoff = b.empty() ? std::numeric_limits<double>::quiet_NaN()
                           : scale * sum_double(b, [](T v) { return static_cast<double>(v); }, magnitude) /
                                 static_cast<double>(b.size());
        res.thresh = {std::sqrt(cutoff)};
    }
    if (!c.thinning) {
        ipt::cpu::parallel_for(0, m, [&, pb = b.data()](int64_t r) {
            ipt::cpu::simd_dispatch([&] { above(pb + r * n, cutoff, bw + r * n, n); });
        });
        return res;
    }
    const int o1 = c.method == EdgeMethod::Roberts ? -1 : 0, o2 = c.method == EdgeMethod::Roberts ? 1 : 0;
    const int o3 = o2, o4 = o1;
    constexpr double kTol = 100 * std::numeric_limits<double>::epsilon();
    ipt::cpu::parallel_for(0, m, [&](int64_t r) {
        const bool inner_row = r >= 1 && r + 1 < m;
        // A neighbour outside the image never vetoes a pixel.
        auto at = [&](int64_t rr, int64_t cc, bool inner, T& out) {
            if (!inner && (rr < 0 || rr >= m || cc < 0 || cc >= n)) return false;
            out = b[static_cast<size_t>(rr * n + cc)];
            return true;
        };
        for (int64_t col = 0; col < n; ++col) {
            const size_t i = static_cast<size_t>(r * n + col);
            const T v = b[i];
            if (!(static_cast<double>(v) > cutoff)) {
                bw[i] = 0;
                continue;
            }
            const bool inner = inner_row && col >= 1 && col + 1 < n;
            T nb{};
            const bool b1 = !at(r + o1, col - 1, inner, nb) || nb <= v;
            const bool b2 = !at(r + o2, col + 1, inner, nb) || v > nb;
            const bool b3 = !at(r - 1, col + o3, inner, nb) || nb <= v;
            const bool b4 = !at(r + 1, col + o4, inner, nb) || v > nb;
            const double ax = std::abs(static_cast<double>(bx[i])), ay = std::abs(static_cast<double>(by[i]));
            const bool across_cols = ax >= c.kx * ay - kTol && b1 && b2;
            const bool across_rows = ay >= c.ky * ax - kTol && b3 && b4;
            bw[i] = across_cols || across_rows;
        }
    });
    return res;
}

// --- log and zerocross ----------------------------------------------------------

template <class T>
EdgeResult zero_crossings(const EdgePlan& c, const std::vector<T>& I, int64_t m, int64_t n) {
    const ipt::common::Filter2D& op = c.zero_crossing;
    const std::vector<T> b = imfilter_replicate(I, m, n, op.h.data(), op.rows, op.cols, false);

    EdgeResult res;
    double t;
    if (c.threshold_given) {
        t = c.given[0];
    } else {
        t = b.empty() ? std::numeric_limits<double>::quiet_NaN()
                      : ipt::frontend::kZeroCrossingScale *
                            sum_double(b, [](T v) { return std::abs(static_cast<double>(v)); }) /
                            static_cast<double>(b.size());
    }
    res.thresh = {t};
    res.bw.assign(I.size(), 0);
    auto B = [&](int64_t r, int64_t col) { return b[static_cast<size_t>(r * n + col)]; };
    // |difference| > threshold, the difference rounded in the working class.
    auto over = [](T a, T z, double thr) { return static_cast<double>(std::abs(static_cast<T>(a - z))) > thr; };
    ipt::cpu::parallel_for(1, m - 1, [&](int64_t r) {
        for (int64_t col = 1; col < n - 1; ++col) {
            const T v = B(r, col);
            bool edge = false;
            if (v < 0) {
                // [- +] and [+ -] across columns and rows: the edge is on the negative pixel.
                for (const T nb : {B(r, col + 1), B(r, col - 1), B(r + 1, col), B(r - 1, col)})
                    edge |= nb > 0 && over(v, nb, t);
            } else if (v == 0) {
                const T up = B(r - 1, col), down = B(r + 1, col), left = B(r, col - 1), right = B(r, col + 1);
                edge = (((up < 0 && down > 0) || (up > 0 && down < 0)) && over(up, down, 2 * t)) ||
                       (((left < 0 && right > 0) || (left > 0 && right < 0)) && over(left, right, 2 * t));
            }
            res.bw[static_cast<size_t>(r * n + col)] = edge;
        }
    });
    return res;
}

// --- canny -----------------------------------------------------------------------

template <class T>
EdgeResult canny(const EdgePlan& c, const std::vector<T>& I, int64_t m, int64_t n) {
    const std::vector<double>& g = c.canny.gauss;
    const std::vector<double>& dg = c.canny.deriv;
    const int64_t len = static_cast<int64_t>(g.size());
    // GX: smooth down the columns, derivative along the rows; GY the other way.
    const std::vector<T> sx = imfilter_replicate(I, m, n, g.data(), len, 1, true);
    const std::vector<T> gx = imfilter_replicate(sx, m, n, dg.data(), 1, len, true);
    const std::vector<T> sy = imfilter_replicate(I, m, n, g.data(), 1, len, true);
    const std::vector<T> gy = imfilter_replicate(sy, m, n, dg.data(), len, 1, true);

    // hypot: for single, the double sqrt of the double sum of squares rounded
    // once to single (exact for any two floats, and what hypotf computes).
    std::vector<T> mag(I.size());
    ipt::cpu::parallel_for(0, m, [&](int64_t r) {
        for (int64_t i = r * n; i < (r + 1) * n; ++i) {
            if constexpr (std::is_same_v<T, float>) {
                const double x = gx[i], y = gy[i];
                mag[i] = static_cast<float>(std::sqrt(x * x + y * y));
            } else {
                mag[i] = std::hypot(gx[i], gy[i]);
            }
        }
    });
    T magmax = 0;
    for (T v : mag) magmax = std::max(magmax, v);
    if (magmax > 0)
        ipt::cpu::parallel_for(0, m, [&](int64_t r) {
            for (int64_t i = r * n; i < (r + 1) * n; ++i) mag[i] /= magmax;
        });

    EdgeResult res;
    double low, high;
    if (c.threshold_given) {
        low = c.given[0];
        high = c.given[1];
    } else if (mag.empty()) {
        high = low = std::numeric_limits<double>::quiet_NaN();
    } else {
        // imhist(mag, 64): bin floor(x*63 + 0.5); high = first bin whose
        // cumulative count passes 70% of the pixels, divided by 64.
        constexpr int bins = ipt::frontend::kCannyBins;
        std::vector<int64_t> counts(bins, 0);
        for (T v : mag) {
            const double x = std::clamp(static_cast<double>(v), 0.0, 1.0);
            ++counts[static_cast<size_t>(std::floor(x * (bins - 1) + 0.5))];
        }
        const double need = ipt::frontend::kCannyNotEdges * static_cast<double>(m) * static_cast<double>(n);
        int64_t cum = 0, k = 0;
        for (; k < bins; ++k) {
            cum += counts[static_cast<size_t>(k)];
            if (static_cast<double>(cum) > need) break;
        }
        high = static_cast<double>(k + 1) / bins;
        low = ipt::frontend::kCannyRatio * high;
    }
    res.thresh = {low, high};
    res.bw.assign(I.size(), 0);
    if (m < 3 || n < 3) return res;

    // Non-maximum suppression over the interior, four sectors of (GX, GY)
    // with linear interpolation between the two neighbours along the gradient.
    std::vector<uint8_t> weak(I.size(), 0), strong(I.size(), 0);
    auto M = [&](int64_t r, int64_t col) { return mag[static_cast<size_t>(r * n + col)]; };
    ipt::cpu::parallel_for(1, m - 1, [&](int64_t r) {
        for (int64_t col = 1; col < n - 1; ++col) {
            const size_t i = static_cast<size_t>(r * n + col);
            const T ix = gx[i], iy = gy[i], v = mag[i];
            if (!(static_cast<double>(v) > low)) continue;
            bool is_max = false;
            if ((iy <= 0 && ix > -iy) || (iy >= 0 && ix < -iy)) {
                const T d = std::abs(iy / ix);
                const T g1 = M(r, col + 1) * (1 - d) + M(r - 1, col + 1) * d;
                const T g2 = M(r, col - 1) * (1 - d) + M(r + 1, col - 1) * d;
                is_max |= v >= g1 && v >= g2;
            }
            if ((ix > 0 && -iy >= ix) || (ix < 0 && -iy <= ix)) {
                const T d = std::abs(ix / iy);
                const T g1 = M(r - 1, col) * (1 - d) + M(r - 1, col + 1) * d;
                const T g2 = M(r + 1, col) * (1 - d) + M(r + 1, col - 1) * d;
                is_max |= v >= g1 && v >= g2;
            }
            if ((ix <= 0 && ix > iy) || (ix >= 0 && ix < iy)) {
                const T d = std::abs(ix / iy);
                const T g1 = M(r - 1, col) * (1 - d) + M(r - 1, col - 1) * d;
                const T g2 = M(r + 1, col) * (1 - d) + M(r + 1, col + 1) * d;
                is_max |= v >= g1 && v >= g2;
            }
            if ((iy < 0 && ix <= iy) || (iy > 0 && ix >= iy)) {
                const T d = std::abs(iy / ix);
                const T g1 = M(r, col - 1) * (1 - d) + M(r - 1, col - 1) * d;
                const T g2 = M(r, col + 1) * (1 - d) + M(r + 1, col + 1) * d;
                is_max |= v >= g1 && v >= g2;
            }
            if (is_max) {
                weak[i] = 1;
                strong[i] = static_cast<double>(v) > high;
            }
        }
    });
    // Hysteresis: the 8-connected components of the weak map that hold a
    // strong pixel.
    std::vector<int64_t> stack;
    for (size_t i = 0; i < weak.size(); ++i) {
        if (!strong[i] || res.bw[i]) continue;
        res.bw[i] = 1;
        stack.push_back(static_cast<int64_t>(i));
        while (!stack.empty()) {
            const int64_t p = stack.back();
            stack.pop_back();
            const int64_t pr = p / n, pc = p % n;
            for (int64_t dr = -1; dr <= 1; ++dr)
                for (int64_t dc = -1; dc <= 1; ++dc) {
                    const int64_t qr = pr + dr, qc = pc + dc;
                    if (qr < 0 || qr >= m || qc < 0 || qc >= n) continue;
                    const size_t q = static_cast<size_t>(qr * n + qc);
                    if (weak[q] && !res.bw[q]) {
                        res.bw[q] = 1;
                        stack.push_back(static_cast<int64_t>(q));
                    }
                }
        }
    }
    return res;
}

template <class T>
EdgeResult detect(const EdgePlan& c, uint8_t* bw) {
    const int64_t m = c.I->rows, n = c.I->cols;
    WorkingSet<T>& w = working_set<T>();
    to_working<T>(c.I, w.image);
    EdgeResult r;
    switch (c.method) {
    case EdgeMethod::Sobel:
    case EdgeMethod::Prewitt:
    case EdgeMethod::Roberts: r = gradient_edges(c, w.image, m, n, bw); break;
    case EdgeMethod::Log:
    case EdgeMethod::Zerocross: r = zero_crossings(c, w.image, m, n); break;
    case EdgeMethod::Canny: r = canny(c, w.image, m, n); break;
    }
    w.trim();
    return r;
}

void run_edge(const KernelArgs& args) {
    const EdgePlan c = ipt::frontend::plan_edge(args);
    const ipt_tensor* BW = args.output("BW", IPT_LOGICAL, c.I->rows, c.I->cols, 1);
    uint8_t* bw = static_cast<uint8_t*>(BW->data);
    EdgeResult r;
    if (c.empty()) r.thresh = c.thresh_without_pixels();
    else r = c.working_class == IPT_DOUBLE ? detect<double>(c, bw) : detect<float>(c, bw);
    if (!r.bw.empty()) std::memcpy(BW->data, r.bw.data(), r.bw.size());
    if (args.wanted("thresh")) {
        const ipt_tensor* t = args.output("thresh", IPT_DOUBLE, 1, static_cast<int64_t>(r.thresh.size()), 1);
        std::memcpy(t->data, r.thresh.data(), r.thresh.size() * sizeof(double));
    }
}

}  // namespace

IPT_CPU_OP("ipt.edge", "", 100, run_edge)
