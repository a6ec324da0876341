// SPDX-License-Identifier: Apache-2.0
// ipt.imcrop as the front-end plans it (common/ops/imcrop.hpp): the kept rows
// of each plane, each a contiguous run of columns, copied as they are.
#include <cstdint>
#include <cstring>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/ops/imcrop.hpp"

namespace {

void run_imcrop(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::ImcropPlan plan = ipt::frontend::plan_imcrop(args);
    const ipt_tensor* J = args.output("J", plan.out_dtype, plan.out_rows, plan.out_cols, plan.channels);
    if (plan.empty) return;
    const size_t element = ipt::plugin::dtype_size(plan.dtype);
    const size_t row_bytes = static_cast<size_t>(plan.out_cols) * element;
    const auto* in = static_cast<const unsigned char*>(plan.I->data);
    auto* out = static_cast<unsigned char*>(J->data);
    const int64_t rows = plan.I->rows, cols = plan.I->cols;
    ipt::cpu::parallel_for(0, plan.channels * plan.out_rows, [&](int64_t k) {
        const int64_t ch = k / plan.out_rows, r = k % plan.out_rows;
        const int64_t src = (ch * rows + plan.row0 + r) * cols + plan.col0;
        std::memcpy(out + static_cast<size_t>(k) * row_bytes, in + static_cast<size_t>(src) * element, row_bytes);
    }, 64);
}

}  // namespace

IPT_CPU_OP("ipt.imcrop", "", 100, run_imcrop)
