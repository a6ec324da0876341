// SPDX-License-Identifier: Apache-2.0
// edge: Sobel, Prewitt, Roberts, Laplacian of Gaussian, zero-cross and Canny,
// following MATLAB's edge (docs/matlab-semantics.md#edge) step by step as the CPU
// reference (backends/cpu/ops/edge.cpp) computes it, with the filters and
// defaults of the front-end (common/ops/edge.hpp), in its working class W:
// single for every class but double (integer and logical images converted as
// im2single does), double for double. Every per-pixel product, sum,
// comparison, division and square root is taken in W in the reference's
// order (the backend is built with --fmad=false, so nothing is fused); only
// the threshold statistics are taken in double (double-double sums of the W
// values). Thresholds stay on the device (nothing waits).
//
//  - filters: imfilter(x, h, 'replicate') on the reference's route: taps
//    converted to W, zero taps dropped, each kernel row's taps summed into a
//    partial that is then added; a kernel of 12 taps or more (both sides
//    >= 2) that is exactly rank 1 runs as a column pass then a row pass.
//  - Sobel/Prewitt/Roberts: bx, by by the filter, b = kx*bx^2 + ky*by^2; the
//    automatic cutoff scale*mean(b) is a double-double reduction; a second
//    kernel thresholds and applies MATLAB's thinning (asymmetric <= / >
//    comparisons, outside neighbours count as true).
//  - log/zerocross: the zero-sum filter; threshold scale*mean(|b|); zero
//    crossings on interior pixels.
//  - canny: Gaussian and derivative-of-Gaussian passes, magnitude normalised
//    by its maximum, a histogram for the automatic thresholds,
//    non-maximum suppression in four direction sectors with linear
//    interpolation, hysteresis as 8-connected components (union-find) that
//    hold a strong pixel.
// The automatic thresholds' constants (the zero-crossing scale, the canny
// bin count, fraction of non-edges and low/high ratio) are the front-end's,
// passed to the kernels, so MATLAB's rule lives in one place.
#include <cmath>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/reduce.cuh"
#include "common/union_find.cuh"
#include "common/ops/edge.hpp"
#include "common/ops/imfilter.hpp"
#include "rank1.hpp"

namespace ipt::cuda {
namespace {

constexpr double kEps = 2.220446049250313e-16;

// |x| in the class of x.
__device__ inline float absolute(float x) { return fabsf(x); }
__device__ inline double absolute(double x) { return fabs(x); }

// Working image: im2single for every class but double (uint8 /255, uint16
// /65535, int16 (x+32768)/65535, each rounded once to single; logical 0/1),
// the double image itself when W is double (only double images get W double).
template <class T, class W>
__global__ void to_working(const T* __restrict__ in, W* __restrict__ out, int64_t n) {
    IPT_GRID_STRIDE(i, n) {
        if constexpr (std::is_same_v<W, double>) out[i] = to_double(in[i]);
        else out[i] = to_unit_single(in[i]);
    }
}

// ---- imfilter(x, h, 'replicate') in W ----------------------------------------------

// The taps of one pass as the reference's TapKernel holds them: the nonzero
// taps (zero after conversion to W counts as zero) grouped by kernel row.
template <class W>
struct TapView {
    const int32_t* rows;  // per kernel row with taps: row, begin, end (into col, w)
    const int32_t* col;
    const W* w;
    int count;            // kernel rows with taps
};

template <class W>
struct DeviceTaps {
    DeviceArray<int32_t> rows, col;
    DeviceArray<W> w;
    int count = 0;

    // From row-major taps; rotate turns a convolution kernel into the
    // correlation kernel.
    DeviceTaps(const double* h, int64_t kr, int64_t kc, bool rotate, cudaStream_t s) {
        std::vector<int32_t> host_rows, host_col;
        std::vector<W> host_w;
        for (int64_t i = 0; i < kr; ++i) {
            const int32_t begin = static_cast<int32_t>(host_col.size());
            for (int64_t j = 0; j < kc; ++j) {
                const int64_t si = rotate ? kr - 1 - i : i, sj = rotate ? kc - 1 - j : j;
                const W v = static_cast<W>(h[si * kc + sj]);
                if (v == W(0)) continue;
                host_col.push_back(static_cast<int32_t>(j));
                host_w.push_back(v);
            }
            const int32_t end = static_cast<int32_t>(host_col.size());
            if (end > begin) host_rows.insert(host_rows.end(), {static_cast<int32_t>(i), begin, end});
        }
        count = static_cast<int>(host_rows.size() / 3);
        rows = to_device(host_rows, s);
        col = to_device(host_col, s);
        w = to_device(host_w, s);
    }
    TapView<W> view() const { return {rows.get(), col.get(), w.get(), count}; }
};

// out(r, c) = sum over kernel rows i of (sum over the row's taps j of
// w(i, j) * src(r + i - top, c + j - left)), indices clamped to src
// (replicate), each row's partial started at 0 and added to the total in
// kernel-row order, as the reference's engine does (a row of one tap gives
// the same value: its partial is 0 + w*x).
template <class W>
__global__ void correlate_replicate(const W* __restrict__ src, int64_t src_rows, int64_t src_cols,
                                    W* __restrict__ out, int64_t out_rows, int64_t out_cols, int64_t top,
                                    int64_t left, TapView<W> k) {
    IPT_GRID_STRIDE(o, out_rows * out_cols) {
        const int64_t r = o / out_cols, c = o - r * out_cols;
        W acc = 0;
        for (int t = 0; t < k.count; ++t) {
            const int32_t* row = k.rows + 3 * t;
            const W* line = src + border_index(Border::Replicate, r + row[0] - top, src_rows) * src_cols;
            W part = 0;
            for (int32_t q = row[1]; q < row[2]; ++q) {
                const W product = k.w[q] * line[border_index(Border::Replicate, c + k.col[q] - left, src_cols)];
                part = part + product;
            }
            acc = acc + part;
        }
        out[o] = acc;
    }
}

template <class W>
void launch_correlate(const W* src, int64_t src_rows, int64_t src_cols, W* out, int64_t out_rows, int64_t out_cols,
                      int64_t top, int64_t left, const DeviceTaps<W>& k, cudaStream_t s, const char* what) {
    correlate_replicate<W><<<grid_for(out_rows * out_cols), kThreads, 0, s>>>(src, src_rows, src_cols, out, out_rows,
                                                                              out_cols, top, left, k.view());
    check_launch(what);
}

// imfilter(in, h, 'replicate', 'same', corr or conv) in W, on the reference's
// route (make_filter_plan with separable passes allowed): the two-pass route
// rounds the column pass to W, so taking it exactly where the reference does
// is part of agreeing with it.
template <class W>
void filter_replicate(const W* in, W* out, int64_t rows, int64_t cols, const std::vector<double>& h, int64_t kr,
                      int64_t kc, bool conv, cudaStream_t s, const char* what) {
    const int64_t top = ipt::frontend::imfilter_origin(kr), left = ipt::frontend::imfilter_origin(kc);
    if (const ipt::common::Rank1 f = ipt::common::separable_route(h.data(), kr, kc, conv); f.ok) {
        // Column pass over the replicate-padded width, then the row pass.
        const int64_t pcols = cols + kc - 1;
        DeviceArray<W> mid(static_cast<size_t>(rows * pcols), s);
        const DeviceTaps<W> column(f.u.data(), kr, 1, false, s), row(f.v.data(), 1, kc, false, s);
        launch_correlate(in, rows, cols, mid.get(), rows, pcols, top, left, column, s, what);
        launch_correlate(mid.get(), rows, pcols, out, rows, cols, 0, 0, row, s, what);
        return;
    }
    const DeviceTaps<W> full(h.data(), kr, kc, conv, s);
    launch_correlate(in, rows, cols, out, rows, cols, top, left, full, s, what);
}

// ---- sobel, prewitt, roberts -------------------------------------------------------

// b = kx*bx^2 + ky*by^2 in W: ((kx*bx)*bx) + ((ky*by)*by), the reference's order.
template <class W>
__global__ void gradient_magnitude(const W* __restrict__ bx, const W* __restrict__ by, W* __restrict__ b, W kx, W ky,
                                   int64_t n) {
    IPT_GRID_STRIDE(i, n) {
        const W x = (kx * bx[i]) * bx[i];
        const W y = (ky * by[i]) * by[i];
        b[i] = x + y;
    }
}

struct Cutoff {
    double* cutoff;  // [0] cutoff, [1] thresh
    double scale, count;
    __device__ void operator()(double sum) const {
        const double c = scale * sum / count;  // (scale * sum) / n, as the reference
        cutoff[0] = c;
        cutoff[1] = sqrt(c);
    }
};

// sum(x(:), 'double') terms: the W values converted to double.
template <class W>
struct LoadValue {
    const W* p;
    __device__ double operator()(int64_t i) const { return static_cast<double>(p[i]); }
};
template <class W>
struct LoadAbs {
    const W* p;
    __device__ double operator()(int64_t i) const { return fabs(static_cast<double>(p[i])); }
};

// b > cutoff compared in double (the reference converts b); the thinning
// comparisons between neighbours in W; |bx|, |by| against the direction
// weights in double with the reference's 100 eps tolerance.
template <class W>
__global__ void thin(const W* __restrict__ b, const W* __restrict__ bx, const W* __restrict__ by,
                     const double* __restrict__ cutoff, bool* __restrict__ bw, int64_t rows, int64_t cols, double kx,
                     double ky, bool thinning, int roberts) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const W v = b[r * cols + c];
    const double cut = cutoff[0];
    bool e = static_cast<double>(v) > cut;
    if (e && thinning) {
        const int o1 = roberts ? -1 : 0, o2 = roberts ? 1 : 0, o3 = roberts ? 1 : 0, o4 = roberts ? -1 : 0;
        auto inside = [&](int64_t rr, int64_t cc) { return rr >= 0 && rr < rows && cc >= 0 && cc < cols; };
        const bool b1 = !inside(r + o1, c - 1) || b[(r + o1) * cols + c - 1] <= v;
        const bool b2 = !inside(r + o2, c + 1) || v > b[(r + o2) * cols + c + 1];
        const bool b3 = !inside(r - 1, c + o3) || b[(r - 1) * cols + c + o3] <= v;
        const bool b4 = !inside(r + 1, c + o4) || v > b[(r + 1) * cols + c + o4];
        const double gx = fabs(static_cast<double>(bx[r * cols + c]));
        const double gy = fabs(static_cast<double>(by[r * cols + c]));
        constexpr double tol = 100 * kEps;
        e = ((gx >= kx * gy - tol) && b1 && b2) || ((gy >= ky * gx - tol) && b3 && b4);
    }
    bw[r * cols + c] = e;
}

// ---- log and zerocross --------------------------------------------------------------

struct ThreshValue {
    double* t;  // [0] threshold
    double scale, count;
    __device__ void operator()(double sum) const { t[0] = scale * sum / count; }
};

// |a - z| > thr, the difference rounded in W (the reference's `over`).
template <class W>
__device__ inline bool over(W a, W z, double thr) {
    const W difference = a - z;
    return static_cast<double>(absolute(difference)) > thr;
}

template <class W>
__global__ void zero_cross(const W* __restrict__ b, const double* __restrict__ thresh, bool* __restrict__ bw,
                           int64_t rows, int64_t cols) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    bool e = false;
    if (r > 0 && r + 1 < rows && c > 0 && c + 1 < cols) {
        const double t = thresh[0];
        const W v = b[r * cols + c];
        const W left = b[r * cols + c - 1], right = b[r * cols + c + 1];
        const W up = b[(r - 1) * cols + c], down = b[(r + 1) * cols + c];
        if (v < 0) {
            // [- +] and [+ -] across columns and rows: the edge is on the negative pixel.
            e = (right > 0 && over(v, right, t)) || (left > 0 && over(v, left, t)) ||
                (down > 0 && over(v, down, t)) || (up > 0 && over(v, up, t));
        } else if (v == 0) {
            e = (((up < 0 && down > 0) || (up > 0 && down < 0)) && over(up, down, 2 * t)) ||
                (((left < 0 && right > 0) || (left > 0 && right < 0)) && over(left, right, 2 * t));
        }
    }
    bw[r * cols + c] = e;
}

// ---- canny ----------------------------------------------------------------------

// hypot(gx, gy). Single: the double square root of the double sum of squares
// (exact squares, one rounding each for the sum and the root), rounded once
// to single, as the reference computes it.
template <class W>
__global__ void magnitude(const W* __restrict__ gx, const W* __restrict__ gy, W* __restrict__ mag, int64_t n) {
    IPT_GRID_STRIDE(i, n) {
        if constexpr (std::is_same_v<W, float>) {
            const double x = gx[i], y = gy[i];
            mag[i] = static_cast<float>(sqrt(x * x + y * y));
        } else {
            mag[i] = hypot(gx[i], gy[i]);
        }
    }
}

struct StoreMax {
    double* out;
    __device__ void operator()(double m) const { *out = m; }
};

// The front-end's bin count sizes the per-block histogram in shared memory,
// cleared and flushed by one thread per bin.
constexpr int kCannyBins = ipt::frontend::kCannyBins;
static_assert(kCannyBins >= 2 && kCannyBins <= kThreads, "one thread of a block per histogram bin");

// mag /= max(mag) in W when the maximum is > 0 (the maximum is a W value, so
// converting it back is exact), then imhist(mag, kCannyBins) of the result.
template <class W>
__global__ void normalise_and_count(W* __restrict__ mag, const double* __restrict__ maxv, unsigned* hist, int64_t n) {
    __shared__ unsigned local[kCannyBins];
    if (threadIdx.x < kCannyBins) local[threadIdx.x] = 0;
    __syncthreads();
    const double m = *maxv;
    const W divisor = static_cast<W>(m);
    const double last = static_cast<double>(kCannyBins - 1);
    IPT_GRID_STRIDE(i, n) {
        W v = mag[i];
        if (m > 0) v = v / divisor;
        mag[i] = v;
        // imhist: floor(x*(bins-1) + 0.5) in double, clamped.
        const double idx = static_cast<double>(v) * last + 0.5;
        const int bin = idx < 0 ? 0 : (idx > last ? kCannyBins - 1 : static_cast<int>(idx));
        atomicAdd(&local[bin], 1u);
    }
    __syncthreads();
    if (threadIdx.x < kCannyBins && local[threadIdx.x]) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// thresholds[0] = low, [1] = high: high = the first of the `bins` bins whose
// cumulative count passes limit, divided by bins; low = ratio*high.
__global__ void canny_thresholds(const unsigned* hist, int bins, double* thresholds, double limit, double ratio,
                                 int given, double low, double high) {
    if (threadIdx.x != 0) return;
    if (given) {
        thresholds[0] = low;
        thresholds[1] = high;
        return;
    }
    unsigned long long cum = 0;
    int first = bins;
    for (int i = 0; i < bins; ++i) {
        cum += hist[i];
        if (static_cast<double>(cum) > limit) {
            first = i + 1;
            break;
        }
    }
    const double h = first / static_cast<double>(bins);
    thresholds[0] = ratio * h;
    thresholds[1] = h;
}

// (a*(1-d)) + (b*d) in W, the reference's interpolation.
template <class W>
__device__ inline W interpolate(W a, W b, W d) {
    const W wa = a * (W(1) - d);
    const W wb = b * d;
    return wa + wb;
}

template <class W>
__global__ void non_maximum(const W* __restrict__ gx, const W* __restrict__ gy, const W* __restrict__ mag,
                            const double* __restrict__ thresholds, uint8_t* __restrict__ state, int64_t rows,
                            int64_t cols) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    uint8_t s = 0;  // 0: none, 1: weak (kept edge pixel), 2: strong
    if (r > 0 && r + 1 < rows && c > 0 && c + 1 < cols) {
        const int64_t p = r * cols + c;
        const W ix = gx[p], iy = gy[p], g = mag[p];
        auto M = [&](int dr, int dc) { return mag[(r + dr) * cols + c + dc]; };
        bool is_max = false;
        for (int dir = 1; dir <= 4 && !is_max; ++dir) {
            bool in = false;
            W g1 = 0, g2 = 0, d;
            switch (dir) {
            case 1:
                in = (iy <= 0 && ix > -iy) || (iy >= 0 && ix < -iy);
                if (in) {
                    d = absolute(iy / ix);
                    g1 = interpolate(M(0, 1), M(-1, 1), d);
                    g2 = interpolate(M(0, -1), M(1, -1), d);
                }
                break;
            case 2:
                in = (ix > 0 && -iy >= ix) || (ix < 0 && -iy <= ix);
                if (in) {
                    d = absolute(ix / iy);
                    g1 = interpolate(M(-1, 0), M(-1, 1), d);
                    g2 = interpolate(M(1, 0), M(1, -1), d);
                }
                break;
            case 3:
                in = (ix <= 0 && ix > iy) || (ix >= 0 && ix < iy);
                if (in) {
                    d = absolute(ix / iy);
                    g1 = interpolate(M(-1, 0), M(-1, -1), d);
                    g2 = interpolate(M(1, 0), M(1, 1), d);
                }
                break;
            default:
                in = (iy < 0 && ix <= iy) || (iy > 0 && ix >= iy);
                if (in) {
                    d = absolute(iy / ix);
                    g1 = interpolate(M(0, -1), M(-1, -1), d);
                    g2 = interpolate(M(0, 1), M(1, 1), d);
                }
                break;
            }
            if (in && g >= g1 && g >= g2) is_max = true;
        }
        // The thresholds are doubles: the reference compares double(mag).
        const double gd = static_cast<double>(g);
        if (is_max && gd > thresholds[0]) s = gd > thresholds[1] ? 2 : 1;
    }
    state[r * cols + c] = s;
}

__global__ void join_edges(const uint8_t* __restrict__ state, int* label, int rows, int cols) {
    const int c = blockIdx.x * blockDim.x + threadIdx.x, r = blockIdx.y * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const int p = r * cols + c;
    if (!state[p]) return;
    if (c > 0 && state[p - 1]) uf_unite(label, p, p - 1);
    if (r > 0) {
        if (state[p - cols]) uf_unite(label, p, p - cols);
        if (c > 0 && state[p - cols - 1]) uf_unite(label, p, p - cols - 1);
        if (c + 1 < cols && state[p - cols + 1]) uf_unite(label, p, p - cols + 1);
    }
}

__global__ void mark_strong(const uint8_t* __restrict__ state, const int* __restrict__ label, uint8_t* keep, int64_t n) {
    IPT_GRID_STRIDE(i, n) if (state[i] == 2) keep[label[i]] = 1;
}

__global__ void write_hysteresis(const uint8_t* __restrict__ state, const int* __restrict__ label,
                                 const uint8_t* __restrict__ keep, bool* bw, int64_t n) {
    IPT_GRID_STRIDE(i, n) bw[i] = state[i] != 0 && keep[label[i]] != 0;
}

__global__ void copy_doubles(const double* src, double* dst, int count) {
    if (threadIdx.x < count) dst[threadIdx.x] = src[threadIdx.x];
}

// ---- host side --------------------------------------------------------------------

using ipt::frontend::EdgeMethod;
using ipt::frontend::EdgePlan;

// One planned call; the detectors below run it in the working class W.
struct EdgeRun {
    const EdgePlan& plan;
    const ipt_tensor* bw;
    const ipt_tensor* thresh;  // null when not wanted
    int64_t rows, cols, n;
    cudaStream_t s;
};

template <class W>
void gradient_edges(const EdgeRun& e, const W* x, DeviceArray<double>& scalars) {
    const EdgePlan& p = e.plan;
    const ipt::frontend::GradientOperators& g = p.operators;
    const int64_t ks = g.size;
    const cudaStream_t s = e.s;
    DeviceArray<W> bx(e.n, s), by(e.n, s), b(e.n, s);
    filter_replicate(x, bx.get(), e.rows, e.cols, g.x, ks, ks, false, s, "ipt.edge (gradients)");
    filter_replicate(x, by.get(), e.rows, e.cols, g.y, ks, ks, false, s, "ipt.edge (gradients)");
    gradient_magnitude<W><<<grid_for(e.n), kThreads, 0, s>>>(bx.get(), by.get(), b.get(), static_cast<W>(p.kx),
                                                            static_cast<W>(p.ky), e.n);
    check_launch("ipt.edge (gradients)");
    if (p.threshold_given) {
        const double host[2] = {p.cutoff, p.given[0]};
        scalars.upload(host, 2);
    } else {
        reduce_sum_dd(LoadValue<W>{b.get()}, e.n, Cutoff{scalars.get(), g.scale, static_cast<double>(e.n)}, s,
                      "ipt.edge (cutoff)");
    }
    dim3 block(32, 8);
    thin<W><<<grid_2d(e.cols, e.rows, block), block, 0, s>>>(b.get(), bx.get(), by.get(), scalars.get(),
                                                             dptr<bool>(e.bw), e.rows, e.cols, p.kx, p.ky,
                                                             p.thinning, p.method == EdgeMethod::Roberts ? 1 : 0);
    check_launch("ipt.edge (thinning)");
    if (e.thresh) {
        copy_doubles<<<1, 32, 0, s>>>(scalars.get() + 1, dptr<double>(e.thresh), 1);
        check_launch("ipt.edge");
    }
}

template <class W>
void zero_crossings(const EdgeRun& e, const W* x, DeviceArray<double>& scalars) {
    const EdgePlan& p = e.plan;
    const ipt::common::Filter2D& op = p.zero_crossing;
    if (op.rows > INT32_MAX || op.cols > INT32_MAX) ipt::plugin::unsupported("ipt.edge: filters of 2^31 taps a side");
    const cudaStream_t s = e.s;
    DeviceArray<W> b(e.n, s);
    filter_replicate(x, b.get(), e.rows, e.cols, op.h, op.rows, op.cols, false, s, "ipt.edge (filter)");
    if (p.threshold_given) scalars.upload(p.given.data(), 1);
    else
        reduce_sum_dd(LoadAbs<W>{b.get()}, e.n,
                      ThreshValue{scalars.get(), ipt::frontend::kZeroCrossingScale, static_cast<double>(e.n)}, s,
                      "ipt.edge");
    dim3 block(32, 8);
    zero_cross<W><<<grid_2d(e.cols, e.rows, block), block, 0, s>>>(b.get(), scalars.get(), dptr<bool>(e.bw), e.rows,
                                                                   e.cols);
    check_launch("ipt.edge (zero crossings)");
    if (e.thresh) {
        copy_doubles<<<1, 32, 0, s>>>(scalars.get(), dptr<double>(e.thresh), 1);
        check_launch("ipt.edge");
    }
}

template <class W>
void canny(const EdgeRun& e, const W* x, DeviceArray<double>& scalars) {
    const EdgePlan& p = e.plan;
    const std::vector<double>& gauss = p.canny.gauss;
    const std::vector<double>& deriv = p.canny.deriv;
    const int64_t len = static_cast<int64_t>(gauss.size());
    const cudaStream_t s = e.s;
    const int64_t rows = e.rows, cols = e.cols, n = e.n;
    DeviceArray<W> tmp(n, s), gx(n, s), gy(n, s), mag(n, s);
    // imfilter(x, k, 'conv', 'replicate') with the 1-D kernels.
    const char* what = "ipt.edge (smoothing)";
    filter_replicate(x, tmp.get(), rows, cols, gauss, len, 1, true, s, what);          // g' down the columns
    filter_replicate(tmp.get(), gx.get(), rows, cols, deriv, 1, len, true, s, what);   // dg along the rows
    filter_replicate(x, tmp.get(), rows, cols, gauss, 1, len, true, s, what);          // g along the rows
    filter_replicate(tmp.get(), gy.get(), rows, cols, deriv, len, 1, true, s, what);   // dg' down the columns
    magnitude<W><<<grid_for(n), kThreads, 0, s>>>(gx.get(), gy.get(), mag.get(), n);
    check_launch("ipt.edge (magnitude)");
    DeviceArray<double> maxv(1, s);
    reduce_max(LoadValue<W>{mag.get()}, n, StoreMax{maxv.get()}, s, "ipt.edge (max)");
    DeviceArray<unsigned> hist(kCannyBins, s);
    hist.zero();
    normalise_and_count<W><<<grid_for(n), kThreads, 0, s>>>(mag.get(), maxv.get(), hist.get(), n);
    check_launch("ipt.edge (histogram)");
    const double low = p.threshold_given ? p.given[0] : 0, high = p.threshold_given ? p.given[1] : 0;
    // The fraction of the pixels as the reference forms it: (not_edges * m) * n.
    const double limit = ipt::frontend::kCannyNotEdges * static_cast<double>(rows) * static_cast<double>(cols);
    canny_thresholds<<<1, 32, 0, s>>>(hist.get(), kCannyBins, scalars.get(), limit, ipt::frontend::kCannyRatio,
                                      p.threshold_given ? 1 : 0, low, high);
    check_launch("ipt.edge (thresholds)");
    DeviceArray<uint8_t> state(n, s), keep(n, s);
    DeviceArray<int> label(n, s);
    dim3 block(32, 8);
    dim3 grid = grid_2d(cols, rows, block);
    non_maximum<W><<<grid, block, 0, s>>>(gx.get(), gy.get(), mag.get(), scalars.get(), state.get(), rows, cols);
    check_launch("ipt.edge (non-maximum suppression)");
    uf_init<<<grid_for(n), kThreads, 0, s>>>(label.get(), n);
    join_edges<<<grid, block, 0, s>>>(state.get(), label.get(), static_cast<int>(rows), static_cast<int>(cols));
    uf_flatten<<<grid_for(n), kThreads, 0, s>>>(label.get(), n);
    keep.zero();
    mark_strong<<<grid_for(n), kThreads, 0, s>>>(state.get(), label.get(), keep.get(), n);
    write_hysteresis<<<grid_for(n), kThreads, 0, s>>>(state.get(), label.get(), keep.get(), dptr<bool>(e.bw), n);
    check_launch("ipt.edge (hysteresis)");
    if (e.thresh) {
        copy_doubles<<<1, 32, 0, s>>>(scalars.get(), dptr<double>(e.thresh), 2);
        check_launch("ipt.edge");
    }
}

template <class W>
void detect(const EdgeRun& e) {
    DeviceArray<W> x(e.n, e.s);
    visit_dtype(e.plan.I->dtype, [&](auto tag) {
        using T = decltype(tag);
        to_working<T, W><<<grid_for(e.n), kThreads, 0, e.s>>>(dptr<const T>(e.plan.I), x.get(), e.n);
    });
    check_launch("ipt.edge (conversion)");
    DeviceArray<double> scalars(2, e.s);  // threshold(s) as the operator reports them
    if (e.plan.gradient) gradient_edges<W>(e, x.get(), scalars);
    else if (e.plan.method == EdgeMethod::Canny) canny<W>(e, x.get(), scalars);
    else zero_crossings<W>(e, x.get(), scalars);
}

void run_edge(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const EdgePlan plan = ipt::frontend::plan_edge(args);
    const int64_t rows = plan.rows, cols = plan.cols, n = rows * cols;
    if (!plan.empty() && n >= INT32_MAX) ipt::plugin::unsupported("ipt.edge: images of 2^31 pixels or more");
    const ipt_tensor* bw = args.output("BW", IPT_LOGICAL, rows, cols, 1);
    const ipt_tensor* thresh =
        args.wanted("thresh") ? args.output("thresh", IPT_DOUBLE, 1, plan.thresh_count, 1) : nullptr;
    if (plan.empty()) {
        if (thresh) {
            const std::vector<double> t = plan.thresh_without_pixels();
            // From pageable memory: staged before the call returns.
            check(cudaMemcpyAsync(thresh->data, t.data(), t.size() * sizeof(double), cudaMemcpyHostToDevice,
                                  dev.stream),
                  "ipt.edge");
        }
        return;
    }
    const EdgeRun e{plan, bw, thresh, rows, cols, n, dev.stream};
    // The reference's working class: double for double images, single for
    // every other class (single included).
    if (plan.working_class == IPT_DOUBLE) detect<double>(e);
    else detect<float>(e);
}

IPT_CUDA_OP("ipt.edge", "", 100, run_edge)

}  // namespace
}  // namespace ipt::cuda
