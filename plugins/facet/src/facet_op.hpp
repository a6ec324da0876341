// SPDX-License-Identifier: Apache-2.0
// The operator this plugin introduces, "facet.robust": its schema and the
// argument checks both implementations share.
#ifndef FACET_OP_HPP
#define FACET_OP_HPP

#include <cstdint>
#include <string>

#include <ipt/ipt_plugin.h>
#include <ipt/ipt_plugin.hpp>

#include "facet_core.hpp"

namespace facet {

inline constexpr const char* kOpName = "facet.robust";

extern const ipt_op_schema kRobustSchema;

// A checked call: the input, the settings, and whether the coefficients are wanted.
struct Request {
    const ipt_tensor* input = nullptr;
    Settings settings;
    bool want_coefficients = false;
    int64_t rows = 0;
    int64_t cols = 0;
};

// Reads and checks the parameters the schema cannot check by itself (window
// odd, enough pixels for the degree, tuning > 0). Throws
// ipt::plugin::Error(IPT_ERR_INVALID_ARGUMENT) naming the parameter.
Request read_request(const ipt::plugin::KernelArgs& args);

// Largest magnitude accepted in the input: squares and sums of the fit stay
// far from overflow below it.
inline constexpr double kMaxMagnitude = 1e300;

// The message for a pixel that is not finite or too large (r, c 0-based).
std::string bad_pixel_message(int64_t r, int64_t c, double value);

}  // namespace facet

#endif  // FACET_OP_HPP
