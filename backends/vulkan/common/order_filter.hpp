// SPDX-License-Identifier: Apache-2.0
// Order-statistic filtering on the device, shared by ipt.ordfilt2 and
// ipt.medfilt2 (common/order_filter.cpp, shaders/order_filter.comp).
#pragma once

#include <vector>

#include "common/ops/ordfilt2.hpp"
#include "op_support.hpp"

namespace ipt::vk {

struct OrderFilter {
    const ipt_tensor* a = nullptr;
    std::vector<int32_t> offsets;  // (dr, dc) pairs, unless rect
    std::vector<double> s;         // additive offsets (ordfilt2's S), or empty
    bool rect = false;             // an m x n window
    int64_t rect_rows = 0, rect_cols = 0;
    int64_t origin_r = 0, origin_c = 0;  // rect: the window's centre (the front-end's)
    int64_t order = 1;             // 1-based
    bool median_even = false;      // average orders `order` and `order` + 1
    bool symmetric = false;        // else a constant pad
    double pad_value = 0;
    const char* out_name = "B";
    int32_t out_dtype = IPT_DOUBLE;

    // The front-end's padding (common/ops/ordfilt2.hpp).
    void set_padding(const ipt::frontend::order::Padding& pad) {
        symmetric = pad.kind == ipt::frontend::order::Pad::Symmetric;
        pad_value = pad.value;
    }
};

// Checks the size, allocates the output and records the filter.
void record_order_filter(OpContext& ctx, const OrderFilter& f);

// Records the filter of a device image (rows x cols x planes of class dtype;
// f.a unused) into out, of class f.out_dtype.
void record_order_filter_into(OpContext& ctx, Recorder& rec, const OrderFilter& f, VkDeviceAddress a, int32_t dtype,
                              int64_t rows, int64_t cols, int64_t planes, VkDeviceAddress out);

}  // namespace ipt::vk
