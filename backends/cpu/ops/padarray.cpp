// ipt.padarray as the front-end plans it (common/ops/padarray.hpp): each row
// of B is padval, or one row of A (chosen by padarray_source) whose columns
// are copied as they are in the middle and through padarray_source at the
// sides. Planes and rows are shared among the threads.
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
using ipt::frontend::PadarrayPlan;

template <class T>
void pad(const PadarrayPlan& p, const T* a, T* b) {
    const T fill = static_cast<T>(p.pad_value);
    const int64_t right = p.out_cols - p.left - p.cols;  // columns after A
    // Source column of each padding column (-1: padval), left side then right side.
    std::vector<int64_t> side(static_cast<size_t>(p.left + right));
    for (int64_t c = 0; c < p.left; ++c) side[c] = padarray_source(p.method, c - p.left, p.cols);
    for (int64_t c = 0; c < right; ++c) side[p.left + c] = padarray_source(p.method, p.cols + c, p.cols);
    const int64_t rows = p.channels * p.out_rows;
    ipt::cpu::parallel_for(0, rows, [&](int64_t k) {
        const int64_t ch = k / p.out_rows, r = k % p.out_rows;
        T* out = b + k * p.out_cols;
        const int64_t src = p.rows == 0 ? -1 : padarray_source(p.method, r - p.top, p.rows);
        if (src < 0 || p.cols == 0) {
            std::fill(out, out + p.out_cols, fill);
            return;
        }
        const T* in = a + (ch * p.rows + src) * p.cols;
        for (int64_t c = 0; c < p.left; ++c) out[c] = side[c] < 0 ? fill : in[side[c]];
        std::memcpy(out + p.left, in, static_cast<size_t>(p.cols) * sizeof(T));
        T* tail = out + p.left + p.cols;
        for (int64_t c = 0; c < right; ++c) tail[c] = side[p.left + c] < 0 ? fill : in[side[p.left + c]];
    }, 64);
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
