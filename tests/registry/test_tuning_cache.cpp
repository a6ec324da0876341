// SPDX-License-Identifier: Apache-2.0
// The tuning cache file is only ever replaced when it is a tuning cache: a
// text file, a FIFO, a directory or a huge file at its path is reported and
// left alone (measurements stay in memory); a corrupt cache is reported and
// rewritten; the temporary file never follows a link planted at its name; a
// failed write leaves the old cache as it was.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <fcntl.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <csignal>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <future>
#include <sstream>
#include <string>
#include <vector>

#include "ipt/ipt.hpp"

namespace {

// The calls here measure every candidate on a miss (IPT_SELECT=measure), so
// that each has measurements for the cache to save.
class MeasureOnMiss : public ::testing::Environment {
public:
    void SetUp() override { ::setenv("IPT_SELECT", "measure", 1); }
};
const auto* const measure_on_miss = ::testing::AddGlobalTestEnvironment(new MeasureOnMiss);

namespace fs = std::filesystem;

std::string testdev_plugin() { return std::string(IPT_TEST_PLUGIN_DIR) + "/libipt_testdev.so"; }

// A fresh folder per test.
fs::path temp_dir(const std::string& name) {
    fs::path d = fs::temp_directory_path() / ("ipt_tuning_cache_" + std::to_string(::getpid()) + "_" + name);
    fs::remove_all(d);
    fs::create_directories(d);
    return d;
}

std::string read_all(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

void write_all(const fs::path& p, const std::string& text) {
    std::ofstream out(p, std::ios::binary);
    out << text;
}

// Measures ipt.mean2 on a rows x 16 image (testdev has two variants, so the
// measurement is recorded and the cache has something to save).
void measure(ipt::Context& ctx, int rows) {
    ctx.load_plugin(testdev_plugin());
    std::vector<uint8_t> a(static_cast<size_t>(rows) * 16, 3);
    ipt::Image img = ctx.upload<uint8_t>(rows, 16, a);
    ipt::Call call(ctx, "ipt.mean2");
    call.image("A", img).run();
    ASSERT_EQ(call.take("m").download<double>().at(0), 3.0);
}

// Opens `path` as the cache, measures, saves; returns what went to stderr.
std::string open_measure_save(const fs::path& path, ipt_status* save_status = nullptr) {
    testing::internal::CaptureStderr();
    {
        ipt::Context ctx;
        ctx.set_tuning_cache(path.string());
        measure(ctx, 8);
        const ipt_status s = ipt_tuning_cache_save(ctx.get());
        if (save_status) *save_status = s;
        EXPECT_EQ(ctx.get() ? std::string(ipt_tuning_cache_path(ctx.get())) : "", path.string());
    }
    return testing::internal::GetCapturedStderr();
}

bool is_cache(const fs::path& p) {
    try {
        const nlohmann::json j = nlohmann::json::parse(read_all(p));
        return j.at("format") == 1 && !j.at("entries").empty();
    } catch (const std::exception&) {
        return false;
    }
}

bool no_temp_files(const fs::path& dir) {
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().filename().string().ends_with(".tmp")) return false;
    return true;
}

TEST(TuningCacheFile, TextFileIsNeverReplaced) {
    const fs::path dir = temp_dir("text");
    const fs::path notes = dir / "notes.txt";
    const std::string text = "shopping: milk, eggs\n{\"format\": 1}\n";
    write_all(notes, text);
    ipt_status s = IPT_ERR_INTERNAL;
    const std::string err = open_measure_save(notes, &s);
    EXPECT_EQ(s, IPT_OK);  // measurements stay in memory; that is not an error
    EXPECT_EQ(read_all(notes), text);
    EXPECT_NE(err.find(notes.string()), std::string::npos) << err;
    EXPECT_NE(err.find("is not a tuning cache"), std::string::npos) << err;
    EXPECT_TRUE(no_temp_files(dir));
    fs::remove_all(dir);
}

TEST(TuningCacheFile, JsonOfAnotherProgramIsNeverReplaced) {
    const fs::path dir = temp_dir("json");
    const fs::path other = dir / "settings.json";
    const std::string text = "{\"format\": 3, \"theme\": \"dark\"}\n";
    write_all(other, text);
    const std::string err = open_measure_save(other);
    EXPECT_EQ(read_all(other), text);
    EXPECT_NE(err.find("is not a tuning cache"), std::string::npos) << err;
    fs::remove_all(dir);
}

TEST(TuningCacheFile, EmptyFileIsANewCache) {
    const fs::path dir = temp_dir("empty");
    const fs::path path = dir / "tuning.json";
    write_all(path, "");
    const std::string err = open_measure_save(path);
    EXPECT_TRUE(is_cache(path)) << read_all(path);
    EXPECT_EQ(err.find("warning"), std::string::npos) << err;
    fs::remove_all(dir);
}

TEST(TuningCacheFile, CacheCutShortIsReportedAndRewritten) {
    const fs::path dir = temp_dir("cut");
    const fs::path path = dir / "tuning.json";
    open_measure_save(path);
    ASSERT_TRUE(is_cache(path));
    // What this library wrote, cut off in the middle (a full disk, a copy
    // interrupted): still known as a tuning cache by its first lines.
    const std::string whole = read_all(path);
    write_all(path, whole.substr(0, whole.size() / 2));
    ASSERT_FALSE(is_cache(path));
    const std::string err = open_measure_save(path);
    EXPECT_NE(err.find("corrupt"), std::string::npos) << err;
    EXPECT_NE(err.find(path.string()), std::string::npos) << err;
    EXPECT_TRUE(is_cache(path)) << read_all(path);
    fs::remove_all(dir);
}

TEST(TuningCacheFile, HugeFileIsRefusedUnread) {
    const fs::path dir = temp_dir("huge");
    const fs::path path = dir / "tuning.json";
    {
        std::ofstream out(path);
        out << "{\"format\": 1, \"entries\": {}}";
    }
    fs::resize_file(path, (uint64_t{64} << 20) + 1);  // sparse: costs no disk
    const std::string err = open_measure_save(path);
    EXPECT_NE(err.find("more than the limit"), std::string::npos) << err;
    EXPECT_EQ(fs::file_size(path), (uint64_t{64} << 20) + 1);
    fs::remove_all(dir);
}

TEST(TuningCacheFile, DirectoryIsRefused) {
    const fs::path dir = temp_dir("dir");
    const fs::path path = dir / "tuning.json";
    fs::create_directory(path);
    const std::string err = open_measure_save(path);
    EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
    EXPECT_TRUE(fs::is_directory(path));
    fs::remove_all(dir);
}

// A FIFO nobody writes to: opening it for reading without O_NONBLOCK would
// wait forever. A reader that waits is released after 20 s (by opening the
// FIFO for writing) and fails the test.
TEST(TuningCacheFile, FifoDoesNotBlock) {
    const fs::path dir = temp_dir("fifo");
    const fs::path path = dir / "tuning.json";
    ASSERT_EQ(::mkfifo(path.c_str(), 0644), 0);
    auto run = std::async(std::launch::async, [&] { return open_measure_save(path); });
    if (run.wait_for(std::chrono::seconds(20)) == std::future_status::timeout) {
        ADD_FAILURE() << "the tuning cache waits on the FIFO " << path;
        ::close(::open(path.c_str(), O_WRONLY | O_NONBLOCK));
    }
    const std::string err = run.get();
    EXPECT_NE(err.find("not a regular file"), std::string::npos) << err;
    EXPECT_NE(err.find(path.string()), std::string::npos) << err;
    EXPECT_TRUE(fs::is_fifo(path));
    fs::remove_all(dir);
}

TEST(TuningCacheFile, LinkAtTheTemporaryNameIsNotFollowed) {
    const fs::path dir = temp_dir("link");
    const fs::path path = dir / "tuning.json";
    const fs::path victim = dir / "victim.txt";
    write_all(victim, "precious\n");
    // The first name the writer tries: ".<cache>.<pid>.tmp".
    const fs::path planted = dir / (".tuning.json." + std::to_string(::getpid()) + ".tmp");
    fs::create_symlink(victim, planted);
    ipt_status s = IPT_ERR_INTERNAL;
    open_measure_save(path, &s);
    EXPECT_EQ(s, IPT_OK);
    EXPECT_EQ(read_all(victim), "precious\n");
    EXPECT_TRUE(fs::is_symlink(planted));
    EXPECT_TRUE(is_cache(path)) << read_all(path);
    fs::remove_all(dir);
}

TEST(TuningCacheFile, LinkToACacheIsKept) {
    const fs::path dir = temp_dir("keeplink");
    const fs::path real = dir / "real.json";
    const fs::path link = dir / "tuning.json";
    write_all(real, "");
    fs::create_symlink(real, link);
    open_measure_save(link);
    EXPECT_TRUE(fs::is_symlink(link));
    EXPECT_TRUE(is_cache(real)) << read_all(real);
    EXPECT_TRUE(no_temp_files(dir));
    fs::remove_all(dir);
}

// In a child process: a save that can write no more than 16 bytes per file
// fails, and leaves the cache and its folder as they were.
[[noreturn]] void save_under_file_size_limit(const fs::path& path, const std::string& before) {
    ::alarm(20);
    ipt::Context ctx;
    ctx.set_tuning_cache(path.string());
    measure(ctx, 500);  // a new key: something to save
    std::signal(SIGXFSZ, SIG_IGN);
    const rlimit limit{16, 16};
    ::setrlimit(RLIMIT_FSIZE, &limit);
    const ipt_status s = ipt_tuning_cache_save(ctx.get());
    const bool kept = s != IPT_OK && read_all(path) == before && no_temp_files(path.parent_path());
    fs::remove_all(path.parent_path());  // this process's own folder (the test ran anew in it)
    std::_Exit(kept ? 0 : 1);
}

// A write that fails (here: the file-size limit) leaves the old cache whole
// and no temporary file behind.
TEST(TuningCacheFileDeathTest, FailedWriteKeepsTheOldCache) {
    GTEST_FLAG_SET(death_test_style, "threadsafe");
    const fs::path dir = temp_dir("fail");
    const fs::path path = dir / "tuning.json";
    open_measure_save(path);
    ASSERT_TRUE(is_cache(path));
    const std::string before = read_all(path);
    EXPECT_EXIT(save_under_file_size_limit(path, before), testing::ExitedWithCode(0), "");
    EXPECT_EQ(read_all(path), before);
    fs::remove_all(dir);
}

}  // namespace
