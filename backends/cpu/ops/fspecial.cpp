// ipt.fspecial: h = fspecial(type, ...). The filters are built by
// backends/common/fspecial.hpp (shared with the GPU backends and edge); this
// file checks which parameters the type takes and fills in MATLAB's defaults.
#include <cmath>
#include <cstring>
#include <string>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "fspecial.hpp"
#include "fspecial_args.hpp"

namespace {

using ipt::common::Filter2D;
using ipt::plugin::invalid;
using ipt::plugin::KernelArgs;

using ipt::common::fspecial_args::build;

void run_fspecial(const KernelArgs& args) {
    const Filter2D h = build(args);
    const ipt_tensor* out = args.output("h", IPT_DOUBLE, h.rows, h.cols, 1);
    if (!h.h.empty()) std::memcpy(out->data, h.h.data(), h.h.size() * sizeof(double));
}

}  // namespace

IPT_CPU_OP("ipt.fspecial", "", 100, run_fspecial)
