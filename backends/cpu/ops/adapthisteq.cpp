// ipt.adapthisteq as the front-end plans it (common/ops/adapthisteq.hpp):
// each tile's histogram over the symmetrically padded image, the clipped
// tables on the host, then every pixel of I blended from its four nearest
// tiles' tables.
#include <algorithm>
#include <cmath>
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
    auto at = [&](int64_t y, int64_t x) {  // padded coordinates
        return in[clahe_source(y, p.pad_top, p.rows) * cols + clahe_source(x, p.pad_left, cols)];
    };
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
    ipt::cpu::parallel_for(0, tiles, [&](int64_t t) {
        const int64_t tr = t / p.tiles_c, tc = t % p.tiles_c;
        uint64_t* h = counts.data() + t * p.nbins;
        for (int64_t y = tr * p.tile_h; y < (tr + 1) * p.tile_h; ++y)
            for (int64_t x = tc * p.tile_w; x < (tc + 1) * p.tile_w; ++x)
                ++h[ipt::common::histogram_bin(at(y, x), p.nbins)];
    }, 1);
    const std::vector<double> tab = adapthisteq_tables(p, counts.data(), range);
    const std::vector<int32_t> bins = adapthisteq_value_bins(p, range);
    const int64_t nb = static_cast<int64_t>(bins.size());
    const bool integer = clahe_integer(p.dtype);
    T* out = static_cast<T*>(J->data);
    ipt::cpu::parallel_for(0, p.rows, [&](int64_t r) {
        int64_t r0, r1, rw, rn;
        clahe_axis(r + p.pad_top, p.tile_h, p.tiles_r, p.H, r0, r1, rw, rn);
        for (int64_t c = 0; c < cols; ++c) {
            int64_t c0, c1, cw, cn;
            clahe_axis(c + p.pad_left, p.tile_w, p.tiles_c, p.W, c0, c1, cw, cn);
            const int64_t b = bins[clahe_grayxform_index(working(in[r * cols + c]), integer, p.top, nb)];
            const double v = adapthisteq_blend(tab[(r0 * p.tiles_c + c0) * p.nbins + b],
                                               tab[(r0 * p.tiles_c + c1) * p.nbins + b],
                                               tab[(r1 * p.tiles_c + c0) * p.nbins + b],
                                               tab[(r1 * p.tiles_c + c1) * p.nbins + b], rw, rn, cw, cn);
            if constexpr (std::is_floating_point_v<T>)
                out[r * cols + c] = static_cast<T>(v);
            else
                out[r * cols + c] = static_cast<T>(clahe_integer_out(v, p.top, std::is_same_v<T, int16_t>));
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
