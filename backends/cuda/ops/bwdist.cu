// SPDX-License-Identifier: Apache-2.0
// bwdist: distance to the nearest nonzero pixel, exact for every metric, with
// IDX (1-based column-major index; ties go to the lowest index). NaN pixels
// are features.
//
// Phase 1 (every metric): the nearest feature row of each column, ties to the
// upper one. Columns are cut into row segments so that enough threads work: a
// downward pass per segment records, for each row, the last feature at or
// above it inside the segment, and the segment's first and last feature; an
// upward pass takes the nearest features outside the segment from the
// neighbouring segments' summaries and picks the nearer side.
//
// Phase 2, euclidean: per row, the lower envelope of the parabolas
// f_c(x) = (x - c)^2 + g_c^2 over the columns c that hold a feature (g_c: the
// row distance from phase 1), one warp per row. Each lane builds the envelope
// of its band of columns with Meijster's stack; five rounds then merge
// neighbouring groups (the sites that survive a merge are a prefix of the left
// envelope and a suffix of the right one, so a merge only walks inward from
// the seam); a max-scan over the survivors' first pixels names the site of
// every pixel. Integer arithmetic only; the cost does not depend on the
// distances. Ties as the CPU reference: the lower column wins at a pixel where
// two sites are equally near, phase 1 keeps the upper row, so IDX is the
// lowest linear index among the nearest features.
//
// Phase 2, cityblock / chessboard / quasi-euclidean: one thread per pixel; the
// metrics grow with |row difference|, so the nearest feature is the best of
// the column-nearest features; columns are visited outward from the pixel's
// own until the column distance alone exceeds the best found (exact; cost
// grows with the distance).
#include <algorithm>
#include <cmath>

#include "common/buffer.hpp"
#include "common/context.hpp"
#include "common/device.cuh"
#include "common/op_registry.hpp"
#include "common/ops/bwdist.hpp"

namespace ipt::cuda {
namespace {

using Metric = ipt::frontend::BwdistMetric;

constexpr int kNone = -1;

// ---- phase 1: nearest feature row per column --------------------------------

struct ColumnSegments {
    int64_t rows;   // rows per segment (the last may be shorter)
    int64_t count;  // segments per column
};

// At least 32 rows per segment (the pass over a segment is the useful work),
// enough segments for ~64K threads, at most 256 so that the search through
// the summaries of empty segments stays short.
inline ColumnSegments column_segments(int64_t rows, int64_t cols) {
    const int64_t wanted = std::clamp<int64_t>((65536 + cols - 1) / cols, 64, 256);
    const int64_t count = std::max<int64_t>(1, std::min(wanted, (rows + 31) / 32));
    const int64_t seg_rows = (rows + count - 1) / count;
    return {seg_rows, (rows + seg_rows - 1) / seg_rows};
}

// Downward pass over one segment of column c: near_row gets the last feature
// row at or above each row within the segment (kNone before the first), and
// the segment's first and last feature rows are recorded.
template <class T>
__host__ __device__ void scan_segment_down(const T* __restrict__ bw, int* __restrict__ near_row,
                                           int* __restrict__ seg_first, int* __restrict__ seg_last,
                                           int64_t rows, int64_t cols, int64_t seg_rows, int64_t c,
                                           int64_t seg) {
    const int64_t r0 = seg * seg_rows, r1 = r0 + seg_rows < rows ? r0 + seg_rows : rows;
    int first = kNone, last = kNone;
    for (int64_t r = r0; r < r1; ++r) {
        if (to_double(bw[r * cols + c]) != 0.0) {
            last = static_cast<int>(r);
            if (first == kNone) first = last;
        }
        near_row[r * cols + c] = last;
    }
    seg_first[seg * cols + c] = first;
    seg_last[seg * cols + c] = last;
}

// Upward pass: the nearest feature above the segment is the last feature of
// the closest non-empty segment above, likewise below; each row then keeps the
// nearer of "at or above" and "at or below", the upper one on ties.
__host__ __device__ inline void scan_segment_up(int* __restrict__ near_row, const int* __restrict__ seg_first,
                                                const int* __restrict__ seg_last,
                                                int64_t rows, int64_t cols, int64_t seg_rows,
                                                int64_t segs, int64_t c, int64_t seg) {
    const int64_t r0 = seg * seg_rows, r1 = r0 + seg_rows < rows ? r0 + seg_rows : rows;
    int above = kNone;
    for (int64_t s = seg - 1; s >= 0 && above == kNone; --s) above = seg_last[s * cols + c];
    int below = kNone;
    for (int64_t s = seg + 1; s < segs && below == kNone; ++s) below = seg_first[s * cols + c];
    for (int64_t r = r1 - 1; r >= r0; --r) {
        const int row = static_cast<int>(r);
        int up = near_row[r * cols + c];
        if (up == row) below = row;  // a feature here: the nearest at or below for the rows above
        if (up == kNone) up = above;
        near_row[r * cols + c] = below != kNone && (up == kNone || below - row < row - up) ? below : up;
    }
}

template <class T>
__global__ void column_segments_down(const T* __restrict__ bw, int* __restrict__ near_row,
                                     int* __restrict__ seg_first, int* __restrict__ seg_last, int64_t rows,
                                     int64_t cols, int64_t seg_rows) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c < cols) scan_segment_down(bw, near_row, seg_first, seg_last, rows, cols, seg_rows, c, blockIdx.y);
}

__global__ void column_segments_up(int* __restrict__ near_row, const int* __restrict__ seg_first,
                                   const int* __restrict__ seg_last, int64_t rows, int64_t cols, int64_t seg_rows,
                                   int64_t segs) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    if (c < cols) scan_segment_up(near_row, seg_first, seg_last, rows, cols, seg_rows, segs, c, blockIdx.y);
}

// ---- phase 2, euclidean: lower envelopes, one warp per row ------------------

constexpr int kLanes = 32;
constexpr unsigned kWarpMask = 0xffffffffu;

// Indices are stored as uint16_t (0xFFFF = none) when rows and cols are at
// most 65535, else as int32_t: the smaller working set lets an SM hold twice
// the rows.
__host__ __device__ inline int stored_value(uint16_t v) { return v == 0xFFFFu ? kNone : static_cast<int>(v); }
__host__ __device__ inline int stored_value(int32_t v) { return v; }

// The working set of one row: four arrays indexed by column.
template <class S>
struct RowEnvelope {
    S* feature_row_;  // nearest feature row of the column (kNone: the column has none)
    S* start_;        // first pixel a site owns; kNone: no site, or not on the envelope
    S* prev_;         // envelope neighbours; after the merges prev_ holds each pixel's site
    S* next_;
    int cols;
    int row;

    // One padding word after every 32 words: the lanes, each walking its own
    // band of columns, then touch different shared-memory banks.
    __host__ __device__ static int64_t slot(int64_t c) { return sizeof(S) == 2 ? c + ((c >> 6) << 1) : c + (c >> 5); }
    // Elements per array, a multiple of 8 (16-byte aligned arrays).
    __host__ __device__ static int64_t array_len(int64_t cols) { return (slot(cols) + 7) & ~int64_t{7}; }

    __host__ __device__ int feature_row(int c) const { return stored_value(feature_row_[slot(c)]); }
    __host__ __device__ int start(int c) const { return stored_value(start_[slot(c)]); }
    __host__ __device__ int prev(int c) const { return stored_value(prev_[slot(c)]); }
    __host__ __device__ int next(int c) const { return stored_value(next_[slot(c)]); }
    __host__ __device__ int owner(int x) const { return prev(x); }
    __host__ __device__ void set_feature_row(int c, int v) { feature_row_[slot(c)] = static_cast<S>(v); }
    __host__ __device__ void set_start(int c, int v) { start_[slot(c)] = static_cast<S>(v); }
    __host__ __device__ void set_prev(int c, int v) { prev_[slot(c)] = static_cast<S>(v); }
    __host__ __device__ void set_next(int c, int v) { next_[slot(c)] = static_cast<S>(v); }
    __host__ __device__ void set_owner(int x, int site) { set_prev(x, site); }

    // Squared distance from pixel (row, x) to the nearest feature of column c.
    __host__ __device__ int64_t dist2(int c, int x) const {
        const int64_t dx = x - c, dy = row - feature_row(c);
        return dx * dx + dy * dy;
    }

    // Last pixel where site l is at least as near as site r (l < r), for a
    // pair where that holds at some pixel >= 0. f_l(x) <= f_r(x) is
    // 2x(r-l) <= num, so the answer is floor(num / den) with num >= 0. Sides
    // below 2^31 keep num and den within int64 and the squares within 2^62.
    __host__ __device__ int64_t last_pixel_of_left(int l, int r) const {
        const int64_t gl = row - feature_row(l), gr = row - feature_row(r);
        const int64_t num = (int64_t{r} - l) * (int64_t{r} + l) + (gr - gl) * (gr + gl);
        const int64_t den = 2 * (int64_t{r} - l);
        if (num <= int64_t{0xFFFFFFFF})  // 32-bit division where it suffices (always below 46341 per side)
            return static_cast<uint32_t>(num) / static_cast<uint32_t>(den);
        return static_cast<int64_t>(static_cast<uint64_t>(num) / static_cast<uint64_t>(den));
    }

    // Meijster's stack over the columns [b0, b1), for pixels [0, cols):
    // afterwards the band's envelope runs from head to tail through next/prev
    // and start holds where each of its sites begins (kNone elsewhere).
    __host__ __device__ void build_band(int b0, int b1, int& head, int& tail) {
        int top = kNone;
        head = kNone;
        for (int c = b0; c < b1; ++c) {
            if (feature_row(c) == kNone) {
                set_start(c, kNone);
                continue;
            }
            // Pop sites that c beats where they begin: c beats them on all of
            // their range (the difference of two parabolas is linear).
            while (top != kNone) {
                const int t = start(top);
                if (dist2(top, t) <= dist2(c, t)) break;
                set_start(top, kNone);
                top = prev(top);
            }
            if (top == kNone) {
                set_start(c, 0);
                set_prev(c, kNone);
                head = top = c;
                continue;
            }
            const int64_t begins = last_pixel_of_left(top, c) + 1;
            if (begins >= cols) {  // c is never strictly nearer inside the row
                set_start(c, kNone);
                continue;
            }
            set_start(c, static_cast<int>(begins));
            set_prev(c, top);
            set_next(top, c);
            top = c;
        }
        if (top != kNone) set_next(top, kNone);
        tail = top;
    }

    // Merges the envelope head..tail with the envelope of the next group
    // (right_head..right_tail, all of whose columns lie to the right). The
    // survivors are a prefix of the left list and a suffix of the right one:
    // drop the left tail while the right head beats it where it begins, drop
    // the right head while the left tail is at least as near where the right
    // head ends; every dropped site is beaten on its whole range by a site
    // that exists, so nothing of the true envelope is lost.
    __host__ __device__ void merge(int& head, int& tail, int right_head, int right_tail) {
        int l = tail, r = right_head;
        while (l != kNone && r != kNone) {
            const int l_begins = start(l);
            if (dist2(l, l_begins) > dist2(r, l_begins)) {
                set_start(l, kNone);
                l = prev(l);
                continue;
            }
            const int r_next = next(r);
            const int r_ends = r_next == kNone ? cols - 1 : start(r_next) - 1;
            if (dist2(l, r_ends) <= dist2(r, r_ends)) {
                set_start(r, kNone);
                r = r_next;
                continue;
            }
            break;
        }
        if (l == kNone) {  // the whole left group is beaten (or was empty)
            head = r;
            if (r != kNone) {
                set_start(r, 0);
                set_prev(r, kNone);
            }
        } else if (r != kNone) {
            set_start(r, static_cast<int>(last_pixel_of_left(l, r) + 1));
            set_next(l, r);
            set_prev(r, l);
        } else {
            set_next(l, kNone);
        }
        tail = r == kNone ? l : right_tail;
    }

    // Pixel ownership from the survivors' first pixels: each survivor marks
    // its first pixel, and a pixel's site is the last mark at or before it.
    __host__ __device__ void clear_owners(int b0, int b1) {
        for (int x = b0; x < b1; ++x) set_owner(x, kNone);
    }
    __host__ __device__ void mark_starts(int b0, int b1) {
        for (int c = b0; c < b1; ++c) {
            const int s = start(c);
            if (s != kNone) set_owner(s, c);
        }
    }
    __host__ __device__ int last_mark(int b0, int b1) const {
        int last = kNone;
        for (int x = b0; x < b1; ++x)
            if (owner(x) != kNone) last = owner(x);
        return last;
    }
    // carry: the last mark before b0 (marks grow with x: survivors are in
    // column order and begin in that order).
    __host__ __device__ void fill_owners(int b0, int b1, int carry) {
        for (int x = b0; x < b1; ++x) {
            const int mark = owner(x);
            if (mark != kNone) carry = mark;
            else set_owner(x, carry);
        }
    }

    // D = single(sqrt(double(d2))) as the reference (sqrt is correctly rounded
    // in double, and so is the conversion).
    __host__ __device__ void write_pixel(int x, float* d_row, uint32_t* idx_row, int64_t rows) const {
        const int site = owner(x);
        const int feature = feature_row(site);
        d_row[x] = static_cast<float>(sqrt(static_cast<double>(dist2(site, x))));
        if (idx_row) idx_row[x] = static_cast<uint32_t>(static_cast<int64_t>(site) * rows + feature + 1);
    }
};

// Columns [b0, b1) of a lane: equal bands, the last ones possibly empty.
__host__ __device__ inline void lane_band(int lane, int cols, int& b0, int& b1) {
    const int width = (cols + kLanes - 1) / kLanes;
    b0 = lane * width < cols ? lane * width : cols;
    b1 = b0 + width < cols ? b0 + width : cols;
}

// One warp per row, rows strided over the grid. kShared: the working sets in
// dynamic shared memory, else in `scratch` (one per warp of the grid).
template <class S, bool kShared>
__global__ void euclidean_rows(const int* __restrict__ near_row, float* __restrict__ d, uint32_t* __restrict__ idx,
                               int rows, int cols, S* __restrict__ scratch) {
    extern __shared__ __align__(16) unsigned char envelope_shared[];
    const int lane = static_cast<int>(threadIdx.x) % kLanes;
    const int warp = static_cast<int>(threadIdx.x) / kLanes, warps = static_cast<int>(blockDim.x) / kLanes;
    const int64_t len = RowEnvelope<S>::array_len(cols);
    S* base = kShared ? reinterpret_cast<S*>(envelope_shared) + warp * 4 * len
                      : scratch + (static_cast<int64_t>(blockIdx.x) * warps + warp) * 4 * len;
    RowEnvelope<S> env{base, base + len, base + 2 * len, base + 3 * len, cols, 0};
    int b0, b1;
    lane_band(lane, cols, b0, b1);
    for (int64_t r = static_cast<int64_t>(blockIdx.x) * warps + warp; r < rows;
         r += static_cast<int64_t>(gridDim.x) * warps) {
        env.row = static_cast<int>(r);
        const int* src = near_row + r * cols;
        for (int x = lane; x < cols; x += kLanes) env.set_feature_row(x, src[x]);
        __syncwarp();
        int head, tail;
        env.build_band(b0, b1, head, tail);
        __syncwarp();
        for (int span = 1; span < kLanes; span *= 2) {
            const int right_head = __shfl_down_sync(kWarpMask, head, span);
            const int right_tail = __shfl_down_sync(kWarpMask, tail, span);
            if (lane % (2 * span) == 0) env.merge(head, tail, right_head, right_tail);
            __syncwarp();
        }
        head = __shfl_sync(kWarpMask, head, 0);
        float* d_row = d + r * cols;
        uint32_t* idx_row = idx ? idx + r * cols : nullptr;
        if (head == kNone) {  // no feature in the image
            for (int x = lane; x < cols; x += kLanes) {
                d_row[x] = ipt::frontend::kBwdistNoFeatureD;
                if (idx_row) idx_row[x] = ipt::frontend::kBwdistNoFeatureIdx;
            }
            __syncwarp();
            continue;
        }
        env.clear_owners(b0, b1);
        __syncwarp();
        env.mark_starts(b0, b1);
        __syncwarp();
        int carry = env.last_mark(b0, b1);  // inclusive max-scan over the lanes
        for (int offset = 1; offset < kLanes; offset *= 2) {
            const int before = __shfl_up_sync(kWarpMask, carry, offset);
            if (lane >= offset) carry = max(carry, before);
        }
        carry = __shfl_up_sync(kWarpMask, carry, 1);
        env.fill_owners(b0, b1, lane == 0 ? kNone : carry);
        __syncwarp();
        for (int x = lane; x < cols; x += kLanes) env.write_pixel(x, d_row, idx_row, rows);
        __syncwarp();  // the next row overwrites what other lanes may still read
    }
}

template <class S>
void launch_euclidean_rows(const Device& dev, const int* near_row, float* d, uint32_t* idx, int64_t rows,
                           int64_t cols) {
    constexpr size_t kDefaultShared = 48 * 1024;
    const size_t row_bytes = 4 * static_cast<size_t>(RowEnvelope<S>::array_len(cols)) * sizeof(S);
    const int r = static_cast<int>(rows), c = static_cast<int>(cols);
    if (row_bytes <= dev.shared_per_block_optin) {
        const int warps = static_cast<int>(std::clamp<size_t>(kDefaultShared / row_bytes, 1, 8));
        const size_t bytes = warps * row_bytes;
        if (bytes > kDefaultShared)
            check(cudaFuncSetAttribute(euclidean_rows<S, true>, cudaFuncAttributeMaxDynamicSharedMemorySize,
                                       static_cast<int>(bytes)),
                  "cudaFuncSetAttribute (bwdist shared memory)");
        euclidean_rows<S, true><<<static_cast<unsigned>((rows + warps - 1) / warps), warps * kLanes, bytes,
                                  dev.stream>>>(near_row, d, idx, r, c, nullptr);
    } else {
        // Rows too wide for shared memory: the working sets in global scratch,
        // a bounded number of warps (at most 256 MiB of scratch) looping over rows.
        constexpr int warps = 4;
        const int64_t by_memory = std::max<int64_t>(1, (int64_t{256} << 20) / static_cast<int64_t>(row_bytes));
        const int64_t wanted = std::min({rows, std::max<int64_t>(1, int64_t{dev.sm_count} * 16), by_memory});
        const int64_t blocks = (wanted + warps - 1) / warps;
        DeviceArray<S> scratch(static_cast<size_t>(blocks * warps * 4 * RowEnvelope<S>::array_len(cols)),
                               dev.stream);
        euclidean_rows<S, false><<<static_cast<unsigned>(blocks), warps * kLanes, 0, dev.stream>>>(
            near_row, d, idx, r, c, scratch.get());
    }
    check_launch("ipt.bwdist (envelopes)");
}

// ---- phase 2, other metrics: outward search per pixel -----------------------

// Distance as a comparable number.
__device__ inline double metric(Metric m, double dr, double dc) {
    switch (m) {
    case Metric::Cityblock: return dr + dc;
    case Metric::Chessboard: return dr > dc ? dr : dc;
    default: {
        const double hi = dr > dc ? dr : dc, lo = dr > dc ? dc : dr;
        return hi + ipt::frontend::kQuasiEuclideanK * lo;
    }
    }
}

__global__ void nearest_feature(const int* __restrict__ near_row, float* __restrict__ d, uint32_t* __restrict__ idx,
                                int64_t rows, int64_t cols, Metric m) {
    const int64_t c = static_cast<int64_t>(blockIdx.x) * blockDim.x + threadIdx.x;
    const int64_t r = static_cast<int64_t>(blockIdx.y) * blockDim.y + threadIdx.y;
    if (r >= rows || c >= cols) return;
    const int* row = near_row + r * cols;
    double best = INFINITY;
    int64_t best_index = -1;  // 0-based column-major
    auto consider = [&](int64_t cc, int64_t k) {
        const int nr = row[cc];
        if (nr < 0) return;
        const double dist = metric(m, fabs(static_cast<double>(nr - r)), static_cast<double>(k));
        const int64_t index = cc * rows + nr;
        if (dist < best || (dist == best && index < best_index)) {
            best = dist;
            best_index = index;
        }
    };
    // Every metric here is at least the column offset k.
    for (int64_t k = 0; k < cols; ++k) {
        if (static_cast<double>(k) > best) break;
        if (c - k >= 0) consider(c - k, k);
        if (k > 0 && c + k < cols) consider(c + k, k);
    }
    const int64_t out = r * cols + c;
    if (best_index < 0) {
        d[out] = ipt::frontend::kBwdistNoFeatureD;
        if (idx) idx[out] = ipt::frontend::kBwdistNoFeatureIdx;
        return;
    }
    d[out] = static_cast<float>(best);
    if (idx) idx[out] = static_cast<uint32_t>(best_index + 1);
}

void run_bwdist(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt::frontend::BwdistPlan plan = ipt::frontend::plan_bwdist(args);
    const ipt_tensor* bw = args.image("BW");
    const Metric m = plan.metric;
    const int64_t rows = plan.rows, cols = plan.cols;
    if (plan.empty()) {
        args.output("D", plan.d_dtype, rows, cols, 1);
        if (plan.want_idx) args.output("IDX", plan.idx_dtype, rows, cols, 1);
        return;
    }
    if (rows * cols >= (int64_t{1} << 32))
        ipt::plugin::unsupported("ipt.bwdist: images of 2^32 pixels or more do not fit IDX");
    // Rows and columns are int32 in the kernels (only a 1 x N or N x 1 image
    // of 2^31 pixels or more is left out by this).
    if (rows >= (int64_t{1} << 31) - 1 || cols >= (int64_t{1} << 31) - 1)
        ipt::plugin::unsupported("ipt.bwdist: a side of 2^31-1 pixels or more");
    const ipt_tensor* d = args.output("D", plan.d_dtype, rows, cols, 1);
    const ipt_tensor* idx = plan.want_idx ? args.output("IDX", plan.idx_dtype, rows, cols, 1) : nullptr;
    cudaStream_t s = dev.stream;
    const ColumnSegments seg = column_segments(rows, cols);
    DeviceArray<int> near_row(static_cast<size_t>(rows) * cols, s);
    DeviceArray<int> seg_first(static_cast<size_t>(seg.count * cols), s);
    DeviceArray<int> seg_last(static_cast<size_t>(seg.count * cols), s);
    const dim3 column_grid(static_cast<unsigned>((cols + 127) / 128), static_cast<unsigned>(seg.count));
    visit_dtype(bw->dtype, [&](auto tag) {
        using T = decltype(tag);
        column_segments_down<T><<<column_grid, 128, 0, s>>>(dptr<const T>(bw), near_row.get(), seg_first.get(),
                                                             seg_last.get(), rows, cols, seg.rows);
    });
    check_launch("ipt.bwdist (column segments, down)");
    column_segments_up<<<column_grid, 128, 0, s>>>(near_row.get(), seg_first.get(), seg_last.get(), rows, cols,
                                                   seg.rows, seg.count);
    check_launch("ipt.bwdist (column segments, up)");
    float* d_out = dptr<float>(d);
    uint32_t* idx_out = idx ? dptr<uint32_t>(idx) : nullptr;
    if (m == Metric::Euclidean) {
        if (rows <= 65535 && cols <= 65535)
            launch_euclidean_rows<uint16_t>(dev, near_row.get(), d_out, idx_out, rows, cols);
        else
            launch_euclidean_rows<int32_t>(dev, near_row.get(), d_out, idx_out, rows, cols);
        return;
    }
    dim3 block(32, 8);
    nearest_feature<<<grid_2d(cols, rows, block), block, 0, s>>>(near_row.get(), d_out, idx_out, rows, cols, m);
    check_launch("ipt.bwdist");
}

IPT_CUDA_OP("ipt.bwdist", "", 100, run_bwdist)

}  // namespace
}  // namespace ipt::cuda
