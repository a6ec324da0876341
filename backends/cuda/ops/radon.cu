// radon: MATLAB's four-sub-pixel projection (radonc) as a deterministic
// gather: one thread per (bin, angle) visits only the pixels whose sub-pixels
// can fall in that bin (a strip two bins wide across the image, walked along
// rows or columns, whichever the strip crosses more steeply) and adds the
// linear-interpolation weights exactly as the scatter would. No atomics: every
// run gives the same bits. cos and sin come from the host's libm, as the
// reference computes them.
#include <cmath>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"

namespace ipt::cuda {
namespace {

struct RadonGeometry {
    int64_t rows, cols;
    double x_origin, y_origin, r_first;
    int64_t bins, angles;
};

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
__global__ void radon_gather(const T* __restrict__ img, const double* __restrict__ cosv, const double* __restrict__ sinv,
                             double* __restrict__ r, RadonGeometry g) {
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

__global__ void radon_xp(double* xp, int64_t bins, double r_first) {
    IPT_GRID_STRIDE(i, bins) xp[i] = r_first + static_cast<double>(i);
}

void run_radon(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* img = args.image("I");
    const double* theta = args.floats("theta");
    const int64_t nt = static_cast<int64_t>(args.count("theta"));
    const int64_t m = img->rows, n = img->cols;
    if (m == 0 || n == 0) ipt::plugin::unsupported("ipt.radon: empty images are left to the reference");
    RadonGeometry g;
    g.rows = m;
    g.cols = n;
    const int64_t xo = (n - 1) / 2, yo = (m - 1) / 2;
    g.x_origin = static_cast<double>(xo);
    g.y_origin = static_cast<double>(yo);
    const double dy = static_cast<double>(m - 1 - yo), dx = static_cast<double>(n - 1 - xo);
    const int64_t r_last = static_cast<int64_t>(std::ceil(std::sqrt(dy * dy + dx * dx))) + 1;
    g.r_first = static_cast<double>(-r_last);
    g.bins = 2 * r_last + 1;
    g.angles = nt;
    std::vector<double> cs(nt), sn(nt);
    for (int64_t i = 0; i < nt; ++i) {
        const double rad = theta[i] * 3.14159265358979 / 180.0;
        cs[i] = std::cos(rad);
        sn[i] = std::sin(rad);
    }
    const ipt_tensor* r = args.output("R", IPT_DOUBLE, g.bins, nt, 1);
    const ipt_tensor* xp = args.wanted("xp") ? args.output("xp", IPT_DOUBLE, g.bins, 1, 1) : nullptr;
    cudaStream_t s = dev.stream;
    if (xp) {
        radon_xp<<<grid_for(g.bins), kThreads, 0, s>>>(dptr<double>(xp), g.bins, g.r_first);
        check_launch("ipt.radon (xp)");
    }
    if (nt == 0) return;
    DeviceArray<double> dcs = to_device(cs, s), dsn = to_device(sn, s);
    dim3 grid(static_cast<unsigned>((g.bins + 127) / 128), static_cast<unsigned>(nt));
    visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        radon_gather<T><<<grid, 128, 0, s>>>(dptr<const T>(img), dcs.get(), dsn.get(), dptr<double>(r), g);
    });
    check_launch("ipt.radon");
}

IPT_CUDA_OP("ipt.radon", "", 100, run_radon)

}  // namespace
}  // namespace ipt::cuda
