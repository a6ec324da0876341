// imadjust: x -> ((clamp(x, li, hi) - li) / (hi - li))^gamma * (ho - lo) + lo per
// channel, in double. Integer classes build MATLAB's table (256 or 65536
// entries, uint8(255*lut) / uint16(65535*lut)) on the device and map through it;
// floating classes are computed per element. Without low_high_in the limits
// are stretchlim(I), computed on the device and read there: nothing waits.
#include <cmath>
#include <string>

#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/stretchlim.cuh"

namespace ipt::cuda {
namespace {

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

// Table for one channel per blockIdx.y; `levels` = 256 or 65536.
template <class T>
__global__ void build_table(ChannelParams p, T* __restrict__ table, int levels) {
    const int ch = blockIdx.y;
    double li, hi;
    limits_of(p, ch, &li, &hi);
    const double top = levels - 1;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < levels; i += blockDim.x * gridDim.x) {
        double y = adjust(i / top, li, hi, p.lo[ch], p.ho[ch], p.gamma[ch]);
        if constexpr (std::is_same_v<T, int16_t>) {
            // int16 goes through uint16 (offset 32768) and back.
            table[ch * levels + i] =
                static_cast<int16_t>(static_cast<int>(saturate_round<uint16_t>(top * y)) - 32768);
        } else {
            table[ch * levels + i] = saturate_round<T>(top * y);
        }
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

// uint8: the channel's table in shared memory, 16 pixels per 16-byte access.
__global__ void apply_table_u8(const uint8_t* __restrict__ a, const uint8_t* __restrict__ table,
                               uint8_t* __restrict__ b, int64_t plane, bool vector_ok) {
    __shared__ uint32_t t[256];
    const int ch = blockIdx.y;
    for (int i = threadIdx.x; i < 256; i += blockDim.x) t[i] = table[ch * 256 + i];
    __syncthreads();
    const uint8_t* src = a + ch * plane;
    uint8_t* dst = b + ch * plane;
    const int64_t nvec = vector_ok ? plane / 16 : 0;
    auto map4 = [&](uint32_t w) {
        return t[w & 255u] | (t[(w >> 8) & 255u] << 8) | (t[(w >> 16) & 255u] << 16) | (t[w >> 24] << 24);
    };
    IPT_GRID_STRIDE(i, nvec) {
        const uint4 v = reinterpret_cast<const uint4*>(src)[i];
        reinterpret_cast<uint4*>(dst)[i] = make_uint4(map4(v.x), map4(v.y), map4(v.z), map4(v.w));
    }
    for (int64_t i = nvec * 16 + static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x; i < plane;
         i += static_cast<int64_t>(blockDim.x) * gridDim.x)
        dst[i] = static_cast<uint8_t>(t[src[i]]);
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

// Reads a [low high] pair per channel from 2 values (every channel) or, for
// RGB, 6 values: MATLAB's 2 x 3 matrix in column-major order
// [low_r high_r low_g high_g low_b high_b] (the reference's layout).
void read_pairs(const ipt::plugin::KernelArgs& args, const char* name, int channels, double* low, double* high,
                bool is_input) {
    const double* v = args.floats(name);
    const uint64_t count = args.count(name);
    if (!(count == 2 || (channels == 3 && count == 6)))
        ipt::plugin::invalid(std::string("ipt.imadjust: parameter '") + name + "' must have 2 values" +
                             (channels == 3 ? " or 6 ([low_r high_r low_g high_g low_b high_b])" : ""));
    for (uint64_t i = 0; i < count; ++i)
        if (!(v[i] >= 0.0 && v[i] <= 1.0))
            ipt::plugin::invalid(std::string("ipt.imadjust: parameter '") + name + "' must be in [0, 1]");
    for (int ch = 0; ch < channels; ++ch) {
        const double* pair = count == 2 ? v : v + 2 * ch;
        if (is_input && !(pair[0] < pair[1]))
            ipt::plugin::invalid(std::string("ipt.imadjust: parameter '") + name + "' must have low < high");
        low[ch] = pair[0];
        high[ch] = pair[1];
    }
}

void run_imadjust(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* img = args.image("I");
    const int channels = static_cast<int>(img->channels);
    ChannelParams p{};
    p.channels = channels;
    const bool given_in = args.present("low_high_in");
    const double* gam = args.floats("gamma");
    const uint64_t ngam = args.count("gamma");
    if (channels != 1 && channels != 3) ipt::plugin::invalid("ipt.imadjust: parameter 'I' must have 1 or 3 channels");
    if (!(ngam == 1 || (channels == 3 && ngam == 3)))
        ipt::plugin::invalid("ipt.imadjust: parameter 'gamma' must have 1 value" +
                             std::string(channels == 3 ? " or 3 (one per channel)" : ""));
    for (int ch = 0; ch < channels; ++ch) {
        p.gamma[ch] = gam[ngam == 1 ? 0 : ch];
        if (!(p.gamma[ch] >= 0.0 && std::isfinite(p.gamma[ch])))
            ipt::plugin::invalid("ipt.imadjust: parameter 'gamma' must be finite and >= 0");
    }
    read_pairs(args, "low_high_out", channels, p.lo, p.ho, false);
    if (given_in) read_pairs(args, "low_high_in", channels, p.li, p.hi, true);
    const ipt_tensor* out = args.output("J", img->dtype, img->rows, img->cols, img->channels);
    cudaStream_t s = dev.stream;
    DeviceArray<double> limits;
    if (!given_in) {
        limits = DeviceArray<double>(2 * channels, s);
        stretchlim_async(img, 0.01, 0.99, limits.get(), s, "ipt.imadjust");
        p.device_limits = limits.get();
    }
    const int64_t plane = img->rows * img->cols;
    if (plane == 0) return;
    visit_dtype(img->dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> ||
                      std::is_same_v<T, int16_t>) {
            const int levels = std::is_same_v<T, uint8_t> ? 256 : 65536;
            DeviceArray<T> table(static_cast<size_t>(levels) * channels, s);
            build_table<T><<<dim3((levels + 255) / 256, channels), 256, 0, s>>>(p, table.get(), levels);
            check_launch("ipt.imadjust (table)");
            if constexpr (std::is_same_v<T, uint8_t>) {
                const bool vec = plane % 16 == 0 && reinterpret_cast<uintptr_t>(img->data) % 16 == 0 &&
                                 reinterpret_cast<uintptr_t>(out->data) % 16 == 0;
                apply_table_u8<<<dim3(grid_for(vec ? plane / 16 : plane, kThreads, 528), channels), kThreads, 0, s>>>(
                    dptr<const uint8_t>(img), table.get(), dptr<uint8_t>(out), plane, vec);
            } else {
                apply_table<T><<<dim3(grid_for(plane, kThreads, 528), channels), kThreads, 0, s>>>(
                    dptr<const T>(img), table.get(), dptr<T>(out), plane, levels);
            }
        } else if constexpr (std::is_floating_point_v<T>) {
            adjust_float<T><<<dim3(grid_for(plane, kThreads, 528), channels), kThreads, 0, s>>>(
                dptr<const T>(img), dptr<T>(out), plane, p);
        } else {
            ipt::plugin::unsupported("ipt.imadjust: class of 'I' not handled");
        }
        check_launch("ipt.imadjust");
    });
}

IPT_CUDA_OP("ipt.imadjust", "", 100, run_imadjust)

}  // namespace
}  // namespace ipt::cuda
