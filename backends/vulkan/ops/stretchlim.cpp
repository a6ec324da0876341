// ipt.stretchlim on Vulkan: per-channel histogram with imhist's binning, then
// the first bins where the cumulative count passes the tolerances. The host
// turns each tolerance into a count threshold with the reference's own
// division (cdf = count/total), so the device compares integers only.
#include <cmath>
#include <vector>

#include "common/stretchlim.hpp"
#include "intensity.hpp"

namespace ipt::vk {
namespace {

struct HistPush {
    uint64_t a, hist;
    double int_scale;
    int32_t plane;
};
struct LimitsPush {
    uint64_t hist, limits;
    uint32_t count_low, count_high;
    int32_t channels;
};

// Smallest count c in [0, total] whose cdf c/total passes tol (> when strict,
// else >=), evaluated as the reference evaluates it.
uint32_t first_count(int64_t total, double tol, bool strict) {
    auto passes = [&](int64_t c) {
        const double cdf = static_cast<double>(c) / static_cast<double>(total);
        return strict ? cdf > tol : cdf >= tol;
    };
    if (passes(0)) return 0;
    int64_t lo = 0, hi = total;  // passes(hi) holds for tol < 1 (strict) or <= 1
    while (hi - lo > 1) {
        const int64_t mid = lo + (hi - lo) / 2;
        if (passes(mid)) hi = mid;
        else lo = mid;
    }
    return static_cast<uint32_t>(hi);
}

}  // namespace

void record_stretchlim(OpContext& ctx, Recorder& rec, const ipt_tensor* image, double tol_low,
                       double tol_high, Buffer* limits, VkDeviceSize limits_offset) {
    const int64_t channels = image->channels;
    const int64_t plane = image->rows * image->cols;
    if (!(tol_low < tol_high) || plane == 0) {
        // [0; 1] without a histogram (the reference does the same).
        std::vector<double> v(size_t(2 * channels));
        for (int64_t ch = 0; ch < channels; ++ch) {
            v[ch] = 0.0;
            v[channels + ch] = 1.0;
        }
        rec.write(limits, limits_offset, v.data(), v.size() * sizeof(double));
        return;
    }
    const int32_t nbins = image->dtype == IPT_UINT8 ? 256 : 65536;
    Buffer* hist = rec.scratch(uint64_t(channels) * nbins * 4);
    rec.fill(hist, 0, uint64_t(channels) * nbins * 4, 0);
    const uint32_t width = ctx.tuning.group_size;
    HistPush hp{ctx.address(image), hist->address, double(nbins - 1) / 4294967295.0, int32_t(plane)};
    Grid grid = grid_for(ctx.device, plane, uint64_t(width) * ctx.tuning.per_invocation);
    rec.dispatch(ctx.pipeline("stretchlim_hist", width, 1, {uint32_t(image->dtype), uint32_t(nbins)}), &hp,
                 sizeof hp, grid.x, grid.y, uint32_t(channels));
    LimitsPush lp{hist->address, limits->address + limits_offset, first_count(plane, tol_low, true), first_count(plane, tol_high, false),
                  int32_t(channels)};
    rec.dispatch(ctx.pipeline("stretchlim_limits", width, 1, {uint32_t(nbins)}), &lp, sizeof lp, 1, 1,
                 uint32_t(channels));
}

}  // namespace ipt::vk

namespace {

using namespace ipt::vk;

void run_stretchlim(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* img = args.image("I");
    const double* tol = args.floats("tol");
    const uint64_t tol_count = args.count("tol");
    if (tol_count < 1 || tol_count > 2)
        ipt::plugin::invalid("ipt.stretchlim: parameter 'tol' must have 1 or 2 elements");
    for (uint64_t i = 0; i < tol_count; ++i)
        if (!(tol[i] >= 0.0 && tol[i] <= 1.0))
            ipt::plugin::invalid("ipt.stretchlim: parameter 'tol' must be in [0, 1]");
    if (img->rows == 0 || img->cols == 0)
        ipt::plugin::invalid("ipt.stretchlim: parameter 'I' must not be empty");
    check_size("ipt.stretchlim", img->rows * img->cols * img->channels);
    const auto [tol_low, tol_high] = ipt::common::stretchlim_tolerance(tol, tol_count);
    const ipt_tensor* out = args.output("LOWHIGH", IPT_DOUBLE, 2, img->channels, 1);
    Recorder rec(ctx.device);
    ctx.address(out);  // checks that it is on this device
    record_stretchlim(ctx, rec, img, tol_low, tol_high, static_cast<Buffer*>(out->buffer), out->offset);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.stretchlim", run_stretchlim)
