// SPDX-License-Identifier: Apache-2.0
// ipt_call_tiling: the tiling rule of each operator evaluated for a call's
// parameters. Expected halos are each window's reach by hand: floor(m/2) of
// an m-wide window or kernel, ceil(2 sigma) for imgaussfilt's default
// FilterSize 2*ceil(2*sigma)+1. A plugin's malformed rule is an error.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "ipt/ipt.h"
#include "ipt/ipt_ops.h"

namespace {

class Tiling : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(ipt_context_create(0, &ctx), IPT_OK) << ipt_last_error(); }
    void TearDown() override {
        for (ipt_image* im : images) ipt_image_free(im);
        for (ipt_call* c : calls) ipt_call_free(c);
        ipt_context_destroy(ctx);
    }

    ipt_call* call(const char* op) {
        ipt_call* c = nullptr;
        EXPECT_EQ(ipt_call_create(ctx, op, &c), IPT_OK) << ipt_last_error();
        calls.push_back(c);
        return c;
    }
    ipt_image* image(ipt_dtype dtype, int64_t rows, int64_t cols) {
        ipt_image* im = nullptr;
        EXPECT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, dtype, rows, cols, 1, &im), IPT_OK) << ipt_last_error();
        images.push_back(im);
        return im;
    }
    ipt_tiling_info tiling(ipt_call* c, ipt_status expect = IPT_OK) {
        ipt_tiling_info t{};
        t.struct_size = sizeof t;
        EXPECT_EQ(ipt_call_tiling(c, &t), expect) << ipt_last_error();
        return t;
    }
    void expect_window(ipt_call* c, int64_t rows, int64_t cols) {
        ipt_tiling_info t = tiling(c);
        EXPECT_EQ(t.tiling, IPT_TILING_WINDOW) << (t.reason ? t.reason : "");
        EXPECT_EQ(t.halo_rows, rows);
        EXPECT_EQ(t.halo_cols, cols);
        EXPECT_STREQ(t.reason, "");
    }
    void expect_whole(ipt_call* c, const std::string& needle) {
        ipt_tiling_info t = tiling(c);
        EXPECT_EQ(t.tiling, IPT_TILING_WHOLE);
        EXPECT_NE(std::string(t.reason).find(needle), std::string::npos) << t.reason;
    }

    ipt_context* ctx = nullptr;
    std::vector<ipt_call*> calls;
    std::vector<ipt_image*> images;
};

TEST_F(Tiling, WindowSizeParameters) {
    expect_window(call("ipt.medfilt2"), 1, 1);  // default [3 3]
    ipt_call* c = call("ipt.medfilt2");
    const double size[] = {5, 7};
    ASSERT_EQ(ipt_call_set_floats(c, "size", size, 2), IPT_OK);
    expect_window(c, 2, 3);
    ASSERT_EQ(ipt_call_set_text(c, "size", "[4 6]"), IPT_OK);  // even: the longer side of the centre
    expect_window(c, 2, 3);
    ipt_call* box = call("ipt.imboxfilt");
    ASSERT_EQ(ipt_call_set_text(box, "filterSize", "9"), IPT_OK);  // a scalar is both
    expect_window(box, 4, 4);
}

TEST_F(Tiling, GaussianHaloFollowsTheDefaultFilterSize) {
    expect_window(call("ipt.imgaussfilt"), 1, 1);  // sigma 0.5: FilterSize 3
    ipt_call* c = call("ipt.imgaussfilt");
    ASSERT_EQ(ipt_call_set_float(c, "sigma", 2), IPT_OK);
    expect_window(c, 4, 4);  // 2*ceil(4)+1 = 9
    ASSERT_EQ(ipt_call_set_text(c, "sigma", "[1 2.2]"), IPT_OK);
    expect_window(c, 2, 5);  // 5 and 11 taps
    ASSERT_EQ(ipt_call_set_text(c, "FilterSize", "[3 7]"), IPT_OK);  // given: it wins
    expect_window(c, 1, 3);
    ASSERT_EQ(ipt_call_set_string(c, "Padding", "circular"), IPT_OK);
    expect_whole(c, "circular padding wraps around the whole image");
}

TEST_F(Tiling, KernelAndNeighbourhoodImages) {
    ipt_call* f = call("ipt.imfilter");
    ASSERT_EQ(ipt_call_set_image(f, "h", image(IPT_DOUBLE, 3, 5)), IPT_OK);
    expect_window(f, 1, 2);
    ASSERT_EQ(ipt_call_set_string(f, "output", "full"), IPT_OK);
    expect_whole(f, "tiles only when output=same & boundary!=circular");

    ipt_call* d = call("ipt.imdilate");
    ASSERT_EQ(ipt_call_set_image(d, "nhood", image(IPT_LOGICAL, 4, 7)), IPT_OK);
    expect_window(d, 2, 3);
    ipt_call* o = call("ipt.ordfilt2");
    ASSERT_EQ(ipt_call_set_image(o, "domain", image(IPT_LOGICAL, 1, 9)), IPT_OK);
    expect_window(o, 0, 4);

    expect_window(call("ipt.stdfilt"), 1, 1);      // default true(3)
    expect_window(call("ipt.entropyfilt"), 4, 4);  // default true(9)
    ipt_call* s = call("ipt.rangefilt");
    ASSERT_EQ(ipt_call_set_image(s, "nhood", image(IPT_LOGICAL, 5, 1)), IPT_OK);
    expect_window(s, 2, 0);
}

TEST_F(Tiling, Conv2OnlyWithShapeSame) {
    ipt_call* c = call("ipt.conv2");
    ASSERT_EQ(ipt_call_set_image(c, "B", image(IPT_DOUBLE, 5, 4)), IPT_OK);
    expect_whole(c, "ipt.conv2 tiles only when shape=same: the full and valid outputs differ in size from A");
    ASSERT_EQ(ipt_call_set_string(c, "shape", "same"), IPT_OK);
    expect_window(c, 2, 2);

    ipt_call* sep = call("ipt.conv2");
    ASSERT_EQ(ipt_call_set_string(sep, "shape", "same"), IPT_OK);
    // No kernel yet: the rule says what it needs.
    tiling(sep, IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("'B' or 'u' with 'v'"), std::string::npos) << ipt_last_error();
    ASSERT_EQ(ipt_call_set_image(sep, "u", image(IPT_DOUBLE, 7, 1)), IPT_OK);
    ASSERT_EQ(ipt_call_set_image(sep, "v", image(IPT_DOUBLE, 1, 3)), IPT_OK);
    expect_window(sep, 3, 1);
}

TEST_F(Tiling, ConditionsOnGivenParameters) {
    ipt_call* w = call("ipt.wiener2");
    expect_whole(w, "tiles only when noise: without noise, the noise power is the mean of the local variances");
    ASSERT_EQ(ipt_call_set_float(w, "noise", 0.01), IPT_OK);
    expect_window(w, 1, 1);

    ipt_call* m = call("ipt.mat2gray");
    expect_whole(m, "minimum and maximum of the whole image");
    ASSERT_EQ(ipt_call_set_text(m, "limits", "[0 1]"), IPT_OK);
    ipt_tiling_info t = tiling(m);
    EXPECT_EQ(t.tiling, IPT_TILING_POINTWISE);
    EXPECT_EQ(t.halo_rows, 0);
    EXPECT_EQ(t.halo_cols, 0);

    ipt_call* a = call("ipt.adaptthresh");
    expect_whole(a, "follows the image size");
    ASSERT_EQ(ipt_call_set_text(a, "NeighborhoodSize", "[5 3]"), IPT_OK);
    expect_window(a, 10, 6);  // the gaussian statistic's reach, ceil(2n), covers mean and median
}

TEST_F(Tiling, PointwiseReduceAndWhole) {
    ipt_tiling_info p = tiling(call("ipt.imcomplement"));
    EXPECT_EQ(p.tiling, IPT_TILING_POINTWISE);
    EXPECT_STREQ(p.reason, "");
    ipt_tiling_info r = tiling(call("ipt.mean2"));
    EXPECT_EQ(r.tiling, IPT_TILING_REDUCE);
    EXPECT_NE(std::string(r.reason).find("sum of each tile"), std::string::npos);
    expect_whole(call("ipt.histeq"), "ipt.histeq needs the whole image: ");
    expect_whole(call("ipt.bwdist"), "nearest nonzero pixel");
}

TEST_F(Tiling, EveryBuiltinRuleEvaluates) {
    for (uint32_t i = 0; i < IPT_BUILTIN_OP_COUNT; ++i) {
        const ipt_op_schema& op = ipt_builtin_ops[i];
        SCOPED_TRACE(op.name);
        EXPECT_NE(op.tiling, IPT_TILING_UNKNOWN);
        if (op.tiling == IPT_TILING_WHOLE || op.tiling == IPT_TILING_REDUCE) {
            EXPECT_NE(op.tiling_rule, nullptr);
        }
        ipt_call* c = call(op.name);
        ipt_tiling_info t{};
        t.struct_size = sizeof t;
        const ipt_status s = ipt_call_tiling(c, &t);
        // Without their kernel some rules cannot give a halo; none is malformed.
        EXPECT_TRUE(s == IPT_OK || s == IPT_ERR_INVALID_ARGUMENT) << ipt_last_error();
    }
}

TEST_F(Tiling, StructSizeAndArguments) {
    ipt_call* c = call("ipt.medfilt2");
    ipt_tiling_info t{};
    EXPECT_EQ(ipt_call_tiling(c, &t), IPT_ERR_ABI);  // struct_size not set
    EXPECT_EQ(ipt_call_tiling(c, nullptr), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ipt_call_tiling(nullptr, &t), IPT_ERR_INVALID_ARGUMENT);
    // An older reader's shorter struct: nothing written past it.
    ipt_tiling_info shorter{};
    shorter.struct_size = IPT_SIZE_THROUGH(ipt_tiling_info, tiling);
    shorter.halo_rows = -7;
    ASSERT_EQ(ipt_call_tiling(c, &shorter), IPT_OK);
    EXPECT_EQ(shorter.tiling, IPT_TILING_WINDOW);
    EXPECT_EQ(shorter.halo_rows, -7);
    // A size that gives no halo is the caller's error, named.
    ASSERT_EQ(ipt_call_set_text(c, "size", "[-3 3]"), IPT_OK);
    t.struct_size = sizeof t;
    EXPECT_EQ(ipt_call_tiling(c, &t), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("'size'"), std::string::npos) << ipt_last_error();
}

class PluginTiling : public Tiling {
protected:
    void SetUp() override {
        ASSERT_EQ(ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx), IPT_OK);
        const std::string path = std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_fault_bad_tiling.so";
        ASSERT_EQ(ipt_load_plugin(ctx, path.c_str()), IPT_OK) << ipt_last_error();
    }
    void expect_malformed(const char* op, const std::string& needle) {
        SCOPED_TRACE(op);
        ipt_call* c = call(op);
        ASSERT_NE(c, nullptr);
        ipt_tiling_info t{};
        t.struct_size = sizeof t;
        EXPECT_EQ(ipt_call_tiling(c, &t), IPT_ERR_PLUGIN);
        EXPECT_NE(std::string(ipt_last_error()).find(needle), std::string::npos) << ipt_last_error();
    }
};

TEST_F(PluginTiling, MalformedRulesAreErrorsNamingTheRule) {
    expect_malformed("fault.tiling_term", "fault.tiling_term: tiling rule 'blur:size': unknown term 'blur'");
    expect_malformed("fault.tiling_name", "names no parameter 'nope'");
    expect_malformed("fault.tiling_kind", "'dims:size' needs an input image");
    expect_malformed("fault.tiling_enum", "tiling 77 is not an ipt_tiling value");
    expect_malformed("fault.tiling_null", "needs a halo term");
    expect_malformed("fault.tiling_cond", "names no parameter 'mode ~ wide'");
    expect_malformed("fault.tiling_fixed", "whole counts >= 0");
    expect_malformed("fault.tiling_colon", "term 'size' has no ':'");
    expect_malformed("fault.tiling_vec", "'vec:' needs two parameters");
    expect_malformed("fault.tiling_point", "a pointwise operator's rule has no halo terms");
}

TEST_F(PluginTiling, AWellFormedRuleOfAPlugin) {
    ipt_call* c = call("fault.tiling_ok");
    expect_window(c, 2, 2);  // size optional and not given, no h: fixed:2
    ASSERT_EQ(ipt_call_set_image(c, "h", image(IPT_DOUBLE, 7, 3)), IPT_OK);
    expect_window(c, 3, 1);
    ASSERT_EQ(ipt_call_set_text(c, "size", "[9 5]"), IPT_OK);
    expect_window(c, 4, 2);
    ASSERT_EQ(ipt_call_set_string(c, "mode", "wide"), IPT_OK);
    expect_whole(c, "fault.tiling_ok tiles only when mode=narrow: wide looks far");
}

TEST_F(PluginTiling, ASchemaBeforeTilingReadsUnknown) {
    ipt_tiling_info t = tiling(call("fault.tiling_short"));
    EXPECT_EQ(t.tiling, IPT_TILING_UNKNOWN);
    EXPECT_NE(std::string(t.reason).find("does not say how it tiles"), std::string::npos) << t.reason;
}

}  // namespace
