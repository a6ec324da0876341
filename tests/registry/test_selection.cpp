// SPDX-License-Identifier: Apache-2.0
// The measured selection: candidates are measured on a miss, the cheapest
// wins, measurements persist in the tuning cache (hit, miss, stale, corrupt,
// concurrent writers), and measuring never touches the caller's outputs.
// These run under IPT_SELECT=measure (every candidate measured on a miss);
// test_cold_selection.cpp covers the default, which starts from priors.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "ipt/ipt.hpp"

namespace {

namespace fs = std::filesystem;

// Set before any test makes a context: each reads IPT_SELECT when created.
class MeasureOnMiss : public ::testing::Environment {
public:
    void SetUp() override { ::setenv("IPT_SELECT", "measure", 1); }
};
const auto* const measure_on_miss = ::testing::AddGlobalTestEnvironment(new MeasureOnMiss);

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

TEST(TuningCache, TransferCostsAreMeasuredAtSeveralSizes) {
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
    for (auto& [dev, t] : j["transfer"].items())
        for (const char* dir : {"up", "down"}) {
            const auto& points = t.at(dir);
            // From the fixed cost of a small copy up to sizes beyond the host's caches.
            ASSERT_GE(points.size(), 3u) << dev << " " << dir;
            EXPECT_LE(points.front().at(0).get<double>(), 4096.0) << dev << " " << dir;
            EXPECT_GE(points.back().at(0).get<double>(), 32.0 * (1 << 20)) << dev << " " << dir;
            for (size_t i = 0; i < points.size(); ++i) {
                EXPECT_GE(points[i].at(1).get<double>(), 0.0) << dev << " " << dir;
                if (i) {
                    EXPECT_GT(points[i].at(0).get<double>(), points[i - 1].at(0).get<double>()) << dev;
                }
            }
            // 64 MiB is not copied in the time of 4 KiB.
            EXPECT_GT(points.back().at(1).get<double>(), points.front().at(1).get<double>()) << dev << " " << dir;
        }
    // An entry in an older form (one rate, no size points) is measured again, not trusted.
    for (auto& [dev, t] : j["transfer"].items())
        t = {{"up_bytes_per_ms", 1e-9}, {"down_bytes_per_ms", 1e-9}, {"up_latency_ms", 0.0}, {"down_latency_ms", 0.0}};
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
        EXPECT_FALSE(t.contains("up_bytes_per_ms")) << dev << ": re-measured";
        EXPECT_TRUE(t.contains("up") && t.contains("down")) << dev;
    }
    fs::remove(path);
}

// A copy's price is read off the measured curve: interpolated between the
// two sizes around it, and the smallest size's time (a copy's fixed cost)
// below them. Hand-computed from curves written into the cache.
TEST(TuningCache, CopyTimesAreInterpolatedBetweenMeasuredSizes) {
    fs::path path = temp_cache("interpolate");
    std::string host_id, dev_id;
    uint32_t dev = 0;
    {
        ipt::Context ctx;
        ctx.load_plugin(testdev_plugin());
        const uint32_t n = ipt_device_count(ctx.get());
        for (uint32_t d = 0; d < n; ++d) {
            ipt_device_info info{};
            info.struct_size = sizeof info;
            ASSERT_EQ(ipt_device_get(ctx.get(), d, &info), IPT_OK);
            if (d == IPT_DEVICE_HOST) host_id = info.identity;
            else if (std::string(info.kind) != "cpu" && dev_id.empty()) {
                dev_id = info.identity;
                dev = d;
            }
        }
    }
    ASSERT_FALSE(dev_id.empty()) << "the test plugin has a device";
    {
        const nlohmann::json up = {{4096, 1.0}, {262144, 2.0}, {4194304, 10.0}};
        const nlohmann::json down = {{4096, 0.5}, {8192, 0.6}};
        const nlohmann::json host = {{4096, 0.25}, {8192, 0.3}};
        nlohmann::json j = {{"format", 1},
                            {"entries", nlohmann::json::object()},
                            {"transfer", {{dev_id, {{"up", up}, {"down", down}}}, {host_id, {{"up", host}, {"down", host}}}}}};
        std::ofstream out(path);
        out << j.dump();
    }
    ipt::Context ctx;
    ctx.set_tuning_cache(path.string());
    ctx.load_plugin(testdev_plugin());
    std::vector<uint8_t> a(300 * 300, 3);  // 90000 bytes up, one double (8 bytes) back
    ipt::Image img = ctx.upload<uint8_t>(300, 300, a);
    Outcome r = run_mean2(ctx, img);
    const double up = 1.0 + (90000.0 - 4096) / (262144 - 4096) * (2.0 - 1.0);
    bool saw_device = false, saw_host = false;
    for (const auto& c : r.candidates) {
        if (c.cost_ms < 0) continue;
        if (c.device_id == dev) {
            EXPECT_NEAR(c.transfer_ms, up + 0.5, 1e-9) << c.plugin << "/" << c.variant;
            saw_device = true;
        } else if (c.device_id == IPT_DEVICE_HOST) {
            EXPECT_NEAR(c.transfer_ms, 0.25, 1e-9) << "the caller's read-out of the host result";
            saw_host = true;
        }
    }
    EXPECT_TRUE(saw_device && saw_host);
    fs::remove(path);
}

// Handing a call from one device to another and back pays the pair's switch
// cost on top of the copies (two APIs' contexts taking turns on one GPU). It
// is measured once per ordered pair and kept; a cached one is used as it is.
TEST(TuningCache, HandingDataToAnotherDevicePaysTheSwitchCost) {
    const std::string second = std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_testdev2.so";
    fs::path path = temp_cache("switch");
    auto device_of = [](ipt::Context& ctx, const std::string& kind, std::string* identity) {
        for (uint32_t d = 0; d < ipt_device_count(ctx.get()); ++d) {
            ipt_device_info info{};
            info.struct_size = sizeof info;
            if (ipt_device_get(ctx.get(), d, &info) == IPT_OK && kind == info.kind) {
                *identity = info.identity;
                return d;
            }
        }
        return IPT_DEVICE_ANY;
    };
    std::vector<uint8_t> a(300 * 300, 3);  // 90000 bytes, one double back
    std::string from_id, to_id;
    {
        // Measured: the switch cost lands in the file, >= 0.
        ipt::Context ctx;
        ctx.set_tuning_cache(path.string());
        ctx.load_plugin(testdev_plugin());
        ctx.load_plugin(second);
        const uint32_t from = device_of(ctx, "testdev", &from_id);
        ASSERT_NE(device_of(ctx, "testdev2", &to_id), IPT_DEVICE_ANY);
        ASSERT_NE(from, IPT_DEVICE_ANY);
        ipt::Image img = ctx.upload<uint8_t>(300, 300, a, 1, from);
        run_mean2(ctx, img);
        ctx.save_tuning_cache();
    }
    nlohmann::json j;
    {
        std::ifstream in(path);
        j = nlohmann::json::parse(in);
    }
    const std::string pair = from_id + " -> " + to_id;
    ASSERT_TRUE(j.contains("switch") && j["switch"].contains(pair)) << j.dump();
    EXPECT_GE(j["switch"][pair].get<double>(), 0.0);
    // Known curves and a known switch cost: the price is hand-computed.
    const nlohmann::json up = {{4096, 1.0}, {262144, 2.0}};
    const nlohmann::json down = {{4096, 0.5}, {262144, 1.5}};
    j["transfer"][from_id] = {{"up", up}, {"down", down}};
    j["transfer"][to_id] = {{"up", up}, {"down", down}};
    j["switch"][pair] = 5.0;
    {
        std::ofstream out(path);
        out << j.dump();
    }
    ipt::Context ctx;
    ctx.set_tuning_cache(path.string());
    ctx.load_plugin(testdev_plugin());
    ctx.load_plugin(second);
    const uint32_t from = device_of(ctx, "testdev", &from_id);
    const uint32_t to = device_of(ctx, "testdev2", &to_id);
    ipt::Image img = ctx.upload<uint8_t>(300, 300, a, 1, from);
    Outcome r = run_mean2(ctx, img);
    const double f = (90000.0 - 4096) / (262144 - 4096);
    // Down from the data's device, up to the other; the result down and back up; the switch.
    const double expected = (0.5 + f) + (1.0 + f) + 0.5 + 1.0 + 5.0;
    bool seen = false;
    for (const auto& c : r.candidates)
        if (c.device_id == to && c.cost_ms >= 0) {
            EXPECT_NEAR(c.transfer_ms, expected, 1e-9) << c.plugin << "/" << c.variant;
            seen = true;
        } else if (c.device_id == from && c.cost_ms >= 0) {
            EXPECT_EQ(c.transfer_ms, 0.0) << "the data is there already";
        }
    EXPECT_TRUE(seen);
    fs::remove(path);
}

// A copy curve that is not a curve (sizes out of order) makes the file corrupt:
// reported and ignored, never trusted.
TEST(TuningCache, TransferCurvesOutOfOrderAreNotTrusted) {
    fs::path path = temp_cache("curve");
    {
        const nlohmann::json backwards = {{4096, 0.01}, {1024, 0.02}};
        const nlohmann::json forwards = {{4096, 0.01}, {8192, 0.02}};
        nlohmann::json j = {{"format", 1},
                            {"entries", nlohmann::json::object()},
                            {"transfer", {{"dev", {{"up", backwards}, {"down", forwards}}}}}};
        std::ofstream out(path);
        out << j.dump();
    }
    {
        ipt::Context ctx;
        ::testing::internal::CaptureStderr();
        ctx.set_tuning_cache(path.string());
        const std::string err = ::testing::internal::GetCapturedStderr();
        EXPECT_NE(err.find("corrupt"), std::string::npos) << err;
        EXPECT_NE(err.find("up copy times"), std::string::npos) << err;
    }
    fs::remove(path);
}

// Read-out times follow what read-outs cost in the process: a model that
// claims absurdly fast copies (64 MiB in a picosecond) is pulled towards real
// downloads, of a host image (a memcpy) and of a device's image (the device
// synchronised first, so that only the copy is timed).
TEST(TuningCache, ReadoutsRefineTheCopyModel) {
    fs::path path = temp_cache("readout");
    std::string host_identity, dev_identity;
    uint32_t dev = IPT_DEVICE_ANY;
    {
        ipt::Context ctx;
        ctx.load_plugin(testdev_plugin());
        for (uint32_t d = 0; d < ipt_device_count(ctx.get()); ++d) {
            ipt_device_info info{};
            info.struct_size = sizeof info;
            ASSERT_EQ(ipt_device_get(ctx.get(), d, &info), IPT_OK);
            if (d == IPT_DEVICE_HOST) host_identity = info.identity;
            if (std::string(info.kind) == "testdev") {
                dev_identity = info.identity;
                dev = d;
            }
        }
    }
    ASSERT_NE(dev, IPT_DEVICE_ANY);
    const double absurd = 1e-9;  // ms
    const nlohmann::json curve = {{4096, absurd}, {4 << 20, absurd}, {64 << 20, absurd}};
    {
        nlohmann::json j = {{"format", 1},
                            {"entries", nlohmann::json::object()},
                            {"transfer",
                             {{host_identity, {{"up", curve}, {"down", curve}}},
                              {dev_identity, {{"up", curve}, {"down", curve}}}}}};
        std::ofstream out(path);
        out << j.dump();
    }
    {
        ipt::Context ctx;
        ctx.set_tuning_cache(path.string());
        ctx.load_plugin(testdev_plugin());
        std::vector<uint8_t> a(2048 * 1024, 7);  // 2 MiB: large enough to be observed
        for (uint32_t where : {uint32_t{IPT_DEVICE_HOST}, dev}) {
            ipt::Image img = ctx.upload<uint8_t>(2048, 1024, a, 1, where);
            std::vector<uint8_t> back(a.size());
            for (int k = 0; k < 4; ++k) ASSERT_EQ(ipt_image_download(img.get(), back.data(), 0), IPT_OK);
            EXPECT_EQ(back, a);
        }
        ctx.save_tuning_cache();
    }
    nlohmann::json j;
    {
        std::ifstream in(path);
        j = nlohmann::json::parse(in);
    }
    for (const std::string& id : {host_identity, dev_identity}) {
        ASSERT_TRUE(j["transfer"].contains(id)) << id;
        const auto& down = j["transfer"][id]["down"];
        ASSERT_EQ(down.size(), 3u) << id;
        // The 4 MiB point is nearest to 2 MiB: each observation multiplies its
        // time by at least 0.75 + 0.25 x (a real copy / a picosecond), far above 1.
        EXPECT_GT(down[1][1].get<double>(), 1000 * absurd) << id;
        // The others are left as they were, and uploads do not refine.
        EXPECT_DOUBLE_EQ(down[0][1].get<double>(), absurd) << id;
        EXPECT_DOUBLE_EQ(down[2][1].get<double>(), absurd) << id;
        EXPECT_DOUBLE_EQ(j["transfer"][id]["up"][1][1].get<double>(), absurd) << id;
    }
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
        // Ours by its marker ("format" and "entries"), with a value that is not a time.
        out << "{\"format\": 1, \"entries\": {\"ipt.mean2|A=uint8:5x5x1\": {\"x\": {\"run_ms\": \"fast\"}}}}";
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
