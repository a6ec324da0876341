// SPDX-License-Identifier: Apache-2.0
// Host side of the correlation engine (shaders/correlate.comp), shared by
// conv2, imfilter and edge.
#pragma once

#include <vector>

#include "op_support.hpp"

namespace ipt::vk {

enum class Pad : uint32_t { Skip = 0, Constant = 1, Symmetric = 2, Replicate = 3, Circular = 4 };

struct Correlation {
    VkDeviceAddress source = 0;
    int32_t source_dtype = IPT_DOUBLE;
    int64_t source_rows = 0, source_cols = 0, planes = 1;
    VkDeviceAddress kernel = 0;
    int32_t kernel_dtype = IPT_DOUBLE;  // single or double
    int64_t kernel_rows = 0, kernel_cols = 0;
    bool rotate = false;                // convolution: kernel turned by 180 degrees
    bool skip_zero = false;
    Pad pad = Pad::Skip;
    double pad_value = 0;
    VkDeviceAddress out = 0;
    int32_t out_dtype = IPT_DOUBLE;
    int64_t out_rows = 0, out_cols = 0;
    int64_t off_r = 0, off_c = 0;       // source row of output row 0, tap row 0
    bool accumulate_double = true;
    // When set, the group counts come from this buffer (VkDispatchIndirectCommand
    // at indirect_offset) instead of the output size.
    Buffer* indirect = nullptr;
    VkDeviceSize indirect_offset = 0;
};

// Work groups a correlation dispatch needs (x, y, z).
struct Groups {
    uint32_t x, y, z;
};
Groups correlation_groups(const OpContext& ctx, const Correlation& c);

void record_correlation(OpContext& ctx, Recorder& rec, const Correlation& c);

inline int64_t dtype_bytes(int32_t dtype) { return static_cast<int64_t>(ipt::plugin::dtype_size(dtype)); }

// A correlation whose kernel h (kernel_rows x kernel_cols, row-major) is
// known on the host, taking the CPU reference's route (correlate.hpp's
// make_filter_plan): a kernel of 12 taps or more (both sides >= 2) that is
// exactly rank 1 (to 4 eps per tap) runs as a column pass then a row pass in
// the accumulation class, anything else as one 2-D pass. `base` holds
// everything but the kernel's address and class.
void record_filter(OpContext& ctx, Recorder& rec, const Correlation& base, const std::vector<double>& h);

// imfilter(src, h, 'replicate', 'same', corr or conv) for a kernel known on
// the host, on a one-plane image of the working class (single or double),
// taking the CPU reference's route: a kernel of 12 taps or more (both sides
// >= 2) that is exactly rank 1 (to 4 eps per tap) runs as a column pass then a
// row pass, anything else as one 2-D pass. Used by edge.
void record_filter_replicate(OpContext& ctx, Recorder& rec, VkDeviceAddress src, VkDeviceAddress dst,
                             int32_t working_dtype, int64_t rows, int64_t cols, const std::vector<double>& h,
                             int64_t kr, int64_t kc, bool conv);

}  // namespace ipt::vk
