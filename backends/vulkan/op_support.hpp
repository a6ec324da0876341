// What an operator file of the Vulkan backend uses: registration, the tuning
// of each variant, device and image access, and dispatch geometry.
//
//   static void run_intlut(ipt::vk::OpContext& ctx) { ... }
//   IPT_VK_OP("ipt.intlut", run_intlut)          // variants wave32 and wave64
//   IPT_VK_OP_PLAIN("ipt.dither", run_dither)    // one variant ("")
//   IPT_VK_OP_VARIANT("ipt.conv2", ipt::vk::kFft, 70, run_conv2_fft)
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <vector>

#include "common/device.hpp"
#include "ipt/ipt_plugin.hpp"

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

// Registered implementations (filled by static registrations, read by the entry).
struct Registered {
    const char* op;
    const Tuning* tuning;
    int32_t priority;
    ipt_kernel_fn fn;
};
std::vector<Registered>& registrations();

using OpBody = void (*)(OpContext&);
ipt_status run_op(const ipt_kernel_call* call, OpBody body);

struct Registration {
    Registration(const char* op, const Tuning* tuning, int32_t priority, ipt_kernel_fn fn) {
        registrations().push_back({op, tuning, priority, fn});
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

#define IPT_VK_CONCAT2(a, b) a##b
#define IPT_VK_CONCAT(a, b) IPT_VK_CONCAT2(a, b)
#define IPT_VK_OP(op_name, body)                                                          \
    static ipt_status IPT_VK_CONCAT(body, _entry)(const ipt_kernel_call* call) {          \
        return ::ipt::vk::run_op(call, body);                                              \
    }                                                                                      \
    static const ::ipt::vk::Registration IPT_VK_CONCAT(body, _wave32)(                    \
        op_name, &::ipt::vk::kWave32, 60, IPT_VK_CONCAT(body, _entry));                    \
    static const ::ipt::vk::Registration IPT_VK_CONCAT(body, _wave64)(                    \
        op_name, &::ipt::vk::kWave64, 50, IPT_VK_CONCAT(body, _entry));
#define IPT_VK_OP_PLAIN(op_name, body)                                                    \
    static ipt_status IPT_VK_CONCAT(body, _entry)(const ipt_kernel_call* call) {          \
        return ::ipt::vk::run_op(call, body);                                              \
    }                                                                                      \
    static const ::ipt::vk::Registration IPT_VK_CONCAT(body, _plain)(                     \
        op_name, &::ipt::vk::kPlain, 55, IPT_VK_CONCAT(body, _entry));
// A named variant of another algorithm (conv2's "fft"), with its own tuning
// and static priority.
#define IPT_VK_OP_VARIANT(op_name, tuning, priority, body)                                \
    static ipt_status IPT_VK_CONCAT(body, _entry)(const ipt_kernel_call* call) {          \
        return ::ipt::vk::run_op(call, body);                                              \
    }                                                                                      \
    static const ::ipt::vk::Registration IPT_VK_CONCAT(body, _variant)(                   \
        op_name, &(tuning), priority, IPT_VK_CONCAT(body, _entry));
