// ipt.imregionalmax: BW(p) is true when p belongs to a connected plateau of
// equal values (connectivity conn, 4 or 8) with no strictly higher pixel
// adjacent to it; whole plateaus are marked and the image border
// disqualifies nothing (MATLAB_SEMANTICS.md, imregionalmax).
//
// Two passes: (1) every pixel with a strictly higher neighbour is marked
// "not a maximum" (row loops the compiler vectorises, rows shared among the
// threads); (2) the mark spreads to every equal-valued neighbour by a flood
// fill from the marked pixels that touch an unmarked equal one, so a plateau
// touching a higher pixel anywhere is unmarked nowhere. What is left is BW.
// NaN pixels are never maxima and, since no comparison with NaN is true,
// never disqualify a neighbour (MATLAB documents no NaN rule; this is ours).
#include <cstring>
#include <type_traits>
#include <vector>

#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"
#include "common/simd.hpp"

namespace {

using ipt::plugin::invalid;

struct Step {
    int dr, dc;
};
constexpr Step kConn8[] = {{-1, -1}, {-1, 0}, {-1, 1}, {0, -1}, {0, 1}, {1, -1}, {1, 0}, {1, 1}};
constexpr Step kConn4[] = {{-1, 0}, {0, -1}, {0, 1}, {1, 0}};

template <class T>
void regional_max(const T* a_in, uint8_t* bw, int64_t rows, int64_t cols, int conn) {
    using W = std::conditional_t<std::is_same_v<T, bool>, uint8_t, T>;
    const W* a = reinterpret_cast<const W*>(a_in);
    const Step* steps = conn == 8 ? kConn8 : kConn4;
    const int nsteps = conn == 8 ? 8 : 4;
    // bw holds "not a maximum" (1) until the end.
    const int64_t workers = std::max<int64_t>(1, std::min<int64_t>(ipt::cpu::thread_count(), rows));
    ipt::cpu::parallel_for(0, workers, [&](int64_t wk) {
        const int64_t r0 = rows * wk / workers, r1 = rows * (wk + 1) / workers;
        ipt::cpu::simd_dispatch([&] {
            for (int64_t r = r0; r < r1; ++r) {
                const W* cur = a + r * cols;
                uint8_t* bad = bw + r * cols;
                for (int64_t j = 0; j < cols; ++j) bad[j] = cur[j] != cur[j];  // NaN
                for (int s = 0; s < nsteps; ++s) {
                    const int64_t nr = r + steps[s].dr;
                    if (nr < 0 || nr >= rows) continue;
                    const int dc = steps[s].dc;
                    const W* nb = a + nr * cols + dc;
                    const int64_t j0 = dc < 0 ? 1 : 0, j1 = dc > 0 ? cols - 1 : cols;
                    for (int64_t j = j0; j < j1; ++j) bad[j] |= nb[j] > cur[j];
                }
            }
        });
    });
    // Spread the mark over plateaus.
    std::vector<int64_t> stack;
    auto equal_unmarked_neighbour = [&](int64_t r, int64_t c, int64_t* out) {
        const W v = a[r * cols + c];
        for (int s = 0; s < nsteps; ++s) {
            const int64_t nr = r + steps[s].dr, nc = c + steps[s].dc;
            if (nr < 0 || nr >= rows || nc < 0 || nc >= cols) continue;
            const int64_t q = nr * cols + nc;
            if (!bw[q] && a[q] == v) {
                *out = q;
                return true;
            }
        }
        return false;
    };
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t c = 0; c < cols; ++c) {
            const int64_t p = r * cols + c;
            int64_t q;
            if (!bw[p] || a[p] != a[p] || !equal_unmarked_neighbour(r, c, &q)) continue;
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
    const int64_t n = rows * cols;
    for (int64_t i = 0; i < n; ++i) bw[i] = !bw[i];
}

void run_imregionalmax(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* a = args.image("I");
    const int64_t conn = args.integer("conn");
    if (conn != 4 && conn != 8) invalid("ipt.imregionalmax: parameter 'conn' must be 4 or 8");
    const ipt_tensor* b = args.output("BW", IPT_LOGICAL, a->rows, a->cols, a->channels);
    const int64_t plane = a->rows * a->cols;
    if (plane == 0) return;
    ipt::cpu::visit_dtype(a->dtype, [&](auto tag) {
        using T = decltype(tag);
        for (int64_t ch = 0; ch < a->channels; ++ch)
            regional_max(static_cast<const T*>(a->data) + ch * plane, static_cast<uint8_t*>(b->data) + ch * plane,
                         a->rows, a->cols, static_cast<int>(conn));
    });
}

}  // namespace

IPT_CPU_OP("ipt.imregionalmax", "", 100, run_imregionalmax)
