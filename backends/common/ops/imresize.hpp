// SPDX-License-Identifier: Apache-2.0
// ipt.imresize's front-end: B = imresize(A, Scale) or imresize(A, OutputSize)
// with one of the kernels 'nearest', 'bilinear' ('triangle'), 'bicubic'
// ('cubic', the default), 'box', 'lanczos2' and 'lanczos3'
// (docs/matlab-semantics.md#imresize).
//
// The image is resized one dimension at a time, the dimension with the
// smaller scale first (rows first when the scales are equal). For each
// dimension the plan holds, per output index, the input indices (0-based,
// folded symmetrically into the image) and their weights, computed on the
// host exactly as MATLAB's contributions step does; a pass is
//   out[i] = sum over k in order of weights[i][k] * in[indices[i][k]]
// in double, converted to the working class after each pass (round half away
// from zero and saturate for integer classes). Logical images are resized as
// uint8 0/255 and thresholded at > 128.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <memory>
#include <mutex>
#include <span>
#include <string>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

enum class ImresizeKernel : int32_t { Box = 0, Triangle = 1, Cubic = 2, Lanczos2 = 3, Lanczos3 = 4 };

// The tables of one dimension, computed once per geometry (see
// imresize_axis) and shared, read-only, by every plan that needs them.
struct ImresizeTables {
    std::vector<int32_t> indices;  // out_length x taps, 0-based
    std::vector<double> weights;   // out_length x taps
};

// One dimension's contributions: taps input indices and weights per output index.
struct ImresizeAxis {
    int64_t in_length = 0, out_length = 0;
    double scale = 1;
    int32_t taps = 0;
    std::span<const int32_t> indices;  // views of *tables
    std::span<const double> weights;
    // Owns the tables; also identifies them (a backend may keep device
    // copies keyed by this pointer while it holds a reference).
    std::shared_ptr<const ImresizeTables> tables;
};

struct ImresizePlan {
    const ipt_tensor* A = nullptr;
    int32_t dtype = 0;       // of A and B
    int32_t work_dtype = 0;  // class of each pass's result: A's, uint8 for logical
    int64_t rows = 0, cols = 0, channels = 1;
    int64_t out_rows = 0, out_cols = 0;
    ImresizeKernel kernel = ImresizeKernel::Cubic;
    double kernel_width = 4;
    bool antialiasing = true;
    int first = 0;            // dimension resized first: 0 rows, 1 columns
    ImresizeAxis axis[2];     // [0]: along the rows (dimension 1), [1]: along the columns
};

// What logical input becomes (im2uint8), and the threshold that turns the
// resized uint8 values back into logical.
constexpr double kImresizeLogicalTrue = 255;
constexpr double kImresizeLogicalThreshold = 128;

// MATLAB's kernels, written as its formulas are (Keys' cubic with a = -0.5).
inline double imresize_kernel(ImresizeKernel k, double x) {
    constexpr double pi = 3.141592653589793;
    constexpr double eps = 2.220446049250313e-16;
    switch (k) {
    case ImresizeKernel::Box: return (-0.5 <= x && x < 0.5) ? 1.0 : 0.0;
    case ImresizeKernel::Triangle:
        return (x + 1) * ((-1 <= x && x < 0) ? 1.0 : 0.0) + (1 - x) * ((0 <= x && x <= 1) ? 1.0 : 0.0);
    case ImresizeKernel::Cubic: {
        const double a = std::fabs(x), a2 = std::pow(a, 2.0), a3 = std::pow(a, 3.0);
        return (1.5 * a3 - 2.5 * a2 + 1) * (a <= 1 ? 1.0 : 0.0) +
               (-0.5 * a3 + 2.5 * a2 - 4 * a + 2) * ((1 < a && a <= 2) ? 1.0 : 0.0);
    }
    case ImresizeKernel::Lanczos2: {
        const double f = (std::sin(pi * x) * std::sin(pi * x / 2) + eps) / ((pi * pi) * std::pow(x, 2.0) / 2 + eps);
        return f * (std::fabs(x) < 2 ? 1.0 : 0.0);
    }
    case ImresizeKernel::Lanczos3: {
        const double f = (std::sin(pi * x) * std::sin(pi * x / 3) + eps) / ((pi * pi) * std::pow(x, 2.0) / 3 + eps);
        return f * (std::fabs(x) < 3 ? 1.0 : 0.0);
    }
    }
    return 0;
}

// The 1-based index j folded into [1, n] as [1:n, n:-1:1] repeats; 0-based result.
inline int64_t imresize_fold(int64_t j, int64_t n) {
    const int64_t period = 2 * n;
    int64_t m = (j - 1) % period;
    if (m < 0) m += period;
    return m < n ? m : period - 1 - m;
}

// MATLAB's contributions step for one dimension.
inline ImresizeAxis imresize_contributions(int64_t in_length, int64_t out_length, double scale, ImresizeKernel kernel,
                                           double kernel_width, bool antialiasing) {
    ImresizeAxis ax;
    ax.in_length = in_length;
    ax.out_length = out_length;
    ax.scale = scale;
    const bool widen = scale < 1 && antialiasing;
    const double width = widen ? kernel_width / scale : kernel_width;
    auto h = [&](double x) { return widen ? scale * imresize_kernel(kernel, scale * x) : imresize_kernel(kernel, x); };
    const int64_t P = static_cast<int64_t>(std::ceil(width)) + 2;
    std::vector<double> w(static_cast<size_t>(out_length * P));
    std::vector<int64_t> left(static_cast<size_t>(out_length));
    for (int64_t i = 0; i < out_length; ++i) {
        const double u = static_cast<double>(i + 1) / scale + 0.5 * (1 - 1 / scale);
        left[i] = static_cast<int64_t>(std::floor(u - width / 2));
        double sum = 0;
        for (int64_t k = 0; k < P; ++k) sum += (w[i * P + k] = h(u - static_cast<double>(left[i] + k)));
        for (int64_t k = 0; k < P; ++k) w[i * P + k] /= sum;
    }
    // Columns whose weight is zero for every output index are dropped.
    std::vector<int64_t> kept;
    for (int64_t k = 0; k < P; ++k) {
        bool any = false;
        for (int64_t i = 0; i < out_length && !any; ++i) any = w[i * P + k] != 0;
        if (any) kept.push_back(k);
    }
    ax.taps = static_cast<int32_t>(kept.size());
    auto t = std::make_shared<ImresizeTables>();
    t->indices.resize(static_cast<size_t>(out_length * ax.taps));
    t->weights.resize(t->indices.size());
    for (int64_t i = 0; i < out_length; ++i)
        for (int32_t k = 0; k < ax.taps; ++k) {
            t->weights[i * ax.taps + k] = w[i * P + kept[k]];
            t->indices[i * ax.taps + k] = static_cast<int32_t>(imresize_fold(left[i] + kept[k], in_length));
        }
    ax.indices = t->indices;
    ax.weights = t->weights;
    ax.tables = std::move(t);
    return ax;
}

// imresize_contributions through a small cache of recent geometries: the
// tables cost far more to build (a kernel evaluation per tap) than a pass
// over a frame, and a program resizing many frames of one size, or both
// dimensions of a square image, asks for the same tables again.
inline ImresizeAxis imresize_axis(int64_t in_length, int64_t out_length, double scale, ImresizeKernel kernel,
                                  double kernel_width, bool antialiasing) {
    struct Entry {
        int64_t in_length, out_length;
        double scale, kernel_width;
        ImresizeKernel kernel;
        bool antialiasing;
        ImresizeAxis axis;
    };
    constexpr size_t kEntries = 8;
    static std::mutex mutex;
    static std::vector<Entry> recent;  // most recently used last
    auto same = [&](const Entry& e) {
        return e.in_length == in_length && e.out_length == out_length && e.scale == scale &&
               e.kernel_width == kernel_width && e.kernel == kernel && e.antialiasing == antialiasing;
    };
    {
        std::lock_guard<std::mutex> lock(mutex);
        const auto hit = std::find_if(recent.begin(), recent.end(), same);
        if (hit != recent.end()) {
            std::rotate(hit, hit + 1, recent.end());
            return recent.back().axis;
        }
    }
    ImresizeAxis ax = imresize_contributions(in_length, out_length, scale, kernel, kernel_width, antialiasing);
    std::lock_guard<std::mutex> lock(mutex);
    if (recent.size() == kEntries) recent.erase(recent.begin());
    recent.push_back(Entry{in_length, out_length, scale, kernel_width, kernel, antialiasing, ax});
    return ax;
}

namespace imresize_detail {

[[noreturn]] inline void fail(const std::string& what) { ipt::plugin::invalid("ipt.imresize: " + what); }

inline int64_t checked_size(double v, const char* param) {
    if (!(v >= 1) || v > 2147483647.0)
        fail(std::string("parameter '") + param + "' gives an output size of " + std::to_string(v) +
             "; it must be in [1, 2147483647]");
    return static_cast<int64_t>(v);
}

}  // namespace imresize_detail

// Output size and the scale of each dimension, as MATLAB derives one from the other.
inline ImresizePlan plan_imresize_output(const ipt::plugin::KernelArgs& args) {
    using imresize_detail::checked_size;
    using imresize_detail::fail;
    ImresizePlan p;
    p.A = args.image("A");
    p.dtype = p.A->dtype;
    p.work_dtype = p.dtype == IPT_LOGICAL ? IPT_UINT8 : p.dtype;
    p.rows = p.A->rows;
    p.cols = p.A->cols;
    p.channels = p.A->channels;
    const double in[2] = {static_cast<double>(p.rows), static_cast<double>(p.cols)};
    double scale[2];
    int64_t out[2];
    if (args.present("Scale")) {
        const double* s = args.floats("Scale");
        const uint64_t n = args.count("Scale");
        if (n < 1 || n > 2) fail("parameter 'Scale' must be a scalar or [row_scale col_scale]");
        scale[0] = s[0];
        scale[1] = n == 2 ? s[1] : s[0];
        for (double v : scale)
            if (!(v > 0) || !std::isfinite(v)) fail("parameter 'Scale' must be positive and finite");
        for (int d = 0; d < 2; ++d) out[d] = checked_size(std::ceil(scale[d] * in[d]), "Scale");
    } else if (args.present("OutputSize")) {
        const double* s = args.floats("OutputSize");
        if (args.count("OutputSize") != 2) fail("parameter 'OutputSize' must be [numrows numcols]");
        if (std::isnan(s[0]) && std::isnan(s[1])) fail("parameter 'OutputSize' must not be NaN in both elements");
        for (int d = 0; d < 2; ++d)
            if (!std::isnan(s[d]) && (!(s[d] >= 1) || s[d] != std::floor(s[d]) || !std::isfinite(s[d])))
                fail("parameter 'OutputSize' must hold positive integers or NaN");
        if (std::isnan(s[0]) || std::isnan(s[1])) {
            // The given dimension sets the scale of both; the other size follows.
            const int given = std::isnan(s[0]) ? 1 : 0, other = 1 - given;
            out[given] = checked_size(s[given], "OutputSize");
            out[other] = checked_size(std::ceil(s[given] * in[other] / in[given]), "OutputSize");
            scale[0] = scale[1] = s[given] / in[given];
        } else {
            for (int d = 0; d < 2; ++d) {
                out[d] = checked_size(s[d], "OutputSize");
                scale[d] = s[d] / in[d];
            }
        }
    } else {
        fail("give 'Scale' or 'OutputSize'");
    }
    p.out_rows = out[0];
    p.out_cols = out[1];
    for (int d = 0; d < 2; ++d) p.axis[d].scale = scale[d];
    return p;
}

// The whole plan: kernel, dimension order and both dimensions' contributions.
inline ImresizePlan plan_imresize(const ipt::plugin::KernelArgs& args) {
    ImresizePlan p = plan_imresize_output(args);
    const bool nearest = args.is("method", "nearest");
    if (nearest || args.is("method", "box")) {
        p.kernel = ImresizeKernel::Box;
        p.kernel_width = 1;
    } else if (args.is("method", "bilinear") || args.is("method", "triangle")) {
        p.kernel = ImresizeKernel::Triangle;
        p.kernel_width = 2;
    } else if (args.is("method", "lanczos2")) {
        p.kernel = ImresizeKernel::Lanczos2;
        p.kernel_width = 4;
    } else if (args.is("method", "lanczos3")) {
        p.kernel = ImresizeKernel::Lanczos3;
        p.kernel_width = 6;
    } else if (args.is("method", "bicubic") || args.is("method", "cubic")) {
        p.kernel = ImresizeKernel::Cubic;
        p.kernel_width = 4;
    } else {
        imresize_detail::fail("parameter 'method' must be 'nearest', 'bilinear', 'bicubic', 'box', 'triangle', "
                              "'cubic', 'lanczos2' or 'lanczos3', got '" + args.text("method") + "'");
    }
    p.antialiasing = args.present("Antialiasing") ? args.integer("Antialiasing") != 0 : !nearest;
    // A stable sort of the two scales: rows first unless columns shrink more.
    p.first = p.axis[1].scale < p.axis[0].scale ? 1 : 0;
    const int64_t in[2] = {p.rows, p.cols}, out[2] = {p.out_rows, p.out_cols};
    for (int d = 0; d < 2; ++d)
        p.axis[d] = imresize_axis(in[d], out[d], p.axis[d].scale, p.kernel, p.kernel_width, p.antialiasing);
    return p;
}

// The size of the image after the first pass.
inline void imresize_middle_size(const ImresizePlan& p, int64_t* rows, int64_t* cols) {
    *rows = p.first == 0 ? p.out_rows : p.rows;
    *cols = p.first == 0 ? p.cols : p.out_cols;
}

}  // namespace ipt::frontend
