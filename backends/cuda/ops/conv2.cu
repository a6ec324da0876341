// conv2: true 2-D convolution, shapes full / same / valid (MATLAB_SEMANTICS.md,
// pitfall 4). Direct: the shared correlation engine with the kernel rotated by
// 180 degrees (register-blocked tiles in shared memory). conv2(u, v, A): a
// column pass with u into a double intermediate restricted to the output rows,
// then a row pass with v.
#include <algorithm>

#include "common/context.hpp"
#include "common/correlate.cuh"
#include "common/op_registry.hpp"

namespace ipt::cuda {
namespace {

struct Shape {
    int64_t rows, cols;  // output size
    int64_t start_r, start_c;  // first output element in full coordinates
};

// MATLAB's conv2 sizes: 'full' max([ma+mb-1, ma, mb]); 'same' size(A) taken
// from full at floor(mb/2); 'valid' max(ma - max(0, mb-1), 0) (may be empty).
Shape shape_of(const std::string& shape, int64_t ma, int64_t na, int64_t mb, int64_t nb) {
    auto clamp0 = [](int64_t v) { return v < 0 ? int64_t{0} : v; };
    if (shape == "same") return {ma, na, mb / 2, nb / 2};
    if (shape == "valid")
        return {clamp0(ma - std::max<int64_t>(0, mb - 1)), clamp0(na - std::max<int64_t>(0, nb - 1)),
                std::max<int64_t>(0, mb - 1), std::max<int64_t>(0, nb - 1)};
    return {std::max({ma + mb - 1, ma, mb}), std::max({na + nb - 1, na, nb}), 0, 0};
}

Taps taps_of(const ipt_tensor* t) { return Taps{t->data, t->dtype == IPT_SINGLE}; }

template <class TA, class TC>
void conv2_typed(const ipt::plugin::KernelArgs& args, const ipt_tensor* a, const ipt_tensor* c, const Shape& sh,
                 cudaStream_t s) {
    const ipt_tensor* b = args.image("B");
    if (b) {
        CorrGeometry g;
        g.in_rows = a->rows;
        g.in_cols = a->cols;
        g.out_rows = sh.rows;
        g.out_cols = sh.cols;
        g.kh = static_cast<int>(b->rows);
        g.kw = static_cast<int>(b->cols);
        // full(r) = sum_i Brot(i) A(r + i - (kh-1)); out(r) = full(r + start).
        g.off_r = (b->rows - 1) - sh.start_r;
        g.off_c = (b->cols - 1) - sh.start_c;
        g.rotate = true;
        g.skip_zero_taps = false;
        correlate_async<TA, TC>(dptr<const TA>(a), dptr<TC>(c), taps_of(b), g, TA(0), s, "ipt.conv2");
        return;
    }
    const ipt_tensor* u = args.image("u");
    const ipt_tensor* v = args.image("v");
    const int64_t mu = numel(u), nv = numel(v);
    if (sh.rows == 0 || sh.cols == 0) return;
    DeviceArray<double> tmp(static_cast<size_t>(sh.rows) * a->cols, s);
    CorrGeometry g1;
    g1.in_rows = a->rows;
    g1.in_cols = a->cols;
    g1.out_rows = sh.rows;
    g1.out_cols = a->cols;
    g1.kh = static_cast<int>(mu);
    g1.kw = 1;
    g1.off_r = (mu - 1) - sh.start_r;
    g1.off_c = 0;
    g1.rotate = true;
    g1.skip_zero_taps = false;
    correlate_async<TA, double>(dptr<const TA>(a), tmp.get(), taps_of(u), g1, TA(0), s, "ipt.conv2 (columns)");
    CorrGeometry g2;
    g2.in_rows = sh.rows;
    g2.in_cols = a->cols;
    g2.out_rows = sh.rows;
    g2.out_cols = sh.cols;
    g2.kh = 1;
    g2.kw = static_cast<int>(nv);
    g2.off_r = 0;
    g2.off_c = (nv - 1) - sh.start_c;
    g2.rotate = true;
    g2.skip_zero_taps = false;
    correlate_async<double, TC>(tmp.get(), dptr<TC>(c), taps_of(v), g2, 0.0, s, "ipt.conv2 (rows)");
}

void run_conv2(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* b = args.image("B");
    const ipt_tensor* u = args.image("u");
    const ipt_tensor* v = args.image("v");
    if (!b && !(u && v))
        ipt::plugin::invalid("ipt.conv2: give parameter 'B', or both 'u' and 'v'");
    int64_t mb, nb;
    bool all_single = a->dtype == IPT_SINGLE;
    if (b) {
        mb = b->rows;
        nb = b->cols;
        all_single = all_single && b->dtype == IPT_SINGLE;
    } else {
        mb = numel(u);
        nb = numel(v);
        all_single = all_single && u->dtype == IPT_SINGLE && v->dtype == IPT_SINGLE;
    }
    if (mb > INT32_MAX || nb > INT32_MAX) ipt::plugin::invalid("ipt.conv2: parameter 'B' is too large");
    const Shape sh = shape_of(args.text("shape"), a->rows, a->cols, mb, nb);
    const int32_t out_class = all_single ? IPT_SINGLE : IPT_DOUBLE;
    const ipt_tensor* c = args.output("C", out_class, sh.rows, sh.cols, 1);
    if (a->dtype == IPT_SINGLE) {
        if (all_single) conv2_typed<float, float>(args, a, c, sh, dev.stream);
        else conv2_typed<float, double>(args, a, c, sh, dev.stream);
    } else {
        conv2_typed<double, double>(args, a, c, sh, dev.stream);
    }
}

IPT_CUDA_OP("ipt.conv2", "", 100, run_conv2)

}  // namespace
}  // namespace ipt::cuda
