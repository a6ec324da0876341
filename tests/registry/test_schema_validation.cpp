// SPDX-License-Identifier: Apache-2.0
// Validation against the catalogue: one test per rule. Each bad call gets
// IPT_ERR_INVALID_ARGUMENT (or NOT_FOUND for unknown names) with a message
// that names the operator and the parameter, and no output is produced.
#include <gtest/gtest.h>

#include <cmath>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"

namespace {

ipt::Context& ctx() {
    static ipt::Context c;
    return c;
}

template <class T>
ipt::Image img(int64_t rows, int64_t cols, int64_t channels = 1) {
    std::vector<T> v(static_cast<size_t>(rows * cols * channels), T(1));
    return ctx().upload<T>(rows, cols, v, channels);
}

// Runs the call and expects a validation failure mentioning every needle.
void expect_invalid(ipt::Call& call, std::initializer_list<std::string> needles,
                    ipt_status status = IPT_ERR_INVALID_ARGUMENT) {
    EXPECT_EQ(ipt_call_run(call.get()), status);
    std::string msg = ipt_last_error();
    for (const auto& n : needles) EXPECT_NE(msg.find(n), std::string::npos) << "'" << msg << "' lacks '" << n << "'";
    for (const char* out : {"C", "B", "m", "Z", "BW", "D"}) {
        ipt_image* o = nullptr;
        if (ipt_call_take_output(call.get(), out, &o) == IPT_OK) {
            ADD_FAILURE() << "output " << out << " produced by a failed call";
            ipt_image_free(o);
        }
    }
}

// A number list is counted before it is expanded: 40 ranges of 9 million
// values each are refused by the count, not built first.
TEST(Validation, NumberListsAreCountedBeforeTheyAreExpanded) {
    ipt::Call call(ctx(), "ipt.radon");
    std::string text;
    for (int i = 0; i < 40; ++i) text += "0:0.000001:9 ";
    EXPECT_EQ(ipt_call_set_text(call.get(), "theta", text.c_str()), IPT_ERR_INVALID_ARGUMENT);
    const std::string msg = ipt_last_error();
    EXPECT_NE(msg.find("'theta'"), std::string::npos) << msg;
    EXPECT_NE(msg.find("has more than 1048576 values"), std::string::npos) << msg;
    // Within the bound a range still expands.
    EXPECT_EQ(ipt_call_set_text(call.get(), "theta", "0:0.5:179"), IPT_OK) << ipt_last_error();
}

TEST(Validation, UnknownOperator) {
    ipt_call* call = nullptr;
    EXPECT_EQ(ipt_call_create(ctx().get(), "ipt.nosuchop", &call), IPT_ERR_NOT_FOUND);
    EXPECT_NE(std::string(ipt_last_error()).find("ipt.nosuchop"), std::string::npos);
    EXPECT_EQ(call, nullptr);
}

TEST(Validation, OperatorWithoutNamespaceFindsBuiltin) {
    ipt::Call call(ctx(), "conv2");
    EXPECT_NE(call.get(), nullptr);
}

TEST(Validation, UnknownParameterName) {
    ipt::Call call(ctx(), "ipt.conv2");
    EXPECT_EQ(ipt_call_set_text(call.get(), "shpe", "same"), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("'shpe'"), std::string::npos);
    EXPECT_NE(std::string(ipt_last_error()).find("shape"), std::string::npos) << "lists the real names";
}

TEST(Validation, WrongParameterKind) {
    ipt::Call call(ctx(), "ipt.conv2");
    EXPECT_EQ(ipt_call_set_int(call.get(), "A", 3), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("'A' is an input image"), std::string::npos) << ipt_last_error();
    ipt::Image a = img<double>(2, 2);
    EXPECT_EQ(ipt_call_set_image(call.get(), "shape", a.get()), IPT_ERR_INVALID_ARGUMENT);
}

TEST(Validation, NullImage) {
    ipt::Call call(ctx(), "ipt.conv2");
    EXPECT_EQ(ipt_call_set_image(call.get(), "A", nullptr), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("'A'"), std::string::npos);
}

TEST(Validation, RequiredParameterMissing) {
    ipt::Call call(ctx(), "ipt.mean2");
    expect_invalid(call, {"ipt.mean2", "'A'", "required"});
}

TEST(Validation, WrongClass) {
    ipt::Image a = img<uint8_t>(3, 3);
    ipt::Call call(ctx(), "ipt.conv2");
    call.image("A", a).image("B", a);
    expect_invalid(call, {"ipt.conv2", "'A'", "single, double", "uint8"});
}

TEST(Validation, ChannelsMustBeOneUnlessRgb) {
    ipt::Image a = img<double>(3, 3, 3);
    ipt::Image b = img<double>(2, 2);
    ipt::Call call(ctx(), "ipt.conv2");
    call.image("A", a).image("B", b);
    expect_invalid(call, {"'A'", "2-D", "3 channels"});
    ipt::Image four = img<uint8_t>(3, 3, 4);
    ipt::Call m(ctx(), "ipt.mean2");
    m.image("A", four);
    expect_invalid(m, {"'A'", "1 or 3 channels"});
}

// IPT_P_PLANES takes any number of planes (imresize's A); IPT_P_RGB still
// takes 1 or 3, with the same message.
TEST(Validation, PlanesTakeAnyCountRgbStillOneOrThree) {
    ipt::Image five = img<uint8_t>(3, 4, 5);
    ipt::Call resize(ctx(), "ipt.imresize");
    resize.image("A", five).numbers("Scale", {2});
    ASSERT_EQ(ipt_call_run(resize.get()), IPT_OK) << ipt_last_error();
    ipt::Image b = resize.take("B");
    EXPECT_EQ(b.rows(), 6);
    EXPECT_EQ(b.cols(), 8);
    EXPECT_EQ(b.channels(), 5);
    ipt::Image two = img<uint8_t>(3, 3, 2);
    ipt::Call m(ctx(), "ipt.mean2");
    m.image("A", two);
    EXPECT_EQ(ipt_call_run(m.get()), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(std::string(ipt_last_error()), "ipt.mean2: parameter 'A' must have 1 or 3 channels, got 2");
    ipt::Image h = img<double>(3, 3);
    ipt::Call filter(ctx(), "ipt.imfilter");
    filter.image("A", two).image("h", h);
    expect_invalid(filter, {"ipt.imfilter", "'A'", "1 or 3 channels, got 2"});
}

TEST(Validation, VectorRequired) {
    ipt::Image a = img<double>(4, 4);
    ipt::Image u = img<double>(2, 2);
    ipt::Image v = img<double>(1, 3);
    ipt::Call call(ctx(), "ipt.conv2");
    call.image("A", a).image("u", u).image("v", v);
    expect_invalid(call, {"'u'", "vector"});
}

TEST(Validation, NonEmptyRequired) {
    ipt::Image a = img<double>(4, 4);
    ipt::Image h = img<double>(0, 3);
    ipt::Call call(ctx(), "ipt.imfilter");
    call.image("A", a).image("h", h);
    expect_invalid(call, {"ipt.imfilter", "'h'", "empty"});
}

TEST(Validation, FiniteRequired) {
    ipt::Image a = img<double>(4, 4);
    ipt::Call call(ctx(), "ipt.radon");
    call.image("I", a).numbers("theta", {0, NAN, 90});
    expect_invalid(call, {"ipt.radon", "'theta'", "finite", "nan"});
}

TEST(Validation, WholeNumberRequired) {
    ipt::Image a = img<uint8_t>(4, 4);
    ipt::Call call(ctx(), "ipt.medfilt2");
    call.image("A", a).numbers("size", {3, 2.5});
    expect_invalid(call, {"ipt.medfilt2", "'size'", "whole number", "2.5"});
}

TEST(Validation, NumberInRange) {
    ipt::Image a = img<uint8_t>(4, 4);
    ipt::Call call(ctx(), "ipt.stretchlim");
    call.image("I", a).numbers("tol", {0.1, 1.5});
    expect_invalid(call, {"ipt.stretchlim", "'tol'", "[0, 1]", "1.5"});
}

TEST(Validation, ValueCount) {
    ipt::Image a = img<uint8_t>(4, 4);
    ipt::Call call(ctx(), "ipt.medfilt2");
    call.image("A", a).numbers("size", {3, 3, 3});
    expect_invalid(call, {"'size'", "must have 2 values", "got 3"});
}

TEST(Validation, IntegerFromAllowedSet) {
    ipt::Image a = img<uint8_t>(4, 4);
    ipt::Call call(ctx(), "ipt.imregionalmax");
    call.image("I", a).integer("conn", 6);
    expect_invalid(call, {"ipt.imregionalmax", "'conn'", "'4' or '8'", "6"});
}

TEST(Validation, NanWhereIntegerExpected) {
    ipt::Call call(ctx(), "ipt.imregionalmax");
    EXPECT_EQ(ipt_call_set_float(call.get(), "conn", NAN), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("NaN"), std::string::npos) << ipt_last_error();
    EXPECT_EQ(ipt_call_set_text(call.get(), "conn", "nan"), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ipt_call_set_float(call.get(), "conn", 4.5), IPT_ERR_INVALID_ARGUMENT);
}

TEST(Validation, EnumValue) {
    ipt::Call call(ctx(), "ipt.conv2");
    EXPECT_EQ(ipt_call_set_string(call.get(), "shape", "middle"), IPT_ERR_INVALID_ARGUMENT);
    std::string msg = ipt_last_error();
    EXPECT_NE(msg.find("'shape'"), std::string::npos);
    EXPECT_NE(msg.find("'full', 'same' or 'valid'"), std::string::npos) << msg;
    EXPECT_EQ(ipt_call_set_string(call.get(), "shape", "SAME"), IPT_OK) << "MATLAB options are case-insensitive";
}

TEST(Validation, SameSize) {
    ipt::Image a1 = img<double>(3, 3);
    ipt::Image a2 = img<double>(3, 4);
    ipt::Call call(ctx(), "ipt.imlincomb");
    call.numbers("K", {1, 1}).image("A1", a1).image("A2", a2);
    expect_invalid(call, {"ipt.imlincomb", "'A2'", "size of 'A1'", "3x3x1", "3x4x1"});
}

TEST(Validation, SameClass) {
    ipt::Image a = img<uint8_t>(3, 3);
    std::vector<uint16_t> lut(256, 0);
    ipt::Image l = ctx().upload<uint16_t>(1, 256, lut);
    ipt::Call call(ctx(), "ipt.intlut");
    call.image("A", a).image("LUT", l);
    expect_invalid(call, {"ipt.intlut", "'LUT'", "class of 'A'", "uint8", "uint16"});
}

TEST(Validation, LookupTableLength) {
    ipt::Image a = img<uint8_t>(3, 3);
    std::vector<uint8_t> lut(255, 0);
    ipt::Image l = ctx().upload<uint8_t>(255, 1, lut);
    ipt::Call call(ctx(), "ipt.intlut");
    call.image("A", a).image("LUT", l);
    expect_invalid(call, {"'LUT'", "256 entries", "got 255"});
}

TEST(Validation, CoefficientCountMatchesImages) {
    ipt::Image a1 = img<double>(3, 3);
    ipt::Image a2 = img<double>(3, 3);
    ipt::Call call(ctx(), "ipt.imlincomb");
    call.numbers("K", {1, 2, 3, 4}).image("A1", a1).image("A2", a2);
    expect_invalid(call, {"'K'", "one value per image (2)", "got 4"});
}

TEST(Validation, OrderWithinDomain) {
    ipt::Image a = img<uint8_t>(5, 5);
    std::vector<uint8_t> dom = {1, 0, 1, 0, 1, 0, 1, 0, 1};
    ipt::Image d = ctx().upload(IPT_LOGICAL, 3, 3, dom.data());
    ipt::Call call(ctx(), "ipt.ordfilt2");
    call.image("A", a).image("domain", d).integer("order", 6);
    expect_invalid(call, {"ipt.ordfilt2", "'order'", "nnz(domain) = 5", "got 6"});
    call.integer("order", 0);
    expect_invalid(call, {"'order'"});
}

TEST(Validation, ColormapShape) {
    ipt::Image rgb = img<uint8_t>(4, 4, 3);
    ipt::Image map = img<double>(4, 2);
    ipt::Call call(ctx(), "ipt.dither");
    call.image("I", rgb).image("map", map);
    expect_invalid(call, {"ipt.dither", "'map'", "n x 3"});
}

TEST(Validation, ExactlyOneAlternative) {
    ipt::Image a = img<double>(4, 4);
    ipt::Image v = img<double>(1, 3);
    {
        ipt::Call call(ctx(), "ipt.conv2");
        call.image("A", a);
        expect_invalid(call, {"ipt.conv2", "exactly one of 'B' or 'u,v'"});
    }
    {
        ipt::Call call(ctx(), "ipt.conv2");
        call.image("A", a).image("u", v);
        expect_invalid(call, {"'u,v' go together"});
    }
    {
        ipt::Call call(ctx(), "ipt.conv2");
        call.image("A", a).image("B", a).image("u", v).image("v", v);
        expect_invalid(call, {"more than one"});
    }
}

TEST(Validation, TextForms) {
    ipt::Call call(ctx(), "ipt.radon");
    EXPECT_EQ(ipt_call_set_text(call.get(), "theta", "0:45:180"), IPT_OK);
    EXPECT_EQ(ipt_call_set_text(call.get(), "theta", "[0 30, 60]"), IPT_OK);
    EXPECT_EQ(ipt_call_set_text(call.get(), "theta", "[1 2 x]"), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("'theta'"), std::string::npos);
}

TEST(Validation, ImageFromAnotherContext) {
    ipt::Context other(IPT_CONTEXT_NO_DISCOVERY);
    std::vector<double> v = {1};
    ipt::Image foreign = other.upload<double>(1, 1, v);
    ipt::Call call(ctx(), "ipt.mean2");
    EXPECT_EQ(ipt_call_set_image(call.get(), "A", foreign.get()), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("another context"), std::string::npos);
}

TEST(Validation, CatalogueDefaultsAllParse) {
    // Every default in the catalogue must parse (a broken default would only
    // show when a call omits that parameter).
    for (const ipt_op_schema* op : ctx().ops()) {
        ipt::Call call(ctx(), op->name);
        for (uint32_t i = 0; i < op->param_count; ++i) {
            const ipt_param_schema& p = *ipt_op_param(op, i);
            if (!p.default_text) continue;
            EXPECT_EQ(ipt_call_set_text(call.get(), p.name, p.default_text), IPT_OK)
                << op->name << "." << p.name << " default '" << p.default_text << "': " << ipt_last_error();
        }
    }
}

}  // namespace
