// SPDX-License-Identifier: Apache-2.0
// Linear 2-D convolution through FFTW (double precision) for large kernels,
// by overlap-save over tiles:
//
//   out(o_r, o_c) = full(o_r + off_r, o_c + off_c),  full = A conv K
//
// A tile of S x T input values is transformed (real-to-complex, 2-D),
// multiplied by the kernel's spectrum at the same size, and transformed back;
// its last (S - kr + 1) x (T - kc + 1) values are exact linear-convolution
// outputs (the circular wrap-around only reaches the first kr-1 rows and
// kc-1 columns). Tiles are independent, so the threads take tiles, and a tile
// (S, T <= 512) stays in L2. Only the kernel's spectrum is computed once per
// call, at tile size, not at image size.
//
// Plans are cached per tile size, like FFTW wisdom. FFTW's planner is not
// thread-safe, so plans are created under one mutex; executing a plan on new
// arrays (fftw_execute_dft_r2c / _c2r) is thread-safe. Every buffer comes from
// fftw_malloc, so the alignment of the arrays a plan runs on always equals the
// planning arrays'.
//
// Error: per tile |out - exact| <= c * u * log2(S T) * ||A_tile||_2 * ||K||_2
// with u = 2^-53 and c a small constant: a bound on the tile, not per element.
#pragma once

#ifdef IPT_HAVE_FFTW

#include <fftw3.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <new>
#include <utility>
#include <vector>

#include "parallel.hpp"

namespace ipt::cpu::fft {

// Smallest m >= n whose only prime factors are 2, 3, 5 and 7.
inline int64_t good_size(int64_t n) {
    if (n <= 1) return 1;
    for (int64_t m = n;; ++m) {
        int64_t r = m;
        for (int64_t p : {2, 3, 5, 7})
            while (r % p == 0) r /= p;
        if (r == 1) return m;
    }
}

struct FftwFree {
    void operator()(void* p) const { fftw_free(p); }
};
template <class T>
using Buffer = std::unique_ptr<T[], FftwFree>;

template <class T>
Buffer<T> alloc(int64_t n) {
    void* p = fftw_malloc(static_cast<size_t>(std::max<int64_t>(n, 1)) * sizeof(T));
    if (!p) throw std::bad_alloc();
    return Buffer<T>(static_cast<T*>(p));
}

// Forward and inverse 2-D real plans of one size.
struct Plans2D {
    fftw_plan forward = nullptr;  // S x T real -> S x (T/2+1) complex
    fftw_plan inverse = nullptr;  // back (destroys its input)
};

class PlanCache {
public:
    static PlanCache& instance() {
        static PlanCache cache;
        return cache;
    }
    PlanCache(const PlanCache&) = delete;
    PlanCache& operator=(const PlanCache&) = delete;
    ~PlanCache() {
        for (auto& entry : plans_) {
            fftw_destroy_plan(entry.second.forward);
            fftw_destroy_plan(entry.second.inverse);
        }
    }

    Plans2D get(int s, int t) {
        std::lock_guard<std::mutex> lock(mutex_);
        auto it = plans_.find({s, t});
        if (it != plans_.end()) return it->second;
        // FFTW_MEASURE times candidate algorithms once per size; the arrays
        // are scratch (measuring overwrites them).
        auto real = alloc<double>(static_cast<int64_t>(s) * t);
        auto spec = alloc<fftw_complex>(static_cast<int64_t>(s) * (t / 2 + 1));
        Plans2D p;
        p.forward = fftw_plan_dft_r2c_2d(s, t, real.get(), spec.get(), FFTW_MEASURE);
        p.inverse = fftw_plan_dft_c2r_2d(s, t, spec.get(), real.get(), FFTW_MEASURE);
        if (!p.forward || !p.inverse) {
            if (p.forward) fftw_destroy_plan(p.forward);
            if (p.inverse) fftw_destroy_plan(p.inverse);
            throw std::bad_alloc();
        }
        plans_.emplace(std::make_pair(s, t), p);
        return p;
    }

private:
    PlanCache() = default;
    std::mutex mutex_;
    std::map<std::pair<int, int>, Plans2D> plans_;
};

// Shape of one convolution.
struct Geometry {
    int64_t ma = 0, na = 0;        // image
    int64_t kr = 0, kc = 0;        // kernel support
    int64_t off_r = 0, off_c = 0;  // first wanted index of the full convolution
    int64_t out_rows = 0, out_cols = 0;
};

// Sizes FFTW transforms fastest: 2^a and 3 * 2^a.
inline int64_t fast_size(int64_t n) {
    int64_t best = 1;
    while (best < n) best *= 2;
    for (int64_t m = 3; m < best; m *= 2)
        if (m >= n) return m;
    return best;
}

// Tile extent along one dimension: about 8 kernel lengths (the wasted
// wrap-around part is then ~1/8), 64..512, but no larger than one tile
// covering everything wanted.
inline int64_t tile_size(int64_t k, int64_t out) {
    const int64_t whole = fast_size(out + k - 1);
    const int64_t want = fast_size(std::clamp<int64_t>(8 * k, 64, 512));
    return std::max<int64_t>(std::min(whole, want), fast_size(2 * k));
}

// A conv K, K a kr x kc matrix (row-major, double). store(out_row, out_col,
// const double* values, count) receives each tile row's finished values.
template <class TA, class Store>
void convolve_2d(const TA* A, const double* K, const Geometry& g, Store&& store) {
    if (g.out_rows <= 0 || g.out_cols <= 0) return;
    const int64_t S = tile_size(g.kr, g.out_rows), T = tile_size(g.kc, g.out_cols);
    const int64_t tc = T / 2 + 1;
    const int64_t tile_r = S - g.kr + 1, tile_c = T - g.kc + 1;
    const Plans2D plans = PlanCache::instance().get(static_cast<int>(S), static_cast<int>(T));

    // Spectrum of the kernel at tile size, with the 1/(S T) of the inverse.
    auto kspec = alloc<fftw_complex>(S * tc);
    {
        auto buf = alloc<double>(S * T);
        std::fill(buf.get(), buf.get() + S * T, 0.0);
        for (int64_t i = 0; i < g.kr; ++i)
            for (int64_t j = 0; j < g.kc; ++j) buf[i * T + j] = K[i * g.kc + j];
        fftw_execute_dft_r2c(plans.forward, buf.get(), kspec.get());
        const double scale = 1.0 / (static_cast<double>(S) * static_cast<double>(T));
        for (int64_t i = 0; i < S * tc; ++i) {
            kspec[i][0] *= scale;
            kspec[i][1] *= scale;
        }
    }

    const int64_t tiles_r = (g.out_rows + tile_r - 1) / tile_r;
    const int64_t tiles_c = (g.out_cols + tile_c - 1) / tile_c;
    const int64_t tiles = tiles_r * tiles_c;
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(thread_count(), tiles));
    std::vector<Buffer<double>> reals;
    std::vector<Buffer<fftw_complex>> specs;
    for (int64_t t = 0; t < workers; ++t) {
        reals.push_back(alloc<double>(S * T));
        specs.push_back(alloc<fftw_complex>(S * tc));
    }

    parallel_for(0, workers, [&](int64_t w) {
        double* buf = reals[static_cast<size_t>(w)].get();
        fftw_complex* spec = specs[static_cast<size_t>(w)].get();
        for (int64_t tile = tiles * w / workers; tile < tiles * (w + 1) / workers; ++tile) {
            const int64_t o0 = (tile / tiles_c) * tile_r, c0 = (tile % tiles_c) * tile_c;
            const int64_t nr = std::min(tile_r, g.out_rows - o0), nc = std::min(tile_c, g.out_cols - c0);
            // Input rows a0 .. a0+S-1 and columns b0 .. b0+T-1, zero outside A.
            const int64_t a0 = o0 + g.off_r - (g.kr - 1), b0 = c0 + g.off_c - (g.kc - 1);
            const int64_t j0 = std::clamp<int64_t>(-b0, 0, T), j1 = std::clamp<int64_t>(g.na - b0, j0, T);
            for (int64_t i = 0; i < S; ++i) {
                double* row = buf + i * T;
                const int64_t ar = a0 + i;
                if (ar < 0 || ar >= g.ma) {
                    std::fill(row, row + T, 0.0);
                    continue;
                }
                const TA* src = A + ar * g.na;
                std::fill(row, row + j0, 0.0);
                for (int64_t j = j0; j < j1; ++j) row[j] = static_cast<double>(src[b0 + j]);
                std::fill(row + j1, row + T, 0.0);
            }
            fftw_execute_dft_r2c(plans.forward, buf, spec);
            const fftw_complex* k = kspec.get();
            for (int64_t i = 0; i < S * tc; ++i) {
                const double re = spec[i][0] * k[i][0] - spec[i][1] * k[i][1];
                const double im = spec[i][0] * k[i][1] + spec[i][1] * k[i][0];
                spec[i][0] = re;
                spec[i][1] = im;
            }
            fftw_execute_dft_c2r(plans.inverse, spec, buf);
            for (int64_t i = 0; i < nr; ++i) store(o0 + i, c0, buf + (g.kr - 1 + i) * T + (g.kc - 1), nc);
        }
    });
}

}  // namespace ipt::cpu::fft

#endif  // IPT_HAVE_FFTW

#ifndef IPT_HAVE_FFTW
#include <cstdint>
namespace ipt::cpu::fft {
// Shape of one convolution; conv2's direct variant uses it too, so it exists
// without FFTW.
struct Geometry {
    int64_t ma = 0, na = 0;        // image
    int64_t kr = 0, kc = 0;        // kernel support
    int64_t off_r = 0, off_c = 0;  // first wanted index of the full convolution
    int64_t out_rows = 0, out_cols = 0;
};
}  // namespace ipt::cpu::fft
#endif  // !IPT_HAVE_FFTW
