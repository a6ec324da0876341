// ipt.imadjust: J = imadjust(I, low_high_in, low_high_out, gamma)
// (MATLAB_SEMANTICS.md, imadjust). single and double go through the curve
// directly (evaluated in double); uint8, uint16 and int16 through a LUT built
// as MATLAB builds it: the curve at linspace(0,1,n), then uint8(255*lut) or
// uint16(65535*lut) with round half away from zero (int16 is offset to
// uint16 and back).
//
// RGB: low_high_in and low_high_out take 2 values (every channel) or 6, the
// 2x3 MATLAB matrix in column-major order: [low_r high_r low_g high_g low_b
// high_b]. gamma takes 1 or 3 values. The default low_high_in is
// stretchlim(I) per channel (shared code: common/histogram.hpp).
#include <type_traits>
#include <vector>

#include "common/histogram.hpp"
#include "common/image.hpp"
#include "common/lut.hpp"
#include "common/op_registry.hpp"
#include "common/rounding.hpp"
#include "intensity.hpp"

namespace {

using ipt::common::AdjustCurve;
using ipt::plugin::KernelArgs;

template <class T>
void adjust_plane(const T* in, T* out, int64_t n, const AdjustCurve& curve) {
    if constexpr (std::is_floating_point_v<T>) {
        constexpr int64_t kBlock = 1 << 14;
        ipt::cpu::parallel_for(0, (n + kBlock - 1) / kBlock, [&](int64_t b) {
            const int64_t begin = b * kBlock, end = std::min(n, begin + kBlock);
            for (int64_t i = begin; i < end; ++i)
                out[i] = static_cast<T>(curve(static_cast<double>(in[i])));
        });
    } else {
        // Entry k holds the output for the k-th value of the class (int16: -32768 + k).
        constexpr int64_t entries = ipt::cpu::lut_entries<T>();
        constexpr double scale = static_cast<double>(entries - 1);
        std::vector<T> lut(entries);
        ipt::cpu::parallel_for(0, entries / 256, [&](int64_t b) {
            for (int64_t k = b * 256; k < (b + 1) * 256; ++k) {
                const double y = curve(ipt::common::lut_abscissa(k, entries));
                if constexpr (std::is_same_v<T, int16_t>)
                    lut[k] = static_cast<T>(ipt::cpu::saturate_round<uint16_t>(scale * y) - 32768);
                else
                    lut[k] = ipt::cpu::saturate_round<T>(scale * y);
            }
        });
        ipt::cpu::apply_lut(in, out, n, lut.data());
    }
}

void run_imadjust(const KernelArgs& args) {
    const ipt_tensor* img = args.image("I");
    std::vector<AdjustCurve> curves = ipt::common::imadjust_curves(args);
    const int64_t channels = img->channels;
    const bool limits_given = args.present("low_high_in");

    const ipt_tensor* out = args.output("J", img->dtype, img->rows, img->cols, channels);
    const int64_t plane = img->rows * img->cols;
    if (plane == 0) return;
    ipt::cpu::visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                      std::is_same_v<T, int16_t> || std::is_floating_point_v<T>) {
            const auto in = ipt::cpu::view<T>(img);
            const auto j = ipt::cpu::mutable_view<T>(out);
            for (int64_t ch = 0; ch < channels; ++ch) {
                if (!limits_given) {
                    // imadjust(I) = imadjust(I, stretchlim(I)); stretchlim never
                    // returns low == high.
                    const auto [low, high] =
                        ipt::cpu::stretchlim_plane(in.plane(ch), plane, 0.01, 0.99);
                    curves[ch].low_in = low;
                    curves[ch].high_in = high;
                }
                adjust_plane(in.plane(ch), j.plane(ch), plane, curves[ch]);
            }
        }
    });
}

}  // namespace

IPT_CPU_OP("ipt.imadjust", "", 100, run_imadjust)
