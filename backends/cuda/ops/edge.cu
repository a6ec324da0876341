// edge: Sobel, Prewitt, Roberts, Laplacian of Gaussian, zero-cross and Canny,
// following MATLAB's edge (MATLAB_SEMANTICS.md). Integer and logical inputs
// are converted as im2single does; everything after that is computed in
// double on the device, and thresholds stay on the device (nothing waits).
//
//  - Sobel/Prewitt/Roberts: one fused kernel computes the two gradients with
//    replicated borders and b = kx*bx^2 + ky*by^2; the automatic cutoff
//    scale*mean(b) is a double-double reduction; a second kernel thresholds
//    and applies MATLAB's thinning (asymmetric <= / > comparisons, outside
//    neighbours count as true).
//  - log/zerocross: correlation engine with the zero-sum filter, replicate
//    borders; threshold 0.75*mean(|b|); zero crossings on interior pixels.
//  - canny: separable Gaussian and derivative-of-Gaussian passes (correlation
//    engine), magnitude normalised by its maximum, 64-bin histogram for the
//    automatic thresholds, non-maximum suppression in four direction sectors
//    with linear interpolation, hysteresis as 8-connected components
//    (union-find) that hold a strong pixel.
#include <cmath>
#include <string>
#include <vector>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/correlate.cuh"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/reduce.cuh"
#include "common/union_find.cuh"
#include "fspecial.hpp"

namespace ipt::cuda {
namespace {

constexpr double kEps = 2.220446049250313e-16;

// im2single for integer and logical classes; floating classes as they are.
template <class T>
__global__ void to_working(const T* __restrict__ in, double* __restrict__ out, int64_t n) {
    IPT_GRID_STRIDE(i, n) {
        if constexpr (std::is_floating_point_v<T>) out[i] = static_cast<double>(in[i]);
        else out[i] = static_cast<double>(to_unit_single(in[i]));
    }
}

struct GradientParams {
    double k[3][3];  // correlation kernel of by; bx uses its transpose
    int size;        // 3 (Sobel, Prewitt) or 2 (Roberts)
    double kx, ky;
    double k2x[2][2];  // Roberts: bx kernel
};

__device__ inline double at_replicate(const double* x, int64_t rows, int64_t cols, int64_t r, int64_t c) {
    r = r < 0 ? 0 : (r >= rows ? rows - 1 : r);
    c = c < 0 ? 0 : (c >= cols ? cols - 1 : c);
    return x[r * cols + c];
}

__global__ void gradients(const double* __restrict__ x, double* __restrict__ b, double* __restrict__ ax,
                          double* __restrict__ ay, int64_t rows, int64_t cols, GradientParams p) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    double bx = 0.0, by = 0.0;
    if (p.size == 3) {
        // imfilter(I, op') and imfilter(I, op): correlation, origin at the centre.
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) {
                // Zero taps are skipped, as imfilter does (Inf stays local).
                const double v = at_replicate(x, rows, cols, r + i - 1, c + j - 1);
                if (p.k[j][i] != 0.0) bx += v * p.k[j][i];
                if (p.k[i][j] != 0.0) by += v * p.k[i][j];
            }
    } else {
        // 2 x 2 kernels: origin at the upper left.
        for (int i = 0; i < 2; ++i)
            for (int j = 0; j < 2; ++j) {
                const double v = at_replicate(x, rows, cols, r + i, c + j);
                if (p.k2x[i][j] != 0.0) bx += v * p.k2x[i][j];
                if (p.k[i][j] != 0.0) by += v * p.k[i][j];
            }
    }
    const int64_t o = r * cols + c;
    b[o] = p.kx * bx * bx + p.ky * by * by;
    ax[o] = fabs(bx);
    ay[o] = fabs(by);
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

struct LoadValue {
    const double* p;
    __device__ double operator()(int64_t i) const { return p[i]; }
};
struct LoadAbs {
    const double* p;
    __device__ double operator()(int64_t i) const { return fabs(p[i]); }
};

__global__ void thin(const double* __restrict__ b, const double* __restrict__ ax, const double* __restrict__ ay,
                     const double* __restrict__ cutoff, bool* __restrict__ bw, int64_t rows, int64_t cols, double kx,
                     double ky, bool thinning, int roberts) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const double v = b[r * cols + c];
    const double cut = cutoff[0];
    bool e = v > cut;
    if (e && thinning) {
        const int o1 = roberts ? -1 : 0, o2 = roberts ? 1 : 0, o3 = roberts ? 1 : 0, o4 = roberts ? -1 : 0;
        auto inside = [&](int64_t rr, int64_t cc) { return rr >= 0 && rr < rows && cc >= 0 && cc < cols; };
        const bool b1 = !inside(r + o1, c - 1) || b[(r + o1) * cols + c - 1] <= v;
        const bool b2 = !inside(r + o2, c + 1) || v > b[(r + o2) * cols + c + 1];
        const bool b3 = !inside(r - 1, c + o3) || b[(r - 1) * cols + c + o3] <= v;
        const bool b4 = !inside(r + 1, c + o4) || v > b[(r + 1) * cols + c + o4];
        const double gx = ax[r * cols + c], gy = ay[r * cols + c];
        e = ((gx >= kx * gy - 100 * kEps) && b1 && b2) || ((gy >= ky * gx - 100 * kEps) && b3 && b4);
    }
    bw[r * cols + c] = e;
}

struct ThreshValue {
    double* t;  // [0] threshold
    double scale, count;
    __device__ void operator()(double sum) const { t[0] = scale * sum / count; }
};

__global__ void zero_cross(const double* __restrict__ b, const double* __restrict__ thresh, bool* __restrict__ bw,
                           int64_t rows, int64_t cols) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    bool e = false;
    if (r > 0 && r + 1 < rows && c > 0 && c + 1 < cols) {
        const double t = thresh[0];
        const double v = b[r * cols + c];
        const double left = b[r * cols + c - 1], right = b[r * cols + c + 1];
        const double up = b[(r - 1) * cols + c], down = b[(r + 1) * cols + c];
        if (v < 0) {
            e = (right > 0 && fabs(v - right) > t) || (left > 0 && fabs(left - v) > t) ||
                (down > 0 && fabs(v - down) > t) || (up > 0 && fabs(up - v) > t);
        } else if (v == 0) {
            e = (up < 0 && down > 0 && fabs(up - down) > 2 * t) || (up > 0 && down < 0 && fabs(up - down) > 2 * t) ||
                (left < 0 && right > 0 && fabs(left - right) > 2 * t) ||
                (left > 0 && right < 0 && fabs(left - right) > 2 * t);
        }
    }
    bw[r * cols + c] = e;
}

// ---- canny ----------------------------------------------------------------------

__global__ void magnitude(const double* __restrict__ gx, const double* __restrict__ gy, double* __restrict__ mag,
                          int64_t n) {
    IPT_GRID_STRIDE(i, n) mag[i] = hypot(gx[i], gy[i]);
}

struct LoadMag {
    const double* p;
    __device__ double operator()(int64_t i) const { return p[i]; }
};
struct StoreMax {
    double* out;
    __device__ void operator()(double m) const { *out = m; }
};

__global__ void normalise_and_count(double* __restrict__ mag, const double* __restrict__ maxv, unsigned* hist,
                                    int64_t n) {
    __shared__ unsigned local[64];
    if (threadIdx.x < 64) local[threadIdx.x] = 0;
    __syncthreads();
    const double m = *maxv;
    IPT_GRID_STRIDE(i, n) {
        double v = mag[i];
        if (m > 0) v = v / m;
        mag[i] = v;
        // imhist(mag, 64): trunc(x*63 + 0.5), clamped.
        double idx = v * 63.0 + 0.5;
        int bin = idx < 0 ? 0 : (idx > 63.0 ? 63 : static_cast<int>(idx));
        atomicAdd(&local[bin], 1u);
    }
    __syncthreads();
    if (threadIdx.x < 64 && local[threadIdx.x]) atomicAdd(&hist[threadIdx.x], local[threadIdx.x]);
}

// thresholds[0] = low, [1] = high.
__global__ void canny_thresholds(const unsigned* hist, double* thresholds, double limit, int given, double low,
                                 double high) {
    if (threadIdx.x != 0) return;
    if (given) {
        thresholds[0] = low;
        thresholds[1] = high;
        return;
    }
    unsigned long long cum = 0;
    int first = 64;
    for (int i = 0; i < 64; ++i) {
        cum += hist[i];
        if (static_cast<double>(cum) > limit) {
            first = i + 1;
            break;
        }
    }
    const double h = first / 64.0;
    thresholds[0] = 0.4 * h;
    thresholds[1] = h;
}

__global__ void non_maximum(const double* __restrict__ gx, const double* __restrict__ gy, const double* __restrict__ mag,
                            const double* __restrict__ thresholds, uint8_t* __restrict__ state, int64_t rows,
                            int64_t cols) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    uint8_t s = 0;  // 0: none, 1: weak (kept edge pixel), 2: strong
    if (r > 0 && r + 1 < rows && c > 0 && c + 1 < cols) {
        const int64_t p = r * cols + c;
        const double ix = gx[p], iy = gy[p], g = mag[p];
        auto M = [&](int dr, int dc) { return mag[(r + dr) * cols + c + dc]; };
        bool is_max = false;
        for (int dir = 1; dir <= 4 && !is_max; ++dir) {
            bool in = false;
            double g1 = 0, g2 = 0, d;
            switch (dir) {
            case 1:
                in = (iy <= 0 && ix > -iy) || (iy >= 0 && ix < -iy);
                if (in) {
                    d = fabs(iy / ix);
                    g1 = M(0, 1) * (1 - d) + M(-1, 1) * d;
                    g2 = M(0, -1) * (1 - d) + M(1, -1) * d;
                }
                break;
            case 2:
                in = (ix > 0 && -iy >= ix) || (ix < 0 && -iy <= ix);
                if (in) {
                    d = fabs(ix / iy);
                    g1 = M(-1, 0) * (1 - d) + M(-1, 1) * d;
                    g2 = M(1, 0) * (1 - d) + M(1, -1) * d;
                }
                break;
            case 3:
                in = (ix <= 0 && ix > iy) || (ix >= 0 && ix < iy);
                if (in) {
                    d = fabs(ix / iy);
                    g1 = M(-1, 0) * (1 - d) + M(-1, -1) * d;
                    g2 = M(1, 0) * (1 - d) + M(1, 1) * d;
                }
                break;
            default:
                in = (iy < 0 && ix <= iy) || (iy > 0 && ix >= iy);
                if (in) {
                    d = fabs(iy / ix);
                    g1 = M(0, -1) * (1 - d) + M(-1, -1) * d;
                    g2 = M(0, 1) * (1 - d) + M(1, 1) * d;
                }
                break;
            }
            if (in && g >= g1 && g >= g2) is_max = true;
        }
        if (is_max && g > thresholds[0]) s = g > thresholds[1] ? 2 : 1;
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

void separable(const double* in, double* out, int64_t rows, int64_t cols, const DeviceArray<double>& taps, int len,
               bool vertical, cudaStream_t s) {
    // imfilter(x, k, 'conv', 'replicate') with a 1-D kernel: correlation with
    // the kernel reversed, origin floor((len+1)/2).
    CorrGeometry g;
    g.in_rows = rows;
    g.in_cols = cols;
    g.out_rows = rows;
    g.out_cols = cols;
    g.kh = vertical ? len : 1;
    g.kw = vertical ? 1 : len;
    g.off_r = vertical ? kernel_origin(len) : 0;
    g.off_c = vertical ? 0 : kernel_origin(len);
    g.border = Border::Replicate;
    g.rotate = true;
    correlate_async<double, double>(in, out, Taps{taps.get(), false}, g, 0.0, s, "ipt.edge (smoothing)");
}

void run_edge(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* img = args.image("I");
    const std::string method = args.text("method");
    const bool has_t = args.present("threshold");
    const double* tv = has_t ? args.floats("threshold") : nullptr;
    const uint64_t nt = has_t ? args.count("threshold") : 0;
    if (method != "canny" && nt > 1)
        ipt::plugin::invalid("ipt.edge: parameter 'threshold' must be a scalar for method " + method);
    if (method == "canny" && nt == 2 && !(tv[0] < tv[1]))
        ipt::plugin::invalid("ipt.edge: parameter 'threshold' must be [low high] with low < high");
    if (method == "canny" && has_t && tv[nt - 1] >= 1)
        ipt::plugin::invalid("ipt.edge: parameter 'threshold' must be below 1 for canny");
    const ipt_tensor* h = args.image("h");
    if (method == "zerocross" && !h) ipt::plugin::invalid("ipt.edge: parameter 'h' is required for zerocross");
    const int64_t rows = img->rows, cols = img->cols, n = rows * cols;
    if (n >= INT32_MAX) ipt::plugin::unsupported("ipt.edge: images of 2^31 pixels or more");
    const ipt_tensor* bw = args.output("BW", IPT_LOGICAL, rows, cols, 1);
    const ipt_tensor* thresh = args.wanted("thresh") ? args.output("thresh", IPT_DOUBLE, 1, method == "canny" ? 2 : 1, 1)
                                                     : nullptr;
    if (n == 0) return;
    cudaStream_t s = dev.stream;
    DeviceArray<double> x(n, s);
    visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        to_working<T><<<grid_for(n), kThreads, 0, s>>>(dptr<const T>(img), x.get(), n);
    });
    check_launch("ipt.edge (conversion)");
    dim3 block(32, 8);
    dim3 grid = grid_2d(cols, rows, block);
    DeviceArray<double> scalars(2, s);  // threshold(s) as the operator reports them

    if (method == "sobel" || method == "prewitt" || method == "roberts") {
        const bool roberts = method == "roberts";
        GradientParams p{};
        const std::string dir = args.text("direction");
        p.kx = (dir == "horizontal") ? 0.0 : 1.0;
        p.ky = (dir == "vertical") ? 0.0 : 1.0;
        if (roberts) {
            p.size = 2;
            p.k2x[0][0] = 0.5;
            p.k2x[1][1] = -0.5;
            p.k[0][1] = 0.5;
            p.k[1][0] = -0.5;
        } else {
            p.size = 3;
            const double w = method == "sobel" ? 2.0 : 1.0, div = method == "sobel" ? 8.0 : 6.0;
            const double base[3][3] = {{1, w, 1}, {0, 0, 0}, {-1, -w, -1}};
            for (int i = 0; i < 3; ++i)
                for (int j = 0; j < 3; ++j) p.k[i][j] = base[i][j] / div;
        }
        DeviceArray<double> b(n, s), ax(n, s), ay(n, s);
        gradients<<<grid, block, 0, s>>>(x.get(), b.get(), ax.get(), ay.get(), rows, cols, p);
        check_launch("ipt.edge (gradients)");
        if (has_t) {
            const double host[2] = {tv[0] * tv[0], tv[0]};
            scalars.upload(host, 2);
        } else {
            reduce_sum_dd(LoadValue{b.get()}, n, Cutoff{scalars.get(), roberts ? 6.0 : 4.0, static_cast<double>(n)}, s,
                          "ipt.edge (cutoff)");
        }
        thin<<<grid, block, 0, s>>>(b.get(), ax.get(), ay.get(), scalars.get(), dptr<bool>(bw), rows, cols, p.kx, p.ky,
                                    args.is("thinning", "thinning"), roberts ? 1 : 0);
        check_launch("ipt.edge (thinning)");
        if (thresh) {
            copy_doubles<<<1, 32, 0, s>>>(scalars.get() + 1, dptr<double>(thresh), 1);
            check_launch("ipt.edge");
        }
        return;
    }

    if (method == "log" || method == "zerocross") {
        ipt::common::Filter2D op;
        if (method == "log") {
            const double sigma = args.present("sigma") ? args.number("sigma") : 2.0;
            const int64_t size = static_cast<int64_t>(std::ceil(sigma * 3)) * 2 + 1;
            op = ipt::common::fspecial_log(size, size, sigma);
        } else {
            op.rows = h->rows;
            op.cols = h->cols;
            for (int64_t i = 0; i < h->rows * h->cols; ++i)
                op.h.push_back(h->dtype == IPT_SINGLE ? static_cast<double>(static_cast<const float*>(h->data)[i])
                                                      : static_cast<const double*>(h->data)[i]);
        }
        // Make the filter sum to zero (MATLAB: op - sum(op(:))/numel(op)).
        double sum = 0;
        for (int64_t c = 0; c < op.cols; ++c)
            for (int64_t r = 0; r < op.rows; ++r) sum += op.at(r, c);
        const double mean = sum / static_cast<double>(op.rows * op.cols);
        for (double& v : op.h) v -= mean;
        if (op.rows > INT32_MAX || op.cols > INT32_MAX) ipt::plugin::invalid("ipt.edge: parameter 'h' is too large");
        DeviceArray<double> taps = to_device(op.h, s);
        DeviceArray<double> b(n, s);
        CorrGeometry g;
        g.in_rows = rows;
        g.in_cols = cols;
        g.out_rows = rows;
        g.out_cols = cols;
        g.kh = static_cast<int>(op.rows);
        g.kw = static_cast<int>(op.cols);
        g.off_r = kernel_origin(op.rows);
        g.off_c = kernel_origin(op.cols);
        g.border = Border::Replicate;
        correlate_async<double, double>(x.get(), b.get(), Taps{taps.get(), false}, g, 0.0, s, "ipt.edge (filter)");
        if (has_t) scalars.upload(tv, 1);
        else reduce_sum_dd(LoadAbs{b.get()}, n, ThreshValue{scalars.get(), 0.75, static_cast<double>(n)}, s, "ipt.edge");
        zero_cross<<<grid, block, 0, s>>>(b.get(), scalars.get(), dptr<bool>(bw), rows, cols);
        check_launch("ipt.edge (zero crossings)");
        if (thresh) {
            copy_doubles<<<1, 32, 0, s>>>(scalars.get(), dptr<double>(thresh), 1);
            check_launch("ipt.edge");
        }
        return;
    }

    // canny
    const double sigma = args.present("sigma") ? args.number("sigma") : std::sqrt(2.0);
    const int ext = static_cast<int>(std::ceil(4 * sigma));
    const int len = 2 * ext + 1;
    std::vector<double> gauss(len), deriv(len);
    double gsum = 0;
    for (int i = 0; i < len; ++i) {
        const double xv = i - ext;
        gauss[i] = std::exp(-(xv * xv) / (2 * sigma * sigma));
        gsum += gauss[i];
    }
    for (double& v : gauss) v /= gsum;
    for (int i = 0; i < len; ++i) {  // MATLAB's gradient(): one-sided at the ends
        if (len == 1) deriv[i] = 0;
        else if (i == 0) deriv[i] = gauss[1] - gauss[0];
        else if (i == len - 1) deriv[i] = gauss[i] - gauss[i - 1];
        else deriv[i] = (gauss[i + 1] - gauss[i - 1]) / 2;
    }
    double pos = 0, neg = 0;
    for (double v : deriv) {
        if (v > 0) pos += v;
        if (v < 0) neg += v;
    }
    for (double& v : deriv) {
        if (v > 0) v /= pos;
        else if (v < 0) v /= std::fabs(neg);
    }
    DeviceArray<double> dg = to_device(gauss, s), dd = to_device(deriv, s);
    DeviceArray<double> tmp(n, s), gx(n, s), gy(n, s), mag(n, s);
    separable(x.get(), tmp.get(), rows, cols, dg, len, true, s);   // g' down the columns
    separable(tmp.get(), gx.get(), rows, cols, dd, len, false, s); // dg along the rows
    separable(x.get(), tmp.get(), rows, cols, dg, len, false, s);  // g along the rows
    separable(tmp.get(), gy.get(), rows, cols, dd, len, true, s);  // dg' down the columns
    magnitude<<<grid_for(n), kThreads, 0, s>>>(gx.get(), gy.get(), mag.get(), n);
    check_launch("ipt.edge (magnitude)");
    DeviceArray<double> maxv(1, s);
    reduce_max(LoadMag{mag.get()}, n, StoreMax{maxv.get()}, s, "ipt.edge (max)");
    DeviceArray<unsigned> hist(64, s);
    hist.zero();
    normalise_and_count<<<grid_for(n), kThreads, 0, s>>>(mag.get(), maxv.get(), hist.get(), n);
    check_launch("ipt.edge (histogram)");
    double low = 0, high = 0;
    if (has_t) {
        high = tv[nt - 1];
        low = nt == 2 ? tv[0] : 0.4 * high;
    }
    canny_thresholds<<<1, 32, 0, s>>>(hist.get(), scalars.get(), 0.7 * static_cast<double>(n), has_t ? 1 : 0, low,
                                      high);
    check_launch("ipt.edge (thresholds)");
    DeviceArray<uint8_t> state(n, s), keep(n, s);
    DeviceArray<int> label(n, s);
    non_maximum<<<grid, block, 0, s>>>(gx.get(), gy.get(), mag.get(), scalars.get(), state.get(), rows, cols);
    check_launch("ipt.edge (non-maximum suppression)");
    uf_init<<<grid_for(n), kThreads, 0, s>>>(label.get(), n);
    join_edges<<<grid, block, 0, s>>>(state.get(), label.get(), static_cast<int>(rows), static_cast<int>(cols));
    uf_flatten<<<grid_for(n), kThreads, 0, s>>>(label.get(), n);
    keep.zero();
    mark_strong<<<grid_for(n), kThreads, 0, s>>>(state.get(), label.get(), keep.get(), n);
    write_hysteresis<<<grid_for(n), kThreads, 0, s>>>(state.get(), label.get(), keep.get(), dptr<bool>(bw), n);
    check_launch("ipt.edge (hysteresis)");
    if (thresh) {
        copy_doubles<<<1, 32, 0, s>>>(scalars.get(), dptr<double>(thresh), 2);
        check_launch("ipt.edge");
    }
}

IPT_CUDA_OP("ipt.edge", "", 100, run_edge)

}  // namespace
}  // namespace ipt::cuda
