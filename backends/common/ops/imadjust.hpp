// SPDX-License-Identifier: Apache-2.0
// ipt.imadjust's front-end: J = imadjust(I, low_high_in, low_high_out, gamma)
// (docs/matlab-semantics.md#imadjust). J has the class and size of I. Per
// channel, a value x on the [0,1] scale becomes
//   low_out + (high_out - low_out) * ((clamp(x, low_in, high_in) - low_in) / (high_in - low_in))^gamma
// (ipt::common::AdjustCurve); low_out > high_out inverts.
//
// single and double: the curve per element, in double. uint8, uint16 and
// int16: MATLAB's table, the curve at linspace(0,1,n) (n = 256 or 65536)
// converted with uint8(255*y) or uint16(65535*y), round half away from zero;
// int16 goes through uint16 (offset 32768) and back. The table is computed
// here, on the host, with the reference's arithmetic, so that every backend
// maps through the same bytes: a device's pow may round differently, and at
// an exact .5 tie (uint8 119 with [0.2 0.8], [0.1 0.9], gamma 0.5 is 161.5
// in exact arithmetic) one ulp changes the output.
//
// Without low_high_in the limits are stretchlim(I) with [0.01 0.99]
// (default_limits). A backend computes them where the image is, then
// builds the table from them with imadjust_table(plan, limits).
//
// RGB: low_high_in and low_high_out take 2 values (every channel) or 6,
// MATLAB's 2x3 matrix in column-major order [low_r high_r low_g high_g low_b
// high_b]; gamma takes 1 value or 3. The schema enforces the classes, 1 or 3
// channels, the counts' bounds, values in [0, 1] and gamma >= 0 and finite;
// planning enforces the counts per channel and low_in < high_in.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <string>
#include <vector>

#include "../intensity.hpp"
#include "ipt/ipt_plugin.hpp"
#include "stretchlim.hpp"

namespace ipt::frontend {

// MATLAB's lookup tables, one per channel, channel after channel, in the
// bytes of the image's class (int16 entries are stored as their bits).
struct ImadjustTable {
    int32_t dtype = 0;
    int64_t entries = 0;  // per channel: 256 (uint8) or 65536
    int64_t channels = 0;
    std::vector<uint8_t> u8;    // uint8
    std::vector<uint16_t> u16;  // uint16 and int16

    uint64_t element_bytes() const { return dtype == IPT_UINT8 ? 1 : 2; }
    uint64_t channel_bytes() const { return static_cast<uint64_t>(entries) * element_bytes(); }
    uint64_t bytes() const { return channel_bytes() * static_cast<uint64_t>(channels); }
    const void* data() const {
        return dtype == IPT_UINT8 ? static_cast<const void*>(u8.data()) : static_cast<const void*>(u16.data());
    }
    // Entry k of channel ch is the output for the k-th value of the class
    // (int16: -32768 + k).
    template <class T>
    const T* channel(int64_t ch) const {
        return static_cast<const T*>(data()) + ch * entries;
    }
};

struct ImadjustPlan {
    const ipt_tensor* I = nullptr;
    int32_t dtype = 0;  // of I and J
    int64_t rows = 0, cols = 0, channels = 1;
    int64_t plane = 0;  // values per channel
    // One curve per channel. Without low_high_in, low_in and high_in are left
    // at [0, 1] and come from default_limits.
    std::vector<ipt::common::AdjustCurve> curves;
    bool limits_given = false;
    StretchlimPlan default_limits;  // stretchlim(I, [0.01 0.99]); used when !limits_given
    // uint8, uint16, int16: J = table(I). The table is built here when the
    // limits are given and I is not empty; otherwise a backend builds it from
    // default_limits' result with imadjust_table.
    bool uses_table = false;
    int64_t table_entries = 0;
    ImadjustTable table;
};

// One table entry: y = curve(x) scaled by top = n - 1, rounded half away from
// zero and saturated to [0, top] (MATLAB's uint8(255*y) / uint16(65535*y)).
inline uint16_t imadjust_table_value(const ipt::common::AdjustCurve& curve, double x, double top) {
    const double v = top * curve(x);
    if (std::isnan(v)) return 0;
    const double r = std::round(v);  // half away from zero
    return static_cast<uint16_t>(r <= 0 ? 0.0 : (r >= top ? top : r));
}

namespace detail {

// MATLAB's table of one curve into n entries. Every x at or below low_in
// (above high_in) is clamped to the same value before any arithmetic, so
// those entries are computed once.
inline void fill_imadjust_table(const ipt::common::AdjustCurve& curve, int32_t dtype, int64_t n, uint8_t* u8,
                                uint16_t* u16) {
    const double top = static_cast<double>(n - 1);
    const uint16_t bottom_entry = imadjust_table_value(curve, curve.low_in, top);
    const uint16_t top_entry = imadjust_table_value(curve, curve.high_in, top);
    const uint16_t bias = dtype == IPT_INT16 ? 0x8000 : 0;  // uint16 -> int16: minus 32768, as bits
    for (int64_t k = 0; k < n; ++k) {
        const double x = ipt::common::lut_abscissa(k, n);
        const uint16_t v = x <= curve.low_in    ? bottom_entry
                           : x >= curve.high_in ? top_entry
                                                : imadjust_table_value(curve, x, top);
        if (u8) u8[k] = static_cast<uint8_t>(v);
        else u16[k] = static_cast<uint16_t>(v ^ bias);
    }
}

inline bool same_curve(const ipt::common::AdjustCurve& a, const ipt::common::AdjustCurve& b) {
    return a.low_in == b.low_in && a.high_in == b.high_in && a.low_out == b.low_out && a.high_out == b.high_out &&
           a.gamma == b.gamma;
}

}  // namespace detail

// The tables of an integer-class plan. `limits` is stretchlim's result for
// the default low_high_in (2 x channels: row 0 low, row 1 high, as LOWHIGH),
// or null when the plan's limits were given.
inline ImadjustTable imadjust_table(const ImadjustPlan& plan, const double* limits) {
    ImadjustTable t;
    t.dtype = plan.dtype;
    t.entries = plan.table_entries;
    t.channels = plan.channels;
    const size_t total = static_cast<size_t>(t.entries * t.channels);
    if (t.dtype == IPT_UINT8) t.u8.resize(total);
    else t.u16.resize(total);
    std::vector<ipt::common::AdjustCurve> curves = plan.curves;
    for (int64_t ch = 0; ch < plan.channels; ++ch) {
        if (limits) {
            curves[ch].low_in = limits[ch];
            curves[ch].high_in = limits[plan.channels + ch];
        }
        const int64_t at = ch * t.entries;
        int64_t same = -1;  // an earlier channel with the same curve
        for (int64_t e = 0; e < ch && same < 0; ++e)
            if (detail::same_curve(curves[e], curves[ch])) same = e;
        if (same >= 0) {
            if (!t.u8.empty()) std::copy_n(t.u8.begin() + same * t.entries, t.entries, t.u8.begin() + at);
            else std::copy_n(t.u16.begin() + same * t.entries, t.entries, t.u16.begin() + at);
        } else {
            detail::fill_imadjust_table(curves[ch], t.dtype, t.entries, t.u8.empty() ? nullptr : t.u8.data() + at,
                                        t.u16.empty() ? nullptr : t.u16.data() + at);
        }
    }
    return t;
}

// The plan's sizes only (J: class and size of I), without curves or tables:
// what the registry checks outputs against.
inline ImadjustPlan plan_imadjust_output(const ipt::plugin::KernelArgs& args) {
    ImadjustPlan p;
    p.I = args.image("I");
    p.dtype = p.I->dtype;
    p.rows = p.I->rows;
    p.cols = p.I->cols;
    p.channels = p.I->channels;
    p.plane = p.rows * p.cols;
    return p;
}

inline ImadjustPlan plan_imadjust(const ipt::plugin::KernelArgs& args) {
    ImadjustPlan p = plan_imadjust_output(args);
    p.curves.resize(static_cast<size_t>(p.channels));
    const bool rgb = p.channels == 3;

    const double* gamma = args.floats("gamma");
    const uint64_t gamma_count = args.count("gamma");
    if (!(gamma_count == 1 || (rgb && gamma_count == 3)))
        ipt::plugin::invalid(std::string("ipt.imadjust: parameter 'gamma' must have 1 value") +
                             (rgb ? " or 3 (one per channel)" : " for a one-channel image"));
    for (int64_t ch = 0; ch < p.channels; ++ch) p.curves[ch].gamma = gamma[gamma_count == 1 ? 0 : ch];

    auto read_pairs = [&](const char* name, bool is_input) {
        const double* v = args.floats(name);
        const uint64_t count = args.count(name);
        const std::string what = std::string("ipt.imadjust: parameter '") + name + "' must ";
        if (!(count == 2 || (rgb && count == 6)))
            ipt::plugin::invalid(what + "have 2 " +
                                 (rgb ? "or 6 values (RGB: [low_r high_r low_g high_g low_b high_b])"
                                      : "values for a one-channel image"));
        for (int64_t ch = 0; ch < p.channels; ++ch) {
            const double* pair = count == 2 ? v : v + 2 * ch;
            if (is_input && !(pair[0] < pair[1])) ipt::plugin::invalid(what + "have low < high");
            (is_input ? p.curves[ch].low_in : p.curves[ch].low_out) = pair[0];
            (is_input ? p.curves[ch].high_in : p.curves[ch].high_out) = pair[1];
        }
    };
    read_pairs("low_high_out", false);
    p.limits_given = args.present("low_high_in");
    if (p.limits_given) read_pairs("low_high_in", true);
    else p.default_limits = stretchlim_plan_for(p.I, 0.01, 0.99);

    p.uses_table = p.dtype == IPT_UINT8 || p.dtype == IPT_UINT16 || p.dtype == IPT_INT16;
    if (p.uses_table) {
        p.table_entries = p.dtype == IPT_UINT8 ? 256 : 65536;
        if (p.limits_given && p.plane > 0) p.table = imadjust_table(p, nullptr);
    }
    return p;
}

}  // namespace ipt::frontend
