// ipt.rgb2ycbcr as the front-end plans it (common/ops/rgb2ycbcr.hpp):
// BT.601's affine map scaled for the class; each component summed in
// double and converted once (round half away from zero and saturate for
// integer classes).
#include <type_traits>

#include "common/colour_pixels.hpp"
#include "common/convert.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/rgb2ycbcr.hpp"

namespace {

void run_rgb2ycbcr(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::Rgb2ycbcrPlan plan = ipt::frontend::plan_rgb2ycbcr(args);
    const ipt::common::ColourLayout& l = plan.layout;
    const ipt::common::ColourMatrix& m = plan.matrix;
    const ipt_tensor* out = args.output("YCBCR", l.out_dtype, l.rows, l.cols, l.channels);
    ipt::cpu::visit_dtype(l.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_floating_point_v<T>) {
            auto one = [&](int i, double x0, double x1, double x2) {
                T y = ipt::cpu::to_class<T>(ipt::common::colour_affine(m.m[i], m.offset[i], x0, x1, x2));
                if constexpr (std::is_floating_point_v<T>)
                    if (m.clamp_unit) y = ipt::common::colour_clamp_unit(y);
                return y;
            };
            ipt::cpu::for_each_pixel<T, T>(l, l.in->data, out->data, [&](T a, T b, T c, T& y0, T& y1, T& y2) {
                const double x0 = a, x1 = b, x2 = c;
                y0 = one(0, x0, x1, x2);
                y1 = one(1, x0, x1, x2);
                y2 = one(2, x0, x1, x2);
            });
        } else {
            ipt::plugin::unsupported("ipt.rgb2ycbcr: class not handled");
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.rgb2ycbcr", "", 100, run_rgb2ycbcr)
