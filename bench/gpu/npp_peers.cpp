// SPDX-License-Identifier: Apache-2.0
// The same cases as OpenIPT's CUDA backend, through NVIDIA's NPP, in the same
// process and on the same stream (compiled only when NPP's headers are found).
#include "timing.hpp"

#ifdef IPT_HAVE_NPP
#include <npp.h>
#endif

#include <algorithm>
#include <cmath>
#include <functional>
#include <string>
#include <vector>

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

// "name:a,b,c" -> name and its arguments.
struct Keyed {
    std::string name;
    std::vector<std::string> args;
    double num(size_t i) const { return std::stod(args.at(i)); }
};

Keyed split_key(const std::string& key) {
    Keyed k;
    const size_t colon = key.find(':');
    k.name = key.substr(0, colon);
    std::string rest = colon == std::string::npos ? "" : key.substr(colon + 1);
    size_t start = 0;
    while (start <= rest.size() && !rest.empty()) {
        const size_t comma = rest.find(',', start);
        k.args.push_back(rest.substr(start, comma == std::string::npos ? std::string::npos : comma - start));
        if (comma == std::string::npos) break;
        start = comma + 1;
    }
    return k;
}

int interpolation(const std::string& m) {
    if (m == "nearest") return NPPI_INTER_NN;
    if (m == "cubic") return NPPI_INTER_CUBIC;
    if (m == "super") return NPPI_INTER_SUPER;
    return NPPI_INTER_LINEAR;
}

// NPP's Gaussian and Sobel masks come in fixed sizes.
bool mask_size(int k, NppiMaskSize* m) {
    switch (k) {
    case 3: *m = NPP_MASK_SIZE_3_X_3; return true;
    case 5: *m = NPP_MASK_SIZE_5_X_5; return true;
    case 7: *m = NPP_MASK_SIZE_7_X_7; return true;
    case 9: *m = NPP_MASK_SIZE_9_X_9; return true;
    case 11: *m = NPP_MASK_SIZE_11_X_11; return true;
    case 13: *m = NPP_MASK_SIZE_13_X_13; return true;
    case 15: *m = NPP_MASK_SIZE_15_X_15; return true;
    }
    return false;
}

// The bounding box of the forward map c (rows 0 and 1: x and y numerators,
// row 2: the denominator, [0 0 1] when affine) of a rows x cols image; c is
// moved so that the box starts at 0, and the box's size returned.
NppiSize fit_forward(double c[3][3], int rows, int cols) {
    double x0 = 1e300, y0 = 1e300, x1 = -1e300, y1 = -1e300;
    for (double u : {0.0, double(cols - 1)})
        for (double v : {0.0, double(rows - 1)}) {
            const double w = c[2][0] * u + c[2][1] * v + c[2][2];
            const double x = (c[0][0] * u + c[0][1] * v + c[0][2]) / w, y = (c[1][0] * u + c[1][1] * v + c[1][2]) / w;
            x0 = std::min(x0, x), x1 = std::max(x1, x), y0 = std::min(y0, y), y1 = std::max(y1, y);
        }
    x0 = std::floor(x0), y0 = std::floor(y0);
    for (int j = 0; j < 3; ++j) {
        c[0][j] -= x0 * c[2][j];
        c[1][j] -= y0 * c[2][j];
    }
    return NppiSize{static_cast<int>(std::floor(x1) - x0) + 1, static_cast<int>(std::floor(y1) - y0) + 1};
}

// Peers whose key carries arguments ("resize_u8:cubic,0.5"); see timing.hpp.
void run_keyed_peer(const std::string& key, const void* src, int rows, int cols, cudaStream_t stream, int warmup,
                    int runs, const NppStreamContext& ctx, PeerTime& r) {
    const Keyed k = split_key(key);
    const NppiSize size{cols, rows};
    const NppiRect whole{0, 0, cols, rows};
    const size_t n = static_cast<size_t>(rows) * cols;
    const auto* s8 = static_cast<const Npp8u*>(src);
    const auto* s32 = static_cast<const Npp32f*>(src);
    auto ok = [&](NppStatus st) {
        if (st < 0) r.note = "NPP status " + std::to_string(static_cast<int>(st));
        return st >= 0;
    };
    auto time = [&](const std::function<bool()>& body) { r.ms = time_events(stream, warmup, runs, body); };
    if (k.name == "resize_u8") {
        // NPP does not widen the kernel when shrinking (MATLAB's antialiasing):
        // super sampling is its area average.
        const double scale = k.num(1);
        const NppiSize out{static_cast<int>(std::ceil(cols * scale)), static_cast<int>(std::ceil(rows * scale))};
        Dev<Npp8u> dst(static_cast<size_t>(out.width) * out.height);
        r.name = "nppiResize_8u_C1R " + k.args[0];
        time([&] {
            return ok(nppiResize_8u_C1R_Ctx(s8, cols, size, whole, dst.p, out.width, out, NppiRect{0, 0, out.width, out.height},
                                            interpolation(k.args[0]), ctx));
        });
    } else if (k.name == "gauss_u8" || k.name == "gauss_32f") {
        // NPP's fixed kernel of that size, not MATLAB's sigma: comparable work.
        NppiMaskSize mask;
        if (!mask_size(static_cast<int>(k.num(0)), &mask)) {
            r.note = "no NPP Gaussian mask of size " + k.args[0];
            return;
        }
        const bool f = k.name == "gauss_32f";
        Dev<Npp8u> dst(n * (f ? 4 : 1));
        r.name = std::string(f ? "nppiFilterGaussBorder_32f_C1R " : "nppiFilterGaussBorder_8u_C1R ") + k.args[0] + "x" + k.args[0];
        time([&] {
            return ok(f ? nppiFilterGaussBorder_32f_C1R_Ctx(s32, cols * 4, size, NppiPoint{0, 0}, reinterpret_cast<Npp32f*>(dst.p),
                                                            cols * 4, size, mask, NPP_BORDER_REPLICATE, ctx)
                        : nppiFilterGaussBorder_8u_C1R_Ctx(s8, cols, size, NppiPoint{0, 0}, dst.p, cols, size, mask,
                                                           NPP_BORDER_REPLICATE, ctx));
        });
    } else if (k.name == "box_u8") {
        const int m = static_cast<int>(k.num(0));
        Dev<Npp8u> dst(n);
        r.name = "nppiFilterBoxBorder_8u_C1R " + k.args[0] + "x" + k.args[0];
        time([&] {
            return ok(nppiFilterBoxBorder_8u_C1R_Ctx(s8, cols, size, NppiPoint{0, 0}, dst.p, cols, size, NppiSize{m, m},
                                                     NppiPoint{m / 2, m / 2}, NPP_BORDER_REPLICATE, ctx));
        });
    } else if (k.name == "sobelxy_32f") {
        // Vert: the derivative along x; NPP's signs are its own.
        Dev<Npp32f> gx(n), gy(n);
        r.name = "nppiFilterSobelVert+HorizBorder_32f_C1R";
        time([&] {
            return ok(nppiFilterSobelVertBorder_32f_C1R_Ctx(s32, cols * 4, size, NppiPoint{0, 0}, gx.p, cols * 4, size,
                                                            NPP_BORDER_REPLICATE, ctx)) &&
                   ok(nppiFilterSobelHorizBorder_32f_C1R_Ctx(s32, cols * 4, size, NppiPoint{0, 0}, gy.p, cols * 4, size,
                                                             NPP_BORDER_REPLICATE, ctx));
        });
    } else if (k.name == "gradient_32f") {
        // X, Y, L2 magnitude and angle (radians) in one pass.
        Dev<Npp32f> gx(n), gy(n), mag(n), angle(n);
        r.name = "nppiGradientVectorSobelBorder_32f_C1R";
        time([&] {
            return ok(nppiGradientVectorSobelBorder_32f_C1R_Ctx(s32, cols * 4, size, NppiPoint{0, 0}, gx.p, cols * 4, gy.p,
                                                                cols * 4, mag.p, cols * 4, angle.p, cols * 4, size,
                                                                NPP_MASK_SIZE_3_X_3, nppiNormL2, NPP_BORDER_REPLICATE, ctx));
        });
    } else if (k.name == "hist_u8") {
        // 257 level boundaries 0..256: one bin per value.
        size_t bytes = 0;
        nppiHistogramEvenGetBufferSize_8u_C1R_Ctx(size, 257, &bytes, ctx);
        Dev<Npp8u> buf(bytes);
        Dev<Npp32s> hist(256);
        r.name = "nppiHistogramEven_8u_C1R 256 bins";
        time([&] { return ok(nppiHistogramEven_8u_C1R_Ctx(s8, cols, size, hist.p, 257, 0, 256, buf.p, ctx)); });
    } else if (k.name == "integral_u8") {
        // int32 sums (exact up to 2^31 / 255 pixels), not double.
        Dev<Npp32s> dst(static_cast<size_t>(rows + 1) * (cols + 1));
        r.name = "nppiIntegral_8u32s_C1R";
        time([&] { return ok(nppiIntegral_8u32s_C1R_Ctx(s8, cols, dst.p, (cols + 1) * 4, size, 0, ctx)); });
    } else if (k.name == "pad_u8") {
        const int p = static_cast<int>(k.num(1));
        const NppiSize out{cols + 2 * p, rows + 2 * p};
        Dev<Npp8u> dst(static_cast<size_t>(out.width) * out.height);
        const bool replicate = k.args[0] == "replicate";
        r.name = replicate ? "nppiCopyReplicateBorder_8u_C1R" : "nppiCopyConstBorder_8u_C1R";
        time([&] {
            return ok(replicate ? nppiCopyReplicateBorder_8u_C1R_Ctx(s8, cols, size, dst.p, out.width, out, p, p, ctx)
                                : nppiCopyConstBorder_8u_C1R_Ctx(s8, cols, size, dst.p, out.width, out, p, p, 0, ctx));
        });
    } else if (k.name == "crop_u8") {
        // row0, col0, rows, cols of the sub-rectangle (0-based).
        const int r0 = static_cast<int>(k.num(0)), c0 = static_cast<int>(k.num(1));
        const NppiSize out{static_cast<int>(k.num(3)), static_cast<int>(k.num(2))};
        Dev<Npp8u> dst(static_cast<size_t>(out.width) * out.height);
        r.name = "nppiCopy_8u_C1R (sub-rectangle)";
        time([&] {
            return ok(nppiCopy_8u_C1R_Ctx(s8 + static_cast<size_t>(r0) * cols + c0, cols, dst.p, out.width, out, ctx));
        });
    } else if (k.name == "rotate_u8") {
        // The whole rotated image (a loose bounding box), NPP's own grid.
        const double angle = k.num(1);
        double box[2][2];
        nppiGetRotateBound(whole, box, angle, 0, 0);
        const NppiSize out{static_cast<int>(std::ceil(box[1][0] - box[0][0])) + 1,
                           static_cast<int>(std::ceil(box[1][1] - box[0][1])) + 1};
        Dev<Npp8u> dst(static_cast<size_t>(out.width) * out.height);
        r.name = "nppiRotate_8u_C1R " + k.args[0];
        time([&] {
            return ok(nppiRotate_8u_C1R_Ctx(s8, size, cols, whole, dst.p, out.width, NppiRect{0, 0, out.width, out.height},
                                            angle, -box[0][0], -box[0][1], interpolation(k.args[0]), ctx));
        });
    } else if (k.name == "warp_affine_u8" || k.name == "warp_persp_u8") {
        // T row by row as imwarp takes it ([x y w] = [u v 1] * T); NPP's
        // coefficients are its transpose, over 0-based pixel coordinates.
        double c[3][3];
        for (int i = 0; i < 3; ++i)
            for (int j = 0; j < 3; ++j) c[i][j] = k.num(1 + j * 3 + i);
        const bool affine = k.name == "warp_affine_u8";
        if (affine) c[2][0] = 0, c[2][1] = 0, c[2][2] = 1;
        const NppiSize out = fit_forward(c, rows, cols);
        Dev<Npp8u> dst(static_cast<size_t>(out.width) * out.height);
        const NppiRect dst_roi{0, 0, out.width, out.height};
        const double a[2][3] = {{c[0][0], c[0][1], c[0][2]}, {c[1][0], c[1][1], c[1][2]}};
        r.name = std::string(affine ? "nppiWarpAffine_8u_C1R " : "nppiWarpPerspective_8u_C1R ") + k.args[0];
        time([&] {
            return ok(affine ? nppiWarpAffine_8u_C1R_Ctx(s8, size, cols, whole, dst.p, out.width, dst_roi, a,
                                                         interpolation(k.args[0]), ctx)
                             : nppiWarpPerspective_8u_C1R_Ctx(s8, size, cols, whole, dst.p, out.width, dst_roi, c,
                                                              interpolation(k.args[0]), ctx));
        });
    } else if (k.name == "xcorr_u8") {
        // The template is the image's top-left m x m block; float output.
        const int m = static_cast<int>(k.num(0));
        const NppiSize tpl{m, m}, out{cols + m - 1, rows + m - 1};
        size_t a = 0, b = 0;
        nppiFullNormLevelGetBufferHostSize_8u32f_C1R_Ctx(size, &a, ctx);
        nppiFullNormLevelGetBufferHostSize_8u32f_C1R_Ctx(out, &b, ctx);
        Dev<Npp8u> buf(std::max(a, b));
        Dev<Npp32f> dst(static_cast<size_t>(out.width) * out.height);
        r.name = "nppiCrossCorrFull_NormLevel_8u32f_C1R " + k.args[0] + "x" + k.args[0];
        time([&] {
            return ok(nppiCrossCorrFull_NormLevel_8u32f_C1R_Ctx(s8, cols, size, s8, cols, tpl, dst.p, out.width * 4, buf.p,
                                                                ctx));
        });
    } else {
        r.note = "no NPP peer";
    }
}

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
        run_keyed_peer(key, src, rows, cols, stream, warmup, runs, ctx, r);  // "no NPP peer" when it knows none
    }
    return r;
}
#endif

}  // namespace ipt_bench
