// stretchlim on the device, shared by ipt.stretchlim and ipt.imadjust (whose
// default low_high_in is stretchlim(I)): histogram, then the limits, written
// as doubles [low(channels); high(channels)] at an address on the device.
#pragma once

#include "op_support.hpp"
#include "common/ops/stretchlim.hpp"

namespace ipt::vk {

// Records the passes of the front-end's plan; `limits` at `offset` receives
// 2 x channels doubles.
void record_stretchlim(OpContext& ctx, Recorder& rec, const ipt::frontend::StretchlimPlan& plan, Buffer* limits,
                       VkDeviceSize offset);

}  // namespace ipt::vk
