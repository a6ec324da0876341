// medfilt2: the median of an m x n window (ordfilt2 with a full domain); for
// an even window the mean of the two middle orders (floor for integer
// classes). 'indexed' pads with 1 for double and 0 otherwise.
#include "common/context.hpp"
#include "common/op_registry.hpp"
#include "common/order_filter.cuh"

namespace ipt::cuda {
namespace {

void run_medfilt2(const ipt::plugin::KernelArgs& args) {
    const Device& dev = device_of(args);
    const ipt_tensor* a = args.image("A");
    const double* size = args.floats("size");
    const int64_t m = static_cast<int64_t>(size[0]), n = static_cast<int64_t>(size[1]);
    if (m < 1 || n < 1) ipt::plugin::invalid("ipt.medfilt2: parameter 'size' must be positive");
    const Domain d = domain_from_mask(nullptr, m, n, nullptr);
    const int64_t count = m * n;
    const int order1 = static_cast<int>(count % 2 ? (count + 1) / 2 : count / 2);
    const int order2 = count % 2 ? 0 : order1 + 1;
    const Border border = args.is("padopt", "symmetric") ? Border::Symmetric : Border::Constant;
    const bool indexed = args.is("padopt", "indexed");
    const ipt_tensor* b = args.output("B", a->dtype, a->rows, a->cols, 1);
    visit_dtype(a->dtype, [&](auto tag) {
        using T = decltype(tag);
        const T pad = (indexed && std::is_same_v<T, double>) ? T(1) : T(0);
        if constexpr (std::is_same_v<T, uint8_t> || std::is_same_v<T, uint16_t> || std::is_same_v<T, int16_t>) {
            if (m == n && (m == 3 || m == 5) && a->rows > 0 && a->cols > 0) {
                dim3 grid(static_cast<unsigned>((a->cols + 31) / 32), static_cast<unsigned>((a->rows + 31) / 32));
                if (m == 3)
                    median_network<T, 3><<<grid, dim3(32, 8), 0, dev.stream>>>(dptr<const T>(a), dptr<T>(b), a->rows,
                                                                               a->cols, border, pad);
                else
                    median_network<T, 5><<<grid, dim3(32, 8), 0, dev.stream>>>(dptr<const T>(a), dptr<T>(b), a->rows,
                                                                               a->cols, border, pad);
                check_launch("ipt.medfilt2");
                return;
            }
        }
        order_filter_async<T, T, T>(dptr<const T>(a), dptr<T>(b), a->rows, a->cols, d, order1, order2, border, pad,
                                    dev.stream, "ipt.medfilt2");
    });
}

IPT_CUDA_OP("ipt.medfilt2", "", 100, run_medfilt2)

}  // namespace
}  // namespace ipt::cuda
