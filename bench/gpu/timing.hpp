// SPDX-License-Identifier: Apache-2.0
// Timing helpers of bench/gpu: CUDA events on one stream, median of runs
// after warm-up.
#pragma once

#include <cuda_runtime_api.h>

#include <algorithm>
#include <functional>
#include <string>
#include <vector>

namespace ipt_bench {

inline double median(std::vector<double> v) {
    if (v.empty()) return -1;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

// Median device time (ms) of body() enqueued on stream; -1 if body reported
// failure (returns false) or a CUDA error occurred.
inline double time_events(cudaStream_t stream, int warmup, int runs, const std::function<bool()>& body) {
    for (int i = 0; i < warmup; ++i)
        if (!body()) return -1;
    std::vector<cudaEvent_t> ev(2 * static_cast<size_t>(runs));
    for (auto& e : ev) cudaEventCreate(&e);
    bool ok = true;
    for (int i = 0; i < runs && ok; ++i) {
        cudaEventRecord(ev[2 * i], stream);
        ok = body();
        cudaEventRecord(ev[2 * i + 1], stream);
    }
    std::vector<double> t;
    if (ok && cudaStreamSynchronize(stream) == cudaSuccess) {
        for (int i = 0; i < runs; ++i) {
            float ms = 0;
            cudaEventElapsedTime(&ms, ev[2 * i], ev[2 * i + 1]);
            t.push_back(ms);
        }
    }
    for (auto& e : ev) cudaEventDestroy(e);
    (void)cudaGetLastError();
    return ok && !t.empty() ? median(t) : -1;
}

struct PeerTime {
    std::string name;  // "NPP nppiFilterMedian_8u_C1R 5x5"
    double ms = -1;    // -1: not run
    std::string note;
};

// NPP peers (npp_peers.cpp; empty results when built without NPP).
// key: the peer case ("lut_u8", "mean_u8", "filter7_32f", "prewitt_u8",
// "median_u8_<k>", "max_u8_<k>", "pba_u8", "gray_u8", "hsv_u8", "ycbcr_u8"),
// or one with arguments after a colon: "resize_u8:<nearest|linear|cubic|
// super>,<scale>", "gauss_u8:<k>", "gauss_32f:<k>", "box_u8:<k>",
// "sobelxy_32f", "gradient_32f", "hist_u8", "integral_u8",
// "pad_u8:<replicate|constant>,<p>", "crop_u8:<row0>,<col0>,<rows>,<cols>",
// "rotate_u8:<interp>,<degrees>", "warp_affine_u8:<interp>,<T 9 values row by
// row>", "warp_persp_u8:<interp>,<T>", "xcorr_u8:<m>" (template: src's
// top-left m x m block); src is a device image of rows x cols (uint8, or
// float for the _32f keys), tightly packed.
PeerTime run_npp_peer(const std::string& key, const void* src, int rows, int cols, cudaStream_t stream,
                      int warmup, int runs);
bool npp_available();

}  // namespace ipt_bench
