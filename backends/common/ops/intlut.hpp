// SPDX-License-Identifier: Apache-2.0
// ipt.intlut's front-end: B = intlut(A, LUT), B(i) = LUT(A(i)+1) for uint8
// and uint16, LUT(A(i)+32769) for int16 (the table is indexed from -32768);
// B has the class and size of A, and every channel uses the one table
// (docs/matlab-semantics.md#intlut).
#pragma once

#include <cstdint>
#include <string>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

struct IntlutPlan {
    const ipt_tensor* A = nullptr;
    const ipt_tensor* LUT = nullptr;
    int32_t dtype = 0;   // of A, LUT and B
    int64_t rows = 0, cols = 0, channels = 1;
    int64_t numel = 0;   // of A and B
    int64_t entries = 0; // of LUT: 256 (uint8) or 65536
    int64_t zero_at = 0; // entry of the value 0: 0, or 32768 for int16
};

// The schema enforces the classes and the table's size. Implementations
// index the table with no bounds check, so a table of another size or class
// is refused here too: reading past it must not depend on who validated the call.
inline IntlutPlan plan_intlut(const ipt::plugin::KernelArgs& args) {
    IntlutPlan p;
    p.A = args.image("A");
    p.LUT = args.image("LUT");
    const ipt_tensor* a = p.A;
    const ipt_tensor* lut = p.LUT;
    if (a->dtype != IPT_UINT8 && a->dtype != IPT_UINT16 && a->dtype != IPT_INT16)
        ipt::plugin::invalid("ipt.intlut: parameter 'A' must be uint8, uint16 or int16");
    if (lut->dtype != a->dtype) ipt::plugin::invalid("ipt.intlut: parameter 'LUT' must have the class of A");
    p.entries = a->dtype == IPT_UINT8 ? 256 : 65536;
    if (lut->rows * lut->cols * lut->channels != p.entries || lut->channels != 1 ||
        (lut->rows != 1 && lut->cols != 1))
        ipt::plugin::invalid("ipt.intlut: parameter 'LUT' must be a vector of " + std::to_string(p.entries) +
                             " entries");
    p.dtype = a->dtype;
    p.rows = a->rows;
    p.cols = a->cols;
    p.channels = a->channels;
    p.numel = a->rows * a->cols * a->channels;
    p.zero_at = a->dtype == IPT_INT16 ? 32768 : 0;
    return p;
}

}  // namespace ipt::frontend
