// SPDX-License-Identifier: Apache-2.0
// ipt.imregionalmax (the rule: backends/common/ops/imregionalmax.hpp).
//
// (1) every pixel with a strictly higher neighbour is marked "not a maximum";
// (2) marked pixels with an unmarked equal neighbour become seeds (both are
// row loops the compiler vectorises, rows shared among the threads); (3) the
// mark spreads from the seeds to every equal-valued neighbour (a flood fill
// that visits only pixels it marks), so a plateau touching a higher pixel
// anywhere is unmarked nowhere. What is left unmarked is BW. Since no
// comparison with NaN is true, a NaN pixel disqualifies no neighbour.
#include <cstdint>
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/ops/imregionalmax.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"
#include "common/work_blocks.hpp"

namespace {

struct Step {
    int dr, dc;
};
constexpr Step kConn8[] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
constexpr Step kConn4[] = {{-1, 0}, {0, -1}, {0, 1}, {1, 0}};

// bad[j] |= nb[j] > cur[j] (a strictly higher neighbour).
template <class W>
inline void mark_higher(uint8_t* __restrict bad, const W* __restrict cur, const W* __restrict nb, int64_t n) {
    for (int64_t j = 0; j < n; ++j) bad[j] |= nb[j] > cur[j];
}
// seed[j] |= the neighbour is unmarked and equal.
template <class W>
inline void mark_seed(uint8_t* __restrict seed, const W* __restrict cur, const W* __restrict nb,
                      const uint8_t* __restrict nb_bad, int64_t n) {
    for (int64_t j = 0; j < n; ++j) seed[j] |= (nb_bad[j] == 0) & (nb[j] == cur[j]);
}

template <class W>
inline void mark_nan(uint8_t* __restrict bad, const W* __restrict cur, int64_t n) {
    for (int64_t j = 0; j < n; ++j) bad[j] = cur[j] != cur[j];
}
inline void and_into(uint8_t* __restrict s, const uint8_t* __restrict b, int64_t n) {
    for (int64_t j = 0; j < n; ++j) s[j] &= b[j];
}
inline void invert(uint8_t* __restrict b, int64_t n) {
    for (int64_t j = 0; j < n; ++j) b[j] = b[j] == 0;
}
// Index of the first nonzero byte in [i, n), or n (eight bytes at a time).
inline int64_t next_nonzero(const uint8_t* v, int64_t i, int64_t n) {
    while (i < n && (i & 7) != 0 && !v[i]) ++i;
    while (i + 8 <= n) {
        uint64_t w;
        std::memcpy(&w, v + i, 8);
        if (w) break;
        i += 8;
    }
    while (i < n && !v[i]) ++i;
    return i;
}

template <class T>
void regional_max(const T* a_in, uint8_t* bw, int64_t rows, int64_t cols, int conn) {
    using W = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
    const W* a = reinterpret_cast<const W*>(a_in);
    const Step* steps = conn == 8 ? kConn8 : kConn4;
    const int nsteps = conn == 8 ? 8 : 4;
    // bw holds "not a maximum" (1) until the end; seed marks marked pixels
    // with an unmarked equal neighbour, where the spreading starts.
    std::vector<uint8_t> seed(static_cast<size_t>(rows * cols));
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(ipt::cpu::thread_count(), rows));
    auto for_rows = [&](auto&& body) {
        ipt::cpu::for_claimed_blocks(workers, rows, 32, [&](int64_t, int64_t r0, int64_t r1) {
            ipt::cpu::simd_dispatch([&] {
                for (int64_t r = r0; r < r1; ++r) body(r);
            });
        });
    };
    // Each neighbour (dr, dc) of row r, over the columns where it exists.
    auto neighbours = [&](int64_t r, auto&& f) {
        for (int s = 0; s < nsteps; ++s) {
            const int64_t nr = r + steps[s].dr;
            if (nr < 0 || nr >= rows) continue;
            const int dc = steps[s].dc;
            const int64_t j0 = dc < 0 ? 1 : 0, j1 = dc > 0 ? cols - 1 : cols;
            if (j1 > j0) f(nr * cols + dc + j0, r * cols + j0, j1 - j0);
        }
    };
    for_rows([&](int64_t r) {
        const W* cur = a + r * cols;
        uint8_t* bad = bw + r * cols;
        mark_nan(bad, cur, cols);
        neighbours(r, [&](int64_t q, int64_t p, int64_t n) { mark_higher(bw + p, a + p, a + q, n); });
    });
    for_rows([&](int64_t r) {
        uint8_t* s = seed.data() + r * cols;
        neighbours(r, [&](int64_t q, int64_t p, int64_t n) { mark_seed(seed.data() + p, a + p, a + q, bw + q, n); });
        and_into(s, bw + r * cols, cols);
    });
    // Spread the mark over plateaus, from the seeds.
    std::vector<int64_t> stack;
    const int64_t total = rows * cols;
    for (int64_t p = next_nonzero(seed.data(), 0, total); p < total; p = next_nonzero(seed.data(), p + 1, total)) {
        stack.push_back(p);
        while (!stack.empty()) {
            const int64_t x = stack.back();
            stack.pop_back();
            const int64_t xr = x / cols, xc = x % cols;
            const W v = a[x];
            for (int s = 0; s < nsteps; ++s) {
                const int64_t nr = xr + steps[s].dr, nc = xc + steps[s].dc;
                if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
                const int64_t y = nr * cols + nc;
                if (!bw[y] && a[y] == v) {
                    bw[y] = 1;
                    stack.push_back(y);
                }
            }
        }
    }
    for_rows([&](int64_t r) { invert(bw + r * cols, cols); });
}

void run_imregionalmax(const ipt::plugin::KernelArgs& args) {
    const ipt::frontend::ImregionalmaxPlan plan = ipt::frontend::plan_imregionalmax(args);
    const ipt_tensor* a = args.image("I");
    const ipt_tensor* b = args.output("BW", IPT_LOGICAL, plan.rows, plan.cols, 1);
    if (plan.rows * plan.cols == 0) return;
    ipt::cpu::visit_dtype(plan.dtype, [&](auto tag) {
        using T = decltype(tag);
        regional_max(static_cast<const T*>(a->data), static_cast<uint8_t*>(b->data), plan.rows, plan.cols, plan.conn);
    });
}

}  // namespace

IPT_CPU_OP("ipt.imregionalmax", "", 100, run_imregionalmax)
