// SPDX-License-Identifier: Apache-2.0
// 2-D linear convolution through the FFT on the device, for conv2's fft
// variant: VkFFT (Debian's libvkfft-dev, used as a library) transforms in
// double precision; our shaders (conv2_fft_*.comp) lay the operands out,
// multiply the spectra and crop. VkFFT generates its kernels as GLSL and
// compiles them with glslang when a plan is made: the only shaders of the
// plugin compiled at run time. Plans are cached per device and transform size.
#pragma once

#include <cstdint>

#include "op_support.hpp"

namespace ipt::vk {

// C = rows off_r.. and columns off_c.. of the full convolution of A with K.
struct FftConvolution {
    VkDeviceAddress a = 0;
    int32_t a_dtype = IPT_DOUBLE;
    int64_t ma = 0, na = 0;
    // The kernel: K (kr x kc), or, when separable, the outer product u v^T
    // of u (kr) and v (kc) as in conv2(u,v,A). Single or double each.
    bool separable = false;
    VkDeviceAddress k = 0, u = 0, v = 0;
    int32_t k_dtype = IPT_DOUBLE, u_dtype = IPT_DOUBLE, v_dtype = IPT_DOUBLE;
    int64_t kr = 0, kc = 0;
    VkDeviceAddress out = 0;
    int32_t out_dtype = IPT_DOUBLE;  // single or double
    int64_t out_rows = 0, out_cols = 0, off_r = 0, off_c = 0;
    // A zeroed uint32 the transform sets to 1 when A or the kernel holds
    // Inf, NaN or a magnitude of 2^401 or more: it then leaves C unwritten
    // for the caller's direct route (an FFT spreads such values over the
    // whole output, or overflows).
    VkDeviceAddress unsafe_flag = 0;
};

// Transform size: rows x cols, each a product of 2, 3, 5 and 7 (cols even
// for the real transform), the smallest for which the wanted part of the
// circular convolution is the linear one.
struct FftSize {
    int64_t rows = 0, cols = 0;
};
FftSize fft_size(const FftConvolution& c);

class FftPlan;

// The plan for c's transform size on ctx's device, made (VkFFT's kernels
// compiled) on first use and kept for later calls. Throws ipt::plugin::Error:
// IPT_ERR_UNSUPPORTED for sizes beyond the backend or VkFFT, otherwise
// IPT_ERR_DEVICE or IPT_ERR_OUT_OF_MEMORY with VkFFT's result named. The
// caller holds the device mutex until the recording that uses the plan is
// submitted.
FftPlan& fft_plan(OpContext& ctx, const FftConvolution& c);

// Records pack, forward transforms, product, inverse transform and crop.
void record_fft_convolution(OpContext& ctx, Recorder& rec, FftPlan& plan, const FftConvolution& c);

}  // namespace ipt::vk
