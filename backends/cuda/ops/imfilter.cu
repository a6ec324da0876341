// imfilter: correlation (or convolution) of each channel with h, every border
// rule of MATLAB, 'same' or 'full' output, in double, converted once to the
// class of A (MATLAB_SEMANTICS.md, pitfalls 3 and 5). Runs on the shared
// correlation engine (tiles in shared memory, four outputs per thread).
#include "common/context.hpp"
#include "common/correlate.cuh"
#include "common/op_registry.hpp"

namespace ipt::cuda {
namespace {

Border border_of(const std::string& name) {
    if (name == "symmetric") return Border::Symmetric;
    if (name == "replicate") return Border::Replicate;
    if (name == "circular") return Border::Circular;
    return Border::Constant;
}

void run_imfilter(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* a = args.image("A");
    const ipt_tensor* h = args.image("h");
    if (h->channels != 1)
        ipt::plugin::unsupported("ipt.imfilter: a multi-channel 'h' is not handled by libipt_cuda");
    if (h->rows > INT32_MAX || h->cols > INT32_MAX) ipt::plugin::invalid("ipt.imfilter: parameter 'h' is too large");
    const bool full = args.is("output", "full");
    CorrGeometry g;
    g.in_rows = a->rows;
    g.in_cols = a->cols;
    g.kh = static_cast<int>(h->rows);
    g.kw = static_cast<int>(h->cols);
    g.out_rows = full ? a->rows + h->rows - 1 : a->rows;
    g.out_cols = full ? a->cols + h->cols - 1 : a->cols;
    g.off_r = full ? h->rows - 1 : kernel_origin(h->rows);
    g.off_c = full ? h->cols - 1 : kernel_origin(h->cols);
    g.planes = a->channels;
    g.border = border_of(args.text("boundary"));
    g.rotate = args.is("mode", "conv");
    if (a->rows == 0 || a->cols == 0) {
        // MATLAB returns an empty A unchanged.
        g.out_rows = a->rows;
        g.out_cols = a->cols;
    }
    const ipt_tensor* b = args.output("B", a->dtype, g.out_rows, g.out_cols, a->channels);
    const double x = args.number("X");
    const Taps taps{h->data, h->dtype == IPT_SINGLE};
    visit_dtype(a->dtype, [&](auto tag) {
        using T = decltype(tag);
        // The pad value takes the class of A, as padarray gives it.
        correlate_async<T, T>(dptr<const T>(a), dptr<T>(b), taps, g, saturate_round<T>(x), dev.stream,
                              "ipt.imfilter");
    });
}

IPT_CUDA_OP("ipt.imfilter", "", 100, run_imfilter)

}  // namespace
}  // namespace ipt::cuda
