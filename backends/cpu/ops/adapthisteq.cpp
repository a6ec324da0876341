// ipt.adapthisteq as the front-end plans it (common/ops/adapthisteq.hpp):
// each tile's histogram over the symmetrically padded image, the clipped
// tables on the host, then every pixel of I blended from its four nearest
// tiles' tables (each column's tiles and weights found once, and the mapping
// bin of each value of an 8- or 16-bit class once, for large images).
#include <algorithm>
#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/adapthisteq.hpp"
#include "common/parallel.hpp"

namespace {

using namespace ipt::frontend;

// A value of I on the working scale (int16 moved to uint16's).
template <class T>
double working(T v) {
    if constexpr (std::is_same_v<T, int16_t>) return static_cast<double>(v) + 32768.0;
    else return static_cast<double>(v);
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
    ipt::cpu::parallel_for(0, tiles, [&](int64_t t) {
        const int64_t tr = t / p.tiles_c, tc = t % p.tiles_c;
        uint64_t* h = counts.data() + t * p.nbins;
        const int64_t* xs = xsrc.data() + tc * p.tile_w;
        for (int64_t y = tr * p.tile_h; y < (tr + 1) * p.tile_h; ++y) {
            const T* row = in + clahe_source(y, p.pad_top, p.rows) * cols;
            for (int64_t x = 0; x < p.tile_w; ++x) ++h[ipt::common::histogram_bin(row[xs[x]], p.nbins)];
        }
    }, 1);
    const std::vector<double> tab = adapthisteq_tables(p, counts.data(), range);
    const std::vector<int32_t> bins = adapthisteq_value_bins(p, range);
    const int64_t nb = static_cast<int64_t>(bins.size());
    const bool integer = clahe_integer(p.dtype);
    T* out = static_cast<T*>(J->data);
    // Each column's pair of tiles and weights, once.
    struct Axis {
        int64_t t0, t1, w, n;
    };
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
        if (p.rows * cols >= 4 * count) {
            value_bin.resize(static_cast<size_t>(count));
            for (int64_t v = 0; v < count; ++v) value_bin[static_cast<size_t>(v)] = bin_of(static_cast<T>(v + lowest));
        }
    }
    ipt::cpu::parallel_for(0, p.rows, [&](int64_t r) {
        int64_t r0, r1, rw, rn;
        clahe_axis(r + p.pad_top, p.tile_h, p.tiles_r, p.H, r0, r1, rw, rn);
        const double* upper = tab.data() + r0 * p.tiles_c * p.nbins;
        const double* lower = tab.data() + r1 * p.tiles_c * p.nbins;
        const T* src = in + r * cols;
        T* dst = out + r * cols;
        for (int64_t c = 0; c < cols; ++c) {
            const Axis& a = col_axis[static_cast<size_t>(c)];
            int64_t b;
            if constexpr (small_class) {
                b = value_bin.empty() ? bin_of(src[c])
                                      : value_bin[static_cast<size_t>(int64_t{src[c]} - std::numeric_limits<T>::min())];
            } else {
                b = bin_of(src[c]);
            }
            const double v = adapthisteq_blend(upper[a.t0 * p.nbins + b], upper[a.t1 * p.nbins + b],
                                               lower[a.t0 * p.nbins + b], lower[a.t1 * p.nbins + b], rw, rn, a.w, a.n);
            if constexpr (std::is_floating_point_v<T>)
                dst[c] = static_cast<T>(v);
            else
                dst[c] = static_cast<T>(clahe_integer_out(v, p.top, std::is_same_v<T, int16_t>));
        }
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
