// SPDX-License-Identifier: Apache-2.0
// ipt.adapthisteq as the front-end plans it (common/ops/adapthisteq.hpp):
// each tile's histogram over the symmetrically padded image, the clipped
// tables on the host, then every pixel of I blended from its four nearest
// tiles' tables (each column's tiles and weights found once, and the mapping
// bin of each value of an 8- or 16-bit class once, for large images).
// uint8 blends eight pixels at a time in integers (see blend_u8_avx2).
#include <algorithm>
#include <cmath>
#include <cstring>
#include <exception>
#include <limits>
#include <type_traits>
#include <vector>

#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "common/image.hpp"
#include "common/isa.hpp"
#include "common/op_registry.hpp"
#include "common/ops/adapthisteq.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"

namespace {

using namespace ipt::frontend;

// A value of I on the working scale (int16 moved to uint16's).
template <class T>
double working(T v) {
    if constexpr (std::is_same_v<T, int16_t>) return static_cast<double>(v) + 32768.0;
    else return static_cast<double>(v);
}

// uint8 counts as count_run does with four lanes, eight values per load.
template <class BinOf>
void count_run_u8(const uint8_t* data, int64_t n, int64_t nbins, const BinOf& bin_of, uint32_t* sub) {
    uint32_t *s0 = sub, *s1 = sub + nbins, *s2 = sub + 2 * nbins, *s3 = sub + 3 * nbins;
    int64_t i = 0;
    for (; i + 8 <= n; i += 8) {
        uint64_t w;
        std::memcpy(&w, data + i, 8);
        ++s0[bin_of(static_cast<uint8_t>(w))];
        ++s1[bin_of(static_cast<uint8_t>(w >> 8))];
        ++s2[bin_of(static_cast<uint8_t>(w >> 16))];
        ++s3[bin_of(static_cast<uint8_t>(w >> 24))];
        ++s0[bin_of(static_cast<uint8_t>(w >> 32))];
        ++s1[bin_of(static_cast<uint8_t>(w >> 40))];
        ++s2[bin_of(static_cast<uint8_t>(w >> 48))];
        ++s3[bin_of(static_cast<uint8_t>(w >> 56))];
    }
    for (; i < n; ++i) ++s0[bin_of(data[i])];
}

// Counts n values into `lanes` interleaved sub-histograms (value i into
// sub-histogram i % lanes), so that runs of equal values do not wait on the
// store of the previous count.
template <int lanes, class T, class BinOf>
void count_run(const T* data, int64_t n, int64_t nbins, const BinOf& bin_of, uint32_t* sub) {
    int64_t i = 0;
    for (; i + lanes <= n; i += lanes)
        for (int l = 0; l < lanes; ++l) ++sub[l * nbins + bin_of(data[i + l])];
    for (int l = 0; i < n; ++i, ++l) ++sub[l * nbins + bin_of(data[i])];
}

// Every tile's histogram over the padded image: tile t (row-major) counted
// into counts[t * nbins ...]. A tile row whose columns all lie inside I is
// read in place; only the padded border goes through xsrc.
template <class T, class BinOf>
void count_tiles(const AdapthisteqPlan& p, const T* in, const std::vector<int64_t>& xsrc, const BinOf& bin_of,
                 uint64_t* counts) {
    constexpr int kLanes = 4;
    const int64_t tiles = p.tiles_r * p.tiles_c, nbins = p.nbins;
    // Sub-histograms pay while they stay in the first-level cache; a tile's
    // counts must fit in 32 bits.
    const bool lanes = nbins <= 1024 && p.tile_h * p.tile_w < (int64_t{1} << 32);
    const int64_t blocks = std::min<int64_t>(tiles, int64_t{ipt::cpu::thread_count()} * 8);
    // Allocated before the parallel region: nothing may throw inside it.
    std::vector<uint32_t> sub(lanes ? static_cast<size_t>(blocks * kLanes * nbins) : 0);
    ipt::cpu::parallel_for(0, blocks, [&](int64_t blk) {
        uint32_t* s = lanes ? sub.data() + blk * kLanes * nbins : nullptr;
        for (int64_t t = tiles * blk / blocks; t < tiles * (blk + 1) / blocks; ++t) {
            const int64_t tr = t / p.tiles_c, tc = t % p.tiles_c;
            uint64_t* h = counts + t * nbins;
            const int64_t x0 = tc * p.tile_w - p.pad_left;
            const bool inside = x0 >= 0 && x0 + p.tile_w <= p.cols;
            const int64_t* xs = xsrc.data() + tc * p.tile_w;
            if (lanes) std::fill(s, s + kLanes * nbins, 0u);
            for (int64_t y = tr * p.tile_h; y < (tr + 1) * p.tile_h; ++y) {
                const T* row = in + clahe_source(y, p.pad_top, p.rows) * p.cols;
                if (inside && lanes) {
                    if constexpr (std::is_same_v<T, uint8_t>) count_run_u8(row + x0, p.tile_w, nbins, bin_of, s);
                    else count_run<kLanes>(row + x0, p.tile_w, nbins, bin_of, s);
                } else if (lanes) {
                    for (int64_t x = 0; x < p.tile_w; ++x) ++s[(x % kLanes) * nbins + bin_of(row[xs[x]])];
                } else {
                    for (int64_t x = 0; x < p.tile_w; ++x) ++h[bin_of(row[xs[x]])];
                }
            }
            if (lanes)
                for (int l = 0; l < kLanes; ++l)
                    for (int64_t k = 0; k < nbins; ++k) h[k] += s[l * nbins + k];
        }
    }, 1);
}

// One side's pair of tiles (t0, t1), the weight w of t1 and the span n at a
// column (clahe_axis).
struct Axis {
    int64_t t0, t1, w, n;
};

// The uint8 blend in integers. Table values are integers in [0, 255] and
// the weights integers, so every product and sum of adapthisteq_blend is an
// exact integer below 2^31 (the tile checks in u8_fast): its sum S equals
//   cR*(rR*ul + rW*bl) + cW*(rR*ur + rW*br)
// in any order, and only S / (rn*cn) + 0.5 is left in double, as there.
bool u8_fast(const AdapthisteqPlan& p) {
#if defined(IPT_CPU_HAVE_MULTIVERSION)
    if (ipt::cpu::isa_level() < 1) return false;
    // int16 row weights; S < 2^31; the quad tables no larger than I.
    return p.tile_h <= 32767 && p.tile_w <= 32767 && 255 * p.tile_h * p.tile_w < (int64_t{1} << 31) &&
           (p.tiles_r + 1) * (p.tiles_c + 1) * 256 <= p.rows * p.cols;
#else
    (void)p;
    return false;
#endif
}

#if defined(IPT_CPU_HAVE_MULTIVERSION)
// Columns [c0, c1) of one row, all of one column pair of tiles with span cn:
// eight pixels at a time, the rest left to the caller.
__attribute__((target("avx2"))) int64_t blend_u8_avx2(const uint8_t* src, uint8_t* dst, int64_t c0, int64_t c1,
                                                      const uint64_t* quad, const int32_t* colw, int64_t rw,
                                                      int64_t rn, int64_t cn) {
    const __m256i roww = _mm256_set1_epi32(static_cast<int32_t>((rn - rw) | (rw << 16)));
    const __m256d span = _mm256_set1_pd(static_cast<double>(rn * cn));
    const __m256d half = _mm256_set1_pd(0.5), top = _mm256_set1_pd(255.0);
    const auto* q = reinterpret_cast<const long long*>(quad);
    int64_t c = c0;
    for (; c + 8 <= c1; c += 8) {
        // Scalar loads: gathers measured several times slower here.
        const uint8_t* x = src + c;
        const __m256i g0 = _mm256_setr_epi64x(q[x[0]], q[x[1]], q[x[2]], q[x[3]]);
        const __m256i g1 = _mm256_setr_epi64x(q[x[4]], q[x[5]], q[x[6]], q[x[7]]);
        // (rR*ul + rW*bl, rR*ur + rW*br) per pixel, times (cR, cW).
        const __m256i p0 = _mm256_mullo_epi32(_mm256_madd_epi16(g0, roww),
                                              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(colw + 2 * c)));
        const __m256i p1 = _mm256_mullo_epi32(_mm256_madd_epi16(g1, roww),
                                              _mm256_loadu_si256(reinterpret_cast<const __m256i*>(colw + 2 * c + 8)));
        const __m256i s = _mm256_permute4x64_epi64(_mm256_hadd_epi32(p0, p1), 0xD8);
        // adapthisteq_blend's division and clahe_integer_out (S >= 0, so
        // only the top saturates).
        const __m256d lo = _mm256_min_pd(
            _mm256_add_pd(_mm256_div_pd(_mm256_cvtepi32_pd(_mm256_castsi256_si128(s)), span), half), top);
        const __m256d hi = _mm256_min_pd(
            _mm256_add_pd(_mm256_div_pd(_mm256_cvtepi32_pd(_mm256_extracti128_si256(s, 1)), span), half), top);
        const __m128i w = _mm_packus_epi32(_mm256_cvttpd_epi32(lo), _mm256_cvttpd_epi32(hi));
        _mm_storel_epi64(reinterpret_cast<__m128i*>(dst + c), _mm_packus_epi16(w, w));
    }
    return c;
}
#endif

// The uint8 blend: the four table values of every value of I gathered in
// one 64-bit word (ul | bl << 16 | ur << 32 | br << 48) per row pair and
// column pair of tiles, then eight pixels at a time; the columns left over
// at the end of each run of one column pair go through `pixel`.
template <class Pixel>
void equalize_u8_fast(const AdapthisteqPlan& p, const uint8_t* in, uint8_t* out, const std::vector<double>& tab,
                      const std::vector<int32_t>& value_bin, const std::vector<Axis>& col_axis, const Pixel& pixel) {
    const int64_t cols = p.cols, nbins = p.nbins;
    struct Run {
        int64_t c0, c1, slot, n;
    };
    std::vector<Run> runs;
    std::vector<int32_t> seg_of(static_cast<size_t>(2 * p.tiles_c), -1);
    std::vector<int64_t> seg_t0;
    std::vector<int32_t> colw(static_cast<size_t>(2 * cols));
    for (int64_t c = 0; c < cols; ++c) {
        const Axis& a = col_axis[static_cast<size_t>(c)];
        int32_t& slot = seg_of[static_cast<size_t>(2 * a.t0 + (a.t1 - a.t0))];
        if (slot < 0) {
            slot = static_cast<int32_t>(seg_t0.size());
            seg_t0.push_back(a.t0);
        }
        if (runs.empty() || runs.back().slot != slot) runs.push_back({c, c + 1, slot, a.n});
        else runs.back().c1 = c + 1;
        colw[static_cast<size_t>(2 * c)] = static_cast<int32_t>(a.n - a.w);
        colw[static_cast<size_t>(2 * c + 1)] = static_cast<int32_t>(a.w);
    }
    std::vector<int32_t> band_of(static_cast<size_t>(2 * p.tiles_r), -1);
    std::vector<int64_t> band_r0;
    for (int64_t r = 0; r < p.rows; ++r) {
        int64_t r0, r1, rw, rn;
        clahe_axis(r + p.pad_top, p.tile_h, p.tiles_r, p.H, r0, r1, rw, rn);
        int32_t& slot = band_of[static_cast<size_t>(2 * r0 + (r1 - r0))];
        if (slot < 0) {
            slot = static_cast<int32_t>(band_r0.size());
            band_r0.push_back(r0);
        }
    }
    // Pairs are (k, k) or (k, k + 1): the slot's key gives the second tile.
    std::vector<int64_t> seg_t1(seg_t0.size()), band_r1(band_r0.size());
    for (size_t k = 0; k < seg_of.size(); ++k)
        if (seg_of[k] >= 0) seg_t1[static_cast<size_t>(seg_of[k])] = static_cast<int64_t>(k / 2 + k % 2);
    for (size_t k = 0; k < band_of.size(); ++k)
        if (band_of[k] >= 0) band_r1[static_cast<size_t>(band_of[k])] = static_cast<int64_t>(k / 2 + k % 2);
    const int64_t segs = static_cast<int64_t>(seg_t0.size()), bands = static_cast<int64_t>(band_r0.size());
    std::vector<uint64_t> quad(static_cast<size_t>(bands * segs * 256));
    ipt::cpu::parallel_for(0, bands, [&](int64_t b) {
        const double* upper = tab.data() + band_r0[static_cast<size_t>(b)] * p.tiles_c * nbins;
        const double* lower = tab.data() + band_r1[static_cast<size_t>(b)] * p.tiles_c * nbins;
        for (int64_t s = 0; s < segs; ++s) {
            const int64_t t0 = seg_t0[static_cast<size_t>(s)] * nbins, t1 = seg_t1[static_cast<size_t>(s)] * nbins;
            uint64_t* q = quad.data() + (b * segs + s) * 256;
            for (int64_t v = 0; v < 256; ++v) {
                const int64_t k = value_bin[static_cast<size_t>(v)];
                q[v] = static_cast<uint64_t>(upper[t0 + k]) | static_cast<uint64_t>(lower[t0 + k]) << 16 |
                       static_cast<uint64_t>(upper[t1 + k]) << 32 | static_cast<uint64_t>(lower[t1 + k]) << 48;
            }
        }
    }, 1);
    ipt::cpu::parallel_for(0, p.rows, [&](int64_t r) {
        int64_t r0, r1, rw, rn;
        clahe_axis(r + p.pad_top, p.tile_h, p.tiles_r, p.H, r0, r1, rw, rn);
        const double* upper = tab.data() + r0 * p.tiles_c * nbins;
        const double* lower = tab.data() + r1 * p.tiles_c * nbins;
        const int64_t band = band_of[static_cast<size_t>(2 * r0 + (r1 - r0))];
        const uint8_t* src = in + r * cols;
        uint8_t* dst = out + r * cols;
        for (const Run& run : runs) {
            int64_t c = run.c0;
#if defined(IPT_CPU_HAVE_MULTIVERSION)
            c = blend_u8_avx2(src, dst, run.c0, run.c1, quad.data() + (band * segs + run.slot) * 256, colw.data(), rw,
                              rn, run.n);
#endif
            for (; c < run.c1; ++c) dst[c] = pixel(upper, lower, rw, rn, src[c], c);
        }
    }, 1);
}

template <class T>
void equalize(const AdapthisteqPlan& p, const ipt_tensor* J) {
    const T* in = static_cast<const T*>(p.I->data);
    const int64_t cols = p.cols;
    double lo = std::numeric_limits<double>::infinity(), hi = -lo;
    if (p.original)
        for (int64_t i = 0; i < p.rows * p.cols; ++i) {
            const double v = working(in[i]);
            if (std::isnan(v)) continue;
            lo = std::min(lo, v);
            hi = std::max(hi, v);
        }
    const ClaheRange range = clahe_range(p, lo, hi);
    const int64_t tiles = p.tiles_r * p.tiles_c;
    std::vector<uint64_t> counts(static_cast<size_t>(tiles * p.nbins), 0);
    // The source column of every padded column, once.
    const int64_t wide = p.tiles_c * p.tile_w;
    std::vector<int64_t> xsrc(static_cast<size_t>(wide));
    for (int64_t x = 0; x < wide; ++x) xsrc[static_cast<size_t>(x)] = clahe_source(x, p.pad_left, cols);
    if constexpr (std::is_same_v<T, uint8_t>) {
        if (p.nbins == 256) {
            count_tiles(p, in, xsrc, [](uint8_t v) { return static_cast<int64_t>(v); }, counts.data());
        } else {
            std::vector<int32_t> hbin(256);
            for (int v = 0; v < 256; ++v)
                hbin[static_cast<size_t>(v)] =
                    static_cast<int32_t>(ipt::common::histogram_bin(static_cast<uint8_t>(v), p.nbins));
            const int32_t* hb = hbin.data();
            count_tiles(p, in, xsrc, [hb](uint8_t v) { return static_cast<int64_t>(hb[v]); }, counts.data());
        }
    } else {
        const int64_t nbins = p.nbins;
        count_tiles(p, in, xsrc, [nbins](T v) { return ipt::common::histogram_bin(v, nbins); }, counts.data());
    }
    // The tables one row of tiles at a time on several threads (each tile's
    // table depends only on its own counts).
    std::vector<double> tab(static_cast<size_t>(tiles * p.nbins));
    {
        AdapthisteqPlan one_row = p;
        one_row.tiles_r = 1;
        const int64_t row_size = p.tiles_c * p.nbins;
        std::vector<std::exception_ptr> failed(static_cast<size_t>(p.tiles_r));
        ipt::cpu::parallel_for(0, p.tiles_r, [&](int64_t tr) {
            try {
                const std::vector<double> t = adapthisteq_tables(one_row, counts.data() + tr * row_size, range);
                std::copy(t.begin(), t.end(), tab.begin() + tr * row_size);
            } catch (...) {
                failed[static_cast<size_t>(tr)] = std::current_exception();
            }
        }, 1);
        for (const std::exception_ptr& e : failed)
            if (e) std::rethrow_exception(e);
    }
    const std::vector<int32_t> bins = adapthisteq_value_bins(p, range);
    const int64_t nb = static_cast<int64_t>(bins.size());
    const bool integer = clahe_integer(p.dtype);
    T* out = static_cast<T*>(J->data);
    // Each column's pair of tiles and weights, once.
    std::vector<Axis> col_axis(static_cast<size_t>(cols));
    for (int64_t c = 0; c < cols; ++c) {
        Axis& a = col_axis[static_cast<size_t>(c)];
        clahe_axis(c + p.pad_left, p.tile_w, p.tiles_c, p.W, a.t0, a.t1, a.w, a.n);
    }
    // The mapping bin of every value of an 8- or 16-bit class, when the image
    // is large enough to pay for the table.
    auto bin_of = [&](T v) { return bins[clahe_grayxform_index(working(v), integer, p.top, nb)]; };
    std::vector<int32_t> value_bin;
    constexpr bool small_class = sizeof(T) <= 2 && std::is_integral_v<T>;
    if constexpr (small_class) {
        constexpr int64_t lowest = std::numeric_limits<T>::min(), count = int64_t{std::numeric_limits<T>::max()} - lowest + 1;
        if (p.rows * cols >= 4 * count || std::is_same_v<T, uint8_t>) {
            value_bin.resize(static_cast<size_t>(count));
            for (int64_t v = 0; v < count; ++v) value_bin[static_cast<size_t>(v)] = bin_of(static_cast<T>(v + lowest));
        }
    }
    // One pixel as adapthisteq_blend and clahe_integer_out write it.
    auto pixel = [&](const double* upper, const double* lower, int64_t rw, int64_t rn, T x, int64_t c) -> T {
        const Axis& a = col_axis[static_cast<size_t>(c)];
        int64_t b;
        if constexpr (small_class) {
            b = value_bin.empty() ? bin_of(x) : value_bin[static_cast<size_t>(int64_t{x} - std::numeric_limits<T>::min())];
        } else {
            b = bin_of(x);
        }
        const double v = adapthisteq_blend(upper[a.t0 * p.nbins + b], upper[a.t1 * p.nbins + b],
                                           lower[a.t0 * p.nbins + b], lower[a.t1 * p.nbins + b], rw, rn, a.w, a.n);
        if constexpr (std::is_floating_point_v<T>)
            return static_cast<T>(v);
        else
            return static_cast<T>(clahe_integer_out(v, p.top, std::is_same_v<T, int16_t>));
    };
    if constexpr (std::is_same_v<T, uint8_t>) {
        if (u8_fast(p)) {
            equalize_u8_fast(p, in, out, tab, value_bin, col_axis, pixel);
            return;
        }
    }
    ipt::cpu::parallel_for(0, p.rows, [&](int64_t r) {
        int64_t r0, r1, rw, rn;
        clahe_axis(r + p.pad_top, p.tile_h, p.tiles_r, p.H, r0, r1, rw, rn);
        const double* upper = tab.data() + r0 * p.tiles_c * p.nbins;
        const double* lower = tab.data() + r1 * p.tiles_c * p.nbins;
        const T* src = in + r * cols;
        T* dst = out + r * cols;
        for (int64_t c = 0; c < cols; ++c) dst[c] = pixel(upper, lower, rw, rn, src[c], c);
    }, 1);
}

void run_adapthisteq(const ipt::plugin::KernelArgs& args) {
    const AdapthisteqPlan plan = plan_adapthisteq(args);
    const ipt_tensor* J = args.output("J", plan.out_dtype, plan.rows, plan.cols, 1);
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using C = decltype(tag);
        if constexpr (std::is_same_v<C, uint8_t> || std::is_same_v<C, uint16_t> || std::is_same_v<C, int16_t> ||
                      std::is_floating_point_v<C>)
            equalize<C>(plan, J);
        else
            ipt::plugin::unsupported("ipt.adapthisteq: class not handled");
    });
}

}  // namespace

IPT_CPU_OP("ipt.adapthisteq", "", 100, run_adapthisteq)
