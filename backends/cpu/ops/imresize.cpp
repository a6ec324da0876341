// ipt.imresize as the front-end plans it (common/ops/imresize.hpp): two
// separable passes, each a weighted sum in double per output element over the
// plan's taps in order, converted to the working class after each pass.
#include <cstdint>
#include <type_traits>
#include <vector>

#include "common/convert.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/imresize.hpp"

namespace {

using ipt::frontend::ImresizeAxis;

// An element as the passes read it: logical is true = 255 (im2uint8).
template <class S>
double load(S v) {
    if constexpr (std::is_same_v<S, bool>)
        return v ? ipt::frontend::kImresizeLogicalTrue : 0.0;
    else
        return static_cast<double>(v);
}

// Along dimension 1: output row i mixes input rows indices[i][k], every column alike.
template <class S, class D>
void along_rows(const S* src, D* dst, int64_t in_rows, int64_t cols, int64_t channels, const ImresizeAxis& ax) {
    const int64_t out_rows = ax.out_length;
    ipt::cpu::parallel_for(0, channels * out_rows, [&](int64_t job) {
        const int64_t ch = job / out_rows, i = job % out_rows;
        const S* plane = src + ch * in_rows * cols;
        std::vector<double> acc(static_cast<size_t>(cols), 0.0);
        for (int32_t k = 0; k < ax.taps; ++k) {
            const double w = ax.weights[i * ax.taps + k];
            const S* row = plane + static_cast<int64_t>(ax.indices[i * ax.taps + k]) * cols;
            for (int64_t c = 0; c < cols; ++c) acc[c] += w * load(row[c]);
        }
        D* out = dst + (ch * out_rows + i) * cols;
        for (int64_t c = 0; c < cols; ++c) out[c] = ipt::cpu::to_class<D>(acc[c]);
    });
}

// Along dimension 2: output column j mixes input columns indices[j][k] of the same row.
template <class S, class D>
void along_cols(const S* src, D* dst, int64_t rows, int64_t in_cols, int64_t channels, const ImresizeAxis& ax) {
    const int64_t out_cols = ax.out_length;
    ipt::cpu::parallel_for(0, channels * rows, [&](int64_t r) {
        const S* row = src + r * in_cols;
        D* out = dst + r * out_cols;
        for (int64_t j = 0; j < out_cols; ++j) {
            const double* w = &ax.weights[j * ax.taps];
            const int32_t* idx = &ax.indices[j * ax.taps];
            double acc = 0;
            for (int32_t k = 0; k < ax.taps; ++k) acc += w[k] * load(row[idx[k]]);
            out[j] = ipt::cpu::to_class<D>(acc);
        }
    });
}

template <class S, class D>
void pass(int dim, const S* src, D* dst, int64_t rows, int64_t cols, int64_t channels, const ImresizeAxis& ax) {
    if (dim == 0)
        along_rows(src, dst, rows, cols, channels, ax);
    else
        along_cols(src, dst, rows, cols, channels, ax);
}

// A (class T) -> middle (class W) -> B; logical B is the uint8 result > 128.
template <class T, class W>
void resize(const ipt::frontend::ImresizePlan& p, const T* a, T* b) {
    int64_t mid_rows, mid_cols;
    ipt::frontend::imresize_middle_size(p, &mid_rows, &mid_cols);
    std::vector<W> middle(static_cast<size_t>(mid_rows * mid_cols * p.channels));
    pass(p.first, a, middle.data(), p.rows, p.cols, p.channels, p.axis[p.first]);
    const int second = 1 - p.first;
    if constexpr (std::is_same_v<T, W>) {
        pass(second, middle.data(), b, mid_rows, mid_cols, p.channels, p.axis[second]);
    } else {
        const int64_t n = p.out_rows * p.out_cols * p.channels;
        std::vector<W> last(static_cast<size_t>(n));
        pass(second, middle.data(), last.data(), mid_rows, mid_cols, p.channels, p.axis[second]);
        for (int64_t i = 0; i < n; ++i) b[i] = last[i] > ipt::frontend::kImresizeLogicalThreshold;
    }
}

void run_imresize(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::ImresizePlan plan = ipt::frontend::plan_imresize(args);
    const ipt_tensor* B = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        using W = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
        resize<T, W>(plan, static_cast<const T*>(plan.A->data), static_cast<T*>(B->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.imresize", "", 100, run_imresize)
