// SPDX-License-Identifier: Apache-2.0
// Misuse of handles (SQLite's misuse detection): a freed handle, or a handle
// of another type, is IPT_ERR_MISUSE with the function and the parameter
// named, never a crash or a read of freed memory. Freed handles stay in the
// library's quarantine for a while, so these uses read valid memory (also
// under AddressSanitizer).
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "ipt/ipt.h"

namespace {

std::string cpu_plugin() { return std::string(IPT_BUILD_LIB_DIR) + "/libipt_cpu.so"; }

void expect_error(const std::string& needle) {
    const std::string message = ipt_last_error();
    EXPECT_NE(message.find(needle), std::string::npos) << "message: " << message;
}

class Misuse : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx), IPT_OK) << ipt_last_error();
        ASSERT_EQ(ipt_load_plugin(ctx, cpu_plugin().c_str()), IPT_OK) << ipt_last_error();
    }
    void TearDown() override { ipt_context_destroy(ctx); }

    ipt_image* image(int64_t rows = 2, int64_t cols = 2) {
        ipt_image* img = nullptr;
        EXPECT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, rows, cols, 1, &img), IPT_OK) << ipt_last_error();
        std::vector<uint8_t> v(static_cast<size_t>(rows * cols), 4);
        EXPECT_EQ(ipt_image_upload(img, v.data(), 0), IPT_OK);
        return img;
    }
    ipt_call* mean2() {
        ipt_call* call = nullptr;
        EXPECT_EQ(ipt_call_create(ctx, "ipt.mean2", &call), IPT_OK) << ipt_last_error();
        return call;
    }

    ipt_context* ctx = nullptr;
};

TEST_F(Misuse, DoubleImageFreeIsIgnoredAndReported) {
    ipt_image* img = image();
    ipt_image_free(img);
    ipt_image_free(img);
    expect_error("ipt_image_free: parameter 'image' is an ipt_image that was already freed");
}

TEST_F(Misuse, FreedImageIsMisuseInEveryImageFunction) {
    ipt_image* img = image();
    ipt_image_free(img);
    uint8_t host[4] = {};
    EXPECT_EQ(ipt_image_upload(img, host, 0), IPT_ERR_MISUSE);
    expect_error("ipt_image_upload: parameter 'image' is an ipt_image that was already freed");
    EXPECT_EQ(ipt_image_download(img, host, 0), IPT_ERR_MISUSE);
    expect_error("ipt_image_download: parameter 'image'");
    ipt_image_info info{};
    info.struct_size = sizeof info;
    EXPECT_EQ(ipt_image_get_info(img, &info), IPT_ERR_MISUSE);
    expect_error("ipt_image_get_info: parameter 'image'");
    ipt_image* copy = nullptr;
    EXPECT_EQ(ipt_image_copy_to(ctx, img, IPT_DEVICE_HOST, &copy), IPT_ERR_MISUSE);
    expect_error("ipt_image_copy_to: parameter 'image'");
    EXPECT_EQ(copy, nullptr) << "outputs untouched on failure";
}

TEST_F(Misuse, RunningAFreedCallIsMisuse) {
    ipt_image* img = image();
    ipt_call* call = mean2();
    ASSERT_EQ(ipt_call_set_image(call, "A", img), IPT_OK);
    ipt_call_free(call);
    EXPECT_EQ(ipt_call_run(call), IPT_ERR_MISUSE);
    expect_error("ipt_call_run: parameter 'call' is an ipt_call that was already freed");
    EXPECT_EQ(ipt_call_set_int(call, "A", 1), IPT_ERR_MISUSE);
    expect_error("ipt_call_set_int: parameter 'call'");
    ipt_image* out = nullptr;
    EXPECT_EQ(ipt_call_take_output(call, "m", &out), IPT_ERR_MISUSE);
    EXPECT_EQ(ipt_call_set_device(call, IPT_DEVICE_HOST), IPT_ERR_MISUSE);
    ipt_call_free(call);
    expect_error("ipt_call_free: parameter 'call' is an ipt_call that was already freed");
    ipt_image_free(img);
}

TEST_F(Misuse, FreedImageGivenToSetImageIsMisuse) {
    ipt_image* img = image();
    ipt_call* call = mean2();
    ipt_image_free(img);
    EXPECT_EQ(ipt_call_set_image(call, "A", img), IPT_ERR_MISUSE);
    expect_error("ipt_call_set_image: parameter 'image' is an ipt_image that was already freed");
    ipt_call_free(call);
}

// The call refers to its inputs; one freed before the run is reported by the
// run, naming the parameter, and nothing reads the freed image.
TEST_F(Misuse, InputFreedBeforeTheRunIsMisuseNamingTheParameter) {
    ipt_image* img = image();
    ipt_call* call = mean2();
    ASSERT_EQ(ipt_call_set_image(call, "A", img), IPT_OK);
    ipt_image_free(img);
    EXPECT_EQ(ipt_call_run(call), IPT_ERR_MISUSE);
    expect_error("the image set for 'A' of ipt.mean2 was freed");

    // Setting a live image again makes the call usable: mean2 of fours is 4.
    ipt_image* again = image();
    ASSERT_EQ(ipt_call_set_image(call, "A", again), IPT_OK);
    ASSERT_EQ(ipt_call_run(call), IPT_OK) << ipt_last_error();
    ipt_image* m = nullptr;
    ASSERT_EQ(ipt_call_take_output(call, "m", &m), IPT_OK);
    double v = 0;
    ASSERT_EQ(ipt_image_download(m, &v, 0), IPT_OK);
    EXPECT_EQ(v, 4.0);
    ipt_image_free(m);
    ipt_image_free(again);
    ipt_call_free(call);
}

TEST_F(Misuse, HandleOfAnotherTypeIsMisuse) {
    ipt_image* img = image();
    ipt_call* call = mean2();
    EXPECT_EQ(ipt_call_run(reinterpret_cast<ipt_call*>(img)), IPT_ERR_MISUSE);
    expect_error("ipt_call_run: parameter 'call' is an ipt_image, not an ipt_call");
    ipt_image_info info{};
    info.struct_size = sizeof info;
    EXPECT_EQ(ipt_image_get_info(reinterpret_cast<ipt_image*>(call), &info), IPT_ERR_MISUSE);
    expect_error("ipt_image_get_info: parameter 'image' is an ipt_call, not an ipt_image");
    EXPECT_EQ(ipt_call_set_image(call, "A", reinterpret_cast<ipt_image*>(ctx)), IPT_ERR_MISUSE);
    expect_error("ipt_call_set_image: parameter 'image' is an ipt_context, not an ipt_image");
    EXPECT_EQ(ipt_device_count(reinterpret_cast<ipt_context*>(img)), 0u);
    expect_error("ipt_device_count: parameter 'ctx' is an ipt_image, not an ipt_context");
    // A void function given a foreign handle leaves it alone.
    ipt_image_free(reinterpret_cast<ipt_image*>(call));
    expect_error("ipt_image_free: parameter 'image' is an ipt_call, not an ipt_image");
    ipt_call_free(reinterpret_cast<ipt_call*>(img));
    expect_error("ipt_call_free: parameter 'call' is an ipt_image, not an ipt_call");
    ipt_context_destroy(reinterpret_cast<ipt_context*>(img));
    expect_error("ipt_context_destroy: parameter 'ctx' is an ipt_image, not an ipt_context");
    // Both are still alive and work.
    ASSERT_EQ(ipt_call_set_image(call, "A", img), IPT_OK);
    EXPECT_EQ(ipt_call_run(call), IPT_OK) << ipt_last_error();
    ipt_call_free(call);
    ipt_image_free(img);
}

TEST_F(Misuse, MemoryThatIsNoHandleIsMisuse) {
    alignas(8) unsigned char junk[256] = {};
    EXPECT_EQ(ipt_call_run(reinterpret_cast<ipt_call*>(junk)), IPT_ERR_MISUSE);
    expect_error("ipt_call_run: parameter 'call' is not an ipt_call");
    ipt_image_free(reinterpret_cast<ipt_image*>(junk));
    expect_error("ipt_image_free: parameter 'image' is not an ipt_image");
}

// The quarantine holds many freed handles: the first of a hundred freed ones
// is still recognised.
TEST_F(Misuse, ManyFreedHandlesAreStillRecognised) {
    std::vector<ipt_image*> freed;
    for (int i = 0; i < 100; ++i) freed.push_back(image(1, 1));
    for (ipt_image* img : freed) ipt_image_free(img);
    for (int i = 0; i < 100; ++i) {
        ipt_call* call = mean2();
        ipt_call_free(call);
    }
    ipt_image_info info{};
    info.struct_size = sizeof info;
    EXPECT_EQ(ipt_image_get_info(freed.front(), &info), IPT_ERR_MISUSE);
    expect_error("already freed");
}

TEST(MisuseContext, DestroyedContextIsMisuse) {
    ipt_context* ctx = nullptr;
    ASSERT_EQ(ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx), IPT_OK);
    ipt_context_destroy(ctx);
    EXPECT_EQ(ipt_device_count(ctx), 0u);
    expect_error("ipt_device_count: parameter 'ctx' is an ipt_context that was already destroyed");
    ipt_call* call = nullptr;
    EXPECT_EQ(ipt_call_create(ctx, "ipt.mean2", &call), IPT_ERR_MISUSE);
    EXPECT_EQ(call, nullptr);
    ipt_image* img = nullptr;
    EXPECT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 1, 1, 1, &img), IPT_ERR_MISUSE);
    expect_error("ipt_image_create: parameter 'ctx'");
    EXPECT_EQ(ipt_set_device(ctx, IPT_DEVICE_ANY), IPT_ERR_MISUSE);
    EXPECT_EQ(ipt_op_find(ctx, "ipt.mean2"), nullptr);
    EXPECT_STREQ(ipt_tuning_cache_path(ctx), "");
    ipt_context_destroy(ctx);
    expect_error("ipt_context_destroy: parameter 'ctx' is an ipt_context that was already destroyed");
}

// Images and calls keep what their context holds: an image outlives its
// context (read, freed), and its context's calls report the destruction.
TEST(MisuseContext, ImagesAndCallsOutliveTheirContext) {
    ipt_context* ctx = nullptr;
    ASSERT_EQ(ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx), IPT_OK);
    ASSERT_EQ(ipt_load_plugin(ctx, cpu_plugin().c_str()), IPT_OK) << ipt_last_error();
    ipt_image* img = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_INT16, 1, 3, 1, &img), IPT_OK);
    const int16_t in[3] = {-7, 0, 9};
    ASSERT_EQ(ipt_image_upload(img, in, 0), IPT_OK);
    ipt_call* call = nullptr;
    ASSERT_EQ(ipt_call_create(ctx, "ipt.mean2", &call), IPT_OK);
    ASSERT_EQ(ipt_call_set_image(call, "A", img), IPT_OK);
    ipt_context_destroy(ctx);

    int16_t out[3] = {};
    ASSERT_EQ(ipt_image_download(img, out, 0), IPT_OK) << ipt_last_error();
    EXPECT_EQ(out[0], -7);
    EXPECT_EQ(out[2], 9);
    EXPECT_EQ(ipt_call_run(call), IPT_ERR_MISUSE);
    expect_error("the context of parameter 'call' was destroyed");
    ipt_call_free(call);
    ipt_image_free(img);
}

TEST(MisuseStatus, HasAName) { EXPECT_STREQ(ipt_status_name(IPT_ERR_MISUSE), "IPT_ERR_MISUSE"); }

}  // namespace
