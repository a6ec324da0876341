// SPDX-License-Identifier: Apache-2.0
// ipt.dither's front-end: MATLAB's ditherc (docs/matlab-semantics.md#dither).
//
//   BW = dither(I): I grayscale, the colormap [0 0 0; 1 1 1] with I in all
//        three channels, Qm = 5, Qe = 8; BW is logical.
//   X = dither(RGB, map, Qm, Qe): zero-based indices into map, uint8 for up
//        to 256 colours, uint16 above.
//
// With L = 2^max(Qm,Qe): the colormap is quantised to mapq = floor(map*(L-1)
// + 0.5); a pixel's uint8 value v (im2uint8) becomes the level
// floor(v*(L-1)/255 + 0.5). The scan is column-major (down each column,
// columns left to right). At each pixel the accumulated levels are clamped to
// [0, L-1], the colour is that of the inverse-colormap cell holding them
// (cells 2^(max(Qm,Qe)-Qm) wide, 2^Qm per axis, each the colormap entry
// nearest to its centre, ties to the lowest index), and the error (clamped
// level - mapq of the colour) is spread as integers: 7/16 to (r+1, c), 5/16
// to (r, c+1), 3/16 to (r-1, c+1), 1/16 to (r+1, c+1), inside the image only,
// each share sign(e) * floor((floor(L/32) + n|e|) / 16).
//
// The plan carries the quantised colormap, the gray threshold and, for RGB
// images with Qm <= kDitherTableMaxQm, the whole inverse colormap, built
// here on the host. The schema already checks the classes of I and map,
// map's n x 3 shape and Qm, Qe in 1..16.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

// Up to 2^18 cells (512 KiB of uint16) the inverse colormap is tabled.
constexpr int kDitherTableMaxQm = 6;

struct DitherPlan {
    int64_t rows = 0, cols = 0;
    bool gray = true;                 // no map: one channel in, logical out
    int channels = 1;                 // of I: 1 (gray) or 3 (RGB)
    int32_t out_dtype = IPT_LOGICAL;  // logical; uint8 up to 256 colours, else uint16
    int qm = 5, qe = 8;
    int shift = 3;                    // max(Qm,Qe) - Qm: a level's cell is level >> shift
    int32_t top = 255;                // L - 1
    int32_t bias = 8;                 // floor(L/32)
    std::vector<int32_t> mapq;        // n x 3; [0 0 0; top top top] for gray
    int32_t white_from = 128;         // gray: the first clamped level whose colour is white
    // RGB with Qm <= kDitherTableMaxQm: colour of cell (ir, ig, ib) at
    // ((ir << Qm) | ig) << Qm | ib; empty otherwise (search with
    // dither_nearest_colour).
    std::vector<uint16_t> inverse;

    int64_t colours() const { return static_cast<int64_t>(mapq.size() / 3); }
};

// ---- the pixel rules every backend computes -------------------------------

// A uint8 value on the error scale: floor(v*(L-1)/255 + 0.5), in integers.
inline int32_t dither_level(int32_t v8, int32_t top) {
    const int64_t a = int64_t(v8) * top;
    return static_cast<int32_t>((2 * a + 255) / 510);
}

// Share n/16 of an error: sign(e) * floor((floor(L/32) + n*|e|) / 16); 0 for
// e = 0 even when floor(L/32) >= 16.
inline int32_t dither_share(int32_t e, int32_t n, int32_t bias) {
    return e > 0 ? (bias + n * e) >> 4 : (e < 0 ? -((bias - n * e) >> 4) : 0);
}

// The colour of inverse-colormap cell (ir, ig, ib): the colormap entry
// nearest to the cell's centre i*w + floor(w/2), w = 2^shift; ties to the
// lowest index.
inline int32_t dither_nearest_colour(const std::vector<int32_t>& mapq, int shift, int64_t ir, int64_t ig,
                                     int64_t ib) {
    const int64_t w = int64_t(1) << shift, half = w / 2;
    const int64_t cr = ir * w + half, cg = ig * w + half, cb = ib * w + half;
    const int64_t n = static_cast<int64_t>(mapq.size() / 3);
    int32_t best = 0;
    int64_t best_d = -1;
    for (int64_t k = 0; k < n; ++k) {
        const int64_t dr = cr - mapq[3 * k], dg = cg - mapq[3 * k + 1], db = cb - mapq[3 * k + 2];
        const int64_t d = dr * dr + dg * dg + db * db;
        if (best_d < 0 || d < best_d) {  // strict: ties keep the lowest index
            best_d = d;
            best = static_cast<int32_t>(k);
        }
    }
    return best;
}

namespace dither_detail {

// Nearest-colour search over a k-d tree of the distinct colours: each node
// keeps its colours' bounding box, and a query skips a node whose box is
// farther than the best colour found (a node exactly as far is still
// searched, for the lower index of a tie). Exact, and for clustered or large
// colormaps far cheaper than a scan of every colour per cell.
class ColourTree {
public:
    ColourTree(const std::vector<int32_t>& mapq, std::vector<int32_t> colours)
        : mapq_(mapq), colours_(std::move(colours)) {
        nodes_.reserve(2 * colours_.size() / kLeaf + 2);
        build(0, colours_.size());
    }

    // Lowest index among the colours nearest to c. `hint` (a colour near c,
    // such as the neighbouring cell's) gives the search a bound to start with.
    int32_t nearest(const int64_t c[3], int32_t hint) const {
        int64_t best_d = distance(hint, c);
        int32_t best = hint;
        search(0, c, best_d, best);
        return best;
    }

private:
    static constexpr size_t kLeaf = 8;
    struct Node {
        size_t begin, end;
        int32_t lo[3], hi[3];
        int64_t left = -1, right = -1;  // children, -1 for a leaf
    };

    int64_t build(size_t begin, size_t end) {
        const int64_t id = static_cast<int64_t>(nodes_.size());
        nodes_.push_back(Node{begin, end, {0, 0, 0}, {0, 0, 0}});
        Node box = nodes_.back();
        for (int a = 0; a < 3; ++a) {
            box.lo[a] = box.hi[a] = mapq_[3 * colours_[begin] + a];
            for (size_t i = begin; i < end; ++i) {
                box.lo[a] = std::min(box.lo[a], mapq_[3 * colours_[i] + a]);
                box.hi[a] = std::max(box.hi[a], mapq_[3 * colours_[i] + a]);
            }
        }
        if (end - begin > kLeaf) {
            int axis = 0;
            for (int a = 1; a < 3; ++a)
                if (box.hi[a] - box.lo[a] > box.hi[axis] - box.lo[axis]) axis = a;
            const size_t mid = begin + (end - begin) / 2;
            std::nth_element(colours_.begin() + static_cast<std::ptrdiff_t>(begin),
                             colours_.begin() + static_cast<std::ptrdiff_t>(mid),
                             colours_.begin() + static_cast<std::ptrdiff_t>(end),
                             [&](int32_t x, int32_t y) { return mapq_[3 * x + axis] < mapq_[3 * y + axis]; });
            box.left = build(begin, mid);
            box.right = build(mid, end);
        }
        nodes_[static_cast<size_t>(id)] = box;
        return id;
    }

    int64_t distance(int32_t k, const int64_t c[3]) const {
        int64_t d = 0;
        for (int a = 0; a < 3; ++a) d += (c[a] - mapq_[3 * k + a]) * (c[a] - mapq_[3 * k + a]);
        return d;
    }

    int64_t box_distance(const Node& n, const int64_t c[3]) const {
        int64_t d = 0;
        for (int a = 0; a < 3; ++a) {
            const int64_t g = c[a] < n.lo[a] ? n.lo[a] - c[a] : (c[a] > n.hi[a] ? c[a] - n.hi[a] : 0);
            d += g * g;
        }
        return d;
    }

    void search(int64_t id, const int64_t c[3], int64_t& best_d, int32_t& best) const {
        const Node& n = nodes_[static_cast<size_t>(id)];
        if (box_distance(n, c) > best_d) return;
        if (n.left < 0) {
            for (size_t i = n.begin; i < n.end; ++i) {
                const int32_t k = colours_[i];
                const int64_t d = distance(k, c);
                if (d < best_d || (d == best_d && k < best)) best_d = d, best = k;
            }
            return;
        }
        // The nearer child first, so that the farther one is more often skipped.
        const Node& l = nodes_[static_cast<size_t>(n.left)];
        const Node& r = nodes_[static_cast<size_t>(n.right)];
        const bool left_first = box_distance(l, c) <= box_distance(r, c);
        search(left_first ? n.left : n.right, c, best_d, best);
        search(left_first ? n.right : n.left, c, best_d, best);
    }

    const std::vector<int32_t>& mapq_;
    std::vector<int32_t> colours_;
    std::vector<Node> nodes_;
};

// The whole inverse colormap, dither_nearest_colour for every cell.
inline std::vector<uint16_t> inverse_colormap(const std::vector<int32_t>& mapq, int qm, int shift) {
    const int64_t n = static_cast<int64_t>(mapq.size() / 3);
    // A repeated colour never wins (ties go to its first index): keep each
    // colour once, with its lowest index.
    std::vector<int32_t> order(static_cast<size_t>(n));
    for (int64_t k = 0; k < n; ++k) order[k] = static_cast<int32_t>(k);
    std::sort(order.begin(), order.end(), [&](int32_t a, int32_t b) {
        for (int c = 0; c < 3; ++c)
            if (mapq[3 * a + c] != mapq[3 * b + c]) return mapq[3 * a + c] < mapq[3 * b + c];
        return a < b;
    });
    std::vector<int32_t> distinct;
    for (size_t i = 0; i < order.size(); ++i) {
        const int32_t a = i > 0 ? order[i - 1] : -1, b = order[i];
        if (a < 0 || mapq[3 * a] != mapq[3 * b] || mapq[3 * a + 1] != mapq[3 * b + 1] ||
            mapq[3 * a + 2] != mapq[3 * b + 2])
            distinct.push_back(b);
    }
    const int32_t tree_first = distinct.front();
    const ColourTree tree(mapq, std::move(distinct));

    const int64_t side = int64_t(1) << qm, w = int64_t(1) << shift, half = w / 2;
    std::vector<uint16_t> table(static_cast<size_t>(side * side * side));
    int32_t previous = tree_first;
    for (int64_t cell = 0; cell < side * side * side; ++cell) {
        const int64_t c[3] = {(cell >> (2 * qm)) * w + half, ((cell >> qm) & (side - 1)) * w + half,
                              (cell & (side - 1)) * w + half};
        previous = tree.nearest(c, previous);
        table[static_cast<size_t>(cell)] = static_cast<uint16_t>(previous);
    }
    return table;
}

}  // namespace dither_detail

// X's class: logical without a map, uint8 up to 256 colours, else uint16.
inline int32_t dither_output_class(const ipt_tensor* map) {
    return !map ? IPT_LOGICAL : map->rows <= 256 ? IPT_UINT8 : IPT_UINT16;
}

// The plan's sizes only (X: I's rows and cols, dither_output_class), without
// colormap tables or checks: what the registry checks outputs against.
inline DitherPlan plan_dither_output(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* img = args.image("I");
    DitherPlan p;
    p.rows = img->rows;
    p.cols = img->cols;
    p.out_dtype = dither_output_class(args.image("map"));
    return p;
}

inline DitherPlan plan_dither(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* img = args.image("I");
    const ipt_tensor* map = args.image("map");
    DitherPlan p = plan_dither_output(args);
    p.channels = static_cast<int>(img->channels);
    p.qm = static_cast<int>(args.integer("Qm"));
    p.qe = static_cast<int>(args.integer("Qe"));
    const int bits = std::max(p.qm, p.qe);
    p.shift = bits - p.qm;
    p.top = (int32_t(1) << bits) - 1;
    p.bias = (int32_t(1) << bits) / 32;
    p.gray = map == nullptr;
    if (p.gray) {
        if (img->channels != 1)
            ipt::plugin::invalid("ipt.dither: parameter 'I' must be a grayscale image (1 channel) when no map "
                                 "is given");
        p.mapq = {0, 0, 0, p.top, p.top, p.top};
        // A level's colour is that of its cell centre on the diagonal; the
        // centre grows with the level, so white is a threshold (ties: black).
        const int64_t w = int64_t(1) << p.shift;
        p.white_from = p.top + 1;
        for (int32_t v = 0; v <= p.top; ++v) {
            const int64_t centre = (int64_t(v) >> p.shift) * w + w / 2;
            if ((centre - p.top) * (centre - p.top) < centre * centre) {
                p.white_from = v;
                break;
            }
        }
        return p;
    }
    if (img->channels != 3)
        ipt::plugin::invalid("ipt.dither: parameter 'I' must be an RGB image (3 channels) when map is given");
    if (map->rows > 65536) ipt::plugin::invalid("ipt.dither: parameter 'map' must have at most 65536 colours");
    const double* m = static_cast<const double*>(map->data);
    p.mapq.resize(static_cast<size_t>(map->rows * 3));
    // map is n x 3, row-major: colour k is (m[3k], m[3k+1], m[3k+2]).
    for (int64_t i = 0; i < map->rows * 3; ++i) {
        if (!(m[i] >= 0.0 && m[i] <= 1.0))
            ipt::plugin::invalid("ipt.dither: parameter 'map' must have values in [0, 1]");
        p.mapq[i] = static_cast<int32_t>(std::floor(m[i] * p.top + 0.5));
    }
    p.white_from = 0;
    if (p.qm <= kDitherTableMaxQm && p.rows > 0 && p.cols > 0)
        p.inverse = dither_detail::inverse_colormap(p.mapq, p.qm, p.shift);
    return p;
}

}  // namespace ipt::frontend
