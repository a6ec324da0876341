// SPDX-License-Identifier: Apache-2.0
// imadjust as the front-end plans it (common/ops/imadjust.hpp). uint8, uint16
// and int16 map through the front-end's table (MATLAB's, computed on the host
// with the reference's arithmetic); without low_high_in the limits are
// stretchlim(I), computed on the device and read back (2 x channels doubles)
// for the front-end to build the table from. single and double: the curve
// per element in double, the limits read on the device.
#include <cmath>
#include <vector>

#include "common/context.hpp"
#include "common/lut_u8.cuh"
#include "common/op_registry.hpp"
#include "common/stretchlim.cuh"
#include "common/ops/imadjust.hpp"

namespace ipt::cuda {
namespace {

using ipt::frontend::ImadjustPlan;

struct ChannelParams {
    double li[3], hi[3], lo[3], ho[3], gamma[3];
    const double* device_limits;  // 2 x channels (stretchlim) or null
    int channels;
};

// As common/intensity.hpp AdjustCurve: the clamp ignores NaN (NaN -> high_in).
__device__ inline double adjust(double x, double li, double hi, double lo, double ho, double g) {
    x = fmax(li, fmin(hi, x));
    double y = (x - li) / (hi - li);
    if (g != 1.0) y = pow(y, g);
    return y * (ho - lo) + lo;
}

__device__ inline void limits_of(const ChannelParams& p, int ch, double* li, double* hi) {
    if (p.device_limits) {
        *li = p.device_limits[ch];
        *hi = p.device_limits[p.channels + ch];
    } else {
        *li = p.li[ch];
        *hi = p.hi[ch];
    }
}

template <class T>
__global__ void apply_table(const T* __restrict__ a, const T* __restrict__ table, T* __restrict__ b,
                            int64_t plane, int levels) {
    constexpr int bias = std::is_same_v<T, int16_t> ? 32768 : 0;
    const int ch = blockIdx.y;
    const T* t = table + ch * levels;
    const T* src = a + ch * plane;
    T* dst = b + ch * plane;
    IPT_GRID_STRIDE(i, plane) dst[i] = __ldg(t + (static_cast<int>(src[i]) + bias));
}

template <class T>
__global__ void adjust_float(const T* __restrict__ a, T* __restrict__ b, int64_t plane, ChannelParams p) {
    const int ch = blockIdx.y;
    double li, hi;
    limits_of(p, ch, &li, &hi);
    const T* src = a + ch * plane;
    T* dst = b + ch * plane;
    IPT_GRID_STRIDE(i, plane)
    dst[i] = static_cast<T>(adjust(static_cast<double>(src[i]), li, hi, p.lo[ch], p.ho[ch], p.gamma[ch]));
}

// stretchlim(I) per channel, computed on the device and read back.
std::vector<double> default_limits(const ImadjustPlan& plan, cudaStream_t s) {
    const auto& lim = plan.default_limits;
    DeviceArray<double> device_limits(2 * plan.channels, s);
    stretchlim_async(lim, device_limits.get(), s, "ipt.imadjust");
    std::vector<double> limits(2 * plan.channels);
    check(cudaMemcpyAsync(limits.data(), device_limits.get(), device_limits.bytes(), cudaMemcpyDeviceToHost, s),
          "cudaMemcpyAsync (stretchlim limits)");
    check(cudaStreamSynchronize(s), "cudaStreamSynchronize (stretchlim limits)");
    return limits;
}

template <class T>
void apply_table_of(const ImadjustPlan& plan, const ipt_tensor* out, cudaStream_t s) {
    ipt::frontend::ImadjustTable from_limits;
    if (!plan.limits_given) from_limits = ipt::frontend::imadjust_table(plan, default_limits(plan, s).data());
    const ipt::frontend::ImadjustTable& host_table = plan.limits_given ? plan.table : from_limits;
    const int levels = static_cast<int>(plan.table_entries);
    const int channels = static_cast<int>(plan.channels);
    DeviceArray<T> table(static_cast<size_t>(levels) * channels, s);
    table.upload(host_table.channel<T>(0), table.size());
    if constexpr (std::is_same_v<T, uint8_t>) {
        map_u8_table_async(dptr<const uint8_t>(plan.I), table.get(), levels, dptr<uint8_t>(out), plan.plane, channels,
                           s);
    } else {
        apply_table<T><<<dim3(grid_for(plan.plane, kThreads, 528), channels), kThreads, 0, s>>>(
            dptr<const T>(plan.I), table.get(), dptr<T>(out), plan.plane, levels);
    }
}

template <class T>
void apply_curve(const ImadjustPlan& plan, const ipt_tensor* out, cudaStream_t s) {
    ChannelParams p{};
    p.channels = static_cast<int>(plan.channels);
    for (int ch = 0; ch < p.channels; ++ch) {
        const ipt::common::AdjustCurve& c = plan.curves[ch];
        p.li[ch] = c.low_in;
        p.hi[ch] = c.high_in;
        p.lo[ch] = c.low_out;
        p.ho[ch] = c.high_out;
        p.gamma[ch] = c.gamma;
    }
    DeviceArray<double> limits;
    if (!plan.limits_given) {
        limits = DeviceArray<double>(2 * plan.channels, s);
        stretchlim_async(plan.default_limits, limits.get(), s, "ipt.imadjust");
        p.device_limits = limits.get();
    }
    adjust_float<T><<<dim3(grid_for(plan.plane, kThreads, 528), p.channels), kThreads, 0, s>>>(
        dptr<const T>(plan.I), dptr<T>(out), plan.plane, p);
}

void run_imadjust(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ImadjustPlan plan = ipt::frontend::plan_imadjust(args);
    const ipt_tensor* out = args.output("J", plan.dtype, plan.rows, plan.cols, plan.channels);
    if (plan.plane == 0) return;
    visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>)
            apply_table_of<T>(plan, out, dev.stream);
        else if constexpr (std::is_floating_point_v<T>)
            apply_curve<T>(plan, out, dev.stream);
        else
            ipt::plugin::unsupported("ipt.imadjust: class of 'I' not handled");
        check_launch("ipt.imadjust");
    });
}

IPT_CUDA_OP("ipt.imadjust", "", 100, run_imadjust)

}  // namespace
}  // namespace ipt::cuda
