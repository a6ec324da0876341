// SPDX-License-Identifier: Apache-2.0
#include "facet_op.hpp"

#include <cmath>
#include <sstream>

namespace facet {
namespace {

// Parameters in call order. The registry checks classes, ranges and
// defaults from this table before the plugin sees a call.
const ipt_param_schema kParams[] = {
    IPT_IN("I", IPT_DT_NUMERIC, 0, nullptr, "image (any numeric class; values must be finite)"),
    IPT_INT("window", 0, nullptr, "5", 3, kMaxWindow, nullptr,
            "side of the square window, odd (5: 5x5, 7: 7x7)"),
    IPT_INT("max_degree", 0, nullptr, "3", 0, kMaxDegree, nullptr,
            "highest polynomial degree tried (0 constant .. 3 cubic)"),
    IPT_INT("max_iter", 0, nullptr, "4", 1, 100, nullptr,
            "IRLS iterations per degree at most"),
    IPT_FLOAT("epsilon", IPT_P_FINITE, "1e-6", 0, IPT_UNBOUNDED,
              "robust scale at or below which a fit is exact (stops the iterations and the degrees)"),
    IPT_FLOAT("tuning", IPT_P_FINITE, "1.345", 0, IPT_UNBOUNDED,
              "Huber tuning constant, in robust standard deviations (> 0)"),
    IPT_OUT("J", IPT_DT(IPT_SINGLE), 0, "fitted value at each window centre (single)"),
    IPT_OUT("degree", IPT_DT(IPT_UINT8), 0, "degree of the chosen fit per pixel (uint8)"),
    IPT_OUT("coefficients", IPT_DT(IPT_SINGLE), IPT_P_OPTIONAL,
            "10 planes: 1 r c r^2 rc c^2 r^3 r^2c rc^2 c^3 (r down, c right, 0 at the centre); "
            "zeros beyond the chosen degree"),
};

}  // namespace

const ipt_op_schema kRobustSchema = {
    sizeof(ipt_op_schema),
    kOpName,
    "",  // no MATLAB function
    "robust variable-order facet model (Huber IRLS, degrees 0..3, Householder QR)",
    IPT_PARAMS(kParams),  // count, stride, address
    nullptr,
    IPT_CMP_RANGE_EPS,
    4,
    "degree exact; J and coefficients within 4 eps(single) * max(1, max|ref|) (the CUDA kernel "
    "repeats the reference's double-precision operations in the same order, so equality is expected)",
    IPT_TILING_UNKNOWN,  // not declared tileable
    nullptr,
};

Request read_request(const ipt::plugin::KernelArgs& args) {
    Request q;
    q.input = args.image("I");
    q.rows = q.input->rows;
    q.cols = q.input->cols;
    const int64_t window = args.integer("window");
    const int64_t max_degree = args.integer("max_degree");
    const int64_t max_iter = args.integer("max_iter");
    const double epsilon = args.number("epsilon");
    const double tuning = args.number("tuning");
    const std::string op = kOpName;

    // The registry has checked the ranges; these rules it cannot express.
    if (window < 3 || window > kMaxWindow || window % 2 == 0)
        ipt::plugin::invalid(op + ": parameter 'window' must be odd and between 3 and " +
                             std::to_string(kMaxWindow) + ", got " + std::to_string(window));
    if (max_degree < 0 || max_degree > kMaxDegree)
        ipt::plugin::invalid(op + ": parameter 'max_degree' must be between 0 and 3, got " +
                             std::to_string(max_degree));
    const int64_t pixels = window * window;
    const int coefficients = coefficient_count(static_cast<int>(max_degree));
    if (pixels <= coefficients)
        ipt::plugin::invalid(op + ": parameter 'window' = " + std::to_string(window) + " gives " +
                             std::to_string(pixels) + " pixels, too few for max_degree " +
                             std::to_string(max_degree) + " (" + std::to_string(coefficients) +
                             " coefficients need more pixels than that); use a larger window or a "
                             "lower max_degree");
    if (max_iter < 1)
        ipt::plugin::invalid(op + ": parameter 'max_iter' must be at least 1, got " + std::to_string(max_iter));
    if (!std::isfinite(epsilon) || epsilon < 0)
        ipt::plugin::invalid(op + ": parameter 'epsilon' must be finite and >= 0");
    if (!std::isfinite(tuning) || !(tuning > 0))
        ipt::plugin::invalid(op + ": parameter 'tuning' must be finite and > 0");

    q.settings.window = static_cast<int>(window);
    q.settings.max_degree = static_cast<int>(max_degree);
    q.settings.max_iter = static_cast<int>(max_iter);
    q.settings.epsilon = epsilon;
    q.settings.tuning = tuning;
    q.want_coefficients = args.wanted("coefficients");
    return q;
}

std::string bad_pixel_message(int64_t r, int64_t c, double value) {
    std::ostringstream m;
    m << kOpName << ": input 'I' must be finite with magnitude at most 1e300; pixel (" << r + 1 << ", "
      << c + 1 << ") (1-based row, column) is " << value;
    return m.str();
}

}  // namespace facet
