// SPDX-License-Identifier: Apache-2.0
// Plugin files that dlopen would die or block on (truncated libraries, FIFOs,
// directories, text, segments past the end) are refused with a reason in the
// load report before dlopen sees them; the context is created and the CPU
// plugin keeps working.
#include <gtest/gtest.h>

#include <elf.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <future>
#include <iterator>
#include <memory>
#include <string>
#include <thread>
#include <vector>

#include "ipt/ipt.hpp"

namespace fs = std::filesystem;

namespace {

std::string cpu_plugin() { return std::string(IPT_BUILD_LIB_DIR) + "/libipt_cpu.so"; }

std::vector<char> read_file(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    return std::vector<char>(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
}

void write_file(const fs::path& path, const std::vector<char>& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
}

std::vector<char> prefix(const std::vector<char>& bytes, size_t n) {
    return std::vector<char>(bytes.begin(), bytes.begin() + static_cast<std::ptrdiff_t>(std::min(n, bytes.size())));
}

class PluginFiles : public ::testing::Test {
protected:
    void SetUp() override {
        char tmpl[] = "/tmp/ipt_plugin_files_XXXXXX";
        ASSERT_NE(mkdtemp(tmpl), nullptr);
        dir_ = tmpl;
        cpu_ = read_file(cpu_plugin());
        ASSERT_GT(cpu_.size(), 4096u) << cpu_plugin();
    }
    void TearDown() override {
        std::error_code ec;
        fs::permissions(dir_, fs::perms::owner_all, ec);
        for (const auto& e : fs::directory_iterator(dir_, ec)) fs::permissions(e.path(), fs::perms::owner_all, ec);
        fs::remove_all(dir_, ec);
    }
    fs::path file(const std::string& name) const { return dir_ / ("libipt_" + name + ".so"); }

    // Loads `path` explicitly in a fresh context: refused, with `needle` in
    // the report and the message; then the CPU plugin loads and runs.
    void expect_refused(const fs::path& path, const std::string& needle) const {
        SCOPED_TRACE(path.string());
        ipt::Context ctx(IPT_CONTEXT_NO_DISCOVERY);
        EXPECT_EQ(ipt_load_plugin(ctx.get(), path.c_str()), IPT_ERR_PLUGIN);
        EXPECT_NE(std::string(ipt_last_error()).find(needle), std::string::npos) << ipt_last_error();
        auto reports = ctx.plugin_reports();
        ASSERT_EQ(reports.size(), 1u);
        EXPECT_EQ(reports[0].outcome, IPT_LOAD_FAILED);
        EXPECT_EQ(std::string(reports[0].path), path.string());
        const std::string error = reports[0].error;
        EXPECT_NE(error.find("refused before loading"), std::string::npos) << error;
        EXPECT_NE(error.find(needle), std::string::npos) << error;
        EXPECT_EQ(ipt_impl_count(ctx.get(), nullptr), 0u);
        expect_cpu_works(ctx, true);
    }

    static void expect_cpu_works(ipt::Context& ctx, bool load) {
        if (load) ctx.load_plugin(cpu_plugin());
        ipt::Image a = ctx.upload<double>(2, 2, {1, 2, 3, 4});
        ipt::Call call(ctx, "ipt.mean2");
        call.image("A", a).run();
        double mean = 0;
        call.take("m").download(&mean);
        EXPECT_DOUBLE_EQ(mean, 2.5);  // (1 + 2 + 3 + 4) / 4
    }

    fs::path dir_;
    std::vector<char> cpu_;
};

TEST_F(PluginFiles, TruncatedCopiesAreRefused) {
    struct Cut {
        size_t length;
        const char* needle;
    };
    const Cut cuts[] = {
        {0, "the file is empty"},
        {10, "truncated: an ELF header needs"},
        {64, "truncated: its program headers end at byte"},
        {3000, "the file is truncated"},
        {cpu_.size() / 2, "the file is truncated"},
        {cpu_.size() - 1, "the file is truncated"},
    };
    for (const Cut& c : cuts) {
        const fs::path p = file("cut" + std::to_string(c.length));
        write_file(p, prefix(cpu_, c.length));
        expect_refused(p, c.needle);
    }
}

TEST_F(PluginFiles, NonElfFilesAreRefused) {
    write_file(file("text"), {'h', 'e', 'l', 'l', 'o', '\n'});
    expect_refused(file("text"), "not an ELF file");
    std::vector<char> garbage(5000);
    unsigned state = 12345;
    for (char& b : garbage) b = static_cast<char>((state = state * 1103515245u + 12345u) >> 16);
    write_file(file("garbage"), garbage);
    expect_refused(file("garbage"), "not an ELF file");
}

TEST_F(PluginFiles, DirectoryFifoAndSymlinksAreRefused) {
    fs::create_directory(file("x"));
    expect_refused(file("x"), "is a directory, not a regular file");
    ASSERT_EQ(mkfifo(file("fifo").c_str(), 0600), 0);
    expect_refused(file("fifo"), "is a FIFO, not a regular file");
    fs::create_symlink(file("x"), file("link_to_dir"));
    expect_refused(file("link_to_dir"), "is a directory");
    write_file(dir_ / "short", prefix(cpu_, 3000));
    fs::create_symlink(dir_ / "short", file("link_to_short"));
    expect_refused(file("link_to_short"), "the file is truncated");
    fs::create_symlink(dir_ / "nowhere", file("dangling"));
    expect_refused(file("dangling"), "cannot open the file");
}

TEST_F(PluginFiles, UnreadableFileIsRefused) {
    if (geteuid() == 0) GTEST_SKIP() << "root reads every file";
    write_file(file("locked"), cpu_);
    fs::permissions(file("locked"), fs::perms::none);
    expect_refused(file("locked"), "cannot open the file: Permission denied");
}

// Copies of the CPU plugin with one header field patched.
class PatchedElf : public PluginFiles {
protected:
    Elf64_Ehdr header() const {
        Elf64_Ehdr eh;
        std::memcpy(&eh, cpu_.data(), sizeof eh);
        return eh;
    }
    Elf64_Phdr phdr(size_t i) const {
        Elf64_Phdr ph;
        std::memcpy(&ph, cpu_.data() + header().e_phoff + i * sizeof ph, sizeof ph);
        return ph;
    }
    std::vector<char> with_phdr(size_t i, const Elf64_Phdr& ph) const {
        std::vector<char> out = cpu_;
        std::memcpy(out.data() + header().e_phoff + i * sizeof ph, &ph, sizeof ph);
        return out;
    }
    // Index of the first program header of `type`.
    size_t find(uint32_t type) const {
        for (size_t i = 0; i < header().e_phnum; ++i)
            if (phdr(i).p_type == type) return i;
        ADD_FAILURE() << "no program header of type " << type;
        return 0;
    }
};

TEST_F(PatchedElf, LoadSegmentPastTheEndIsRefused) {
    const size_t i = find(PT_LOAD);
    Elf64_Phdr ph = phdr(i);
    ph.p_filesz = cpu_.size();  // from p_offset > 0 on, this runs past the end
    ph.p_memsz = std::max<uint64_t>(ph.p_memsz, ph.p_filesz);
    if (ph.p_offset == 0) ph.p_offset = 4096;
    write_file(file("load_past_end"), with_phdr(i, ph));
    expect_refused(file("load_past_end"), "segment " + std::to_string(i) + " (PT_LOAD) ends at byte");
}

TEST_F(PatchedElf, DynamicSegmentPastTheEndIsRefused) {
    const size_t i = find(PT_DYNAMIC);
    Elf64_Phdr ph = phdr(i);
    ph.p_offset = cpu_.size() + 4096;
    write_file(file("dynamic_past_end"), with_phdr(i, ph));
    expect_refused(file("dynamic_past_end"), "(PT_DYNAMIC) ends at byte");
}

// A dynamic section of zeros (a file with holes after a crash): the dynamic
// linker would dereference its missing tables.
TEST_F(PatchedElf, ZeroedDynamicSectionIsRefused) {
    const Elf64_Phdr dyn = phdr(find(PT_DYNAMIC));
    std::vector<char> bytes = cpu_;
    std::memset(bytes.data() + dyn.p_offset, 0, dyn.p_filesz);
    write_file(file("zero_dynamic"), bytes);
    expect_refused(file("zero_dynamic"), "the dynamic section lacks DT_SYMTAB or DT_STRTAB");
}

TEST_F(PatchedElf, DynamicTablePastTheLoadedBytesIsRefused) {
    const Elf64_Phdr dyn = phdr(find(PT_DYNAMIC));
    std::vector<char> bytes = cpu_;
    bool patched = false;
    for (uint64_t at = dyn.p_offset; at + sizeof(Elf64_Dyn) <= dyn.p_offset + dyn.p_filesz; at += sizeof(Elf64_Dyn)) {
        Elf64_Dyn e;
        std::memcpy(&e, bytes.data() + at, sizeof e);
        if (e.d_tag != DT_SYMTAB) continue;
        e.d_un.d_ptr = uint64_t(1) << 40;
        std::memcpy(bytes.data() + at, &e, sizeof e);
        patched = true;
    }
    ASSERT_TRUE(patched);
    write_file(file("symtab_far"), bytes);
    expect_refused(file("symtab_far"), "DT_SYMTAB lies outside the file's loaded bytes");
}

TEST_F(PatchedElf, OverflowingOffsetsAreRefused) {
    const size_t i = find(PT_LOAD);
    Elf64_Phdr ph = phdr(i);
    ph.p_offset = ~uint64_t(0) - 8;  // offset + size wraps around 2^64
    ph.p_filesz = 4096;
    write_file(file("wrap"), with_phdr(i, ph));
    expect_refused(file("wrap"), "ends at byte beyond 2^64");

    std::vector<char> bytes = cpu_;
    Elf64_Ehdr eh = header();
    eh.e_phoff = ~uint64_t(0) - 16;
    std::memcpy(bytes.data(), &eh, sizeof eh);
    write_file(file("phoff"), bytes);
    expect_refused(file("phoff"), "its program headers end at byte beyond 2^64");
}

TEST_F(PatchedElf, HeaderFieldsAreChecked) {
    struct Patch {
        const char* name;
        void (*apply)(Elf64_Ehdr&);
        const char* needle;
    };
    const Patch patches[] = {
        {"class32", [](Elf64_Ehdr& e) { e.e_ident[EI_CLASS] = ELFCLASS32; }, "32-bit"},
        {"msb", [](Elf64_Ehdr& e) { e.e_ident[EI_DATA] = ELFDATA2MSB; }, "other byte order"},
        {"rel", [](Elf64_Ehdr& e) { e.e_type = ET_REL; }, "not a shared library"},
        {"machine", [](Elf64_Ehdr& e) { e.e_machine = e.e_machine == EM_AARCH64 ? EM_X86_64 : EM_AARCH64; },
         "for another machine"},
        {"phentsize", [](Elf64_Ehdr& e) { e.e_phentsize = 8; }, "program headers of 8 bytes"},
        {"phnum", [](Elf64_Ehdr& e) { e.e_phnum = 0; }, "declares 0 program headers"},
        {"shoff", [](Elf64_Ehdr& e) { e.e_shoff += 1u << 30; }, "its section headers end at byte"},
    };
    for (const Patch& p : patches) {
        std::vector<char> bytes = cpu_;
        Elf64_Ehdr eh = header();
        p.apply(eh);
        std::memcpy(bytes.data(), &eh, sizeof eh);
        write_file(file(p.name), bytes);
        expect_refused(file(p.name), p.needle);
    }
}

// The intact copy is accepted: the check refuses nothing a linker writes.
TEST_F(PluginFiles, IntactCopyLoads) {
    write_file(file("copy"), cpu_);
    ipt::Context ctx(IPT_CONTEXT_NO_DISCOVERY);
    ASSERT_EQ(ipt_load_plugin(ctx.get(), file("copy").c_str()), IPT_OK) << ipt_last_error();
    expect_cpu_works(ctx, false);
}

// Discovery through IPT_PLUGIN_PATH: every bad file in the folder gets its
// report entry, creating the context neither crashes nor blocks (the FIFO),
// and the default CPU plugin works.
TEST_F(PluginFiles, DiscoveryRefusesBadFilesAndContinues) {
    write_file(file("t"), prefix(cpu_, 3000));
    write_file(file("empty"), {});
    write_file(file("half"), prefix(cpu_, cpu_.size() / 2));
    write_file(file("text"), {'#', '!', '\n'});
    fs::create_directory(file("x"));
    ASSERT_EQ(mkfifo(file("fifo").c_str(), 0600), 0);
    ASSERT_EQ(setenv("IPT_PLUGIN_PATH", dir_.c_str(), 1), 0);

    // A context that blocks in a FIFO must fail the test, not hang it.
    auto created = std::async(std::launch::async, [] { return std::make_unique<ipt::Context>(); });
    if (created.wait_for(std::chrono::seconds(60)) != std::future_status::ready) {
        std::fprintf(stderr, "context creation blocked on a plugin file\n");
        std::_Exit(1);
    }
    std::unique_ptr<ipt::Context> ctx = created.get();
    unsetenv("IPT_PLUGIN_PATH");

    size_t refused = 0;
    bool cpu_loaded = false;
    for (const ipt_plugin_report& r : ctx->plugin_reports()) {
        const std::string path = r.path;
        if (path.rfind(dir_.string(), 0) == 0) {
            EXPECT_EQ(r.outcome, IPT_LOAD_FAILED) << path;
            EXPECT_STREQ(r.source, "IPT_PLUGIN_PATH");
            EXPECT_NE(std::string(r.error).find("refused before loading: "), std::string::npos) << r.error;
            ++refused;
        }
        cpu_loaded |= std::string(r.name) == "cpu" && r.outcome == IPT_LOAD_LOADED;
    }
    EXPECT_EQ(refused, 6u);
    EXPECT_TRUE(cpu_loaded);
    expect_cpu_works(*ctx, false);
}

}  // namespace
