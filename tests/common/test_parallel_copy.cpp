// SPDX-License-Identifier: Apache-2.0
// The split memcpy of the GPU plugins' staging (backends/common/parallel_copy.hpp):
// every byte lands where std::memcpy would put it, for sizes around the piece
// boundaries, with no helpers and with many, from several callers at once,
// and after the crew was stopped and started again.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstdlib>
#include <numeric>
#include <string>
#include <thread>
#include <vector>

#include "common/parallel_copy.hpp"

namespace {

using ipt::common::ParallelCopy;

std::vector<unsigned char> pattern(size_t n, unsigned seed) {
    std::vector<unsigned char> v(n);
    uint32_t x = seed * 2654435761u + 1;
    for (auto& b : v) {
        x = x * 1664525u + 1013904223u;
        b = static_cast<unsigned char>(x >> 24);
    }
    return v;
}

void expect_copied(ParallelCopy& crew, size_t n, unsigned seed) {
    const auto src = pattern(n, seed);
    // Guard bytes either side: nothing outside [dst, dst + n) is written.
    std::vector<unsigned char> dst(n + 2, 0xA5);
    crew.copy(dst.data() + 1, src.data(), n);
    ASSERT_EQ(dst.front(), 0xA5) << n;
    ASSERT_EQ(dst.back(), 0xA5) << n;
    ASSERT_TRUE(std::equal(src.begin(), src.end(), dst.begin() + 1)) << "size " << n << ", helpers " << crew.helpers();
}

const size_t kSizes[] = {0,
                         1,
                         ParallelCopy::kMinPieceBytes - 1,
                         ParallelCopy::kMinPieceBytes,
                         2 * ParallelCopy::kMinPieceBytes + 1,
                         (size_t{3} << 20) + 7,
                         size_t{8} << 20};

TEST(ParallelCopy, EveryByteForEveryCrewSize) {
    for (unsigned helpers : {0u, 1u, 3u, 7u}) {
        ParallelCopy crew(helpers);
        unsigned seed = 0;
        for (size_t n : kSizes) expect_copied(crew, n, ++seed);
    }
}

TEST(ParallelCopy, SeveralCallersAtOnce) {
    ParallelCopy crew(3);
    std::vector<std::thread> callers;
    std::vector<int> failures(6, 0);
    for (int t = 0; t < 6; ++t)
        callers.emplace_back([&, t] {
            for (int round = 0; round < 8; ++round) {
                const size_t n = (size_t{1} << 20) + static_cast<size_t>(t * 4099 + round * 17);
                const auto src = pattern(n, static_cast<unsigned>(t * 100 + round));
                std::vector<unsigned char> dst(n);
                crew.copy(dst.data(), src.data(), n);
                if (dst != src) ++failures[t];
            }
        });
    for (auto& c : callers) c.join();
    EXPECT_EQ(std::accumulate(failures.begin(), failures.end(), 0), 0);
}

TEST(ParallelCopy, StopsAndStartsAgain) {
    ParallelCopy crew(2);
    expect_copied(crew, size_t{2} << 20, 1);
    crew.stop();
    expect_copied(crew, size_t{2} << 20, 2);
    crew.stop();
    crew.stop();  // twice is harmless
}

TEST(ParallelCopy, HelperCountFromTheEnvironment) {
    const char* name = "IPT_TEST_PARALLEL_COPY_THREADS";
    setenv(name, "5", 1);
    EXPECT_EQ(ParallelCopy::helpers_from_env(name), 5u);
    setenv(name, "0", 1);
    EXPECT_EQ(ParallelCopy::helpers_from_env(name), 0u);
    setenv(name, "100000", 1);
    EXPECT_EQ(ParallelCopy::helpers_from_env(name), 63u);
    // Not a count: the default for this host, never a failure.
    unsetenv(name);
    const unsigned fallback = ParallelCopy::helpers_from_env(name);
    EXPECT_LE(fallback, 7u);
    std::string complaint;
    EXPECT_EQ(ParallelCopy::helpers_from_env(name, &complaint), fallback);
    EXPECT_TRUE(complaint.empty()) << complaint;
    for (const char* bad : {"-3", "four", "2x"}) {
        setenv(name, bad, 1);
        complaint.clear();
        EXPECT_EQ(ParallelCopy::helpers_from_env(name, &complaint), fallback) << bad;
        EXPECT_NE(complaint.find(name), std::string::npos) << bad;
        EXPECT_NE(complaint.find(bad), std::string::npos) << complaint;
    }
    setenv(name, "", 1);  // set but empty: the default, no complaint
    complaint.clear();
    EXPECT_EQ(ParallelCopy::helpers_from_env(name, &complaint), fallback);
    EXPECT_TRUE(complaint.empty()) << complaint;
    unsetenv(name);
}

}  // namespace
