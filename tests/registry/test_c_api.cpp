// SPDX-License-Identifier: Apache-2.0
// The host C API: argument checks, images and transfers, calls and outputs,
// struct_size handling, names.
#include <gtest/gtest.h>

#include <cstring>
#include <locale>
#include <thread>
#include <limits>
#include <string>
#include <vector>

#include "ipt/ipt.h"
#include "ipt/ipt_ops.h"

namespace {

class CApi : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(ipt_context_create(0, &ctx), IPT_OK) << ipt_last_error(); }
    void TearDown() override { ipt_context_destroy(ctx); }
    ipt_context* ctx = nullptr;
};

TEST_F(CApi, NullHandlesAreRejectedWithAMessage) {
    ipt_image* img = nullptr;
    EXPECT_EQ(ipt_context_create(0, nullptr), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ipt_image_create(nullptr, 0, IPT_UINT8, 1, 1, 1, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("ctx is NULL"), std::string::npos);
    EXPECT_EQ(ipt_image_upload(nullptr, "x", 0), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ipt_image_download(nullptr, nullptr, 0), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ipt_call_run(nullptr), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ipt_load_plugin(ctx, nullptr), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ipt_sync(nullptr, 0), IPT_ERR_INVALID_ARGUMENT);
    ipt_image_free(nullptr);
    ipt_call_free(nullptr);
    ipt_context_destroy(nullptr);
}

TEST_F(CApi, ImageSizesAreChecked) {
    ipt_image* img = reinterpret_cast<ipt_image*>(0x1);
    EXPECT_EQ(ipt_image_create(ctx, 0, IPT_UINT8, -1, 4, 1, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("rows must be >= 0"), std::string::npos);
    EXPECT_EQ(ipt_image_create(ctx, 0, IPT_UINT8, 4, 4, 0, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ipt_image_create(ctx, 0, static_cast<ipt_dtype>(42), 4, 4, 1, &img), IPT_ERR_INVALID_ARGUMENT);
    const int64_t huge = std::numeric_limits<int64_t>::max() / 4;
    EXPECT_EQ(ipt_image_create(ctx, 0, IPT_DOUBLE, huge, 16, 1, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_NE(std::string(ipt_last_error()).find("rows " + std::to_string(huge) + " is more than IPT_IMAGE_MAX_DIM"),
              std::string::npos);
    EXPECT_EQ(ipt_image_create(ctx, 99, IPT_UINT8, 4, 4, 1, &img), IPT_ERR_NOT_FOUND);
    EXPECT_EQ(img, reinterpret_cast<ipt_image*>(0x1)) << "outputs untouched on failure";
}

TEST_F(CApi, UploadDownloadWithPitch) {
    ipt_image* img = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT16, 3, 2, 1, &img), IPT_OK);
    // Host rows of 8 bytes, image rows of 4.
    uint16_t host[3][4] = {{1, 2, 99, 99}, {3, 4, 99, 99}, {5, 6, 99, 99}};
    ASSERT_EQ(ipt_image_upload(img, host, 8), IPT_OK);
    uint16_t tight[6] = {};
    ASSERT_EQ(ipt_image_download(img, tight, 0), IPT_OK);
    const uint16_t expect[6] = {1, 2, 3, 4, 5, 6};
    EXPECT_EQ(std::memcmp(tight, expect, sizeof tight), 0);
    EXPECT_EQ(ipt_image_upload(img, host, 2), IPT_ERR_INVALID_ARGUMENT) << "pitch smaller than a row";
    ipt_image_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(ipt_image_get_info(img, &info), IPT_OK);
    EXPECT_EQ(info.rows, 3);
    EXPECT_EQ(info.cols, 2);
    EXPECT_EQ(info.row_pitch, 4);
    EXPECT_EQ(info.dtype, IPT_UINT16);
    ipt_image_free(img);
}

TEST_F(CApi, EmptyImagesAreAllowed) {
    ipt_image* img = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_DOUBLE, 0, 21, 1, &img), IPT_OK);
    EXPECT_EQ(ipt_image_upload(img, nullptr, 0), IPT_OK);
    EXPECT_EQ(ipt_image_download(img, nullptr, 0), IPT_OK);
    ipt_image_free(img);
}

TEST_F(CApi, OlderStructSizesGetOnlyTheirFields) {
    // A caller built against a header whose ipt_device_info ended at `kind`.
    struct OldDeviceInfo {
        uint32_t struct_size;
        uint32_t id;
        const char* name;
        const char* kind;
    };
    unsigned char buffer[sizeof(ipt_device_info) + 16];
    std::memset(buffer, 0xEE, sizeof buffer);
    auto* old = reinterpret_cast<OldDeviceInfo*>(buffer);
    old->struct_size = sizeof(OldDeviceInfo);
    ASSERT_EQ(ipt_device_get(ctx, 0, reinterpret_cast<ipt_device_info*>(buffer)), IPT_OK);
    EXPECT_STREQ(old->kind, "cpu");
    for (size_t i = sizeof(OldDeviceInfo); i < sizeof buffer; ++i) ASSERT_EQ(buffer[i], 0xEE) << "wrote past struct_size";
    ipt_device_info unset{};
    EXPECT_EQ(ipt_device_get(ctx, 0, &unset), IPT_ERR_ABI);
}

TEST_F(CApi, CatalogueIsListed) {
    EXPECT_GE(ipt_op_count(ctx), IPT_BUILTIN_OP_COUNT);
    const ipt_op_schema* conv = ipt_op_find(ctx, "ipt.conv2");
    ASSERT_NE(conv, nullptr);
    EXPECT_STREQ(conv->matlab, "conv2");
    EXPECT_EQ(ipt_op_find(ctx, "conv2"), conv);
    EXPECT_EQ(ipt_op_find(ctx, "nope"), nullptr);
}

TEST_F(CApi, CpuPluginLoadsWithOperators) {
    bool found = false;
    for (uint32_t i = 0; i < ipt_plugin_report_count(ctx); ++i) {
        ipt_plugin_report r{};
        r.struct_size = sizeof r;
        ASSERT_EQ(ipt_plugin_report_get(ctx, i, &r), IPT_OK);
        if (std::string(r.name) == "cpu" && r.outcome == IPT_LOAD_LOADED) {
            found = true;
            EXPECT_EQ(r.abi_version_seen, IPT_ABI_VERSION);
            EXPECT_EQ(r.device_count, 0u) << "the CPU plugin runs on the host device";
            EXPECT_GT(r.impl_count, 0u);
        }
    }
    EXPECT_TRUE(found);
    EXPECT_GT(ipt_impl_count(ctx, "ipt.mean2"), 0u);
}

TEST_F(CApi, CallOutputsAreTakenOnce) {
    double values[4] = {1, 2, 3, 4};
    ipt_image* a = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, 0, IPT_DOUBLE, 2, 2, 1, &a), IPT_OK);
    ASSERT_EQ(ipt_image_upload(a, values, 0), IPT_OK);
    ipt_call* call = nullptr;
    ASSERT_EQ(ipt_call_create(ctx, "ipt.mean2", &call), IPT_OK);
    ASSERT_EQ(ipt_call_set_image(call, "A", a), IPT_OK);
    ASSERT_EQ(ipt_call_run(call), IPT_OK) << ipt_last_error();
    ipt_image* m = nullptr;
    ASSERT_EQ(ipt_call_take_output(call, "m", &m), IPT_OK);
    double mean = 0;
    ASSERT_EQ(ipt_image_download(m, &mean, 0), IPT_OK);
    EXPECT_DOUBLE_EQ(mean, 2.5);
    ipt_image* again = nullptr;
    EXPECT_EQ(ipt_call_take_output(call, "m", &again), IPT_ERR_NOT_FOUND);
    EXPECT_EQ(ipt_call_take_output(call, "A", &again), IPT_ERR_INVALID_ARGUMENT);

    ipt_dispatch_info d{};
    d.struct_size = sizeof d;
    ASSERT_EQ(ipt_last_dispatch(ctx, &d), IPT_OK);
    EXPECT_STREQ(d.op, "ipt.mean2");
    EXPECT_STREQ(d.plugin, "cpu");
    EXPECT_EQ(d.device_id, IPT_DEVICE_HOST);
    EXPECT_GE(d.run_ms, 0.0);
    ipt_image_free(m);
    ipt_call_free(call);
    ipt_image_free(a);
}

TEST_F(CApi, NamesAndVersions) {
    EXPECT_STREQ(ipt_status_name(IPT_ERR_UNSUPPORTED), "IPT_ERR_UNSUPPORTED");
    EXPECT_STREQ(ipt_dtype_name(IPT_SINGLE), "single");
    EXPECT_EQ(ipt_dtype_name(static_cast<ipt_dtype>(0)), nullptr);
    ipt_dtype d;
    ASSERT_EQ(ipt_dtype_from_name("uint16", &d), IPT_OK);
    EXPECT_EQ(d, IPT_UINT16);
    EXPECT_EQ(ipt_dtype_from_name("uint64", &d), IPT_ERR_NOT_FOUND);
    EXPECT_EQ(ipt_dtype_size(IPT_DOUBLE), 8u);
    EXPECT_EQ(ipt_version_abi(), IPT_ABI_VERSION);
}

TEST_F(CApi, ErrorsArePerThread) {
    EXPECT_EQ(ipt_call_run(nullptr), IPT_ERR_INVALID_ARGUMENT);
    std::string here = ipt_last_error();
    std::string there;
    std::thread t([&] { there = ipt_last_error(); });
    t.join();
    EXPECT_FALSE(here.empty());
    EXPECT_TRUE(there.empty());
}

// A host that sets a global C++ locale with another decimal point (as a GUI
// application may) changes neither how text parameters are read nor the
// numbers in messages.
TEST_F(CApi, NumbersIgnoreTheProcessLocale) {
    struct Comma : std::numpunct<char> {
        char do_decimal_point() const override { return ','; }
    };
    const std::locale before = std::locale::global(std::locale(std::locale::classic(), new Comma));
    ipt_image* img = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 4, 4, 1, &img), IPT_OK) << ipt_last_error();
    // The message of a value out of range, or "" when the call runs.
    auto run_with = [&](const char* sigma) -> std::string {
        ipt_call* call = nullptr;
        EXPECT_EQ(ipt_call_create(ctx, "ipt.imgaussfilt", &call), IPT_OK) << ipt_last_error();
        EXPECT_EQ(ipt_call_set_image(call, "A", img), IPT_OK) << ipt_last_error();
        EXPECT_EQ(ipt_call_set_text(call, "sigma", sigma), IPT_OK) << sigma << ": " << ipt_last_error();
        const ipt_status s = ipt_call_run(call);
        std::string msg = s == IPT_OK ? "" : ipt_last_error();
        ipt_call_free(call);
        return msg;
    };
    EXPECT_EQ(run_with("2.5"), "");
    EXPECT_EQ(run_with("+0.25e1"), "");
    EXPECT_NE(run_with("-0.5").find("got -0.5"), std::string::npos);
    // Past double's range: strtod's rule, a signed zero or infinity.
    EXPECT_NE(run_with("-1e-400").find("got -0"), std::string::npos);
    ipt_call* call = nullptr;
    ASSERT_EQ(ipt_call_create(ctx, "ipt.imgaussfilt", &call), IPT_OK);
    EXPECT_EQ(ipt_call_set_text(call, "sigma", "+-2"), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(ipt_call_set_text(call, "sigma", "2.5.1"), IPT_ERR_INVALID_ARGUMENT);
    ipt_call_free(call);
    ipt_image_free(img);
    std::locale::global(before);
}

}  // namespace
