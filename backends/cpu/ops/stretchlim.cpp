// ipt.stretchlim: contrast-stretching limits, one column [low; high] per
// channel (MATLAB_SEMANTICS.md, stretchlim). The histogram and the limit rule
// are shared with ipt.imadjust (common/histogram.hpp, backends/common).
//
// Classes beyond MATLAB's (its stretchlim takes uint8, uint16, int16, single
// and double): logical is the values 0 and 1 on the [0,1] scale in 65536 bins,
// which always gives [0; 1]; int32 and uint32 use imhist's scaled binning.

#include "common/histogram.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"

namespace {

using ipt::plugin::KernelArgs;

void run_stretchlim(const KernelArgs& args) {
    const ipt_tensor* img = args.image("I");
    const auto [tol_low, tol_high] = ipt::common::stretchlim_args(args);
    const int64_t channels = img->channels;
    const ipt_tensor* out = args.output("LOWHIGH", IPT_DOUBLE, 2, channels, 1);
    auto limits = ipt::cpu::mutable_view<double>(out);
    ipt::cpu::visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        const auto in = ipt::cpu::view<T>(img);
        for (int64_t ch = 0; ch < channels; ++ch) {
            const auto [low, high] =
                ipt::cpu::stretchlim_plane(in.plane(ch), in.plane_size(), tol_low, tol_high);
            limits(0, ch) = low;
            limits(1, ch) = high;
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.stretchlim", "", 100, run_stretchlim)
