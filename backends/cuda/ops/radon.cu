// SPDX-License-Identifier: Apache-2.0
// radon: MATLAB's four-sub-pixel projection (radonc). A sub-pixel with value
// v/4 at r = x cos(theta) + y sin(theta) lands at t = r - rFirst and gives
// (1-delta)*v/4 to bin k = floor(t) and delta*v/4 to bin k+1. No atomics:
// every run gives the same bits. The geometry and the angles' cos and sin
// are the front-end's (backends/common/ops/radon.hpp).
//
// Bin owners (the default): one thread per (bin b, angle) visits exactly the
// sub-pixels with floor(t) = b and keeps two sums, its own bin's (1-delta)
// shares and the delta shares of bin b+1; the block adds each bin's own sum
// to its left neighbour's "next" sum. Every sub-pixel is projected once, and
// every product is the reference's bit for bit (same tables of x cos and
// y sin, same t, same delta: t - b is exact); only the order of each bin's
// sum differs, which the catalogue's bound allows.
//
// How a thread finds its sub-pixels: per angle the block builds, in shared
// memory, the reference's x cos and y sin tables sorted by value. The walked
// ("inner") dimension is the one whose factor is larger in magnitude, so
// consecutive inner sub-pixels are at most 0.5 apart in t and a line (one
// sub-row or sub-column) holds 2-3 sub-pixels of a bin. The lines that reach
// bin b form one range (two binary searches); walking them from the largest
// t down, the first sub-pixel of the bin only moves forward.
//
// Strip gather (the previous kernel, for images whose tables do not fit in
// shared memory, or with IPT_CUDA_RADON=strip): one thread per (bin, angle)
// evaluates every sub-pixel of a two-bin-wide strip.
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/radon.hpp"

namespace ipt::cuda {
namespace {

struct RadonGeometry {
    int64_t rows, cols;
    double x_origin, y_origin, r_first;
    int64_t bins, angles;
};

// ---- bin owners -----------------------------------------------------------------

constexpr int kOwnerThreads = 128;  // bins per block: kOwnerThreads - 1 (thread 0 redoes the bin left of the block for its "next" sum)

// v/4 of every pixel, row-major and transposed: the inner walk reads a line
// of either along consecutive addresses.
template <class T>
__global__ void radon_quarter_values(const T* __restrict__ img, double* __restrict__ quarter,
                                     double* __restrict__ quarter_t, int rows, int cols) {
    __shared__ double tile[32][33];
    const int c0 = blockIdx.x * 32, r0 = blockIdx.y * 32;
    for (int ri = threadIdx.y; ri < 32; ri += blockDim.y) {
        const int r = r0 + ri, c = c0 + threadIdx.x;
        if (r < rows && c < cols) {
            const double q = to_double(img[static_cast<size_t>(r) * cols + c]) * 0.25;
            quarter[static_cast<size_t>(r) * cols + c] = q;
            tile[ri][threadIdx.x] = q;
        }
    }
    __syncthreads();
    for (int ci = threadIdx.y; ci < 32; ci += blockDim.y) {
        const int c = c0 + ci, r = r0 + threadIdx.x;
        if (r < rows && c < cols) quarter_t[static_cast<size_t>(c) * rows + r] = tile[threadIdx.x][ci];
    }
}

// One dimension's sub-pixel coordinates times its factor (the reference's
// x_cos or y_sin), in increasing order of value. Sub-pixel s (0: -0.25,
// 1: +0.25) of pixel p has the coordinate (p - x_origin) -/+ 0.25 along x and
// (y_origin - p) -/+ 0.25 along y, so the order of coordinates is p ascending
// along x and p descending along y; a negative factor reverses it.
struct Axis {
    bool along_x;
    int pixels;
    double factor;
    // Entry e's pixel is flip ? pixels-1-(e>>1) : e>>1.
    __device__ bool flip() const { return (factor < 0.0) != !along_x; }
    __device__ int pixel(int e) const { return flip() ? pixels - 1 - (e >> 1) : (e >> 1); }
};

__device__ inline void fill_axis(double* table, const Axis& a, const RadonGeometry& g) {
    const double quarter_step = 0.25 * a.factor;
    const int n = 2 * a.pixels;
    for (int e = threadIdx.x; e < n; e += blockDim.x) {
        const int coord = a.factor >= 0.0 ? e : n - 1 - e;  // index in increasing coordinate
        const int s = coord & 1;
        const int p = a.along_x ? (coord >> 1) : a.pixels - 1 - (coord >> 1);
        const double base = a.along_x ? static_cast<double>(p - static_cast<int64_t>(g.x_origin)) * a.factor
                                      : static_cast<double>(static_cast<int64_t>(g.y_origin) - p) * a.factor;
        table[e] = s ? base + quarter_step : base - quarter_step;
    }
}

// First index in [lo, hi) where pred holds (pred is monotone: false then true).
template <class Pred>
__device__ inline int first_true(int lo, int hi, Pred pred) {
    while (lo < hi) {
        const int mid = (lo + hi) >> 1;
        if (pred(mid)) hi = mid;
        else lo = mid + 1;
    }
    return lo;
}

__global__ void __launch_bounds__(kOwnerThreads) radon_bin_owners(const double* __restrict__ quarter,
                                                                 const double* __restrict__ quarter_t,
                                                                 const double* __restrict__ cosv,
                                                                 const double* __restrict__ sinv,
                                                                 double* __restrict__ r, RadonGeometry g) {
    extern __shared__ double tables[];
    __shared__ double next_sums[kOwnerThreads];
    const int angle = blockIdx.x;
    const double cs = cosv[angle], sn = sinv[angle];
    const bool inner_along_x = fabs(cs) >= fabs(sn);
    const Axis x_axis{true, static_cast<int>(g.cols), cs}, y_axis{false, static_cast<int>(g.rows), sn};
    const Axis inner_axis = inner_along_x ? x_axis : y_axis, outer_axis = inner_along_x ? y_axis : x_axis;
    const int inner_n = 2 * inner_axis.pixels, outer_n = 2 * outer_axis.pixels;
    double* inner = tables;
    double* outer = tables + inner_n;
    fill_axis(inner, inner_axis, g);
    fill_axis(outer, outer_axis, g);
    __syncthreads();

    const int64_t b = static_cast<int64_t>(blockIdx.y) * (kOwnerThreads - 1) - 1 + threadIdx.x;
    double own = 0.0, next = 0.0;
    if (b >= 0 && b < g.bins) {
        const double fb = static_cast<double>(b), fb1 = static_cast<double>(b + 1), shift = g.r_first;
        // t as the reference forms it: (x cos + y sin) - rFirst (the sum commutes exactly).
        auto t_of = [shift](double in, double out) { return (in + out) - shift; };
        const double in_first = inner[0], in_last = inner[inner_n - 1];
        // Lines with a sub-pixel in [b, b+1): the largest t reaches b, the smallest is below b+1.
        const int u_begin = first_true(0, outer_n, [&](int u) { return t_of(in_last, outer[u]) >= fb; });
        const int u_end = first_true(u_begin, outer_n, [&](int u) { return t_of(in_first, outer[u]) >= fb1; });
        if (u_begin < u_end) {
            // Rows of `lines` are outer pixels, columns inner pixels.
            const double* lines = inner_along_x ? quarter : quarter_t;
            const double o_last = outer[u_end - 1];
            int w_first = first_true(0, inner_n, [&](int w) { return t_of(inner[w], o_last) >= fb; });
            // The next table entries are read one step ahead, so that the
            // shared-memory latency overlaps the current step's arithmetic.
            double o_next = o_last;
            for (int u = u_end - 1; u >= u_begin; --u) {
                const double o = o_next;
                if (u > u_begin) o_next = outer[u - 1];
                const double* line = lines + static_cast<size_t>(outer_axis.pixel(u)) * inner_axis.pixels;
                double in_next = w_first < inner_n ? inner[w_first] : 0.0;
                for (int w = w_first; w < inner_n; ++w) {
                    const double t = t_of(in_next, o);
                    if (t >= fb1) break;
                    if (w + 1 < inner_n) in_next = inner[w + 1];
                    if (t < fb) {  // t falls line by line: the first sub-pixel of b moves right
                        w_first = w + 1;
                        continue;
                    }
                    const double delta = t - fb;  // exact: b <= t < b+1 (Sterbenz)
                    const double v = line[static_cast<unsigned>(inner_axis.pixel(w))];
                    own += v * (1.0 - delta);
                    next += v * delta;
                }
            }
        }
    }
    next_sums[threadIdx.x] = next;
    __syncthreads();
    if (threadIdx.x > 0 && b < g.bins) r[b * g.angles + angle] = own + next_sums[threadIdx.x - 1];
}

// ---- strip gather (previous kernel) ---------------------------------------------------

// Contribution of the sub-pixel (x, y) with value pv (= v/4) to bin b.
__device__ inline double share(double x, double y, double cs, double sn, double r_first, int64_t b, double pv) {
    const double t = (x * cs + y * sn) - r_first;
    const double k = floor(t);
    const double delta = t - k;
    if (k == static_cast<double>(b)) return pv * (1.0 - delta);
    if (k == static_cast<double>(b - 1)) return pv * delta;
    return 0.0;
}

template <class T>
__global__ void radon_strip_gather(const T* __restrict__ img, const double* __restrict__ cosv,
                                   const double* __restrict__ sinv, double* __restrict__ r, RadonGeometry g) {
    const int64_t b = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t a = blockIdx.y;
    if (b >= g.bins) return;
    const double cs = cosv[a], sn = sinv[a];
    double acc = 0.0;
    const double lo_t = static_cast<double>(b - 1), hi_t = static_cast<double>(b + 1);
    // Sub-pixels with t in [b-1, b+1) reach bin b. Per image row (or column),
    // the pixels whose four sub-pixels can be there form a short run; the
    // run of both sub-rows is walked once, with a margin of 1e-6 for rounding
    // (share() decides exactly).
    constexpr double margin = 1e-6;
    if (fabs(cs) >= fabs(sn)) {
        for (int64_t m = 0; m < g.rows; ++m) {
            const double yc = g.y_origin - static_cast<double>(m);
            double lo = INFINITY, hi = -INFINITY;
            for (int sy = 0; sy < 2; ++sy) {
                const double ys = (yc + (sy ? -0.25 : 0.25)) * sn - g.r_first;
                const double x1 = (lo_t - ys) / cs, x2 = (hi_t - ys) / cs;
                lo = fmin(lo, fmin(x1, x2));
                hi = fmax(hi, fmax(x1, x2));
            }
            int64_t n0 = static_cast<int64_t>(ceil(lo + g.x_origin - 0.25 - margin));
            int64_t n1 = static_cast<int64_t>(floor(hi + g.x_origin + 0.25 + margin));
            if (n0 < 0) n0 = 0;
            if (n1 > g.cols - 1) n1 = g.cols - 1;
            for (int64_t n = n0; n <= n1; ++n) {
                const double v = to_double(img[m * g.cols + n]);
                if (v == 0.0) continue;
                const double pv = v * 0.25;
                const double xc = static_cast<double>(n) - g.x_origin;
                acc += share(xc - 0.25, yc + 0.25, cs, sn, g.r_first, b, pv);
                acc += share(xc + 0.25, yc + 0.25, cs, sn, g.r_first, b, pv);
                acc += share(xc - 0.25, yc - 0.25, cs, sn, g.r_first, b, pv);
                acc += share(xc + 0.25, yc - 0.25, cs, sn, g.r_first, b, pv);
            }
        }
    } else {
        for (int64_t n = 0; n < g.cols; ++n) {
            const double xc = static_cast<double>(n) - g.x_origin;
            double lo = INFINITY, hi = -INFINITY;
            for (int sx = 0; sx < 2; ++sx) {
                const double xs = (xc + (sx ? 0.25 : -0.25)) * cs - g.r_first;
                const double y1 = (lo_t - xs) / sn, y2 = (hi_t - xs) / sn;
                lo = fmin(lo, fmin(y1, y2));
                hi = fmax(hi, fmax(y1, y2));
            }
            // y = y_origin - m -/+ 0.25  =>  m in [y_origin - hi - 0.25, y_origin - lo + 0.25]
            int64_t m0 = static_cast<int64_t>(ceil(g.y_origin - hi - 0.25 - margin));
            int64_t m1 = static_cast<int64_t>(floor(g.y_origin - lo + 0.25 + margin));
            if (m0 < 0) m0 = 0;
            if (m1 > g.rows - 1) m1 = g.rows - 1;
            for (int64_t m = m0; m <= m1; ++m) {
                const double v = to_double(img[m * g.cols + n]);
                if (v == 0.0) continue;
                const double pv = v * 0.25;
                const double yc = g.y_origin - static_cast<double>(m);
                acc += share(xc - 0.25, yc + 0.25, cs, sn, g.r_first, b, pv);
                acc += share(xc + 0.25, yc + 0.25, cs, sn, g.r_first, b, pv);
                acc += share(xc - 0.25, yc - 0.25, cs, sn, g.r_first, b, pv);
                acc += share(xc + 0.25, yc - 0.25, cs, sn, g.r_first, b, pv);
            }
        }
    }
    r[b * g.angles + a] = acc;
}

// IPT_CUDA_RADON=strip selects the strip gather (to time both on a GPU).
bool strip_gather_forced() {
    const char* v = std::getenv("IPT_CUDA_RADON");
    return v && std::strcmp(v, "strip") == 0;
}

void run_radon(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::RadonPlan plan = ipt::frontend::plan_radon(args);
    const ipt_tensor* img = args.image("I");
    const int64_t m = plan.rows, n = plan.cols, nt = plan.angles;
    if (m == 0 || n == 0) ipt::plugin::unsupported("ipt.radon: empty images are left to the reference");
    RadonGeometry g;
    g.rows = m;
    g.cols = n;
    g.x_origin = static_cast<double>(plan.x_origin);
    g.y_origin = static_cast<double>(plan.y_origin);
    g.r_first = static_cast<double>(plan.r_first);
    g.bins = plan.bins;
    g.angles = nt;
    const ipt_tensor* r = args.output("R", IPT_DOUBLE, g.bins, nt, 1);
    const ipt_tensor* xp = plan.want_xp ? args.output("xp", IPT_DOUBLE, g.bins, 1, 1) : nullptr;
    cudaStream_t s = dev.stream;
    if (xp)  // from pageable memory: staged before the call returns
        check(cudaMemcpyAsync(xp->data, plan.xp.data(), plan.xp.size() * sizeof(double), cudaMemcpyHostToDevice, s),
              "ipt.radon: copy xp to the device");
    if (nt == 0) return;
    DeviceArray<double> dcs = to_device(plan.cos_theta, s), dsn = to_device(plan.sin_theta, s);

    // The bin owners keep both sorted tables of an angle in shared memory;
    // half of the opt-in size leaves room for two blocks per SM.
    const size_t table_bytes = static_cast<size_t>(2 * (m + n)) * sizeof(double);
    const int64_t bin_blocks = (g.bins + kOwnerThreads - 2) / (kOwnerThreads - 1);
    const bool owners = !strip_gather_forced() && table_bytes <= dev.shared_per_block_optin / 2 &&
                        nt <= 0x7fffffff && bin_blocks <= 65535;
    if (owners) {
        DeviceArray<double> quarter(static_cast<size_t>(m * n), s), quarter_t(static_cast<size_t>(m * n), s);
        const dim3 tiles(static_cast<unsigned>((n + 31) / 32), static_cast<unsigned>((m + 31) / 32));
        visit_dtype(img->dtype, [&](auto tag) {
            using T = decltype(tag);
            radon_quarter_values<T><<<tiles, dim3(32, 8), 0, s>>>(dptr<const T>(img), quarter.get(), quarter_t.get(),
                                                                  static_cast<int>(m), static_cast<int>(n));
        });
        check_launch("ipt.radon (quarter values)");
        if (table_bytes > 48 * 1024)
            check(cudaFuncSetAttribute(radon_bin_owners, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(table_bytes)),
                  "cudaFuncSetAttribute (radon tables)");
        const dim3 grid(static_cast<unsigned>(nt), static_cast<unsigned>(bin_blocks));
        radon_bin_owners<<<grid, kOwnerThreads, table_bytes, s>>>(quarter.get(), quarter_t.get(), dcs.get(),
                                                                  dsn.get(), dptr<double>(r), g);
        check_launch("ipt.radon");
        return;
    }
    dim3 grid(static_cast<unsigned>((g.bins + 127) / 128), static_cast<unsigned>(nt));
    visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        radon_strip_gather<T><<<grid, 128, 0, s>>>(dptr<const T>(img), dcs.get(), dsn.get(), dptr<double>(r), g);
    });
    check_launch("ipt.radon");
}

IPT_CUDA_OP("ipt.radon", "", 100, run_radon)

}  // namespace
}  // namespace ipt::cuda
