// SPDX-License-Identifier: Apache-2.0
// A first call under the default measured selection (IPT_SELECT=auto) costs
// about one run: with nothing known it runs the static choice and measures
// nothing; its run becomes the prior of that candidate; the other candidates
// are probed (a warm-up and a timed run), then measured once the key's calls
// have spent what measuring them costs;
// priors from other sizes of the same operator that separate the candidates
// decide without measuring. Trial runs are counted through the dispatch
// record: every candidate measured is left IPT_COST_MEASURED (or declined or
// failed), every other one IPT_COST_STATIC.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"

namespace {

// Each test starts from what it measures itself: not the user's tuning cache
// (the contexts that need a file name their own), as under ctest.
[[maybe_unused]] const bool kNoUserTuningCache = [] { return setenv("IPT_TUNING_CACHE", "", 1) == 0; }();

namespace fs = std::filesystem;

std::string testdev_plugin() { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_testdev.so"; }

fs::path temp_cache(const std::string& name) {
    fs::path p = fs::temp_directory_path() / ("ipt_cold_" + std::to_string(::getpid()) + "_" + name + ".json");
    fs::remove(p);
    return p;
}

// The default policy, whatever the environment says.
class DefaultSelection : public ::testing::Environment {
public:
    void SetUp() override { ::unsetenv("IPT_SELECT"); }
};
const auto* const default_selection = ::testing::AddGlobalTestEnvironment(new DefaultSelection);

struct Outcome {
    std::vector<ipt_candidate_info> candidates;
    std::string reason, plugin, variant;
    double mean;
};

Outcome run_mean2(ipt::Context& ctx, const ipt::Image& img) {
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", img).run();
    const ipt_dispatch_info d = ctx.last_dispatch();
    return {ctx.last_candidates(), d.reason, d.plugin, d.variant, call.take("m").download<double>().at(0)};
}

int trials(const Outcome& r) {
    int n = 0;
    for (const auto& c : r.candidates) n += c.source != IPT_COST_STATIC && c.source != IPT_COST_CACHED;
    return n;
}

const ipt_candidate_info* find(const Outcome& r, const char* plugin, const char* variant) {
    for (const auto& c : r.candidates)
        if (std::string(c.plugin) == plugin && std::string(c.variant) == variant) return &c;
    return nullptr;
}

ipt::Image image(ipt::Context& ctx, int n, uint8_t value) {
    std::vector<uint8_t> a(static_cast<size_t>(n) * n, value);
    return ctx.upload<uint8_t>(n, n, a);
}

// A tuning cache at `path` from one mean2 call of a 32x32 image that
// measures every candidate (and the copy curves of every device), read back
// as JSON for a test to edit.
nlohmann::json measured_cache(const fs::path& path) {
    {
        ::setenv("IPT_SELECT", "measure", 1);
        ipt::Context ctx;
        ::unsetenv("IPT_SELECT");
        ctx.set_tuning_cache(path.string());
        ctx.load_plugin(testdev_plugin());
        ipt::Image small = image(ctx, 32, 1);
        Outcome r = run_mean2(ctx, small);
        EXPECT_EQ(trials(r), static_cast<int>(r.candidates.size()));
        ctx.save_tuning_cache();
    }
    std::ifstream in(path);
    return nlohmann::json::parse(in);
}

// A context (with testdev) on the cache `j`, written to `path` first.
ipt::Context context_on(const fs::path& path, const nlohmann::json& j) {
    {
        std::ofstream out(path);
        out << j.dump();
    }
    ipt::Context ctx;
    ctx.set_tuning_cache(path.string());
    ctx.load_plugin(testdev_plugin());
    return ctx;
}

TEST(ColdSelection, ACheapFirstCallMeasuresNothing) {
    ipt::Context ctx;
    ctx.load_plugin(testdev_plugin());
    ipt::Image img = image(ctx, 64, 3);
    Outcome r = run_mean2(ctx, img);
    EXPECT_DOUBLE_EQ(r.mean, 3.0);
    ASSERT_GE(r.candidates.size(), 3u);  // and Vulkan's where a device is found
    EXPECT_EQ(trials(r), 0);
    // Nothing known: the static choice (the inputs' device) runs.
    EXPECT_EQ(r.plugin, "cpu");
    EXPECT_NE(r.reason.find("no cost known yet"), std::string::npos) << r.reason;
    EXPECT_NE(r.reason.find("not measured yet"), std::string::npos) << r.reason;
    for (const auto& c : r.candidates) EXPECT_EQ(c.source, IPT_COST_STATIC) << c.plugin << "/" << c.variant;
}

TEST(ColdSelection, TheRunOfAFirstCallIsThePriorOfTheNext) {
    ipt::Context ctx;
    ctx.load_plugin(testdev_plugin());
    ipt::Image img = image(ctx, 64, 3);
    run_mean2(ctx, img);
    Outcome r = run_mean2(ctx, img);
    EXPECT_EQ(trials(r), 0);
    const ipt_candidate_info* cpu = find(r, "cpu", "");
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(cpu->source, IPT_COST_STATIC);
    EXPECT_GE(cpu->run_ms, 0) << "estimated from the first call's run";
    EXPECT_NE(std::string(cpu->note).find("one earlier run"), std::string::npos) << cpu->note;
    EXPECT_EQ(cpu->chosen, 1);
}

bool probed(const ipt_candidate_info* c) { return c && std::string(c->note).rfind("probed: ", 0) == 0; }

// Candidates with nothing known of their run are probed (two runs, the
// second kept as the prior), as many on a call as the key has spent runs of
// the best known; then they are measured, cheapest to measure first, once
// the key has spent what measuring each costs.
TEST(ColdSelection, UnknownCandidatesAreProbedThenMeasuredWhenPaidFor) {
    ipt::Context ctx;
    ctx.load_plugin(testdev_plugin());
    ipt::Image img = image(ctx, 64, 5);
    int calls = 0;
    Outcome r;
    for (; calls < 1000; ++calls) {
        r = run_mean2(ctx, img);
        for (const char* variant : {"", "slow"})
            ASSERT_EQ(find(r, "testdev", variant)->source, IPT_COST_STATIC) << "a probe comes before measuring";
        if (probed(find(r, "testdev", "slow"))) break;
        ASSERT_EQ(r.plugin, "cpu");
    }
    const ipt_candidate_info* slow = find(r, "testdev", "slow");
    ASSERT_TRUE(probed(slow)) << "never probed";
    EXPECT_GT(calls, 0) << "a first call probes nothing";
    EXPECT_GE(slow->run_ms, 15.0) << "sleeps 20 ms";
    EXPECT_EQ(slow->chosen, 0);
    EXPECT_NE(r.reason.find("probed (a warm-up and one timed run each)"), std::string::npos) << r.reason;
    EXPECT_DOUBLE_EQ(r.mean, 5.0);
    // The probe priced the slow variant at its 20 ms: the fast one (probed
    // on this call or a later one) is measured without waiting for it.
    auto fast_measured = [](const Outcome& o) { return find(o, "testdev", "")->source == IPT_COST_MEASURED; };
    for (int more = 0; more < 100000 && !fast_measured(r); ++more) r = run_mean2(ctx, img);
    ASSERT_TRUE(fast_measured(r)) << "never measured";
    slow = find(r, "testdev", "slow");
    EXPECT_EQ(slow->source, IPT_COST_STATIC);
    EXPECT_NE(std::string(slow->note).find("one earlier run"), std::string::npos) << slow->note;
    EXPECT_GE(slow->run_ms, 15.0);
    EXPECT_DOUBLE_EQ(r.mean, 5.0);
    // Measured now: the next call measures it no more.
    Outcome next = run_mean2(ctx, img);
    EXPECT_EQ(find(next, "testdev", "")->source, IPT_COST_CACHED);
    EXPECT_NE(next.variant, "slow");
}

TEST(ColdSelection, PriorsThatSeparateTheCandidatesMeasureNeither) {
    fs::path path = temp_cache("separate");
    nlohmann::json j = measured_cache(path);
    // Far apart: 0.01 ms for 1 KiB on the CPU, 50 for testdev, 500 for
    // its slow variant (and any other device's).
    int set = 0;
    for (auto& [key, cands] : j["entries"].items())
        for (auto& [cand, m] : cands.items()) {
            EXPECT_EQ(m["input_bytes"], 1024) << cand;
            const bool dev = cand.rfind("testdev@", 0) == 0 && cand.find("|slow|") == std::string::npos;
            m["run_ms"] = cand.rfind("cpu@", 0) == 0 ? 0.01 : (dev ? 50.0 : 500.0);
            ++set;
        }
    ASSERT_GE(set, 3);
    ipt::Context ctx = context_on(path, j);
    ipt::Image img = image(ctx, 64, 7);  // another size bucket: 4 KiB, 4x the bytes
    Outcome r = run_mean2(ctx, img);
    EXPECT_DOUBLE_EQ(r.mean, 7.0);
    EXPECT_EQ(trials(r), 0);
    EXPECT_EQ(r.plugin, "cpu");
    EXPECT_NE(r.reason.find("lowest estimated cost"), std::string::npos) << r.reason;
    const ipt_candidate_info* cpu = find(r, "cpu", "");
    const ipt_candidate_info* dev = find(r, "testdev", "");
    const ipt_candidate_info* slow = find(r, "testdev", "slow");
    ASSERT_TRUE(cpu && dev && slow);
    // From the 32x32 measurements, 4x the bytes: between the time measured
    // and 4x that, estimated at their geometric mean (2x).
    EXPECT_DOUBLE_EQ(cpu->run_ms, 0.02);
    EXPECT_DOUBLE_EQ(dev->run_ms, 100.0);
    EXPECT_DOUBLE_EQ(slow->run_ms, 1000.0);
    EXPECT_NE(std::string(dev->note).find("(33.3-300 ms)"), std::string::npos) << dev->note;
    EXPECT_NE(std::string(dev->note).find("scaled from ipt.mean2|A=uint8:5x5x1"), std::string::npos) << dev->note;
    EXPECT_EQ(cpu->chosen, 1);
    fs::remove(path);
}

// With the copy curves known and nothing of a candidate's run, moving the
// inputs to its device is a floor under its cost: a device whose uploads
// take 5 ms is behind a CPU whose calls take microseconds, and is measured
// later than a candidate the priors cannot place, but still measured.
TEST(ColdSelection, TransfersAloneCanPutACandidateBehind) {
    fs::path path = temp_cache("floor");
    nlohmann::json j = measured_cache(path);
    j["entries"] = nlohmann::json::object();  // no run of any candidate is known
    int curves = 0;
    for (auto& [dev, model] : j["transfer"].items()) {
        if (dev.find("testdev") == std::string::npos) continue;
        for (const char* dir : {"up", "down"})  // 5 ms per copy, whatever its size
            for (auto& point : model[dir]) point[1] = 5.0;
        ++curves;
    }
    ASSERT_EQ(curves, 1);
    ipt::Context ctx = context_on(path, j);
    ipt::Image img = image(ctx, 64, 4);  // on the host
    Outcome first = run_mean2(ctx, img);
    EXPECT_EQ(trials(first), 0);
    EXPECT_EQ(first.plugin, "cpu");
    // The CPU's run is now its prior; testdev's candidates have none, but
    // their upload is known to cost 5 ms.
    Outcome second = run_mean2(ctx, img);
    EXPECT_EQ(trials(second), 0);
    EXPECT_EQ(second.plugin, "cpu");
    for (const char* variant : {"", "slow"}) {
        const ipt_candidate_info* dev = find(second, "testdev", variant);
        ASSERT_NE(dev, nullptr) << variant;
        EXPECT_EQ(dev->source, IPT_COST_STATIC);
        EXPECT_NE(std::string(dev->note).find("at least 5 ms moving its inputs"), std::string::npos) << dev->note;
    }
    const ipt_candidate_info* cpu = find(second, "cpu", "");
    ASSERT_NE(cpu, nullptr);
    EXPECT_EQ(std::string(cpu->note).find("at least"), std::string::npos) << cpu->note;  // its data is where it runs
    // Behind, not excluded: once the key's calls have paid for it, both are measured.
    // (A device found beside them, lavapipe's, may come first.)
    auto testdev_measured = [](const Outcome& o) {
        const ipt_candidate_info* dev = find(o, "testdev", "");
        return dev && dev->source == IPT_COST_MEASURED;
    };
    Outcome r;
    for (int calls = 0; calls < 1000000 && !testdev_measured(r); ++calls) r = run_mean2(ctx, img);
    ASSERT_TRUE(testdev_measured(r)) << "never measured";
    EXPECT_EQ(find(r, "testdev", "slow")->source, IPT_COST_MEASURED);
    EXPECT_DOUBLE_EQ(r.mean, 4.0);
    fs::remove(path);
}

TEST(ColdSelection, IptSelectMeasureMeasuresEveryCandidateOnAMiss) {
    ::setenv("IPT_SELECT", "measure", 1);
    ipt::Context ctx;
    ::unsetenv("IPT_SELECT");
    ctx.load_plugin(testdev_plugin());
    ipt::Image img = image(ctx, 64, 2);
    Outcome r = run_mean2(ctx, img);
    EXPECT_EQ(trials(r), static_cast<int>(r.candidates.size()));
    EXPECT_NE(r.variant, "slow");
}

}  // namespace
