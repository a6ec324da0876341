// imadjust: x -> ((clamp(x, li, hi) - li) / (hi - li))^gamma * (ho - lo) + lo per
// channel, in double. Integer classes build MATLAB's table (256 or 65536
// entries, uint8(255*lut) / uint16(65535*lut)) on the device and map through it;
// floating classes are computed per element. Without low_high_in the limits
// are stretchlim(I), computed on the device and read there: nothing waits.
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

// std::min/std::max semantics (a NaN x ends at hi, as in the reference).
__device__ inline double adjust(double x, double li, double hi, double lo, double ho, double g) {
    x = (x < hi) ? x : hi;
    x = (li < x) ? x : li;
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

// Per-channel value k of a parameter given as 2 values (all channels) or as a
// 2 x 3 matrix in reading order ([lows; highs]).
void pair_for(const double* v, uint64_t count, int ch, double* a, double* b) {
    if (count >= 6) {
        *a = v[ch];
        *b = v[3 + ch];
    } else {
        *a = v[0];
        *b = v[1];
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
    for (int ch = 0; ch < channels; ++ch) {
        if (given_in) {
            pair_for(args.floats("low_high_in"), args.count("low_high_in"), ch, &p.li[ch], &p.hi[ch]);
            if (!(p.li[ch] < p.hi[ch]))
                ipt::plugin::invalid("ipt.imadjust: parameter 'low_high_in' must have low_in < high_in");
        }
        pair_for(args.floats("low_high_out"), args.count("low_high_out"), ch, &p.lo[ch], &p.ho[ch]);
        p.gamma[ch] = (ngam >= 3 && ch < 3) ? gam[ch] : gam[0];
    }
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
            apply_table<T><<<dim3(grid_for(plane, kThreads, 528), channels), kThreads, 0, s>>>(
                dptr<const T>(img), table.get(), dptr<T>(out), plane, levels);
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
