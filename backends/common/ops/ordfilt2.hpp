// SPDX-License-Identifier: Apache-2.0
// ipt.ordfilt2's rules, written once for every backend (MATLAB's ordfilt2):
//
//   B = ordfilt2(A, order, domain[, S][, padopt])
//
// B(p) is the order-th smallest (1-based) of the values A(p + d) + S(d) over
// the nonzero cells d of domain (S absent: + 0), measured from the domain's
// centre floor((size(domain)+1)/2). Padding: 'zeros' (default; outside
// values are 0, and S is still added to them) or 'symmetric' (mirror
// including the edge pixel: c b a | a b c | c b a).
//
// Values compare as MATLAB's sort does: NaN after everything else.
// B has the class of A, or double when S is given (MathWorks: "the class of B
// is the same as the class of A, unless the additive offset form is used, in
// which case the class of B is double"). With S every value is computed in
// double, double(A(p + d)) + S(d), so B needs no rounding.
//
// The catalogue (api/include/ipt/ipt_ops.h) has already checked the classes,
// that domain is a nonempty logical array given on the host, that S (double,
// on the host) has the size of domain, and that 1 <= order <= nnz(domain).
//
// The window geometry and padding here are shared with medfilt2
// (ops/medfilt2.hpp), which MATLAB computes with ordfilt2.
#pragma once

#include <cstdint>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

namespace order {

// 0-based index of a window's centre along a dimension of `size` cells:
// MATLAB's floor((size+1)/2), so that an even size takes the first of the two
// middle cells (a 2-wide window covers p and p + 1).
constexpr int64_t centre(int64_t size) { return (size + 1) / 2 - 1; }

enum class Pad : int32_t {
    Constant,   // every value outside A is `value`
    Symmetric,  // mirror including the edge pixel
};

struct Padding {
    Pad kind = Pad::Constant;
    double value = 0;  // Constant: 0 ('zeros'), or medfilt2's 'indexed' value
};

// The neighbourhood: its cells (row-major) and where its centre sits.
struct Window {
    int64_t rows = 0, cols = 0;
    int64_t centre_row = 0, centre_col = 0;  // centre(rows), centre(cols)
    std::vector<uint8_t> mask;               // rows x cols, row-major: 1 where the domain is nonzero
    std::vector<int32_t> dy, dx;             // the nonzero cells in row-major order, relative to the centre
    std::vector<double> s;                   // S at those cells (ordfilt2's additive offsets); empty without S

    int64_t count() const { return static_cast<int64_t>(dy.size()); }
    bool full() const { return count() == rows * cols; }
    bool with_offsets() const { return !s.empty(); }
};

// A window from a row-major mask (null: every cell set) and optional
// offsets S of the same size (null: none).
inline Window make_window(int64_t rows, int64_t cols, const uint8_t* mask, const double* s) {
    Window w;
    w.rows = rows;
    w.cols = cols;
    w.centre_row = centre(rows);
    w.centre_col = centre(cols);
    w.mask.resize(static_cast<size_t>(rows * cols));
    for (int64_t i = 0; i < rows; ++i)
        for (int64_t j = 0; j < cols; ++j) {
            const int64_t at = i * cols + j;
            const bool set = mask == nullptr || mask[at] != 0;
            w.mask[static_cast<size_t>(at)] = set ? 1 : 0;
            if (!set) continue;
            w.dy.push_back(static_cast<int32_t>(i - w.centre_row));
            w.dx.push_back(static_cast<int32_t>(j - w.centre_col));
            if (s) w.s.push_back(s[at]);
        }
    return w;
}

}  // namespace order

struct Ordfilt2Plan {
    int64_t rows = 0, cols = 0;    // of A and of B
    int32_t a_class = IPT_DOUBLE;  // class of A
    int32_t b_class = IPT_DOUBLE;  // class of A; double when S is given
    order::Window window;          // the domain (and S)
    int64_t order = 1;             // 1-based, 1 <= order <= window.count()
    order::Padding pad;            // zeros (value 0) or symmetric
};

inline Ordfilt2Plan plan_ordfilt2(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* domain = args.image("domain");
    const ipt_tensor* s = args.image("S");
    Ordfilt2Plan plan;
    plan.rows = a->rows;
    plan.cols = a->cols;
    plan.a_class = a->dtype;
    plan.b_class = s ? IPT_DOUBLE : a->dtype;
    // IPT_P_HOST: the domain (logical, one byte a cell) and S are host arrays.
    plan.window = order::make_window(domain->rows, domain->cols, static_cast<const uint8_t*>(domain->data),
                                     s ? static_cast<const double*>(s->data) : nullptr);
    plan.order = args.integer("order");
    plan.pad.kind = args.is("padopt", "symmetric") ? order::Pad::Symmetric : order::Pad::Constant;
    plan.pad.value = 0;
    return plan;
}

}  // namespace ipt::frontend
