// SPDX-License-Identifier: Apache-2.0
// ipt.entropyfilt as the front-end plans it (common/ops/entropyfilt.hpp):
// each plane converted to its bins (im2uint8, or 0/1 for logical) and padded
// symmetrically once, then a running histogram per output row slides along
// the row (the members of entropy_slide leave and enter per step, whatever
// the nhood), with a bit per occupied bin. Each output subtracts the table
// term of every occupied bin in increasing bin order: the reference's
// doubles in the reference's order. Four rows slide together and share one
// walk over the union of their occupied bins (an empty bin's term is 0, so
// it changes no sum), which keeps four independent subtraction chains in
// flight.
#include <algorithm>
#include <bit>
#include <cstdint>
#include <type_traits>
#include <vector>

#include "class_scaling.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/padding.hpp"
#include "common/parallel.hpp"
#include "common/ops/entropyfilt.hpp"

namespace {

constexpr int kRowsTogether = 4;

struct Geometry {
    int64_t width = 0;                      // of the padded plane
    std::vector<int64_t> all, leave, enter;  // member offsets from a window's top-left in the padded plane
};

Geometry geometry(const ipt::frontend::EntropyfiltPlan& p) {
    Geometry g;
    g.width = p.cols + p.nhood.cols - 1;
    auto offset = [&](const ipt::frontend::NhoodOffset& m, int64_t step) {
        return (m.dr + p.nhood.origin_row) * g.width + m.dc + p.nhood.origin_col + step;
    };
    const ipt::frontend::EntropySlide slide = ipt::frontend::entropy_slide(p.nhood, 0, 1);
    for (const auto& m : p.nhood.members) g.all.push_back(offset(m, 0));
    for (const auto& m : slide.leave) g.leave.push_back(offset(m, 0));
    for (const auto& m : slide.enter) g.enter.push_back(offset(m, 1));
    return g;
}

// The plane's bins padded symmetrically: element (i, j) is the bin at
// (i - origin_row, j - origin_col), so the window of output (r, c) starts at (r, c).
void pad_plane(const uint8_t* bins, uint8_t* padded, const ipt::frontend::EntropyfiltPlan& p, int64_t width) {
    const int64_t height = p.rows + p.nhood.rows - 1;
    std::vector<int64_t> cols(static_cast<size_t>(width));
    for (int64_t j = 0; j < width; ++j)
        cols[static_cast<size_t>(j)] = ipt::cpu::symmetric_index(j - p.nhood.origin_col, p.cols);
    for (int64_t i = 0; i < height; ++i) {
        const uint8_t* src = bins + ipt::cpu::symmetric_index(i - p.nhood.origin_row, p.rows) * p.cols;
        uint8_t* dst = padded + i * width;
        for (int64_t j = 0; j < width; ++j) dst[j] = src[cols[static_cast<size_t>(j)]];
    }
}

void entropy_plane(const uint8_t* padded, double* out, const ipt::frontend::EntropyfiltPlan& p, const Geometry& g,
                   const std::vector<double>& terms) {
    const int64_t groups = (p.rows + kRowsTogether - 1) / kRowsTogether;
    const double* term = terms.data();
    ipt::cpu::parallel_for(0, groups, [&](int64_t group) {
        const int64_t r0 = group * kRowsTogether;
        const int here = static_cast<int>(std::min<int64_t>(kRowsTogether, p.rows - r0));
        // Rows past the image keep empty histograms: they add no bins to the union.
        int32_t hist[kRowsTogether][256] = {};
        uint64_t occupied[kRowsTogether][4] = {};
        // Without branches: whether a bin empties or fills is data, not a pattern.
        auto add = [&](int k, uint8_t b) {
            occupied[k][b >> 6] ^= uint64_t(hist[k][b]++ == 0) << (b & 63);
        };
        auto remove = [&](int k, uint8_t b) {
            occupied[k][b >> 6] ^= uint64_t(--hist[k][b] == 0) << (b & 63);
        };
        for (int k = 0; k < here; ++k) {
            const uint8_t* w = padded + (r0 + k) * g.width;
            for (int64_t o : g.all) add(k, w[o]);
        }
        for (int64_t c = 0;; ++c) {
            double e[kRowsTogether] = {};
            for (int word = 0; word < 4; ++word) {
                uint64_t u = 0;
                for (int k = 0; k < kRowsTogether; ++k) u |= occupied[k][word];
                while (u) {
                    const int b = word * 64 + std::countr_zero(u);
                    u &= u - 1;
                    for (int k = 0; k < kRowsTogether; ++k) e[k] -= term[hist[k][b]];
                }
            }
            for (int k = 0; k < here; ++k) out[(r0 + k) * p.cols + c] = e[k];
            if (c + 1 == p.cols) break;
            for (int k = 0; k < here; ++k) {
                const uint8_t* w = padded + (r0 + k) * g.width + c;
                for (int64_t o : g.leave) remove(k, w[o]);
                for (int64_t o : g.enter) add(k, w[o]);
            }
        }
    });
}

void run_entropyfilt(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::EntropyfiltPlan p = ipt::frontend::plan_entropyfilt(args);
    const ipt_tensor* in = args.image("I");
    const ipt_tensor* j = args.output("J", IPT_DOUBLE, p.rows, p.cols, p.channels);
    if (p.rows == 0 || p.cols == 0) return;
    const int64_t plane = p.rows * p.cols;
    auto* out = static_cast<double*>(j->data);
    if (p.count == 0) {  // no members: an empty sum
        std::fill(out, out + plane * p.channels, 0.0);
        return;
    }
    const Geometry g = geometry(p);
    const std::vector<double> terms = ipt::frontend::entropy_terms(p.count);
    std::vector<uint8_t> bins(static_cast<size_t>(plane));
    std::vector<uint8_t> padded(static_cast<size_t>((p.rows + p.nhood.rows - 1) * g.width));
    ipt::cpu::visit_dtype(p.in_dtype, [&](auto tag) {
        using T = decltype(tag);
        if constexpr (!std::is_same_v<T, int32_t> && !std::is_same_v<T, uint32_t>)  // refused by the front-end
            for (int64_t ch = 0; ch < p.channels; ++ch) {
                const T* src = static_cast<const T*>(in->data) + ch * plane;
                for (int64_t i = 0; i < plane; ++i) {
                    if constexpr (std::is_same_v<T, bool>)
                        bins[static_cast<size_t>(i)] = src[i] ? 1 : 0;
                    else
                        bins[static_cast<size_t>(i)] = ipt::common::to_uint8_scale(src[i]);
                }
                pad_plane(bins.data(), padded.data(), p, g.width);
                entropy_plane(padded.data(), out + ch * plane, p, g, terms);
            }
    });
}

}  // namespace

IPT_CPU_OP("ipt.entropyfilt", "", 100, run_entropyfilt)
