// ipt.radon on Vulkan: one invocation per (bin, angle), gathering the
// sub-pixel projections that land in its bin (shaders/radon.comp). cos and
// sin come from the host, computed as the reference computes them.
#include <cmath>
#include <string>
#include <vector>

#include "op_support.hpp"

namespace {

using namespace ipt::vk;

constexpr double kDegToRad = 3.14159265358979 / 180.0;  // MATLAB's radonc constant

struct Push {
    uint64_t img, trig, r;
    double shift;
    int32_t rows, cols, bins, angles, x_origin, y_origin;
};

void run_radon(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* img = args.image("I");
    const double* theta = args.floats("theta");
    const int64_t angles = static_cast<int64_t>(args.count("theta"));
    if (img->channels != 1) ipt::plugin::invalid("ipt.radon: parameter 'I' must have one channel");
    if (angles < 1) ipt::plugin::invalid("ipt.radon: parameter 'theta' must not be empty");
    for (int64_t k = 0; k < angles; ++k)
        if (!std::isfinite(theta[k])) ipt::plugin::invalid("ipt.radon: parameter 'theta' must be finite (no NaN or Inf)");
    const int64_t rows = img->rows, cols = img->cols;
    check_size("ipt.radon", rows * cols);
    const int64_t x_origin = (cols + 1) / 2 - 1, y_origin = (rows + 1) / 2 - 1;
    const double dx = static_cast<double>(cols - 1 - x_origin);
    const double dy = static_cast<double>(rows - 1 - y_origin);
    const int64_t r_last = static_cast<int64_t>(std::ceil(std::sqrt(dx * dx + dy * dy))) + 1;
    const int64_t r_first = -r_last, bins = 2 * r_last + 1;
    check_size("ipt.radon", bins * angles);
    std::vector<double> trig(static_cast<size_t>(2 * angles));
    for (int64_t k = 0; k < angles; ++k) {
        const double angle = theta[k] * kDegToRad;
        trig[2 * k] = std::cos(angle);
        trig[2 * k + 1] = std::sin(angle);
    }
    const ipt_tensor* R = args.output("R", IPT_DOUBLE, bins, angles, 1);
    const ipt_tensor* xp = args.wanted("xp") ? args.output("xp", IPT_DOUBLE, bins, 1, 1) : nullptr;
    Recorder rec(ctx.device);
    if (xp) {
        std::vector<double> v(static_cast<size_t>(bins));
        for (int64_t i = 0; i < bins; ++i) v[i] = static_cast<double>(r_first + i);
        ctx.address(xp);
        rec.write(static_cast<Buffer*>(xp->buffer), xp->offset, v.data(), v.size() * sizeof(double));
    }
    Push p{ctx.address(img), rec.params(trig), ctx.address(R), static_cast<double>(r_first), int32_t(rows),
           int32_t(cols), int32_t(bins), int32_t(angles), int32_t(x_origin), int32_t(y_origin)};
    const uint32_t gx = ctx.tuning.group_x, gy = ctx.tuning.group_y;
    rec.dispatch(ctx.pipeline("radon", gx, gy, {uint32_t(img->dtype)}), &p, sizeof p, div_up(bins, gx),
                 div_up(angles, gy));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.radon", "wave32", 60, run_radon)
IPT_VK_OP("ipt.radon", "wave64", 50, run_radon)
