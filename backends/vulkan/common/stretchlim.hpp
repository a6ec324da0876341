// SPDX-License-Identifier: Apache-2.0
// stretchlim on the device, shared by ipt.stretchlim and ipt.imadjust (whose
// default low_high_in is stretchlim(I)): histogram, then the limits, written
// as doubles [low(channels); high(channels)] at an address on the device.
#pragma once

#include "op_support.hpp"
#include "common/ops/stretchlim.hpp"

namespace ipt::vk {

// How record_histogram bins a value: imhist's rule with nbins bins
// (common/intensity.hpp, histogram_bin), or graythresh's im2uint8 value in
// 256 bins.
enum class Binning : uint32_t { Imhist = 0, Im2uint8 = 1 };

// Records the histograms of `channels` planes of `plane` values of class
// dtype at address a, nbins bins each, into `hist` (uint32
// [channels][nbins], filled with zeros here).
void record_histogram(OpContext& ctx, Recorder& rec, int32_t dtype, VkDeviceAddress a, int64_t plane,
                      int64_t channels, Buffer* hist, uint32_t nbins, Binning binning);

// Records the passes of the front-end's plan; `limits` at `offset` receives
// 2 x channels doubles.
void record_stretchlim(OpContext& ctx, Recorder& rec, const ipt::frontend::StretchlimPlan& plan, Buffer* limits,
                       VkDeviceSize offset);

}  // namespace ipt::vk
