// SPDX-License-Identifier: Apache-2.0
// ipt.padarray as the front-end plans it (common/ops/padarray.hpp): each row
// of B is padval, or one row of A (chosen by padarray_source) whose columns
// are copied as they are in the middle and through padarray_source at the
// sides (constant and replicate padding as fills). Planes and rows are
// shared among the threads.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/padarray.hpp"

namespace {

using ipt::frontend::padarray_source;
using ipt::frontend::PadMethod;
using ipt::frontend::PadarrayPlan;

// The padding columns of one row: `side` gives each one's source column
// (-1: padval); constant and replicate padding need no table.
template <class T>
void pad_side(PadMethod method, const T* in, int64_t cols, const int64_t* side, int64_t count, bool right, T fill,
              T* out) {
    if (count == 0) return;
    if (method == PadMethod::Constant) {
        std::fill(out, out + count, fill);
    } else if (method == PadMethod::Replicate) {
        std::fill(out, out + count, in[right ? cols - 1 : 0]);
    } else {
        for (int64_t c = 0; c < count; ++c) out[c] = side[c] < 0 ? fill : in[side[c]];
    }
}

template <class T>
void pad(const PadarrayPlan& p, const T* a, T* b) {
    const T fill = static_cast<T>(p.pad_value);
    const int64_t right = p.out_cols - p.left - p.cols;  // columns after A
    // Source column of each padding column (-1: padval), left side then right side.
    std::vector<int64_t> side(static_cast<size_t>(p.left + right));
    for (int64_t c = 0; c < p.left; ++c) side[c] = padarray_source(p.method, c - p.left, p.cols);
    for (int64_t c = 0; c < right; ++c) side[p.left + c] = padarray_source(p.method, p.cols + c, p.cols);
    const int64_t rows = p.channels * p.out_rows;
    // Rows are shared among the threads only when B is large enough (about
    // half a megabyte a thread) to repay waking them.
    const int64_t row_bytes = std::max<int64_t>(1, p.out_cols * static_cast<int64_t>(sizeof(T)));
    const int64_t min_rows = std::max<int64_t>(1, (int64_t{1} << 19) / row_bytes);
    const int64_t* sides = side.data();
    ipt::cpu::parallel_for(0, rows, [&p, a, b, fill, right, sides](int64_t k) {
        const int64_t ch = k / p.out_rows, r = k % p.out_rows;
        T* out = b + k * p.out_cols;
        const int64_t src = p.rows == 0 ? -1 : padarray_source(p.method, r - p.top, p.rows);
        if (src < 0 || p.cols == 0) {
            std::fill(out, out + p.out_cols, fill);
            return;
        }
        const T* in = a + (ch * p.rows + src) * p.cols;
        pad_side(p.method, in, p.cols, sides, p.left, false, fill, out);
        std::memcpy(out + p.left, in, static_cast<size_t>(p.cols) * sizeof(T));
        pad_side(p.method, in, p.cols, sides + p.left, right, true, fill, out + p.left + p.cols);
    }, min_rows);
}

void run_padarray(const ipt::plugin::KernelArgs& args) {
    const PadarrayPlan plan = ipt::frontend::plan_padarray(args);
    const ipt_tensor* B = args.output("B", plan.dtype, plan.out_rows, plan.out_cols, plan.channels);
    if (plan.out_rows == 0 || plan.out_cols == 0) return;
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        pad(plan, static_cast<const T*>(plan.A->data), static_cast<T*>(B->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.padarray", "", 100, run_padarray)
