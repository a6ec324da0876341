// SPDX-License-Identifier: Apache-2.0
// What an operator file of the Vulkan backend uses: registration, the tuning
// of each variant, device and image access, and dispatch geometry.
//
//   static void run_intlut(ipt::vk::OpContext& ctx) { ... }
//   IPT_VK_OP("ipt.intlut", "wave32", 60, run_intlut)
//   IPT_VK_OP("ipt.intlut", "wave64", 50, run_intlut)
//   IPT_VK_OP("ipt.dither", "", 55, run_dither)
//   IPT_VK_OP("ipt.conv2", "fft", 70, run_conv2_fft)
//
// The variant names the tuning the body runs with (kWave32, kWave64, kPlain
// for "", kFft); the line has the same shape in every backend (see
// op_registration.hpp).
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/device.hpp"
#include "ipt/ipt_plugin.hpp"
#include "op_registration.hpp"

namespace ipt::vk {

// The knobs the two tunings turn (specialisation constants of the shaders).
// wave32: NVIDIA-like (32-wide warps, scalar access, one output per
// invocation); wave64: AMD GCN/RDNA-like (64-wide wavefronts, larger work
// groups, several outputs per invocation, 128-bit loads where the data allows).
struct Tuning {
    const char* variant;       // "wave32", "wave64" or ""
    uint32_t wave;             // subgroup size to request (0: the device's)
    uint32_t group_size;       // invocations per work group (1-D shaders)
    uint32_t group_x, group_y; // 2-D shaders
    uint32_t per_invocation;   // outputs per invocation
    uint32_t vector_width;     // elements per load in vectorised paths (1 = scalar)
};

extern const Tuning kWave32;
extern const Tuning kWave64;
extern const Tuning kPlain;
// conv2's FFT variant: the plain tuning under the variant name "fft".
extern const Tuning kFft;
// The tuning a variant name stands for; nullptr if none.
const Tuning* tuning_named(const char* variant);

// Everything an implementation needs for one call.
struct OpContext {
    ipt::plugin::KernelArgs args;
    Device& device;
    const Tuning& tuning;

    const char* op() const { return args.op(); }
    // Device address of an image input or output on this device.
    VkDeviceAddress address(const ipt_tensor* t) const;
    // A pipeline of `shader` with constants {group_x, group_y, per_invocation,
    // vector_width, extra...}, requesting the tuning's subgroup size. A
    // vector width of 0 takes the tuning's.
    VkPipeline pipeline(const std::string& shader, uint32_t group_x, uint32_t group_y,
                        const std::vector<uint32_t>& extra, uint32_t vector_width = 0) const;
    // Whether every address is aligned for `bytes`-wide loads.
    static bool aligned(std::initializer_list<VkDeviceAddress> addresses, uint32_t bytes);
};

// Registered implementations (filled by static registrations, read by the
// entry, which finds each variant's tuning).
struct Registered {
    const char* op;
    const char* variant;
    int32_t priority;
    ipt_kernel_fn fn;
};
std::vector<Registered>& registrations();

using OpBody = void (*)(OpContext&);
ipt_status run_op(const ipt_kernel_call* call, OpBody body);

struct Registry {
    template <void (*Body)(OpContext&)>
    static ipt_status entry(const ipt_kernel_call* call) {
        return run_op(call, Body);
    }
    static void add(const char* op, const char* variant, int32_t priority, ipt_kernel_fn fn) {
        registrations().push_back({op, variant, priority, fn});
    }
};

// Element counts: shaders index with 32-bit signed integers.
constexpr int64_t kMaxElements = (int64_t(1) << 31) - 1;
void check_size(const char* op, int64_t elements);

// Work groups for n items when each group covers `per_group`; a grid too wide
// for one axis is folded into y (shaders use linear_group()).
struct Grid {
    uint32_t x = 0, y = 1;
};
Grid grid_for(const Device& device, uint64_t items, uint64_t per_group);

inline uint32_t div_up(uint64_t a, uint64_t b) { return static_cast<uint32_t>((a + b - 1) / b); }

}  // namespace ipt::vk

#define IPT_VK_OP(op_name, variant, priority, body) \
    IPT_REGISTER_OP(::ipt::vk::Registry, op_name, variant, priority, body)
