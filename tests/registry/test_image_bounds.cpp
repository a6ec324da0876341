// SPDX-License-Identifier: Apache-2.0
// Image dimensions are bounded so that no size arithmetic overflows: each of
// rows, cols and channels at most IPT_IMAGE_MAX_DIM, the bytes at most
// IPT_IMAGE_MAX_BYTES, for images the caller creates and for outputs a plugin
// asks for. Each refusal names the parameter.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include "ipt/ipt.h"

namespace {

std::string plugin_file(const std::string& name) { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_" + name + ".so"; }
std::string cpu_plugin() { return std::string(IPT_BUILD_LIB_DIR) + "/libipt_cpu.so"; }

void expect_error(const std::string& needle) {
    const std::string message = ipt_last_error();
    EXPECT_NE(message.find(needle), std::string::npos) << "message: " << message;
}

class ImageBounds : public ::testing::Test {
protected:
    void SetUp() override { ASSERT_EQ(ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx), IPT_OK); }
    void TearDown() override { ipt_context_destroy(ctx); }
    ipt_status create(ipt_dtype dtype, int64_t rows, int64_t cols, int64_t channels) {
        ipt_image* img = nullptr;
        const ipt_status s = ipt_image_create(ctx, IPT_DEVICE_HOST, dtype, rows, cols, channels, &img);
        ipt_image_free(img);
        return s;
    }
    ipt_context* ctx = nullptr;
};

TEST_F(ImageBounds, EachDimensionIsBoundedAndNamed) {
    const int64_t big = int64_t(1) << 62;
    EXPECT_EQ(create(IPT_UINT8, big, 0, 1), IPT_ERR_INVALID_ARGUMENT);
    expect_error("ipt_image_create: rows 4611686018427387904 is more than IPT_IMAGE_MAX_DIM (2147483647)");
    EXPECT_EQ(create(IPT_UINT8, 0, big, 1), IPT_ERR_INVALID_ARGUMENT);
    expect_error("ipt_image_create: cols 4611686018427387904 is more than IPT_IMAGE_MAX_DIM");
    EXPECT_EQ(create(IPT_UINT8, 0, 0, big), IPT_ERR_INVALID_ARGUMENT);
    expect_error("ipt_image_create: channels 4611686018427387904 is more than IPT_IMAGE_MAX_DIM");
    EXPECT_EQ(create(IPT_UINT8, IPT_IMAGE_MAX_DIM + 1, 0, 1), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(create(IPT_UINT8, std::numeric_limits<int64_t>::max(), 1, 1), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_EQ(create(IPT_UINT8, -1, 4, 1), IPT_ERR_INVALID_ARGUMENT);
    expect_error("rows must be >= 0");
    EXPECT_EQ(create(IPT_UINT8, 4, std::numeric_limits<int64_t>::min(), 1), IPT_ERR_INVALID_ARGUMENT);
    expect_error("cols must be >= 0");
    EXPECT_EQ(create(IPT_UINT8, 4, 4, 0), IPT_ERR_INVALID_ARGUMENT);
    expect_error("channels must be >= 1");
}

// An empty image may have a large other dimension, within the bound.
TEST_F(ImageBounds, EmptyImagesWithinTheBoundAreAllowed) {
    EXPECT_EQ(create(IPT_DOUBLE, IPT_IMAGE_MAX_DIM, 0, 1), IPT_OK) << ipt_last_error();
    EXPECT_EQ(create(IPT_DOUBLE, 0, IPT_IMAGE_MAX_DIM, IPT_IMAGE_MAX_DIM), IPT_OK) << ipt_last_error();
    ipt_image* img = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_DOUBLE, 0, IPT_IMAGE_MAX_DIM, 1, &img), IPT_OK);
    ipt_image_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(ipt_image_get_info(img, &info), IPT_OK);
    EXPECT_EQ(info.row_pitch, IPT_IMAGE_MAX_DIM * 8);
    ipt_image_free(img);
}

// Dimensions each within the bound whose product is not: 2^31-1 squared
// elements of 8 bytes is about 2^65 bytes.
TEST_F(ImageBounds, TotalBytesAreBounded) {
    EXPECT_EQ(create(IPT_DOUBLE, IPT_IMAGE_MAX_DIM, IPT_IMAGE_MAX_DIM, 1), IPT_ERR_INVALID_ARGUMENT);
    expect_error("is more than IPT_IMAGE_MAX_BYTES");
    EXPECT_EQ(create(IPT_UINT8, IPT_IMAGE_MAX_DIM, IPT_IMAGE_MAX_DIM, IPT_IMAGE_MAX_DIM), IPT_ERR_INVALID_ARGUMENT);
    expect_error("is more than IPT_IMAGE_MAX_BYTES");
    // 2^24 x 2^24 bytes is exactly the bound; one more column of doubles is not.
    EXPECT_EQ(create(IPT_DOUBLE, int64_t(1) << 24, (int64_t(1) << 21) + 1, 1), IPT_ERR_INVALID_ARGUMENT);
}

TEST_F(ImageBounds, HostRowPitchIsBounded) {
    ipt_image* img = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 4, 2, 1, &img), IPT_OK);
    uint8_t host[8] = {};
    EXPECT_EQ(ipt_image_upload(img, host, std::numeric_limits<int64_t>::max()), IPT_ERR_INVALID_ARGUMENT);
    expect_error("ipt_image_upload: host_row_pitch");
    EXPECT_EQ(ipt_image_download(img, host, -8), IPT_ERR_INVALID_ARGUMENT);
    expect_error("ipt_image_download: host_row_pitch -8");
    EXPECT_EQ(ipt_image_download(img, host, 2), IPT_OK);
    ipt_image_free(img);
}

// An output a plugin asks for through alloc_output is bounded the same way.
TEST_F(ImageBounds, PluginOutputsAreBounded) {
    ASSERT_EQ(ipt_load_plugin(ctx, cpu_plugin().c_str()), IPT_OK) << ipt_last_error();
    ASSERT_EQ(ipt_load_plugin(ctx, plugin_file("fault_wrong_output").c_str()), IPT_OK) << ipt_last_error();
    ipt_image* img = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 2, 2, 1, &img), IPT_OK);
    const uint8_t v[4] = {1, 2, 3, 4};
    ASSERT_EQ(ipt_image_upload(img, v, 0), IPT_OK);
    ipt_call* call = nullptr;
    ASSERT_EQ(ipt_call_create(ctx, "fault.any", &call), IPT_OK);
    ASSERT_EQ(ipt_call_set_image(call, "A", img), IPT_OK);
    EXPECT_EQ(ipt_call_run(call), IPT_ERR_INVALID_ARGUMENT);
    expect_error("alloc_output: output 'B' of fault.any: rows 1099511627776 is more than IPT_IMAGE_MAX_DIM");
    ipt_call_free(call);
    ipt_image_free(img);
}

}  // namespace
