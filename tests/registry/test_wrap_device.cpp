// SPDX-License-Identifier: Apache-2.0
// API version 3: images over memory the caller owns on a device
// (ipt_image_wrap_device), the device address of an image
// (ipt_image_native_address) and the caller's queue (ipt_set_native_stream).
// The validation runs everywhere on the test plugins' devices ("testdev"
// lacks the slots, "testdev2" has them over host memory); the CUDA cases
// skip, saying so, where no CUDA device is present.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>
#include <thread>
#include <vector>

#include "ipt/ipt.h"
#include "ipt/ipt.hpp"

namespace {

std::string plugin(const char* name) { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_" + name + ".so"; }

uint32_t device_of_kind(ipt_context* ctx, const char* kind) {
    for (uint32_t i = 0; i < ipt_device_count(ctx); ++i) {
        ipt_device_info d{};
        d.struct_size = sizeof d;
        if (ipt_device_get(ctx, i, &d) == IPT_OK && std::string(d.kind) == kind) return i;
    }
    return IPT_DEVICE_ANY;
}

bool error_has(const char* text) { return std::string(ipt_last_error()).find(text) != std::string::npos; }

class WrapDevice : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx), IPT_OK) << ipt_last_error();
        ASSERT_EQ(ipt_load_plugin(ctx, plugin("testdev").c_str()), IPT_OK) << ipt_last_error();
        ASSERT_EQ(ipt_load_plugin(ctx, plugin("testdev2").c_str()), IPT_OK) << ipt_last_error();
        plain = device_of_kind(ctx, "testdev");
        wraps = device_of_kind(ctx, "testdev2");
        ASSERT_NE(plain, IPT_DEVICE_ANY);
        ASSERT_NE(wraps, IPT_DEVICE_ANY);
    }
    void TearDown() override { ipt_context_destroy(ctx); }

    ipt_context* ctx = nullptr;
    uint32_t plain = IPT_DEVICE_ANY, wraps = IPT_DEVICE_ANY;
};

TEST_F(WrapDevice, ApiVersionIsThree) { EXPECT_GE(ipt_version_api(), 3u); }

TEST_F(WrapDevice, WrapsWithoutCopyingAndNeverFrees) {
    std::vector<uint8_t> data = {1, 2, 3, 4, 5, 6};
    const std::vector<uint8_t> before = data;
    ipt_image* img = nullptr;
    ASSERT_EQ(ipt_image_wrap_device(ctx, wraps, IPT_UINT8, 2, 3, 1, data.data(), 3, &img), IPT_OK)
        << ipt_last_error();
    void* address = nullptr;
    int64_t pitch = 0;
    ASSERT_EQ(ipt_image_native_address(img, &address, &pitch), IPT_OK);
    EXPECT_EQ(address, data.data());  // the caller's memory itself
    EXPECT_EQ(pitch, 3);
    ipt_image_info info{};
    info.struct_size = sizeof info;
    ASSERT_EQ(ipt_image_get_info(img, &info), IPT_OK);
    EXPECT_EQ(info.device_id, wraps);

    // An input of a call on its device: mean2 of 1..6 is 3.5 (by hand).
    ipt_call* call = nullptr;
    ASSERT_EQ(ipt_call_create(ctx, "ipt.mean2", &call), IPT_OK);
    ASSERT_EQ(ipt_call_set_image(call, "A", img), IPT_OK);
    ASSERT_EQ(ipt_call_set_device(call, wraps), IPT_OK);
    ASSERT_EQ(ipt_call_set_variant(call, ""), IPT_OK);
    ASSERT_EQ(ipt_call_run(call), IPT_OK) << ipt_last_error();
    ipt_image* m = nullptr;
    ASSERT_EQ(ipt_call_take_output(call, "m", &m), IPT_OK);
    double mean = 0;
    ASSERT_EQ(ipt_image_download(m, &mean, 0), IPT_OK);
    EXPECT_DOUBLE_EQ(mean, 3.5);
    // An output's address is its own memory, readable in place.
    void* out_address = nullptr;
    ASSERT_EQ(ipt_image_native_address(m, &out_address, nullptr), IPT_OK);
    ASSERT_NE(out_address, nullptr);
    EXPECT_DOUBLE_EQ(*static_cast<const double*>(out_address), 3.5);
    ipt_image_free(m);
    ipt_call_free(call);

    // Never written: uploads into it are refused.
    EXPECT_EQ(ipt_image_upload(img, before.data(), 0), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("never writes"));
    // The host reads it through the device's memory functions.
    std::vector<uint8_t> back(6);
    ASSERT_EQ(ipt_image_download(img, back.data(), 0), IPT_OK);
    EXPECT_EQ(back, before);
    // Freed without freeing the caller's memory (a free() of a vector's
    // storage would be caught by the allocator or the sanitizer).
    ipt_image_free(img);
    EXPECT_EQ(data, before);
}

TEST_F(WrapDevice, ValidatesEveryParameter) {
    alignas(8) uint8_t data[64] = {};
    ipt_image* img = nullptr;
    auto wrap = [&](uint32_t dev, ipt_dtype dt, int64_t r, int64_t c, int64_t ch, void* p, int64_t pitch,
                    ipt_image** out) { return ipt_image_wrap_device(ctx, dev, dt, r, c, ch, p, pitch, out); };

    EXPECT_EQ(wrap(wraps, IPT_UINT8, 2, 3, 1, data, 0, nullptr), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("out is NULL"));
    EXPECT_EQ(wrap(999, IPT_UINT8, 2, 3, 1, data, 0, &img), IPT_ERR_NOT_FOUND);
    EXPECT_TRUE(error_has("device_id"));
    // The host device: a clear error pointing to ipt_image_wrap_host.
    EXPECT_EQ(wrap(IPT_DEVICE_HOST, IPT_UINT8, 2, 3, 1, data, 0, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("ipt_image_wrap_host"));
    // A plugin without mem_wrap.
    EXPECT_EQ(wrap(plain, IPT_UINT8, 2, 3, 1, data, 0, &img), IPT_ERR_UNSUPPORTED);
    EXPECT_TRUE(error_has("cannot wrap")) << ipt_last_error();
    EXPECT_TRUE(error_has("testdev"));
    EXPECT_EQ(wrap(wraps, static_cast<ipt_dtype>(99), 2, 3, 1, data, 0, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("dtype"));
    EXPECT_EQ(wrap(wraps, IPT_UINT8, -1, 3, 1, data, 0, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("rows"));
    EXPECT_EQ(wrap(wraps, IPT_UINT8, 2, 3, 0, data, 0, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("channels"));
    EXPECT_EQ(wrap(wraps, IPT_UINT8, INT64_C(1) << 30, INT64_C(1) << 30, 1, data, 0, &img),
              IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("IPT_IMAGE_MAX_BYTES"));
    EXPECT_EQ(wrap(wraps, IPT_UINT16, 2, 3, 1, data, 5, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("row_pitch 5 is smaller than a row (6 bytes)")) << ipt_last_error();
    EXPECT_EQ(wrap(wraps, IPT_UINT16, 2, 3, 1, data, 8, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("row_pitch 8 must be 0 or cols * element size (6)")) << ipt_last_error();
    EXPECT_EQ(wrap(wraps, IPT_UINT8, 2, 3, 1, data, -3, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("row_pitch"));
    EXPECT_EQ(wrap(wraps, IPT_UINT8, 2, 3, 1, nullptr, 0, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("native_address is NULL"));
    EXPECT_EQ(wrap(wraps, IPT_DOUBLE, 2, 3, 1, data + 4, 0, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("native_address is not aligned to its element size (8 bytes)")) << ipt_last_error();
    // The end of the image past the end of the address space.
    EXPECT_EQ(wrap(wraps, IPT_UINT8, 1, 64, 1, reinterpret_cast<void*>(UINTPTR_MAX - 15), 0, &img),
              IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("wraps around"));
    // The plugin's own refusal, named.
    EXPECT_EQ(wrap(wraps, IPT_UINT8, 2, 3, 1, reinterpret_cast<void*>(uintptr_t{64}), 0, &img),
              IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("ipt_image_wrap_device")) << ipt_last_error();
    EXPECT_TRUE(error_has("native_address is not memory of the test device")) << ipt_last_error();
    EXPECT_EQ(img, nullptr);  // nothing handed out on failure
    // A missing or wrong handle is an error, never a crash.
    EXPECT_EQ(ipt_image_native_address(nullptr, nullptr, nullptr), IPT_ERR_INVALID_ARGUMENT);
    void* a = nullptr;
    EXPECT_EQ(ipt_image_native_address(reinterpret_cast<const ipt_image*>(ctx), &a, nullptr), IPT_ERR_MISUSE);
}

TEST_F(WrapDevice, NativeAddressOfHostImages) {
    ipt_image* img = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_SINGLE, 2, 5, 1, &img), IPT_OK);
    void* a = nullptr;
    int64_t pitch = 0;
    EXPECT_EQ(ipt_image_native_address(img, nullptr, &pitch), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("address is NULL"));
    ASSERT_EQ(ipt_image_native_address(img, &a, &pitch), IPT_OK);
    EXPECT_NE(a, nullptr);
    EXPECT_EQ(pitch, 20);
    ipt_image_free(img);
}

TEST_F(WrapDevice, NativeStream) {
    int queue = 0;
    EXPECT_EQ(ipt_set_native_stream(ctx, wraps, &queue), IPT_OK) << ipt_last_error();
    EXPECT_EQ(ipt_set_native_stream(ctx, wraps, nullptr), IPT_OK);
    EXPECT_EQ(ipt_set_native_stream(ctx, plain, &queue), IPT_ERR_UNSUPPORTED);
    EXPECT_TRUE(error_has("does not take a caller's queue")) << ipt_last_error();
    EXPECT_EQ(ipt_set_native_stream(ctx, IPT_DEVICE_HOST, &queue), IPT_ERR_UNSUPPORTED);
    EXPECT_TRUE(error_has("is the host"));
    EXPECT_EQ(ipt_set_native_stream(ctx, 999, &queue), IPT_ERR_NOT_FOUND);
    EXPECT_TRUE(error_has("device_id"));
    EXPECT_EQ(ipt_set_native_stream(nullptr, wraps, &queue), IPT_ERR_INVALID_ARGUMENT);
}

// The same through the C++ wrapper: wrap_device, native_address, NativeStream.
TEST(WrapDeviceCpp, WrapperFunctions) {
    ipt::Context ctx(IPT_CONTEXT_NO_DISCOVERY);
    ctx.load_plugin(plugin("testdev"));
    ctx.load_plugin(plugin("testdev2"));
    const uint32_t wraps = device_of_kind(ctx.get(), "testdev2");
    const uint32_t plain = device_of_kind(ctx.get(), "testdev");
    ASSERT_NE(wraps, IPT_DEVICE_ANY);
    std::vector<uint8_t> data = {1, 2, 3, 4, 5, 6};
    ipt::Image img = ctx.wrap_device(wraps, IPT_UINT8, 2, 3, data.data());
    EXPECT_EQ(img.native_address().address, data.data());
    EXPECT_EQ(img.native_address().row_pitch, 3);
    EXPECT_EQ(img.info().device_id, wraps);
    {
        int queue = 0;
        ipt::NativeStream on(ctx, wraps, &queue);
        ipt::Call call(ctx, "ipt.mean2");
        call.image("A", img).device(wraps).run();
        EXPECT_DOUBLE_EQ(call.take("m").download<double>().at(0), 3.5);  // (1+...+6)/6 by hand
    }
    EXPECT_EQ(data, (std::vector<uint8_t>{1, 2, 3, 4, 5, 6}));
    try {
        int queue = 0;
        ipt::NativeStream refused(ctx, plain, &queue);
        FAIL() << "a device without set_stream took a stream";
    } catch (const ipt::Error& e) {
        EXPECT_EQ(e.status(), IPT_ERR_UNSUPPORTED);
    }
    EXPECT_THROW(ctx.wrap_device(IPT_DEVICE_HOST, IPT_UINT8, 2, 3, data.data()), ipt::Error);
}

// The Vulkan plugin takes neither: a clear error naming it.
TEST(WrapVulkan, IsUnsupported) {
    ipt_context* ctx = nullptr;
    ASSERT_EQ(ipt_context_create(0, &ctx), IPT_OK) << ipt_last_error();
    const uint32_t vk = device_of_kind(ctx, "vulkan");
    if (vk == IPT_DEVICE_ANY) {
        ipt_context_destroy(ctx);
        GTEST_SKIP() << "no Vulkan device (the Vulkan plugin is not built or no driver is installed)";
    }
    alignas(8) uint8_t data[16] = {};
    ipt_image* img = nullptr;
    EXPECT_EQ(ipt_image_wrap_device(ctx, vk, IPT_UINT8, 4, 4, 1, data, 0, &img), IPT_ERR_UNSUPPORTED);
    EXPECT_TRUE(error_has("plugin 'vulkan'")) << ipt_last_error();
    EXPECT_EQ(ipt_set_native_stream(ctx, vk, data), IPT_ERR_UNSUPPORTED);
    EXPECT_TRUE(error_has("plugin 'vulkan'")) << ipt_last_error();
    ipt_context_destroy(ctx);
}

// ---- on a CUDA device (the CUDA plugin found beside libipt) --------------------

class WrapCuda : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(ipt_context_create(0, &ctx), IPT_OK) << ipt_last_error();
        cuda = device_of_kind(ctx, "cuda");
        if (cuda == IPT_DEVICE_ANY) GTEST_SKIP() << "no CUDA device (the CUDA plugin is not built or finds no GPU)";
    }
    void TearDown() override { ipt_context_destroy(ctx); }
    ipt_context* ctx = nullptr;
    uint32_t cuda = IPT_DEVICE_ANY;
};

TEST_F(WrapCuda, WrappedDeviceMemoryIsAnInputOnTheCallersStream) {
    // Device memory the test owns: an image of the plugin's, wrapped by address.
    std::vector<uint8_t> data(40 * 30);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i * 7 + 3);
    ipt_image* owner = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, cuda, IPT_UINT8, 40, 30, 1, &owner), IPT_OK);
    ASSERT_EQ(ipt_image_upload(owner, data.data(), 0), IPT_OK);
    void* address = nullptr;
    ASSERT_EQ(ipt_image_native_address(owner, &address, nullptr), IPT_OK);
    ipt_image* wrapped = nullptr;
    ASSERT_EQ(ipt_image_wrap_device(ctx, cuda, IPT_UINT8, 40, 30, 1, address, 30, &wrapped), IPT_OK)
        << ipt_last_error();
    // The legacy default stream (cudaStreamLegacy) as the caller's.
    ASSERT_EQ(ipt_set_native_stream(ctx, cuda, reinterpret_cast<void*>(uintptr_t{1})), IPT_OK) << ipt_last_error();
    ipt_call* call = nullptr;
    ASSERT_EQ(ipt_call_create(ctx, "ipt.imcomplement", &call), IPT_OK);
    ASSERT_EQ(ipt_call_set_image(call, "I", wrapped), IPT_OK);
    ASSERT_EQ(ipt_call_set_device(call, cuda), IPT_OK);
    ASSERT_EQ(ipt_call_run(call), IPT_OK) << ipt_last_error();
    ipt_image* out = nullptr;
    ASSERT_EQ(ipt_call_take_output(call, "J", &out), IPT_OK);
    std::vector<uint8_t> back(data.size());
    ASSERT_EQ(ipt_image_download(out, back.data(), 0), IPT_OK);
    for (size_t i = 0; i < data.size(); ++i) ASSERT_EQ(back[i], 255 - data[i]) << i;
    ipt_image_free(out);
    ipt_call_free(call);
    ASSERT_EQ(ipt_set_native_stream(ctx, cuda, nullptr), IPT_OK);
    ipt_image_free(wrapped);
    // The memory is still the owner's, unchanged.
    ASSERT_EQ(ipt_image_download(owner, back.data(), 0), IPT_OK);
    EXPECT_EQ(back, data);
    ipt_image_free(owner);
}

// mean2 and imhist finish in the launch that reads the image, through a
// zeroed scratch per stream that each kernel leaves zero again. Interleaved
// on the plugin's stream and on the caller's (legacy and per-thread default
// streams), from two threads at once, every result must still be the one
// counted here by hand.
TEST(CudaStreams, ReductionsStayRightAcrossStreamsAndThreads) {
    ipt::Context ctx;
    const uint32_t cuda = device_of_kind(ctx.get(), "cuda");
    if (cuda == IPT_DEVICE_ANY) GTEST_SKIP() << "no CUDA device (the CUDA plugin is not built or finds no GPU)";
    auto run_both = [&](void* stream, int seed, std::string& failure) {
        if (ipt_set_native_stream(ctx.get(), cuda, stream) != IPT_OK) {
            failure = ipt_last_error();
            return;
        }
        for (int round = 0; round < 40 && failure.empty(); ++round) {
            const int rows = 37 + (seed * 7 + round * 13) % 300, cols = 29 + (seed * 5 + round * 11) % 400;
            std::vector<uint8_t> pixels(static_cast<size_t>(rows) * cols);
            uint32_t x = 2463534242u + static_cast<uint32_t>(seed * 1000 + round);
            long long sum = 0;
            std::vector<double> counts(256, 0.0);
            for (auto& p : pixels) {
                x ^= x << 13;
                x ^= x >> 17;
                x ^= x << 5;
                p = static_cast<uint8_t>(x >> 24);
                sum += p;
                counts[p] += 1;
            }
            try {
                ipt::Image img = ctx.upload(IPT_UINT8, rows, cols, pixels.data(), 1, cuda);
                ipt::Call mean(ctx, "ipt.mean2");
                mean.image("A", img).device(cuda).run();
                const double m = mean.take("m").download<double>().at(0);
                if (m != static_cast<double>(sum) / static_cast<double>(pixels.size()))
                    failure = "mean2 gave " + std::to_string(m) + " in round " + std::to_string(round);
                ipt::Call hist(ctx, "ipt.imhist");
                hist.image("I", img).device(cuda).run();
                if (hist.take("counts").download<double>() != counts)
                    failure = "imhist counts wrong in round " + std::to_string(round);
            } catch (const ipt::Error& e) {
                failure = e.what();
            }
        }
        ipt_set_native_stream(ctx.get(), cuda, nullptr);
    };
    std::string own_failure, legacy_failure, per_thread_failure;
    run_both(nullptr, 1, own_failure);  // the plugin's own stream
    std::thread legacy(run_both, reinterpret_cast<void*>(uintptr_t{1}), 2, std::ref(legacy_failure));
    std::thread per_thread(run_both, reinterpret_cast<void*>(uintptr_t{2}), 3, std::ref(per_thread_failure));
    legacy.join();
    per_thread.join();
    EXPECT_EQ(own_failure, "");
    EXPECT_EQ(legacy_failure, "");
    EXPECT_EQ(per_thread_failure, "");
}

TEST_F(WrapCuda, HostMemoryIsNotDeviceMemory) {
    std::vector<uint8_t> host(16);
    ipt_image* img = nullptr;
    EXPECT_EQ(ipt_image_wrap_device(ctx, cuda, IPT_UINT8, 4, 4, 1, host.data(), 0, &img), IPT_ERR_INVALID_ARGUMENT);
    EXPECT_TRUE(error_has("native_address")) << ipt_last_error();
}

}  // namespace
