// SPDX-License-Identifier: Apache-2.0
// Checks a shared library file before it is handed to dlopen. The dynamic
// linker maps segments by the offsets the file declares and trusts them: a
// truncated file (a half-copied install, a full disk) dies with SIGBUS inside
// dlopen, and a FIFO blocks it forever. Checking the file first turns these
// into a refusal with a reason. (A file replaced between the check and dlopen
// is not covered; that needs a writer with access to the folder.)
#ifndef IPT_COMMON_LIBRARY_FILE_HPP
#define IPT_COMMON_LIBRARY_FILE_HPP

#include <elf.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "file_access.hpp"

namespace ipt {

namespace library_file_detail {

#if __SIZEOF_POINTER__ == 8
using Ehdr = Elf64_Ehdr;
using Phdr = Elf64_Phdr;
using Shdr = Elf64_Shdr;
using Dyn = Elf64_Dyn;
using Sym = Elf64_Sym;
constexpr unsigned char kClass = ELFCLASS64;
#else
using Ehdr = Elf32_Ehdr;
using Phdr = Elf32_Phdr;
using Shdr = Elf32_Shdr;
using Dyn = Elf32_Dyn;
using Sym = Elf32_Sym;
constexpr unsigned char kClass = ELFCLASS32;
#endif

#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
constexpr unsigned char kData = ELFDATA2LSB;
#else
constexpr unsigned char kData = ELFDATA2MSB;
#endif

// The machine this code is built for; 0 where it is not listed (not checked).
constexpr unsigned kMachine =
#if defined(__x86_64__)
    EM_X86_64;
#elif defined(__aarch64__)
    EM_AARCH64;
#elif defined(__i386__)
    EM_386;
#elif defined(__arm__)
    EM_ARM;
#elif defined(__powerpc64__)
    EM_PPC64;
#elif defined(__riscv)
    EM_RISCV;
#elif defined(__s390x__)
    EM_S390;
#else
    0;
#endif

struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) ::close(fd);
    }
};

// Whether [offset, offset + count * each) lies inside a file of `size` bytes,
// without overflow.
inline bool inside(uint64_t offset, uint64_t count, uint64_t each, uint64_t size) {
    if (offset > size) return false;
    if (each != 0 && count > (size - offset) / each) return false;
    return true;
}

// offset + count * each as text, "beyond 2^64" where it overflows.
inline std::string end_of(uint64_t offset, uint64_t count, uint64_t each) {
    const unsigned __int128 end = static_cast<unsigned __int128>(offset) + static_cast<unsigned __int128>(count) * each;
    return end >> 64 ? std::string("beyond 2^64") : std::to_string(static_cast<uint64_t>(end));
}

inline bool read_at(int fd, void* dst, size_t bytes, uint64_t offset) {
    auto* p = static_cast<unsigned char*>(dst);
    while (bytes > 0) {
        const ssize_t n = ::pread(fd, p, bytes, static_cast<off_t>(offset));
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) return false;
        p += n;
        bytes -= static_cast<size_t>(n);
        offset += static_cast<uint64_t>(n);
    }
    return true;
}

inline std::string segment_name(uint32_t type) {
    switch (type) {
    case PT_LOAD: return "PT_LOAD";
    case PT_DYNAMIC: return "PT_DYNAMIC";
    case PT_INTERP: return "PT_INTERP";
    case PT_NOTE: return "PT_NOTE";
    case PT_PHDR: return "PT_PHDR";
    case PT_TLS: return "PT_TLS";
    case PT_GNU_EH_FRAME: return "PT_GNU_EH_FRAME";
    case PT_GNU_RELRO: return "PT_GNU_RELRO";
    default: return "type " + std::to_string(type);
    }
}

}  // namespace library_file_detail

// Why the file at `path` must not be given to dlopen, or nothing when it is a
// regular file holding a shared library for this machine whose ELF headers,
// segments and sections all lie inside the file. Never blocks (a FIFO is
// opened non-blocking and refused); symbolic links are followed.
inline std::optional<std::string> library_file_problem(const std::string& path) {
    namespace d = library_file_detail;
    files::OpenedFile opened = files::open_regular(path);
    if (opened.fd < 0) return opened.problem;
    d::Fd f;
    f.fd = opened.fd;
    const uint64_t size = opened.size;
    const std::string has = ", the file has " + std::to_string(size) + " bytes";
    if (size == 0) return std::string("the file is empty");

    d::Ehdr eh{};
    unsigned char ident[EI_NIDENT] = {};
    if (!d::read_at(f.fd, ident, size < EI_NIDENT ? size : EI_NIDENT, 0) || size < SELFMAG ||
        std::memcmp(ident, ELFMAG, SELFMAG) != 0)
        return std::string("the file is not an ELF file (no \\177ELF magic)");
    if (size < sizeof eh)
        return "the file is truncated: an ELF header needs " + std::to_string(sizeof eh) + " bytes" + has;
    if (!d::read_at(f.fd, &eh, sizeof eh, 0)) return std::string("cannot read the ELF header");
    if (eh.e_ident[EI_CLASS] != d::kClass)
        return std::string("the ELF file is ") + (eh.e_ident[EI_CLASS] == ELFCLASS32 ? "32-bit" : "of an unknown class") +
               ", this process is " + (d::kClass == ELFCLASS64 ? "64-bit" : "32-bit");
    if (eh.e_ident[EI_DATA] != d::kData) return std::string("the ELF file has the other byte order");
    if (eh.e_ident[EI_VERSION] != EV_CURRENT || eh.e_version != EV_CURRENT)
        return std::string("the ELF file has an unknown version");
    if (eh.e_type != ET_DYN)
        return "the ELF file is not a shared library (e_type " + std::to_string(eh.e_type) + ", not ET_DYN)";
    if (d::kMachine != 0 && eh.e_machine != d::kMachine)
        return "the ELF file is for another machine (e_machine " + std::to_string(eh.e_machine) + ", this one is " +
               std::to_string(d::kMachine) + ")";
    if (eh.e_ehsize < sizeof eh) return "the ELF header declares e_ehsize " + std::to_string(eh.e_ehsize);

    // Program headers: every segment's bytes must be in the file.
    if (eh.e_phnum == 0 || eh.e_phnum == PN_XNUM)
        return "the ELF file declares " + std::to_string(eh.e_phnum) + " program headers";
    if (eh.e_phentsize != sizeof(d::Phdr))
        return "the ELF file declares program headers of " + std::to_string(eh.e_phentsize) + " bytes, not " +
               std::to_string(sizeof(d::Phdr));
    if (!d::inside(eh.e_phoff, eh.e_phnum, sizeof(d::Phdr), size))
        return "the file is truncated: its program headers end at byte " +
               d::end_of(eh.e_phoff, eh.e_phnum, sizeof(d::Phdr)) + has;
    std::vector<d::Phdr> ph(eh.e_phnum);
    if (!d::read_at(f.fd, ph.data(), ph.size() * sizeof(d::Phdr), eh.e_phoff))
        return std::string("cannot read the program headers");
    bool loadable = false;
    for (size_t i = 0; i < ph.size(); ++i) {
        loadable |= ph[i].p_type == PT_LOAD;
        if (ph[i].p_filesz == 0) continue;
        if (!d::inside(ph[i].p_offset, 1, ph[i].p_filesz, size))
            return "the file is truncated: segment " + std::to_string(i) + " (" + d::segment_name(ph[i].p_type) +
                   ") ends at byte " + d::end_of(ph[i].p_offset, 1, ph[i].p_filesz) + has;
    }
    if (!loadable) return std::string("the ELF file has no loadable segment");

    // The dynamic section: the dynamic linker follows its tables without
    // checking them, so a zeroed one (a file with holes after a crash) or one
    // pointing outside the file's loaded bytes crashes it.
    const d::Phdr* dynamic = nullptr;
    for (const d::Phdr& p : ph)
        if (p.p_type == PT_DYNAMIC) dynamic = &p;
    if (!dynamic) return std::string("the ELF file has no dynamic section");
    std::vector<d::Dyn> dyn(static_cast<size_t>(std::min<uint64_t>(dynamic->p_filesz / sizeof(d::Dyn), 4096)));
    if (!dyn.empty() && !d::read_at(f.fd, dyn.data(), dyn.size() * sizeof(d::Dyn), dynamic->p_offset))
        return std::string("cannot read the dynamic section");
    // Whether [addr, addr + bytes) lies in the file-backed part of one PT_LOAD.
    auto loaded = [&](uint64_t addr, uint64_t bytes) {
        for (const d::Phdr& p : ph)
            if (p.p_type == PT_LOAD && addr >= p.p_vaddr && addr - p.p_vaddr <= p.p_filesz &&
                bytes <= p.p_filesz - (addr - p.p_vaddr))
                return true;
        return false;
    };
    bool terminated = false;
    uint64_t value[DT_NUM] = {};
    bool present[DT_NUM] = {};
    uint64_t gnu_hash = 0;
    bool has_gnu_hash = false;
    for (const d::Dyn& e : dyn) {
        if (e.d_tag == DT_NULL) {
            terminated = true;
            break;
        }
        if (e.d_tag > 0 && e.d_tag < DT_NUM) {
            present[e.d_tag] = true;
            value[e.d_tag] = e.d_un.d_val;
        } else if (e.d_tag == DT_GNU_HASH) {
            has_gnu_hash = true;
            gnu_hash = e.d_un.d_ptr;
        }
    }
    if (!terminated) return std::string("the dynamic section has no DT_NULL end (a corrupt file)");
    if (!present[DT_SYMTAB] || !present[DT_STRTAB])
        return std::string("the dynamic section lacks DT_SYMTAB or DT_STRTAB (a zeroed or corrupt file)");
    struct Table {
        int tag, size_tag;
        uint64_t least;
        const char* name;
    };
    const Table tables[] = {
        {DT_STRTAB, DT_STRSZ, 1, "DT_STRTAB"},        {DT_SYMTAB, -1, sizeof(d::Sym), "DT_SYMTAB"},
        {DT_HASH, -1, 8, "DT_HASH"},                 {DT_RELA, DT_RELASZ, 0, "DT_RELA"},
        {DT_REL, DT_RELSZ, 0, "DT_REL"},              {DT_JMPREL, DT_PLTRELSZ, 0, "DT_JMPREL"},
        {DT_INIT_ARRAY, DT_INIT_ARRAYSZ, 0, "DT_INIT_ARRAY"}, {DT_FINI_ARRAY, DT_FINI_ARRAYSZ, 0, "DT_FINI_ARRAY"},
    };
    for (const Table& t : tables) {
        if (!present[t.tag]) continue;
        const uint64_t bytes = t.size_tag >= 0 && present[t.size_tag] ? value[t.size_tag] : t.least;
        if (!loaded(value[t.tag], bytes))
            return std::string("the dynamic section's ") + t.name + " lies outside the file's loaded bytes";
    }
    if (has_gnu_hash && !loaded(gnu_hash, 16))
        return std::string("the dynamic section's DT_GNU_HASH lies outside the file's loaded bytes");

    // Section headers (not read by dlopen, but a table or section past the
    // end is the mark of a truncated file).
    if (eh.e_shoff != 0) {
        if (eh.e_shentsize != sizeof(d::Shdr))
            return "the ELF file declares section headers of " + std::to_string(eh.e_shentsize) + " bytes, not " +
                   std::to_string(sizeof(d::Shdr));
        // e_shnum 0 with a table: the count is in section 0 (at least that one exists).
        const uint64_t count = eh.e_shnum ? eh.e_shnum : 1;
        if (!d::inside(eh.e_shoff, count, sizeof(d::Shdr), size))
            return "the file is truncated: its section headers end at byte " +
                   d::end_of(eh.e_shoff, count, sizeof(d::Shdr)) + has;
        std::vector<d::Shdr> sh(count);
        if (!d::read_at(f.fd, sh.data(), sh.size() * sizeof(d::Shdr), eh.e_shoff))
            return std::string("cannot read the section headers");
        for (size_t i = 0; i < sh.size(); ++i) {
            if (sh[i].sh_type == SHT_NOBITS || sh[i].sh_type == SHT_NULL || sh[i].sh_size == 0) continue;
            if (!d::inside(sh[i].sh_offset, 1, sh[i].sh_size, size))
                return "the file is truncated: section " + std::to_string(i) + " ends at byte " +
                       d::end_of(sh[i].sh_offset, 1, sh[i].sh_size) + has;
        }
    }
    return std::nullopt;
}

// Whether `name` is a path (has a '/') rather than a bare soname the dynamic
// linker searches for; only paths are checked.
inline bool is_library_path(const std::string& name) { return name.find('/') != std::string::npos; }

}  // namespace ipt

#endif  // IPT_COMMON_LIBRARY_FILE_HPP
