// SPDX-License-Identifier: Apache-2.0
// The largest input magnitude the FFT routes of conv2 and normxcorr2 take, on
// every backend. Spectra are bounded by PQ max|x| < 2^31 max|x|; below 2^448
// per input the product of two spectra stays under 2^958, far from double's
// overflow. Above it (and for Inf or NaN, whose transforms would spread over
// the whole output) the direct routes compute the result.
#pragma once

namespace ipt::common {

inline constexpr double kFftInputLimit = 0x1p448;

}  // namespace ipt::common
