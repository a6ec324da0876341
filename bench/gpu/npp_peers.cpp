// The same cases as OpenIPT's CUDA backend, through NVIDIA's NPP, in the same
// process and on the same stream (compiled only when NPP's headers are found).
#include "timing.hpp"

#ifdef IPT_HAVE_NPP
#include <npp.h>
#endif

#include <string>

namespace ipt_bench {

#ifndef IPT_HAVE_NPP
bool npp_available() { return false; }
PeerTime run_npp_peer(const std::string& key, const void*, int, int, cudaStream_t, int, int) {
    return {key, -1, "built without NPP"};
}
#else
bool npp_available() { return true; }

namespace {

NppStreamContext context_for(cudaStream_t stream) {
    NppStreamContext c{};
    int dev = 0;
    cudaGetDevice(&dev);
    cudaDeviceProp p{};
    cudaGetDeviceProperties(&p, dev);
    c.hStream = stream;
    c.nCudaDeviceId = dev;
    c.nMultiProcessorCount = p.multiProcessorCount;
    c.nMaxThreadsPerMultiProcessor = p.maxThreadsPerMultiProcessor;
    c.nMaxThreadsPerBlock = p.maxThreadsPerBlock;
    c.nSharedMemPerBlock = p.sharedMemPerBlock;
    c.nCudaDevAttrComputeCapabilityMajor = p.major;
    c.nCudaDevAttrComputeCapabilityMinor = p.minor;
    cudaStreamGetFlags(stream, &c.nStreamFlags);
    return c;
}

template <class T>
struct Dev {
    T* p = nullptr;
    explicit Dev(size_t n) { cudaMalloc(&p, n * sizeof(T) + 256); }
    ~Dev() { cudaFree(p); }
};

}  // namespace

PeerTime run_npp_peer(const std::string& key, const void* src, int rows, int cols, cudaStream_t stream, int warmup,
                      int runs) {
    const NppStreamContext ctx = context_for(stream);
    const NppiSize size{cols, rows};
    const auto* s8 = static_cast<const Npp8u*>(src);
    PeerTime r{key, -1, ""};
    auto ok = [&](NppStatus st) {
        if (st < 0) r.note = "NPP status " + std::to_string(static_cast<int>(st));
        return st >= 0;
    };
    if (key == "lut_u8") {
        Dev<Npp8u> table(256), dst(static_cast<size_t>(rows) * cols);
        r.name = "nppiLUTPalette_8u_C1R";
        r.ms = time_events(stream, warmup, runs, [&] {
            return ok(nppiLUTPalette_8u_C1R_Ctx(s8, cols, dst.p, cols, size, table.p, 8, ctx));
        });
    } else if (key == "mean_u8") {
        size_t bytes = 0;
        nppiMeanGetBufferHostSize_8u_C1R_Ctx(size, &bytes, ctx);
        Dev<Npp8u> buf(bytes);
        Dev<Npp64f> mean(1);
        r.name = "nppiMean_8u_C1R";
        r.ms = time_events(stream, warmup, runs, [&] { return ok(nppiMean_8u_C1R_Ctx(s8, cols, size, buf.p, mean.p, ctx)); });
    } else if (key == "filter7_32f") {
        Dev<Npp32f> k(49), dst(static_cast<size_t>(rows) * cols);
        cudaMemsetAsync(k.p, 0, 49 * sizeof(Npp32f), stream);
        r.name = "nppiFilterBorder_32f_C1R 7x7";
        r.ms = time_events(stream, warmup, runs, [&] {
            return ok(nppiFilterBorder_32f_C1R_Ctx(static_cast<const Npp32f*>(src), cols * 4, size, NppiPoint{0, 0}, dst.p,
                                                   cols * 4, size, k.p, NppiSize{7, 7}, NppiPoint{3, 3},
                                                   NPP_BORDER_REPLICATE, ctx));
        });
    } else if (key == "prewitt_u8") {
        Dev<Npp8u> dst(static_cast<size_t>(rows) * cols);
        r.name = "nppiFilterPrewittHorizBorder_8u_C1R";
        r.ms = time_events(stream, warmup, runs, [&] {
            return ok(nppiFilterPrewittHorizBorder_8u_C1R_Ctx(s8, cols, size, NppiPoint{0, 0}, dst.p, cols, size,
                                                              NPP_BORDER_REPLICATE, ctx));
        });
    } else if (key.rfind("median_u8_", 0) == 0 || key.rfind("max_u8_", 0) == 0) {
        const bool median = key[0] == 'm' && key[1] == 'e';
        const int k = std::stoi(key.substr(key.rfind('_') + 1));
        const int h = k / 2;
        // nppiFilterMedian reads outside the ROI: give it a padded copy.
        const int pr = rows + 2 * h, pc = cols + 2 * h;
        Dev<Npp8u> padded(static_cast<size_t>(pr) * pc), dst(static_cast<size_t>(rows) * cols);
        cudaMemsetAsync(padded.p, 0, static_cast<size_t>(pr) * pc, stream);
        cudaMemcpy2DAsync(padded.p + h * pc + h, pc, s8, cols, cols, rows, cudaMemcpyDeviceToDevice, stream);
        if (median) {
            Npp32u bytes = 0;
            nppiFilterMedianGetBufferSize_8u_C1R_Ctx(size, NppiSize{k, k}, &bytes, ctx);
            Dev<Npp8u> buf(bytes);
            r.name = "nppiFilterMedian_8u_C1R " + std::to_string(k) + "x" + std::to_string(k);
            r.ms = time_events(stream, warmup, runs, [&] {
                return ok(nppiFilterMedian_8u_C1R_Ctx(padded.p + h * pc + h, pc, dst.p, cols, size, NppiSize{k, k},
                                                      NppiPoint{h, h}, buf.p, ctx));
            });
        } else {
            r.name = "nppiFilterMaxBorder_8u_C1R " + std::to_string(k) + "x" + std::to_string(k);
            r.ms = time_events(stream, warmup, runs, [&] {
                return ok(nppiFilterMaxBorder_8u_C1R_Ctx(s8, cols, size, NppiPoint{0, 0}, dst.p, cols, size,
                                                         NppiSize{k, k}, NppiPoint{h, h}, NPP_BORDER_REPLICATE, ctx));
            });
        }
    } else if (key == "pba_u8") {
        size_t bytes = 0;
        nppiDistanceTransformPBAGetBufferSize(size, &bytes);
        Dev<Npp8u> buf(bytes);
        Dev<Npp32f> dist(static_cast<size_t>(rows) * cols);
        Dev<Npp16s> vor(static_cast<size_t>(rows) * cols * 2);
        r.name = "nppiDistanceTransformPBA_8u32f_C1R";
        r.ms = time_events(stream, warmup, runs, [&] {
            return ok(nppiDistanceTransformPBA_8u32f_C1R_Ctx(const_cast<Npp8u*>(s8), cols, 1, 255, nullptr, 0,
                                                             vor.p, cols * 4, nullptr, 0, dist.p, cols * 4, size,
                                                             buf.p, ctx));
        });
    } else if (key == "gray_u8" || key == "hsv_u8") {
        // NPP converts packed RGB; the source's bytes are read as packed pixels
        // (same bytes moved as OpenIPT's planes).
        const bool gray = key == "gray_u8";
        Dev<Npp8u> dst(static_cast<size_t>(rows) * cols * (gray ? 1 : 3));
        r.name = gray ? "nppiRGBToGray_8u_C3C1R" : "nppiRGBToHSV_8u_C3R (uint8 out)";
        r.ms = time_events(stream, warmup, runs, [&] {
            return ok(gray ? nppiRGBToGray_8u_C3C1R_Ctx(s8, cols * 3, dst.p, cols, size, ctx)
                           : nppiRGBToHSV_8u_C3R_Ctx(s8, cols * 3, dst.p, cols * 3, size, ctx));
        });
    } else if (key == "ycbcr_u8") {
        const size_t plane = static_cast<size_t>(rows) * cols;
        Dev<Npp8u> dst(plane * 3);
        const Npp8u* const planes[3] = {s8, s8 + plane, s8 + 2 * plane};
        Npp8u* out[3] = {dst.p, dst.p + plane, dst.p + 2 * plane};
        r.name = "nppiRGBToYCbCr_8u_P3R";
        r.ms = time_events(stream, warmup, runs, [&] {
            return ok(nppiRGBToYCbCr_8u_P3R_Ctx(planes, cols, out, cols, size, ctx));
        });
    } else {
        r.note = "no NPP peer";
    }
    return r;
}
#endif

}  // namespace ipt_bench
