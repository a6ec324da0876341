// ipt.medfilt2 on Vulkan: radix selection over an m x n rectangle generated
// in the shader; an even m*n is MATLAB's imlincomb(0.5, order N/2, 0.5,
// order N/2+1), rounded once (the upper order for logical). 'indexed' pads with 1 for double and 0 otherwise.
#include <cmath>
#include <string>

#include "common/order_filter.hpp"

namespace {

using namespace ipt::vk;

void run_medfilt2(OpContext& ctx) {
    const auto& args = ctx.args;
    OrderFilter f;
    f.a = args.image("A");
    const double* size = args.floats("size");
    if (args.count("size") != 2 || !(size[0] >= 1 && size[1] >= 1) || size[0] != std::floor(size[0]) ||
        size[1] != std::floor(size[1]))
        ipt::plugin::invalid("ipt.medfilt2: parameter 'size' must be two positive whole numbers [m n]");
    f.rect = true;
    f.rect_rows = int64_t(size[0]);
    f.rect_cols = int64_t(size[1]);
    const int64_t n = f.rect_rows * f.rect_cols;
    f.order = (n + 1) / 2;
    if (n % 2 == 0) {
        f.order = n / 2;
        f.median_even = true;
    }
    f.symmetric = args.is("padopt", "symmetric");
    if (args.is("padopt", "indexed") && f.a->dtype == IPT_DOUBLE) f.pad_value = 1.0;
    f.out_name = "B";
    f.out_dtype = f.a->dtype;
    record_order_filter(ctx, f);
}

}  // namespace

IPT_VK_OP("ipt.medfilt2", run_medfilt2)
