// ipt.fspecial on Vulkan: the filter is built on the host by the shared
// construction (backends/common/fspecial.hpp, the same taps as every backend)
// and copied into the output on the device. The parameter rules are the CPU
// reference's (backends/cpu/ops/fspecial.cpp).
#include <cmath>
#include <string>

#include "fspecial.hpp"
#include "fspecial_args.hpp"
#include "op_support.hpp"

namespace {

using ipt::common::Filter2D;
using ipt::plugin::invalid;
using ipt::plugin::KernelArgs;
using namespace ipt::vk;

using ipt::common::fspecial_args::build;

void run_fspecial(OpContext& ctx) {
    const KernelArgs& args = ctx.args;
    const Filter2D h = build(args);
    const ipt_tensor* out = args.output("h", IPT_DOUBLE, h.rows, h.cols, 1);
    if (h.h.empty()) return;
    ctx.address(out);
    Recorder rec(ctx.device);
    rec.write(static_cast<Buffer*>(out->buffer), out->offset, h.h.data(), h.h.size() * sizeof(double));
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.fspecial", "", 55, run_fspecial)
