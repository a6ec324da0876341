// The measured selection: candidates are measured on a miss, the cheapest
// wins, measurements persist in the tuning cache (hit, miss, stale, corrupt,
// concurrent writers), and measuring never touches the caller's outputs.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ipt/ipt.hpp"

namespace {

namespace fs = std::filesystem;

std::string testdev_plugin() { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_testdev.so"; }

fs::path temp_cache(const std::string& name) {
    fs::path p = fs::temp_directory_path() / ("ipt_selection_" + std::to_string(::getpid()) + "_" + name + ".json");
    fs::remove(p);
    return p;
}

struct Outcome {
    std::vector<ipt_candidate_info> candidates;
    ipt_dispatch_info dispatch;
    double mean;
};

Outcome run_mean2(ipt::Context& ctx, const ipt::Image& img) {
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", img).run();
    Outcome r{ctx.last_candidates(), ctx.last_dispatch(), call.take("m").download<double>().at(0)};
    return r;
}

const ipt_candidate_info* find(const Outcome& r, const char* plugin, const char* variant) {
    for (const auto& c : r.candidates)
        if (std::string(c.plugin) == plugin && std::string(c.variant) == variant) return &c;
    return nullptr;
}

class Selection : public ::testing::Test {
protected:
    void SetUp() override {
        ctx.load_plugin(testdev_plugin());
        std::vector<uint8_t> a(64 * 64);
        for (size_t i = 0; i < a.size(); ++i) a[i] = static_cast<uint8_t>(i % 7);
        img = ctx.upload<uint8_t>(64, 64, a);
        expected = 0;
        for (uint8_t v : a) expected += v;
        expected /= static_cast<double>(a.size());
    }
    ipt::Context ctx;
    ipt::Image img;
    double expected = 0;
};

TEST_F(Selection, MeasuresEveryCandidateAndPicksTheCheapest) {
    Outcome r = run_mean2(ctx, img);
    EXPECT_DOUBLE_EQ(r.mean, expected);
    ASSERT_GE(r.candidates.size(), 3u);
    const ipt_candidate_info* slow = find(r, "testdev", "slow");
    ASSERT_NE(slow, nullptr);
    EXPECT_EQ(slow->source, IPT_COST_MEASURED);
    EXPECT_GE(slow->run_ms, 15.0) << "sleeps 20 ms";
    EXPECT_EQ(slow->chosen, 0) << "highest static priority, but slowest";
    EXPECT_NE(std::string(r.dispatch.variant), "slow");
    EXPECT_NE(std::string(r.dispatch.reason).find("lowest cost"), std::string::npos) << r.dispatch.reason;
    int chosen = 0;
    for (const auto& c : r.candidates) {
        chosen += c.chosen;
        if (c.chosen) {
            EXPECT_LE(c.cost_ms, slow->cost_ms);
        }
    }
    EXPECT_EQ(chosen, 1);
    // Ranked cheapest first.
    for (size_t i = 1; i < r.candidates.size(); ++i)
        if (r.candidates[i].cost_ms >= 0) {
            EXPECT_LE(r.candidates[i - 1].cost_ms, r.candidates[i].cost_ms);
        }
}

TEST_F(Selection, StaticPolicyDoesNotMeasure) {
    ctx.set_selection(IPT_SELECT_STATIC);
    Outcome r = run_mean2(ctx, img);
    for (const auto& c : r.candidates) EXPECT_EQ(c.source, IPT_COST_STATIC);
    EXPECT_STREQ(r.dispatch.plugin, "cpu") << "inputs live on the host";
}

TEST_F(Selection, SecondCallOfTheSameClassUsesTheMeasurements) {
    run_mean2(ctx, img);
    Outcome again = run_mean2(ctx, img);
    for (const auto& c : again.candidates) EXPECT_EQ(c.source, IPT_COST_CACHED) << c.plugin << "/" << c.variant;
    // Another size bucket is a miss.
    std::vector<uint8_t> big(300 * 300, 3);
    ipt::Image other = ctx.upload<uint8_t>(300, 300, big);
    Outcome third = run_mean2(ctx, other);
    EXPECT_EQ(find(third, "testdev", "slow")->source, IPT_COST_MEASURED);
}

TEST_F(Selection, DeclinesDuringMeasurementAreRecorded) {
    std::vector<double> d(16, 1.0);
    ipt::Image dbl = ctx.upload<double>(4, 4, d);
    Outcome r = run_mean2(ctx, dbl);
    EXPECT_DOUBLE_EQ(r.mean, 1.0);
    const ipt_candidate_info* dev = find(r, "testdev", "");
    ASSERT_NE(dev, nullptr);
    EXPECT_EQ(dev->source, IPT_COST_DECLINED);
    EXPECT_NE(std::string(dev->note).find("uint8 and logical only"), std::string::npos);
    EXPECT_STREQ(r.dispatch.plugin, "cpu");
}

TEST_F(Selection, ADeclineIsNotMeasuredAgainForTheSameKey) {
    std::vector<double> d(16, 2.0);
    ipt::Image dbl = ctx.upload<double>(4, 4, d);
    Outcome first = run_mean2(ctx, dbl);
    ASSERT_NE(find(first, "testdev", ""), nullptr);
    EXPECT_EQ(find(first, "testdev", "")->source, IPT_COST_DECLINED);
    // Same key: the decline is remembered instead of moving the inputs there again.
    Outcome second = run_mean2(ctx, dbl);
    const ipt_candidate_info* again = find(second, "testdev", "");
    ASSERT_NE(again, nullptr);
    EXPECT_EQ(again->source, IPT_COST_DECLINED);
    EXPECT_NE(std::string(again->note).find("declined this key earlier"), std::string::npos) << again->note;
    EXPECT_DOUBLE_EQ(second.mean, 2.0);
    EXPECT_STREQ(second.dispatch.plugin, "cpu");
}

TEST_F(Selection, MeasuringNeverWritesTheCallersOutputs) {
    ipt::Call first(ctx, "ipt.mean2");
    first.image("A", img).device(IPT_DEVICE_HOST).run();
    ipt::Image kept = first.take("m");
    const double before = kept.download<double>().at(0);
    std::vector<uint8_t> ones(64 * 64, 200);
    ipt::Image other = ctx.upload<uint8_t>(64, 64, ones);
    Outcome r = run_mean2(ctx, other);  // measures every candidate on `other`
    EXPECT_DOUBLE_EQ(r.mean, 200.0);
    EXPECT_DOUBLE_EQ(kept.download<double>().at(0), before);
    EXPECT_DOUBLE_EQ(before, expected);
}

TEST(TuningCache, HitAcrossContexts) {
    fs::path path = temp_cache("hit");
    std::vector<uint8_t> a(32 * 32, 5);
    {
        ipt::Context ctx;
        ctx.set_tuning_cache(path.string());
        ctx.load_plugin(testdev_plugin());
        ipt::Image img = ctx.upload<uint8_t>(32, 32, a);
        Outcome r = run_mean2(ctx, img);
        EXPECT_EQ(find(r, "testdev", "slow")->source, IPT_COST_MEASURED);
        ctx.save_tuning_cache();
    }
    ASSERT_TRUE(fs::exists(path));
    ipt::Context ctx;
    ctx.set_tuning_cache(path.string());
    ctx.load_plugin(testdev_plugin());
    ipt::Image img = ctx.upload<uint8_t>(32, 32, a);
    Outcome r = run_mean2(ctx, img);
    for (const auto& c : r.candidates) EXPECT_EQ(c.source, IPT_COST_CACHED) << c.plugin << "/" << c.variant;
    EXPECT_NE(std::string(r.dispatch.variant), "slow");
    fs::remove(path);
}

TEST(TuningCache, TransferCostsHaveALatencyAndARate) {
    fs::path path = temp_cache("transfer");
    {
        ipt::Context ctx;
        ctx.set_tuning_cache(path.string());
        ctx.load_plugin(testdev_plugin());
        std::vector<uint8_t> a(32 * 32, 5);
        ipt::Image img = ctx.upload<uint8_t>(32, 32, a);  // on the host: pricing the test device measures its copies
        run_mean2(ctx, img);
        ctx.save_tuning_cache();
    }
    nlohmann::json j;
    {
        std::ifstream in(path);
        j = nlohmann::json::parse(in);
    }
    ASSERT_TRUE(j.contains("transfer"));
    ASSERT_FALSE(j["transfer"].empty()) << "the test device was priced";
    {
        // The host is priced too: a host result is read out with a memcpy,
        // which a device's download replaces.
        ipt::Context ctx;
        ipt_device_info host{};
        host.struct_size = sizeof(ipt_device_info);
        ASSERT_EQ(ipt_device_get(ctx.get(), IPT_DEVICE_HOST, &host), IPT_OK);
        EXPECT_TRUE(j["transfer"].contains(host.identity)) << host.identity;
    }
    for (auto& [dev, t] : j["transfer"].items()) {
        EXPECT_GT(t.at("up_bytes_per_ms").get<double>(), 0) << dev;
        EXPECT_GT(t.at("down_bytes_per_ms").get<double>(), 0) << dev;
        EXPECT_GE(t.at("up_latency_ms").get<double>(), 0) << dev;
        EXPECT_GE(t.at("down_latency_ms").get<double>(), 0) << dev;
    }
    // An entry without latencies (an older file) is measured again, not trusted.
    for (auto& [dev, t] : j["transfer"].items()) {
        t.erase("up_latency_ms");
        t["up_bytes_per_ms"] = 1e-9;
    }
    {
        std::ofstream out(path);
        out << j.dump();
    }
    {
        ipt::Context ctx;
        ctx.set_tuning_cache(path.string());
        ctx.load_plugin(testdev_plugin());
        std::vector<uint8_t> a(48 * 48, 5);
        ipt::Image img = ctx.upload<uint8_t>(48, 48, a);
        run_mean2(ctx, img);
        ctx.save_tuning_cache();
    }
    {
        std::ifstream in(path);
        j = nlohmann::json::parse(in);
    }
    for (auto& [dev, t] : j["transfer"].items()) {
        EXPECT_TRUE(t.contains("up_latency_ms")) << dev;
        EXPECT_GT(t.at("up_bytes_per_ms").get<double>(), 1e-6) << dev << ": re-measured";
    }
    fs::remove(path);
}

// The host's read-out rate follows what read-outs cost in the process: a
// model that claims an absurd rate (10^12 bytes per ms, a petabyte a second)
// is pulled down by real downloads of a host image.
TEST(TuningCache, HostReadoutsRefineTheHostCopyModel) {
    fs::path path = temp_cache("readout");
    std::string host_identity;
    {
        ipt::Context ctx;
        ipt_device_info host{};
        host.struct_size = sizeof(ipt_device_info);
        ASSERT_EQ(ipt_device_get(ctx.get(), IPT_DEVICE_HOST, &host), IPT_OK);
        host_identity = host.identity;
    }
    const double absurd = 1e12;
    {
        nlohmann::json j = {{"format", 1},
                            {"entries", nlohmann::json::object()},
                            {"transfer",
                             {{host_identity,
                               {{"up_bytes_per_ms", absurd}, {"down_bytes_per_ms", absurd},
                                {"up_latency_ms", 0.0}, {"down_latency_ms", 0.0}}}}}};
        std::ofstream out(path);
        out << j.dump();
    }
    {
        ipt::Context ctx;
        ctx.set_tuning_cache(path.string());
        std::vector<uint8_t> a(2048 * 1024, 7);  // 2 MiB: large enough to be observed
        ipt::Image img = ctx.upload<uint8_t>(2048, 1024, a);
        std::vector<uint8_t> back(a.size());
        for (int k = 0; k < 4; ++k) ASSERT_EQ(ipt_image_download(img.get(), back.data(), 0), IPT_OK);
        EXPECT_EQ(back, a);
        ctx.save_tuning_cache();
    }
    nlohmann::json j;
    {
        std::ifstream in(path);
        j = nlohmann::json::parse(in);
    }
    ASSERT_TRUE(j["transfer"].contains(host_identity));
    const double rate = j["transfer"][host_identity]["down_bytes_per_ms"].get<double>();
    // Four observations take 1 - 0.75^4 = 68 % of the way to real rates, which
    // are far below 10^12 bytes per ms.
    EXPECT_LT(rate, 0.5 * absurd);
    EXPECT_GT(rate, 0.0);
    fs::remove(path);
}

TEST(TuningCache, StaleEntriesAreMeasuredAgain) {
    fs::path path = temp_cache("stale");
    std::vector<uint8_t> a(32 * 32, 5);
    {
        ipt::Context ctx;
        ctx.set_tuning_cache(path.string());
        ctx.load_plugin(testdev_plugin());
        ipt::Image img = ctx.upload<uint8_t>(32, 32, a);
        run_mean2(ctx, img);
        ctx.save_tuning_cache();
    }
    // Same keys, but recorded for an older plugin version and another driver.
    nlohmann::json j;
    {
        std::ifstream in(path);
        j = nlohmann::json::parse(in);
    }
    nlohmann::json stale = nlohmann::json::object();
    for (auto& [key, cands] : j["entries"].items())
        for (auto& [cand, m] : cands.items()) {
            std::string old = cand;
            old.replace(old.find('@'), 1, "@0.0-old");
            stale[key][old] = m;
        }
    j["entries"] = stale;
    {
        std::ofstream out(path);
        out << j.dump();
    }
    ipt::Context ctx;
    ctx.set_tuning_cache(path.string());
    ctx.load_plugin(testdev_plugin());
    ipt::Image img = ctx.upload<uint8_t>(32, 32, a);
    Outcome r = run_mean2(ctx, img);
    for (const auto& c : r.candidates) EXPECT_EQ(c.source, IPT_COST_MEASURED) << c.plugin << "/" << c.variant;
    fs::remove(path);
}

TEST(TuningCache, CorruptFileIsReportedIgnoredAndRewritten) {
    fs::path path = temp_cache("corrupt");
    {
        std::ofstream out(path);
        out << "{\"format\": 1, \"entries\": {\"ipt.mean2|A=uint8:5x5x1\": {\"x\": {\"run_ms\": \"fast\"}}}";
    }
    testing::internal::CaptureStderr();
    ipt::Context ctx;
    ctx.set_tuning_cache(path.string());
    std::string err = testing::internal::GetCapturedStderr();
    EXPECT_NE(err.find("corrupt"), std::string::npos) << err;
    ctx.load_plugin(testdev_plugin());
    std::vector<uint8_t> a(32 * 32, 5);
    ipt::Image img = ctx.upload<uint8_t>(32, 32, a);
    Outcome r = run_mean2(ctx, img);
    EXPECT_EQ(find(r, "testdev", "slow")->source, IPT_COST_MEASURED);
    ctx.save_tuning_cache();
    std::ifstream in(path);
    nlohmann::json j = nlohmann::json::parse(in);  // throws if still corrupt
    EXPECT_EQ(j["format"], 1);
    EXPECT_FALSE(j["entries"].empty());
    fs::remove(path);
}

TEST(TuningCache, ConcurrentWritersMerge) {
    fs::path path = temp_cache("merge");
    auto writer = [&](int rows) {
        ipt::Context ctx;
        ctx.set_tuning_cache(path.string());
        ctx.load_plugin(testdev_plugin());
        std::vector<uint8_t> a(static_cast<size_t>(rows) * 16, 1);
        ipt::Image img = ctx.upload<uint8_t>(rows, 16, a);
        run_mean2(ctx, img);
        ctx.save_tuning_cache();
    };
    std::thread t1(writer, 8), t2(writer, 500);
    t1.join();
    t2.join();
    std::ifstream in(path);
    nlohmann::json j = nlohmann::json::parse(in);
    bool small = false, large = false;
    for (auto& [key, cands] : j["entries"].items()) {
        small |= key.find("A=uint8:3x4x1") != std::string::npos;
        large |= key.find("A=uint8:9x4x1") != std::string::npos;
    }
    EXPECT_TRUE(small) << j.dump(1);
    EXPECT_TRUE(large) << j.dump(1);
    fs::remove(path);
}

}  // namespace
