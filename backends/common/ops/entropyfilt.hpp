// ipt.entropyfilt's rules (MATLAB's entropyfilt; docs/matlab-semantics.md#entropyfilt):
//
//   J = entropyfilt(I, nhood)
//
// A logical I keeps its two values (2 bins); any other class is converted
// as an image with im2uint8 (256 bins; backends/common/class_scaling.hpp),
// which MATLAB defines for uint8, uint16, int16, single and double only, so
// int32 and uint32 are refused. The image is padded symmetrically (mirror
// including the edge pixel), and each output pixel is the entropy in bits of
// the histogram of its neighbourhood (nhood, default true(9), odd in each
// dimension): with n members and count k in a bin, p = k/n and
//   J = -sum over bins with k > 0 of p * log2(p),
// the bins taken in increasing order. J is double. Each plane of an RGB
// image alike.
#pragma once

#include <cstdint>
#include <string>

#include "../local_statistics.hpp"
#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct EntropyfiltPlan {
    int32_t in_dtype = IPT_UINT8;
    int64_t rows = 0, cols = 0, channels = 1;
    LocalNeighbourhood nhood;
    int64_t count = 0;  // n, the number of members
    int32_t bins = 256; // 2 for logical
};

inline EntropyfiltPlan plan_entropyfilt(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* in = args.image("I");
    if (in->dtype == IPT_INT32 || in->dtype == IPT_UINT32)
        ipt::plugin::invalid("ipt.entropyfilt: parameter 'I' must be logical, uint8, uint16, int16, single or "
                             "double (im2uint8 does not convert " +
                             std::string(in->dtype == IPT_INT32 ? "int32" : "uint32") + ")");
    EntropyfiltPlan p;
    p.in_dtype = in->dtype;
    p.rows = in->rows;
    p.cols = in->cols;
    p.channels = in->channels;
    p.nhood = local_statistics_detail::neighbourhood(args, "ipt.entropyfilt", 9, true);
    p.count = static_cast<int64_t>(p.nhood.members.size());
    p.bins = in->dtype == IPT_LOGICAL ? 2 : 256;
    return p;
}

}  // namespace ipt::frontend
