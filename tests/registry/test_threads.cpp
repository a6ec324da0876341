// SPDX-License-Identifier: Apache-2.0
// One context used from 8 threads at once: identical results, per-thread
// dispatch records and errors.
#include <gtest/gtest.h>

#include <random>
#include <thread>
#include <vector>

#include "ipt/ipt.hpp"

TEST(Threads, EightThreadsShareOneContext) {
    ipt::Context ctx;
    std::mt19937 rng(7);
    std::uniform_real_distribution<double> dist(-1, 1);
    std::vector<double> a(64 * 48), k(5 * 5);
    for (double& v : a) v = dist(rng);
    for (double& v : k) v = dist(rng);
    ipt::Image img = ctx.upload<double>(64, 48, a);
    ipt::Image ker = ctx.upload<double>(5, 5, k);

    auto run_once = [&] {
        ipt::Call call(ctx, "ipt.conv2");
        call.image("A", img).image("B", ker).text("shape", "same").run();
        return call.take("C").download<double>();
    };
    const std::vector<double> expected = run_once();

    constexpr int threads = 8, rounds = 20;
    std::vector<int> mismatches(threads, 0), failures(threads, 0);
    std::vector<std::thread> pool;
    for (int t = 0; t < threads; ++t)
        pool.emplace_back([&, t] {
            for (int r = 0; r < rounds; ++r) {
                try {
                    if (run_once() != expected) ++mismatches[t];
                    if (std::string(ctx.last_dispatch().op) != "ipt.conv2") ++failures[t];
                } catch (const std::exception&) {
                    ++failures[t];
                }
                // An error on this thread must not leak into the others.
                EXPECT_EQ(ipt_call_run(nullptr), IPT_ERR_INVALID_ARGUMENT);
            }
        });
    for (auto& th : pool) th.join();
    for (int t = 0; t < threads; ++t) {
        EXPECT_EQ(mismatches[t], 0) << "thread " << t;
        EXPECT_EQ(failures[t], 0) << "thread " << t;
    }
}
