// SPDX-License-Identifier: Apache-2.0
// ipt.adapthisteq's front-end: J = adapthisteq(I, Name, Value)
// (docs/matlab-semantics.md#adapthisteq), contrast-limited adaptive
// histogram equalization as MATLAB computes it.
//
// int16 works as uint16 (I + 32768) and J goes back by subtracting 32768.
// The working scale is [0, top]: top 255 or 65535 for the integer classes,
// 1 for single and double. I (rows x cols, both at least 2) is padded
// symmetrically to H x W so that each of the tiles_r x tiles_c tiles has
// even sides: a side not divisible by the tile count grows to
// (floor(n/t)+1)*t, and an odd tile side adds t more; the padding is split
// floor(pad/2) before and ceil(pad/2) after. Per tile (tile_h x tile_w
// padded pixels): imhist's NBins-bin histogram, clipped at
//   clip = ceil(np/NBins) + round(ClipLimit*(np - ceil(np/NBins)))
// with the excess spread by MATLAB's two loops (adapthisteq_clip), then the
// mapping of its cumulative sum onto the selected range [lo, hi] (the class
// range, or [min(I(:)) max(I(:))] for 'original'), divided by top; integer
// classes quantize it to the class as grayxform does (floor(top*m + 0.5)).
// Each pixel finds its mapping bin through two grayxform lookups (the value
// normalized over the selected range, then binned: adapthisteq_value_bins),
// and J is the bilinear blend of the four nearest tiles' mappings: in the
// outer half tiles one tile or two, the weights counted in pixels
//   (rw'*(cw'*ul + cw*ur) + rw*(cw'*bl + cw*br)) / (nr*nc),
// rounded half away and saturated for the integer classes. Every backend
// counts the tile histograms, builds the tables here on the host and blends
// with adapthisteq_blend (no fused multiply-add), so integer outputs agree
// exactly.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#include "../intensity.hpp"
#include "ipt/ipt_plugin.hpp"
#include "padarray.hpp"

#if defined(__CUDACC__)
#define IPT_CLAHE_FN __host__ __device__ inline
#else
#define IPT_CLAHE_FN inline
#endif

namespace ipt::frontend {

enum class ClaheDistribution : int32_t { Uniform = 0, Rayleigh = 1, Exponential = 2 };

struct AdapthisteqPlan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = 0;  // of I and J
    int64_t rows = 0, cols = 0;
    int64_t tiles_r = 8, tiles_c = 8;
    int64_t H = 0, W = 0;            // padded size
    int64_t pad_top = 0, pad_left = 0;
    int64_t tile_h = 0, tile_w = 0;  // even
    int64_t nbins = 256;
    int64_t clip = 0;                // counts per bin
    double top = 1;                  // 255, 65535 or 1
    bool original = false;           // 'Range' 'original'
    ClaheDistribution dist = ClaheDistribution::Uniform;
    double alpha = 0.4;
    int32_t out_dtype = 0;
};

inline bool clahe_integer(int32_t dtype) { return dtype == IPT_UINT8 || dtype == IPT_UINT16 || dtype == IPT_INT16; }

// Sizes and classes only (the registry's output check), with MATLAB's checks.
inline AdapthisteqPlan plan_adapthisteq_output(const ipt::plugin::KernelArgs& args) {
    AdapthisteqPlan p;
    p.I = args.image("I");
    p.dtype = p.out_dtype = p.I->dtype;
    p.rows = p.I->rows;
    p.cols = p.I->cols;
    if (p.dtype != IPT_UINT8 && p.dtype != IPT_UINT16 && p.dtype != IPT_INT16 && p.dtype != IPT_SINGLE &&
        p.dtype != IPT_DOUBLE)
        ipt::plugin::invalid("ipt.adapthisteq: I must be uint8, uint16, int16, single or double");
    if (p.I->channels != 1) ipt::plugin::invalid("ipt.adapthisteq: I must be a 2-D grayscale image");
    if (p.rows < 2 || p.cols < 2)
        ipt::plugin::invalid("ipt.adapthisteq: the input image width and height must be at least equal to 2");
    const double* t = args.floats("NumTiles");
    p.tiles_r = static_cast<int64_t>(t[0]);
    p.tiles_c = static_cast<int64_t>(t[1]);
    if (p.rows < p.tiles_r || p.cols < p.tiles_c)
        ipt::plugin::invalid("ipt.adapthisteq: the image I is too small to be split into NumTiles tiles");
    return p;
}

// One side: the padded length, the padding before and the tile side.
inline void clahe_pad_side(int64_t n, int64_t t, int64_t& padded, int64_t& before, int64_t& tile) {
    int64_t pad = 0;
    tile = n / t;
    if (n % t != 0) {
        tile = n / t + 1;
        pad = tile * t - n;
    }
    if (tile % 2 != 0) {
        pad += t;
        tile += 1;
    }
    before = pad / 2;
    padded = n + pad;
}

inline AdapthisteqPlan plan_adapthisteq(const ipt::plugin::KernelArgs& args) {
    AdapthisteqPlan p = plan_adapthisteq_output(args);
    clahe_pad_side(p.rows, p.tiles_r, p.H, p.pad_top, p.tile_h);
    clahe_pad_side(p.cols, p.tiles_c, p.W, p.pad_left, p.tile_w);
    p.nbins = args.integer("NBins");
    p.top = p.dtype == IPT_UINT8 ? 255.0 : (p.dtype == IPT_UINT16 || p.dtype == IPT_INT16) ? 65535.0 : 1.0;
    p.original = args.is("Range", "original");
    p.dist = args.is("Distribution", "rayleigh")      ? ClaheDistribution::Rayleigh
             : args.is("Distribution", "exponential") ? ClaheDistribution::Exponential
                                                      : ClaheDistribution::Uniform;
    // MATLAB refuses an Alpha that the uniform distribution would ignore.
    if (p.dist == ClaheDistribution::Uniform && args.present("Alpha"))
        ipt::plugin::invalid("ipt.adapthisteq: parameter 'Alpha' applies only to Distribution 'rayleigh' or "
                             "'exponential'");
    p.alpha = args.present("Alpha") ? args.number("Alpha") : 0.4;
    const double np = static_cast<double>(p.tile_h * p.tile_w);
    const double min_clip = std::ceil(np / static_cast<double>(p.nbins));
    p.clip = static_cast<int64_t>(min_clip + std::round(args.number("ClipLimit") * (np - min_clip)));
    return p;
}

// The source index into I of padded coordinate y along a side of length n.
IPT_CLAHE_FN int64_t clahe_source(int64_t y, int64_t before, int64_t n) {
    return padarray_source(PadMethod::Symmetric, y - before, n);
}

// Clips a tile's histogram at clip and spreads the excess as MATLAB does:
// first avg = floor(excess/nbins) to every bin that has room for it (bins
// above clip - avg are filled to clip), then one count at a time from bin k
// in steps of max(floor(nbins/excess), 1), k advancing after each sweep.
inline void adapthisteq_clip(std::vector<int64_t>& h, int64_t clip) {
    const int64_t n = static_cast<int64_t>(h.size());
    int64_t excess = 0;
    for (int64_t v : h) excess += std::max<int64_t>(v - clip, 0);
    const int64_t avg = excess / n;
    const int64_t upper = clip - avg;
    for (int64_t k = 0; k < n; ++k) {
        if (h[k] > clip) {
            h[k] = clip;
        } else if (h[k] > upper) {
            excess -= clip - h[k];
            h[k] = clip;
        } else {
            excess -= avg;
            h[k] += avg;
        }
    }
    int64_t k = 0;
    while (excess != 0) {
        const int64_t step = std::max<int64_t>(n / excess, 1);
        for (int64_t m = k; m < n; m += step) {
            if (h[m] < clip) {
                ++h[m];
                if (--excess == 0) break;
            }
        }
        if (++k >= n) k = 0;
    }
}

// The selected range [lo, hi] on the working scale.
struct ClaheRange {
    double lo = 0, hi = 1;
};

// The selected range from I's smallest and largest value on the working
// scale (NaN ignored): MATLAB indexes its floating lookup table with the
// range, so a negative or infinite end (or no number at all) is refused.
inline ClaheRange clahe_range(const AdapthisteqPlan& p, double lo, double hi) {
    if (!p.original) return {0.0, p.top};
    if (!clahe_integer(p.dtype) && !(lo >= 0 && hi < std::numeric_limits<double>::infinity()))
        ipt::plugin::invalid("ipt.adapthisteq: 'Range' 'original' needs finite, nonnegative values in I");
    return {lo, hi};
}

// A tile's mapping (nbins entries) from its clipped histogram, divided by top.
inline std::vector<double> adapthisteq_mapping(const AdapthisteqPlan& p, const std::vector<int64_t>& h,
                                               ClaheRange r) {
    const double np = static_cast<double>(p.tile_h * p.tile_w);
    const double spread = r.hi - r.lo;
    const double one_less = 1.0 - std::numeric_limits<double>::epsilon();
    std::vector<double> m(h.size());
    double sum = 0;
    for (size_t k = 0; k < h.size(); ++k) {
        sum += static_cast<double>(h[k]);
        double v = 0;
        switch (p.dist) {
        case ClaheDistribution::Uniform: v = std::min(r.lo + sum * (spread / np), r.hi); break;
        case ClaheDistribution::Rayleigh: {
            const double hconst = 2 * (p.alpha * p.alpha);
            const double vmax = 1 - std::exp(-1 / hconst);
            double val = vmax * (sum / np);
            if (val >= 1) val = one_less;
            v = std::min(r.lo + std::sqrt(-hconst * std::log(1 - val)) * spread, r.hi);
            break;
        }
        case ClaheDistribution::Exponential: {
            const double vmax = 1 - std::exp(-p.alpha);
            double val = vmax * sum / np;
            if (val >= 1) val = one_less;
            v = std::min(r.lo + (-1 / p.alpha) * std::log(1 - val) * spread, r.hi);
            break;
        }
        }
        m[k] = v / p.top;
    }
    return m;
}

// The value a tile's mapping gives bin k, on the working scale: integer
// classes quantized as grayxform writes its class, single rounded to single.
inline double clahe_table_value(const AdapthisteqPlan& p, double m) {
    if (clahe_integer(p.dtype)) {
        const double v = std::floor(p.top * m + 0.5);
        return std::isnan(v) ? 0.0 : std::min(p.top, std::max(0.0, v));
    }
    if (p.dtype == IPT_SINGLE) return static_cast<double>(static_cast<float>(m));
    return m;
}

// Every tile's table from the tile histograms (tile t = row*tiles_c + col,
// nbins counts each): tiles*nbins values on the working scale.
template <class Count>
std::vector<double> adapthisteq_tables(const AdapthisteqPlan& p, const Count* counts, ClaheRange r) {
    const int64_t tiles = p.tiles_r * p.tiles_c;
    std::vector<double> tab(static_cast<size_t>(tiles * p.nbins));
    std::vector<int64_t> h(static_cast<size_t>(p.nbins));
    for (int64_t t = 0; t < tiles; ++t) {
        for (int64_t k = 0; k < p.nbins; ++k) h[k] = static_cast<int64_t>(counts[t * p.nbins + k]);
        adapthisteq_clip(h, p.clip);
        const std::vector<double> m = adapthisteq_mapping(p, h, r);
        for (int64_t k = 0; k < p.nbins; ++k) tab[t * p.nbins + k] = clahe_table_value(p, m[k]);
    }
    return tab;
}

// grayxform's index into a table of n entries: integer values scale by
// (n-1)/top unless n is the class's count; floating values are clamped to
// [0, 1] (NaN to the first entry) and scale by n-1.
IPT_CLAHE_FN int64_t clahe_grayxform_index(double u, bool integer, double top, int64_t n) {
    if (integer) {
        if (static_cast<double>(n) == top + 1) return static_cast<int64_t>(u);
        const int64_t i = static_cast<int64_t>(u * (static_cast<double>(n - 1) / top) + 0.5);
        return i > n - 1 ? n - 1 : i;
    }
    if (!(u > 0)) return 0;
    if (u >= 1) return n - 1;
    const int64_t i = static_cast<int64_t>(u * static_cast<double>(n - 1) + 0.5);
    return i > n - 1 ? n - 1 : i;
}

// The mapping bin of every first-stage index: MATLAB looks the value up in
// aLut (the value normalized over the selected range: lo..hi to 0..1 for
// integer classes, the NBins-step grid of [lo, hi] for floating classes),
// writes it in I's class and looks that up in the nbins-entry mapping.
// A value u of I finds its bin as bins[clahe_grayxform_index(u, ..., size)].
inline std::vector<int32_t> adapthisteq_value_bins(const AdapthisteqPlan& p, ClaheRange r) {
    const bool integer = clahe_integer(p.dtype);
    std::vector<double> alut;
    if (integer) {
        alut.assign(static_cast<size_t>(r.hi) + 1, 0.0);
        const double spread = r.hi - r.lo;
        for (int64_t k = static_cast<int64_t>(r.lo); k <= static_cast<int64_t>(r.hi); ++k)
            alut[k] = spread > 0 ? (static_cast<double>(k) - r.lo) / spread : 0.0;
    } else {
        const double step = 1.0 / static_cast<double>(p.nbins - 1);
        const int64_t start = static_cast<int64_t>(std::ceil(r.lo / step));
        const int64_t stop = static_cast<int64_t>(std::floor(r.hi / step));
        alut.assign(static_cast<size_t>(std::max<int64_t>(stop + 1, 1)), 0.0);
        const int64_t len = stop - start + 1;
        for (int64_t k = 0; k < len; ++k)
            alut[start + k] = len > 1 ? static_cast<double>(k) * (1.0 / static_cast<double>(len - 1)) : 0.0;
    }
    std::vector<int32_t> bins(alut.size());
    for (size_t k = 0; k < alut.size(); ++k) {
        double v = alut[k];
        if (integer) v = std::min(p.top, std::max(0.0, std::floor(p.top * v + 0.5)));
        else if (p.dtype == IPT_SINGLE) v = static_cast<double>(static_cast<float>(v));
        bins[k] = static_cast<int32_t>(clahe_grayxform_index(v, integer, p.top, p.nbins));
    }
    return bins;
}

// Along one side of the padded image: the two tiles (t0, t1) blended at
// padded coordinate y, the weight w of t1 and the span n (t0 weighs n - w).
IPT_CLAHE_FN void clahe_axis(int64_t y, int64_t tile, int64_t tiles, int64_t len, int64_t& t0, int64_t& t1,
                             int64_t& w, int64_t& n) {
    const int64_t half = tile / 2;
    if (y < half) {
        t0 = t1 = 0;
        w = y;
        n = half;
    } else if (y >= len - half) {
        t0 = t1 = tiles - 1;
        w = y - (len - half);
        n = half;
    } else {
        const int64_t q = y - half;
        t0 = q / tile;
        t1 = t0 + 1;
        w = q % tile;
        n = tile;
    }
}

IPT_CLAHE_FN double clahe_mul(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dmul_rn(a, b);
#else
    return a * b;
#endif
}

IPT_CLAHE_FN double clahe_add(double a, double b) {
#if defined(__CUDA_ARCH__)
    return __dadd_rn(a, b);
#else
    return a + b;
#endif
}

// MATLAB's blend of four table values, in its order of operations.
IPT_CLAHE_FN double adapthisteq_blend(double ul, double ur, double bl, double br, int64_t rw, int64_t rn, int64_t cw,
                                      int64_t cn) {
    const double rW = static_cast<double>(rw), rR = static_cast<double>(rn - rw);
    const double cW = static_cast<double>(cw), cR = static_cast<double>(cn - cw);
    const double up = clahe_add(clahe_mul(cR, ul), clahe_mul(cW, ur));
    const double low = clahe_add(clahe_mul(cR, bl), clahe_mul(cW, br));
    const double sum = clahe_add(clahe_mul(rR, up), clahe_mul(rW, low));
#if defined(__CUDA_ARCH__)
    return __ddiv_rn(sum, static_cast<double>(rn * cn));
#else
    return sum / static_cast<double>(rn * cn);
#endif
}

// The blended value written in J's class: integer classes round half away
// and saturate (int16 back by subtracting 32768).
IPT_CLAHE_FN double clahe_integer_out(double v, double top, bool int16) {
    double r = v + 0.5;
    r = r < 0 ? 0 : (r > top ? top : static_cast<double>(static_cast<int64_t>(r)));
    return int16 ? r - 32768.0 : r;
}

}  // namespace ipt::frontend
