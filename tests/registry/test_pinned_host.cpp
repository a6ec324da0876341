// SPDX-License-Identifier: Apache-2.0
// API version 4: host images that libipt allocates are page-locked through a
// plugin's host_register when they are big enough (1 MiB and more), undone
// through host_unregister before the memory goes, and stay pageable, quietly,
// when the plugin refuses or IPT_PINNED_HOST=0. The registry side runs
// everywhere with the "pinhost" test plugin, which records what it is asked.
// The CUDA cases (byte-exact round trips through the plugin's staging and
// through page-locked host images) skip, saying so, without a CUDA device.
#include <dlfcn.h>
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>
#include <unistd.h>

#include <atomic>
#include <cstdint>
#include <cstdlib>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ipt/ipt.h"

namespace {

// Freed blocks must reach the allocator (and host_unregister) at once, not
// the cache of freed host blocks, which is read once per process.
const int kCacheOff = (setenv("IPT_HOST_CACHE_MB", "0", 1), 0);

std::string plugin(const char* name) { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_" + name + ".so"; }

uint32_t device_of_kind(ipt_context* ctx, const char* kind) {
    for (uint32_t i = 0; i < ipt_device_count(ctx); ++i) {
        ipt_device_info d{};
        d.struct_size = sizeof d;
        if (ipt_device_get(ctx, i, &d) == IPT_OK && std::string(d.kind) == kind) return i;
    }
    return IPT_DEVICE_ANY;
}

void* host_address(const ipt_image* img) {
    void* address = nullptr;
    int64_t pitch = 0;
    EXPECT_EQ(ipt_image_native_address(img, &address, &pitch), IPT_OK) << ipt_last_error();
    return address;
}

// The record the pinhost plugin keeps, read in the library the context loaded.
struct PinRecord {
    void* lib = nullptr;
    uint64_t (*bytes_at)(const void*) = nullptr;
    uint64_t (*count)() = nullptr;
    uint64_t (*unregisters)() = nullptr;
    void (*refuse)(int) = nullptr;
    bool open() {
        lib = dlopen(plugin("pinhost").c_str(), RTLD_NOW | RTLD_NOLOAD);
        if (!lib) return false;
        bytes_at = reinterpret_cast<uint64_t (*)(const void*)>(dlsym(lib, "pinhost_registered_bytes"));
        count = reinterpret_cast<uint64_t (*)()>(dlsym(lib, "pinhost_registered_count"));
        unregisters = reinterpret_cast<uint64_t (*)()>(dlsym(lib, "pinhost_unregister_calls"));
        refuse = reinterpret_cast<void (*)(int)>(dlsym(lib, "pinhost_refuse"));
        return bytes_at && count && unregisters && refuse;
    }
    ~PinRecord() {
        if (lib) dlclose(lib);
    }
};

class PinnedHost : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(kCacheOff, 0);
        ASSERT_EQ(ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx), IPT_OK) << ipt_last_error();
        ASSERT_EQ(ipt_load_plugin(ctx, plugin("pinhost").c_str()), IPT_OK) << ipt_last_error();
        ASSERT_TRUE(rec.open()) << dlerror();
        rec.refuse(0);
        dev = device_of_kind(ctx, "pinhost");
        ASSERT_NE(dev, IPT_DEVICE_ANY);
    }
    void TearDown() override { ipt_context_destroy(ctx); }

    ipt_context* ctx = nullptr;
    PinRecord rec;
    uint32_t dev = IPT_DEVICE_ANY;
};

TEST_F(PinnedHost, ApiVersionIsFour) { EXPECT_GE(ipt_version_api(), 4u); }

TEST_F(PinnedHost, BigHostImagesAreRegisteredAndUnregisteredOnFree) {
    const uint64_t before = rec.count(), unregs = rec.unregisters();
    ipt_image* big = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 1024, 2048, 1, &big), IPT_OK) << ipt_last_error();
    void* address = host_address(big);
    // The whole image (2 MiB) at least, as the block behind it is registered.
    EXPECT_GE(rec.bytes_at(address), uint64_t{1024} * 2048);
    EXPECT_EQ(rec.count(), before + 1);
    ipt_image_free(big);
    EXPECT_EQ(rec.bytes_at(address), 0u);
    EXPECT_EQ(rec.count(), before);
    EXPECT_EQ(rec.unregisters(), unregs + 1);
}

TEST_F(PinnedHost, SmallHostImagesAndDeviceImagesAreNot) {
    const uint64_t before = rec.count();
    ipt_image* small = nullptr;  // 1 MiB less one row: under the threshold
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 1023, 1024, 1, &small), IPT_OK);
    EXPECT_EQ(rec.bytes_at(host_address(small)), 0u);
    ipt_image* on_device = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, dev, IPT_UINT8, 2048, 2048, 1, &on_device), IPT_OK);
    EXPECT_EQ(rec.count(), before);
    ipt_image_free(small);
    ipt_image_free(on_device);
    EXPECT_EQ(rec.count(), before);
}

TEST_F(PinnedHost, RefusalLeavesAWorkingPageableImage) {
    rec.refuse(1);
    const uint64_t unregs = rec.unregisters();
    ipt_image* big = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT16, 1024, 1024, 1, &big), IPT_OK) << ipt_last_error();
    EXPECT_EQ(rec.bytes_at(host_address(big)), 0u);
    // It still carries data to the device and back, byte for byte.
    std::vector<uint16_t> data(1024 * 1024), back(data.size());
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint16_t>(i * 2654435761u >> 7);
    ASSERT_EQ(ipt_image_upload(big, data.data(), 0), IPT_OK) << ipt_last_error();
    ipt_image* there = nullptr;
    ASSERT_EQ(ipt_image_copy_to(ctx, big, dev, &there), IPT_OK) << ipt_last_error();
    ASSERT_EQ(ipt_image_download(there, back.data(), 0), IPT_OK) << ipt_last_error();
    EXPECT_EQ(data, back);
    ipt_image_free(there);
    ipt_image_free(big);
    // Never registered, so never unregistered.
    EXPECT_EQ(rec.unregisters(), unregs);
}

TEST_F(PinnedHost, OutputsOnTheHostAreRegisteredToo) {
    // A device image brought to the host is a host image libipt allocates.
    ipt_image* on_device = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, dev, IPT_UINT8, 1024, 1536, 1, &on_device), IPT_OK);
    std::vector<uint8_t> data(1024 * 1536);
    for (size_t i = 0; i < data.size(); ++i) data[i] = static_cast<uint8_t>(i % 251);
    ASSERT_EQ(ipt_image_upload(on_device, data.data(), 0), IPT_OK);
    ipt_image* home = nullptr;
    ASSERT_EQ(ipt_image_copy_to(ctx, on_device, IPT_DEVICE_HOST, &home), IPT_OK) << ipt_last_error();
    void* address = host_address(home);
    EXPECT_GE(rec.bytes_at(address), data.size());
    EXPECT_EQ(std::memcmp(address, data.data(), data.size()), 0);
    ipt_image_free(home);
    EXPECT_EQ(rec.bytes_at(address), 0u);
    ipt_image_free(on_device);
}

TEST(PinnedHostSwitch, ZeroKeepsHostImagesPageable) {
    ASSERT_EQ(kCacheOff, 0);
    setenv("IPT_PINNED_HOST", "0", 1);
    ipt_context* ctx = nullptr;
    ASSERT_EQ(ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx), IPT_OK) << ipt_last_error();
    unsetenv("IPT_PINNED_HOST");
    ASSERT_EQ(ipt_load_plugin(ctx, plugin("pinhost").c_str()), IPT_OK) << ipt_last_error();
    PinRecord rec;
    ASSERT_TRUE(rec.open());
    const uint64_t before = rec.count();
    ipt_image* big = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 2048, 2048, 1, &big), IPT_OK);
    EXPECT_EQ(rec.bytes_at(host_address(big)), 0u);
    EXPECT_EQ(rec.count(), before);
    ipt_image_free(big);
    ipt_context_destroy(ctx);
}

TEST(PinnedHostSwitch, PluginsWithoutTheSlotPinNothing) {
    ipt_context* ctx = nullptr;
    ASSERT_EQ(ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx), IPT_OK);
    ASSERT_EQ(ipt_load_plugin(ctx, plugin("testdev").c_str()), IPT_OK) << ipt_last_error();
    ipt_image* big = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 2048, 2048, 1, &big), IPT_OK);
    std::vector<uint8_t> data(2048 * 2048, 7), back(data.size());
    ASSERT_EQ(ipt_image_upload(big, data.data(), 0), IPT_OK);
    ASSERT_EQ(ipt_image_download(big, back.data(), 0), IPT_OK);
    EXPECT_EQ(data, back);
    ipt_image_free(big);
    ipt_context_destroy(ctx);
}

// ---- the transfer model ---------------------------------------------------------

std::string temp_cache(const char* name) {
    const std::string path = testing::TempDir() + "ipt_pinned_" + name + "_" + std::to_string(getpid()) + ".json";
    std::remove(path.c_str());
    return path;
}

nlohmann::json read_json(const std::string& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// A context with only the CPU plugin and pinhost (a GPU plugin found beside
// libipt would lock host images before pinhost), measuring every candidate
// on a miss (IPT_SELECT=measure, so that a first call prices transfers) into
// the cache at `path`; the identity of pinhost's device in `identity`.
ipt_context* priced_context(const std::string& path, std::string* identity) {
    ipt_context* ctx = nullptr;
    ::setenv("IPT_SELECT", "measure", 1);
    const ipt_status created = ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx);
    ::unsetenv("IPT_SELECT");
    if (created != IPT_OK ||
        ipt_load_plugin(ctx, (std::string(IPT_BUILD_LIB_DIR) + "/libipt_cpu.so").c_str()) != IPT_OK ||
        ipt_set_tuning_cache(ctx, path.c_str()) != IPT_OK || ipt_load_plugin(ctx, plugin("pinhost").c_str()) != IPT_OK)
        return nullptr;
    ipt_device_info d{};
    d.struct_size = sizeof d;
    if (ipt_device_get(ctx, device_of_kind(ctx, "pinhost"), &d) != IPT_OK) return nullptr;
    *identity = d.identity;
    return ctx;
}

// Runs mean2 on `img` under the measured selection and returns pinhost's
// candidate record (transfer_ms < 0 when it was not a candidate).
ipt_candidate_info run_mean2(ipt_context* ctx, const ipt_image* img) {
    ipt_candidate_info found{};
    found.transfer_ms = -1;
    ipt_call* call = nullptr;
    EXPECT_EQ(ipt_call_create(ctx, "ipt.mean2", &call), IPT_OK);
    EXPECT_EQ(ipt_call_set_image(call, "A", img), IPT_OK);
    EXPECT_EQ(ipt_call_run(call), IPT_OK) << ipt_last_error();
    ipt_call_free(call);
    const uint32_t pin = device_of_kind(ctx, "pinhost");
    for (uint32_t i = 0; i < ipt_last_candidate_count(ctx); ++i) {
        ipt_candidate_info c{};
        c.struct_size = sizeof c;
        if (ipt_last_candidate_get(ctx, i, &c) == IPT_OK && c.device_id == pin) found = c;
    }
    return found;
}

TEST(PinnedTransferModel, LockedCurvesAreMeasuredForThePinnersDevice) {
    ASSERT_EQ(kCacheOff, 0);
    for (const char* pin : {"1", "0"}) {
        const std::string path = temp_cache(pin);
        setenv("IPT_PINNED_HOST", pin, 1);
        std::string identity;
        ipt_context* ctx = priced_context(path, &identity);
        unsetenv("IPT_PINNED_HOST");
        ASSERT_NE(ctx, nullptr) << ipt_last_error();
        ipt_image* img = nullptr;
        ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 1024, 2048, 1, &img), IPT_OK);
        std::vector<uint8_t> data(1024 * 2048, 3);
        ASSERT_EQ(ipt_image_upload(img, data.data(), 0), IPT_OK);
        EXPECT_GE(run_mean2(ctx, img).transfer_ms, 0.0) << "pinhost was priced";
        ipt_image_free(img);
        ASSERT_EQ(ipt_tuning_cache_save(ctx), IPT_OK) << ipt_last_error();
        ipt_context_destroy(ctx);
        const nlohmann::json j = read_json(path);
        ASSERT_TRUE(j.at("transfer").contains(identity)) << identity;
        for (auto& [dev, t] : j.at("transfer").items()) {
            // Only the device whose plugin locks host images has locked curves, and only when locking is on.
            const bool expect_locked = dev == identity && std::string(pin) == "1";
            EXPECT_EQ(t.contains("up_locked"), expect_locked) << dev << " IPT_PINNED_HOST=" << pin;
            EXPECT_EQ(t.contains("down_locked"), expect_locked) << dev << " IPT_PINNED_HOST=" << pin;
            if (expect_locked)
                for (const char* dir : {"up_locked", "down_locked"}) {
                    ASSERT_EQ(t.at(dir).size(), t.at("up").size()) << dir;  // the same sizes as the pageable curves
                    for (size_t i = 0; i < t.at(dir).size(); ++i)
                        EXPECT_EQ(t.at(dir)[i].at(0), t.at("up")[i].at(0)) << dir;
                }
        }
        std::remove(path.c_str());
    }
}

TEST(PinnedTransferModel, LockedInputsArePricedOnTheLockedCurve) {
    ASSERT_EQ(kCacheOff, 0);
    const std::string path = temp_cache("priced");
    std::string identity;
    std::vector<uint8_t> data(1024 * 2048, 9);
    {
        ipt_context* ctx = priced_context(path, &identity);
        ASSERT_NE(ctx, nullptr) << ipt_last_error();
        ipt_image* img = nullptr;
        ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 1024, 2048, 1, &img), IPT_OK);
        ASSERT_EQ(ipt_image_upload(img, data.data(), 0), IPT_OK);
        run_mean2(ctx, img);
        ipt_image_free(img);
        ASSERT_EQ(ipt_tuning_cache_save(ctx), IPT_OK) << ipt_last_error();
        ipt_context_destroy(ctx);
    }
    // Curves by hand: a pageable copy costs 50 ms at 4 KiB and 150 at 64 MiB,
    // a locked one 2 and 6, linear in between.
    nlohmann::json j = read_json(path);
    ASSERT_TRUE(j.at("transfer").contains(identity));
    constexpr double small = 4096, large = 64.0 * (1 << 20);
    auto line = [&](double a, double b) { return nlohmann::json::array({{small, a}, {large, b}}); };
    j["transfer"][identity] = {
        {"up", line(50, 150)}, {"down", line(50, 150)}, {"up_locked", line(2, 6)}, {"down_locked", line(2, 6)}};
    {
        std::ofstream out(path);
        out << j.dump(1);
    }
    ipt_context* ctx = priced_context(path, &identity);
    ASSERT_NE(ctx, nullptr) << ipt_last_error();
    ipt_image* locked = nullptr;
    ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 1024, 2048, 1, &locked), IPT_OK);
    ASSERT_EQ(ipt_image_upload(locked, data.data(), 0), IPT_OK);
    ipt_image* pageable = nullptr;  // the caller's memory: never locked by libipt
    ASSERT_EQ(ipt_image_wrap_host(ctx, IPT_UINT8, 1024, 2048, 1, data.data(), 0, &pageable), IPT_OK);
    // Up, 2 MiB: on the locked line or the pageable one; the 8-byte result
    // comes back into the caller's memory, pageable, at the 4 KiB price (50).
    const double at = (data.size() - small) / (large - small);
    EXPECT_NEAR(run_mean2(ctx, locked).transfer_ms, 2.0 + 4.0 * at + 50.0, 1e-9);
    EXPECT_NEAR(run_mean2(ctx, pageable).transfer_ms, 50.0 + 100.0 * at + 50.0, 1e-9);
    ipt_image_free(pageable);
    ipt_image_free(locked);
    ipt_context_destroy(ctx);
    std::remove(path.c_str());
}

// ---- on a CUDA device (the CUDA plugin found beside libipt) --------------------

// The CUDA plugin's staging chunk (backends/cuda/staging.cu) and the size
// under which copies go straight through: round trips of these sizes, one
// either side, cross every path of the pipeline.
constexpr size_t kChunk = size_t{8} << 20;
constexpr size_t kDirect = size_t{256} << 10;

class PinnedCuda : public ::testing::Test {
protected:
    void SetUp() override {
        ASSERT_EQ(ipt_context_create(0, &ctx), IPT_OK) << ipt_last_error();
        cuda = device_of_kind(ctx, "cuda");
        if (cuda == IPT_DEVICE_ANY) GTEST_SKIP() << "no CUDA device (the CUDA plugin is not built or finds no GPU)";
    }
    void TearDown() override { ipt_context_destroy(ctx); }

    // Uploads `n` bytes from an address `skew` bytes past an allocation's
    // start and downloads them to another such address; the bytes must come
    // back as they were (each a function of its position and `seed`).
    void round_trip(size_t n, size_t skew, uint32_t seed) {
        std::vector<uint8_t> src(n + skew), dst(n + skew + 1, 0xEE);
        for (size_t i = 0; i < n; ++i) src[skew + i] = static_cast<uint8_t>((i * 131 + seed * 7 + (i >> 11)) & 0xFF);
        ipt_image* img = nullptr;
        ASSERT_EQ(ipt_image_create(ctx, cuda, IPT_UINT8, 1, static_cast<int64_t>(n), 1, &img), IPT_OK)
            << ipt_last_error();
        ASSERT_EQ(ipt_image_upload(img, src.data() + skew, 0), IPT_OK) << ipt_last_error();
        ASSERT_EQ(ipt_image_download(img, dst.data() + 1 + skew, 0), IPT_OK) << ipt_last_error();
        ipt_image_free(img);
        ASSERT_EQ(std::memcmp(src.data() + skew, dst.data() + 1 + skew, n), 0) << n << " bytes, skew " << skew;
        EXPECT_EQ(dst[skew], 0xEE) << "a byte before the destination was written";
    }

    ipt_context* ctx = nullptr;
    uint32_t cuda = IPT_DEVICE_ANY;
};

TEST_F(PinnedCuda, PageableRoundTripsOfOddSizesAreExact) {
    const size_t sizes[] = {1, 3, kDirect - 1, kDirect, kDirect + 1, kChunk - 1, kChunk, kChunk + 1,
                            3 * kChunk + 7, 5 * kChunk - 3};
    uint32_t seed = 0;
    for (size_t n : sizes)
        for (size_t skew : {size_t{0}, size_t{1}, size_t{7}}) {
            round_trip(n, skew, ++seed);
            if (HasFatalFailure()) return;
        }
}

TEST_F(PinnedCuda, PinnedHostImagesRoundTripExactly) {
    for (size_t n : {kChunk - 1, 2 * kChunk + 5}) {
        ipt_image* host = nullptr;
        ASSERT_EQ(ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, 1, static_cast<int64_t>(n), 1, &host), IPT_OK);
        auto* p = static_cast<uint8_t*>(host_address(host));
        for (size_t i = 0; i < n; ++i) p[i] = static_cast<uint8_t>(i * 197 + 11);
        ipt_image* there = nullptr;
        ASSERT_EQ(ipt_image_copy_to(ctx, host, cuda, &there), IPT_OK) << ipt_last_error();
        ipt_image* back = nullptr;
        ASSERT_EQ(ipt_image_copy_to(ctx, there, IPT_DEVICE_HOST, &back), IPT_OK) << ipt_last_error();
        EXPECT_EQ(std::memcmp(host_address(back), p, n), 0) << n << " bytes";
        // And into the caller's pageable memory, at an odd address.
        std::vector<uint8_t> out(n + 3);
        ASSERT_EQ(ipt_image_download(there, out.data() + 3, 0), IPT_OK) << ipt_last_error();
        EXPECT_EQ(std::memcmp(out.data() + 3, p, n), 0) << n << " bytes";
        ipt_image_free(back);
        ipt_image_free(there);
        ipt_image_free(host);
    }
}

TEST_F(PinnedCuda, ConcurrentThreadsKeepTheirBytes) {
    // More threads than the staging buffers of a device: they must take
    // turns for buffers, never share one.
    constexpr int kThreads = 6;
    std::atomic<int> failures{0};
    std::vector<std::thread> threads;
    for (int t = 0; t < kThreads; ++t)
        threads.emplace_back([&, t] {
            // One thread on the per-thread default stream, the others on the plugin's.
            if (t == 0 && ipt_set_native_stream(ctx, cuda, reinterpret_cast<void*>(uintptr_t{2})) != IPT_OK)
                ++failures;
            for (int k = 0; k < 4; ++k) {
                const size_t n = (t % 3 == 0 ? kChunk + 1 : (t % 3 == 1 ? 2 * kChunk - 1 : kDirect * 3)) + k * 4099;
                std::vector<uint8_t> src(n + 1), dst(n + 1);
                for (size_t i = 0; i < n; ++i) src[1 + i] = static_cast<uint8_t>(i * 31 + t * 17 + k);
                ipt_image* img = nullptr;
                if (ipt_image_create(ctx, cuda, IPT_UINT8, 1, static_cast<int64_t>(n), 1, &img) != IPT_OK ||
                    ipt_image_upload(img, src.data() + 1, 0) != IPT_OK ||
                    ipt_image_download(img, dst.data() + 1, 0) != IPT_OK ||
                    std::memcmp(src.data() + 1, dst.data() + 1, n) != 0)
                    ++failures;
                ipt_image_free(img);
            }
            if (t == 0) ipt_set_native_stream(ctx, cuda, nullptr);
        });
    for (auto& th : threads) th.join();
    EXPECT_EQ(failures.load(), 0);
}

}  // namespace
