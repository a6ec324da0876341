// SPDX-License-Identifier: Apache-2.0
// VkFFT's kernels stored on disk (vulkan-vkfft-*.bin beside the tuning cache)
// are checked before VkFFT reads them: a blob of garbage, a blob cut short in
// the middle of a kernel, or one cut at a kernel's end with its kernel count
// rewritten to match, each under a valid checksum, is recompiled instead, and
// conv2's fft variant gives the right result, pinned or chosen by automatic
// selection (which measures the fft candidate). Each context here is the only
// one, so the plugin reads the file anew when it loads.
#include <gtest/gtest.h>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"

namespace {

namespace fs = std::filesystem;

constexpr int64_t kRows = 70, kCols = 70, kKernel = 15;

// The layout KernelStore writes: "IPTVKFT2", VkFFT's version, the entry count,
// then per entry: key size, key, blob size, kernel count, FNV-1a of the blob, blob.
struct StoredEntry {
    std::string key;
    uint64_t kernels = 0;
    std::vector<uint32_t> blob;
};
struct StoredFile {
    std::string header;  // magic and version
    std::vector<StoredEntry> entries;
};

uint64_t fnv1a(const void* p, size_t n) {
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < n; ++i) h = (h ^ static_cast<const uint8_t*>(p)[i]) * 1099511628211ull;
    return h;
}

bool parse(const std::string& data, StoredFile& f) {
    size_t at = 0;
    auto u64 = [&](uint64_t& v) {
        if (data.size() - at < 8) return false;
        std::memcpy(&v, data.data() + at, 8);
        at += 8;
        return true;
    };
    if (data.size() < 24 || data.compare(0, 8, "IPTVKFT2") != 0) return false;
    f.header = data.substr(0, 16);
    at = 16;
    uint64_t count = 0;
    if (!u64(count)) return false;
    for (uint64_t i = 0; i < count; ++i) {
        StoredEntry e;
        uint64_t key_bytes = 0, blob_bytes = 0, sum = 0;
        if (!u64(key_bytes) || data.size() - at < key_bytes) return false;
        e.key = data.substr(at, key_bytes);
        at += key_bytes;
        if (!u64(blob_bytes) || !u64(e.kernels) || !u64(sum) || data.size() - at < blob_bytes) return false;
        e.blob.resize(blob_bytes / 4);
        std::memcpy(e.blob.data(), data.data() + at, blob_bytes);
        at += blob_bytes;
        if (fnv1a(e.blob.data(), blob_bytes) != sum) return false;
        f.entries.push_back(std::move(e));
    }
    return at == data.size();
}

std::string serialise(const StoredFile& f) {
    std::string out = f.header;
    auto u64 = [&](uint64_t v) { out.append(reinterpret_cast<const char*>(&v), 8); };
    u64(f.entries.size());
    for (const StoredEntry& e : f.entries) {
        u64(e.key.size());
        out += e.key;
        u64(e.blob.size() * 4);
        u64(e.kernels);
        u64(fnv1a(e.blob.data(), e.blob.size() * 4));
        out.append(reinterpret_cast<const char*>(e.blob.data()), e.blob.size() * 4);
    }
    return out;
}

// The records of a blob: (word offset of the SPIR-V, words).
std::vector<std::pair<size_t, size_t>> records(const std::vector<uint32_t>& blob) {
    std::vector<std::pair<size_t, size_t>> r;
    for (size_t at = 0; at < blob.size();) {
        const size_t words = blob[at] / 4;
        r.emplace_back(at + 1, words);
        at += words + 1;
    }
    return r;
}

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// conv2(A, B, 'same') by its definition.
std::vector<double> conv2_same(const std::vector<double>& a, const std::vector<double>& b) {
    std::vector<double> c(static_cast<size_t>(kRows * kCols), 0.0);
    const int64_t top = kKernel / 2, left = kKernel / 2;  // 'same': rows/cols ceil((k-1)/2) into 'full'
    for (int64_t r = 0; r < kRows; ++r)
        for (int64_t q = 0; q < kCols; ++q) {
            double s = 0;
            for (int64_t i = 0; i < kKernel; ++i)
                for (int64_t j = 0; j < kKernel; ++j) {
                    const int64_t ar = r + top - i, ac = q + left - j;
                    if (ar >= 0 && ar < kRows && ac >= 0 && ac < kCols) s += a[ar * kCols + ac] * b[i * kKernel + j];
                }
            c[r * kCols + q] = s;
        }
    return c;
}

class VulkanFftKernelStore : public ::testing::Test {
protected:
    void SetUp() override {
        dir = fs::temp_directory_path() / ("ipt_vkfft_store_" + std::to_string(::getpid()) + "_" +
                                           ::testing::UnitTest::GetInstance()->current_test_info()->name());
        fs::remove_all(dir);
        fs::create_directories(dir);
        // The kernel file lives in the tuning cache's folder.
        setenv("IPT_TUNING_CACHE", (dir / "tuning.json").c_str(), 1);
        std::mt19937_64 rng(7);
        std::uniform_real_distribution<double> u(-1, 1);
        a.resize(kRows * kCols);
        b.resize(kKernel * kKernel);
        for (double& v : a) v = u(rng);
        for (double& v : b) v = u(rng);
        expected = conv2_same(a, b);
    }
    void TearDown() override {
        setenv("IPT_TUNING_CACHE", "", 1);
        fs::remove_all(dir);
    }

    // One context (the only one: the plugin loads, and saves its kernels when
    // it unloads). Returns false when there is no Vulkan fft variant.
    bool run_conv2(bool pinned_only) {
        ipt::Context ctx;
        uint32_t vk = UINT32_MAX;
        for (const auto& d : ctx.devices())
            if (std::string(d.kind) == "vulkan") vk = d.id;
        bool fft = false;
        for (const auto& impl : ctx.impls("ipt.conv2")) fft |= impl.device_id == vk && std::string(impl.variant) == "fft";
        if (!fft) return false;
        ipt::Image A = ctx.upload<double>(kRows, kCols, a);
        ipt::Image B = ctx.upload<double>(kKernel, kKernel, b);
        auto check = [&](ipt::Call& call, const char* how) {
            call.image("A", A).image("B", B).option("shape", "same").run();
            const std::vector<double> c = call.take("C").download<double>();
            ASSERT_EQ(c.size(), expected.size()) << how;
            for (size_t i = 0; i < c.size(); ++i) ASSERT_NEAR(c[i], expected[i], 1e-10) << how << " at " << i;
        };
        if (!pinned_only) {
            ipt::Call automatic(ctx, "ipt.conv2");  // measures every candidate, the fft variant included
            check(automatic, "automatic selection");
        }
        ipt::Call pinned(ctx, "ipt.conv2");
        pinned.device(vk).variant("fft");
        check(pinned, "vulkan fft variant");
        return true;
    }

    fs::path store_file() const {
        for (const auto& e : fs::directory_iterator(dir)) {
            const std::string name = e.path().filename().string();
            if (name.starts_with("vulkan-vkfft-") && name.ends_with(".bin")) return e.path();
        }
        return {};
    }

    // Fills the store, rewrites every entry with `tamper` (checksums made
    // valid again), then runs conv2 again from the tampered file.
    void tamper_and_run(const std::function<void(StoredEntry&)>& tamper) {
        if (!run_conv2(true)) GTEST_SKIP() << "no Vulkan device with conv2's fft variant here";
        const fs::path file = store_file();
        ASSERT_FALSE(file.empty()) << "no VkFFT kernel file was written in " << dir;
        StoredFile f;
        ASSERT_TRUE(parse(read_all(file), f)) << file;
        ASSERT_FALSE(f.entries.empty());
        for (StoredEntry& e : f.entries) {
            ASSERT_GT(e.kernels, 0u);
            ASSERT_EQ(records(e.blob).size(), e.kernels);
            tamper(e);
        }
        {
            std::ofstream out(file, std::ios::binary | std::ios::trunc);
            out << serialise(f);
        }
        run_conv2(false);
        // Recompiled and stored again: whole entries.
        StoredFile after;
        ASSERT_TRUE(parse(read_all(file), after)) << file;
        for (const StoredEntry& e : after.entries) {
            ASSERT_FALSE(e.blob.empty());
            EXPECT_EQ(e.blob.size() > 1 ? e.blob[1] : 0u, 0x07230203u) << e.key;
            EXPECT_EQ(records(e.blob).size(), e.kernels) << e.key;
        }
    }

    fs::path dir;
    std::vector<double> a, b, expected;
};

TEST_F(VulkanFftKernelStore, WholeStoreIsLoadedAndRight) {
    tamper_and_run([](StoredEntry&) {});
}

TEST_F(VulkanFftKernelStore, GarbageUnderAValidChecksumIsRecompiled) {
    tamper_and_run([](StoredEntry& e) {
        std::mt19937 rng(3);
        for (uint32_t& w : e.blob) w = rng();
        e.blob[0] = 0xFFFFFFF0u;  // a first "kernel size" far beyond the blob
    });
}

TEST_F(VulkanFftKernelStore, SpirvWithBrokenInstructionsIsRecompiled) {
    tamper_and_run([](StoredEntry& e) {
        // Headers intact; every instruction's word count set to 0.
        for (auto [at, words] : records(e.blob))
            for (size_t i = at + 5; i < at + words; ++i) e.blob[i] &= 0xFFFFu;
    });
}

TEST_F(VulkanFftKernelStore, BlobCutInsideAKernelIsRecompiled) {
    tamper_and_run([](StoredEntry& e) { e.blob.resize(e.blob.size() / 2); });
}

TEST_F(VulkanFftKernelStore, BlobWithFewerKernelsThanThePlanIsRecompiled) {
    // Only the first kernel is kept, and the stored count says 1: every record
    // is whole, but VkFFT needs more kernels than the blob holds.
    tamper_and_run([](StoredEntry& e) {
        const auto r = records(e.blob);
        e.blob.resize(r[0].first + r[0].second);
        e.kernels = 1;
    });
}

// A FIFO where the kernel file should be is neither waited on when the plugin
// reads its kernels nor replaced when it saves them. A reader that waits is
// released after 60 s (by opening the FIFO for writing) and fails the test.
TEST_F(VulkanFftKernelStore, FifoIsNotWaitedOnNorReplaced) {
    if (!run_conv2(true)) GTEST_SKIP() << "no Vulkan device with conv2's fft variant here";
    const fs::path file = store_file();
    ASSERT_FALSE(file.empty());
    fs::remove(file);
    ASSERT_EQ(::mkfifo(file.c_str(), 0644), 0);
    auto run = std::async(std::launch::async, [&] { return run_conv2(false); });
    if (run.wait_for(std::chrono::seconds(60)) == std::future_status::timeout) {
        ADD_FAILURE() << "the plugin waits on the FIFO " << file;
        ::close(::open(file.c_str(), O_WRONLY | O_NONBLOCK));
    }
    EXPECT_TRUE(run.get());
    EXPECT_TRUE(fs::is_fifo(file));
}

}  // namespace
