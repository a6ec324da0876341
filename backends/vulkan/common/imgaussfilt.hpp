// SPDX-License-Identifier: Apache-2.0
// imgaussfilt's passes on the correlation engine (common/imgaussfilt.cpp),
// shared by ipt.imgaussfilt and adaptthresh's 'gaussian' statistic.
#pragma once

#include "common/ops/imgaussfilt.hpp"
#include "op_support.hpp"

namespace ipt::vk {

// The plan's filter of a device image (p.rows x p.cols x p.channels of class
// source_dtype; p.A unused) into out, of class p.out_class.
void record_imgaussfilt(OpContext& ctx, Recorder& rec, const ipt::frontend::ImgaussfiltPlan& p,
                        VkDeviceAddress source, int32_t source_dtype, VkDeviceAddress out);

}  // namespace ipt::vk
