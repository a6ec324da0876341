// ipt.imadjust on Vulkan. uint8, uint16 and int16: MATLAB's table per channel
// built on the device (imadjust_lut), then mapped through with the intlut
// shader, one dispatch per channel plane. single and double: the curve per
// element (imadjust_apply). Without low_high_in the limits are stretchlim(I),
// computed on the device and read there: nothing waits.
#include <cmath>
#include <string>
#include <vector>

#include "common/stretchlim.hpp"

namespace {

using namespace ipt::vk;

struct LutPush {
    uint64_t params, limits, lut;
    int32_t channels;
};
struct ApplyLutPush {
    uint64_t a, lut, b;
    int32_t n;
};
struct ApplyPush {
    uint64_t i, j, params, limits;
    int32_t plane, channels;
};

// [low high] per channel from 2 values, or 6 (RGB, column-major 2x3).
void read_pairs(const ipt::plugin::KernelArgs& args, const char* name, int64_t channels,
                std::vector<double>& curves, int field, bool is_input) {
    const double* v = args.floats(name);
    const uint64_t count = args.count(name);
    if (!(count == 2 || (channels == 3 && count == 6)))
        ipt::plugin::invalid(std::string("ipt.imadjust: parameter '") + name + "' must have 2 " +
                             (channels == 3 ? "or 6 values (RGB: [low_r high_r low_g high_g low_b high_b])"
                                            : "values for a one-channel image"));
    for (uint64_t i = 0; i < count; ++i)
        if (!(v[i] >= 0.0 && v[i] <= 1.0))
            ipt::plugin::invalid(std::string("ipt.imadjust: parameter '") + name + "' must be in [0, 1]");
    for (int64_t ch = 0; ch < channels; ++ch) {
        const double* pair = count == 2 ? v : v + 2 * ch;
        if (is_input && !(pair[0] < pair[1]))
            ipt::plugin::invalid(std::string("ipt.imadjust: parameter '") + name + "' must have low < high");
        curves[ch * 5 + field] = pair[0];
        curves[ch * 5 + field + 1] = pair[1];
    }
}

void run_imadjust(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* img = args.image("I");
    const int32_t dt = img->dtype;
    if (dt != IPT_UINT8 && dt != IPT_UINT16 && dt != IPT_INT16 && dt != IPT_SINGLE && dt != IPT_DOUBLE)
        ipt::plugin::invalid("ipt.imadjust: parameter 'I' must be uint8, uint16, int16, single or double");
    const int64_t channels = img->channels;
    if (channels != 1 && channels != 3)
        ipt::plugin::invalid("ipt.imadjust: parameter 'I' must have 1 or 3 channels");
    // Per channel: li, hi, lo, ho, gamma.
    std::vector<double> curves(size_t(channels) * 5, 0.0);
    for (int64_t ch = 0; ch < channels; ++ch) curves[ch * 5 + 1] = 1.0;
    const double* gamma = args.floats("gamma");
    const uint64_t gamma_count = args.count("gamma");
    if (!(gamma_count == 1 || (channels == 3 && gamma_count == 3)))
        ipt::plugin::invalid(std::string("ipt.imadjust: parameter 'gamma' must have 1 value") +
                             (channels == 3 ? " or 3 (one per channel)" : " for a one-channel image"));
    for (int64_t ch = 0; ch < channels; ++ch) {
        const double g = gamma[gamma_count == 1 ? 0 : ch];
        if (!(g >= 0.0 && std::isfinite(g)))
            ipt::plugin::invalid("ipt.imadjust: parameter 'gamma' must be finite and >= 0");
        curves[ch * 5 + 4] = g;
    }
    read_pairs(args, "low_high_out", channels, curves, 2, false);
    const bool limits_given = args.present("low_high_in");
    if (limits_given) read_pairs(args, "low_high_in", channels, curves, 0, true);
    const int64_t plane = img->rows * img->cols;
    check_size("ipt.imadjust", plane * channels);

    const ipt_tensor* out = args.output("J", dt, img->rows, img->cols, channels);
    if (plane == 0) return;
    const uint32_t width = ctx.tuning.group_size;
    Recorder rec(ctx.device);
    const VkDeviceAddress params = rec.params(curves);
    VkDeviceAddress limits = 0;
    if (!limits_given) {
        Buffer* lim = rec.scratch(uint64_t(channels) * 2 * sizeof(double));
        record_stretchlim(ctx, rec, img, 0.01, 0.99, lim, 0);
        limits = lim->address;
    }
    if (dt == IPT_SINGLE || dt == IPT_DOUBLE) {
        ApplyPush p{ctx.address(img), ctx.address(out), params, limits, int32_t(plane), int32_t(channels)};
        Grid grid = grid_for(ctx.device, plane, uint64_t(width) * ctx.tuning.per_invocation);
        rec.dispatch(ctx.pipeline("imadjust_apply", width, 1, {uint32_t(dt)}), &p, sizeof p, grid.x, grid.y,
                     uint32_t(channels));
    } else {
        const int64_t entries = dt == IPT_UINT8 ? 256 : 65536;
        const uint64_t esize = dt == IPT_UINT8 ? 1 : 2;
        Buffer* lut = rec.scratch(uint64_t(channels) * entries * esize);
        LutPush lp{params, limits, lut->address, int32_t(channels)};
        rec.dispatch(ctx.pipeline("imadjust_lut", width, 1, {uint32_t(dt)}), &lp, sizeof lp,
                     div_up(entries, width), 1, uint32_t(channels));
        const VkDeviceAddress a = ctx.address(img), b = ctx.address(out);
        const bool vec = ctx.tuning.vector_width > 1 && OpContext::aligned({a, b}, 4) && (plane * esize) % 4 == 0;
        const uint32_t per_word = vec ? 4 / uint32_t(esize) : 1;
        VkPipeline apply = ctx.pipeline("intlut", width, 1, {uint32_t(dt)}, vec ? 4 : 1);
        Grid grid = grid_for(ctx.device, plane, uint64_t(width) * ctx.tuning.per_invocation * per_word);
        for (int64_t ch = 0; ch < channels; ++ch) {
            ApplyLutPush p{a + ch * plane * esize, lut->address + ch * entries * esize, b + ch * plane * esize,
                           int32_t(plane)};
            rec.dispatch(apply, &p, sizeof p, grid.x, grid.y);
        }
    }
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imadjust", run_imadjust)
