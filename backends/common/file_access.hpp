// SPDX-License-Identifier: Apache-2.0
// Reading and replacing the files OpenIPT keeps for itself (the tuning cache,
// the Vulkan pipeline and FFT kernel caches) and writes for a user (the
// CLI's outputs). Header-only and POSIX, shared by libipt, the plugins and
// the CLI.
//
// - A path that is not a regular file (a FIFO, a device, a folder) is
//   refused when opened, never waited on: open() with O_NONBLOCK returns at
//   once for a FIFO without a writer.
// - What is read is bounded before it is allocated.
// - A file is replaced through a new file beside it, created with
//   O_EXCL | O_NOFOLLOW (nothing placed at that name is followed or
//   overwritten), written whole, synced and renamed over the old one, so a
//   reader sees the old file or the new one and a failure leaves the old one.
#pragma once

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdint>
#include <cstring>
#include <filesystem>
#include <string>
#include <string_view>

namespace ipt::files {

// A file opened for reading: fd >= 0, or fd < 0 with `problem` saying why
// (`missing` when there is nothing at the path).
struct OpenedFile {
    int fd = -1;
    uint64_t size = 0;
    bool missing = false;
    std::string problem;
};

// What a file that is not a regular file is, for messages.
inline std::string file_kind(mode_t mode) {
    if (S_ISDIR(mode)) return "a directory";
    if (S_ISFIFO(mode)) return "a FIFO";
    if (S_ISSOCK(mode)) return "a socket";
    if (S_ISCHR(mode)) return "a character device";
    if (S_ISBLK(mode)) return "a block device";
    return "something else";
}

inline OpenedFile open_regular(const std::string& path) {
    OpenedFile f;
    const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        f.missing = errno == ENOENT;
        f.problem = std::string("cannot open the file: ") + std::strerror(errno);
        return f;
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
        f.problem = std::string("cannot stat the file: ") + std::strerror(errno);
    } else if (!S_ISREG(st.st_mode)) {
        f.problem = "the file is " + file_kind(st.st_mode) + ", not a regular file";
    } else {
        // Reads of a regular file never block; clear the flag anyway so the
        // descriptor behaves as an ordinary one.
        if (const int flags = ::fcntl(fd, F_GETFL); flags >= 0) ::fcntl(fd, F_SETFL, flags & ~O_NONBLOCK);
        f.fd = fd;
        f.size = static_cast<uint64_t>(st.st_size);
        return f;
    }
    ::close(fd);
    return f;
}

// A whole file of at most `max_bytes`: `data`, or `problem` (and `missing`).
struct ReadFile {
    bool ok = false;
    bool missing = false;
    std::string data;
    std::string problem;
};

inline ReadFile read_regular(const std::string& path, uint64_t max_bytes) {
    ReadFile r;
    OpenedFile f = open_regular(path);
    if (f.fd < 0) {
        r.missing = f.missing;
        r.problem = std::move(f.problem);
        return r;
    }
    if (f.size > max_bytes) {
        r.problem = "the file has " + std::to_string(f.size) + " bytes, more than the limit of " +
                    std::to_string(max_bytes);
    } else {
        // To the end, never past the limit: the file may grow meanwhile.
        char chunk[1 << 16];
        for (;;) {
            const ssize_t n = ::read(f.fd, chunk, sizeof chunk);
            if (n < 0 && errno == EINTR) continue;
            if (n < 0) {
                r.problem = std::string("cannot read the file: ") + std::strerror(errno);
                break;
            }
            if (n == 0) break;
            if (r.data.size() + static_cast<uint64_t>(n) > max_bytes) {
                r.problem = "the file grew past the limit of " + std::to_string(max_bytes) + " bytes";
                break;
            }
            r.data.append(chunk, static_cast<size_t>(n));
        }
    }
    ::close(f.fd);
    r.ok = r.problem.empty();
    if (!r.ok) r.data.clear();
    return r;
}

// Writes all of [data, data + bytes) to fd; false with errno set otherwise.
inline bool write_all(int fd, const void* data, size_t bytes) {
    const char* p = static_cast<const char*>(data);
    size_t done = 0;
    while (done < bytes) {
        const ssize_t n = ::write(fd, p + done, bytes - done);
        if (n < 0 && errno == EINTR) continue;
        if (n <= 0) {
            if (n == 0) errno = EIO;
            return false;
        }
        done += static_cast<size_t>(n);
    }
    return true;
}

// Creates a new file beside `target` that nothing else can have placed there:
// ".<name>.<pid>.tmp" first, then with a count added. Returns the descriptor
// and sets *temp, or -1 with errno set.
inline int create_beside(const std::string& target, std::string* temp, mode_t mode = 0644) {
    static std::atomic<uint64_t> counter{0};
    const std::filesystem::path t(target);
    // Built with append: GCC 12's -Wrestrict misreads chains of operator+.
    std::string stem(".");
    stem.append(t.filename().string()).append(".").append(std::to_string(::getpid()));
    for (unsigned attempt = 0; attempt < 64; ++attempt) {
        std::string name = stem;
        if (attempt) name.append("-").append(std::to_string(counter.fetch_add(1)));
        name.append(".tmp");
        *temp = (t.parent_path() / name).string();
        const int fd = ::open(temp->c_str(), O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd >= 0 || errno != EEXIST) return fd;
    }
    errno = EEXIST;
    return -1;
}

// Makes a finished rename durable where the file system can sync a folder.
inline void sync_directory(const std::string& target) {
    const std::filesystem::path dir = std::filesystem::path(target).parent_path();
    const int fd = ::open(dir.empty() ? "." : dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
    if (fd < 0) return;
    ::fsync(fd);
    ::close(fd);
}

// Replaces `target` with `data` (see the top of this file). A replaced file
// keeps its permissions; anything at `target` that is not a regular file
// (after links) is left alone. On failure returns false, `target` is as it was and
// *why says what failed.
inline bool replace(const std::string& target, std::string_view data, std::string* why) {
    struct stat existing {};
    const bool exists = ::stat(target.c_str(), &existing) == 0;
    if (exists && !S_ISREG(existing.st_mode)) {
        *why = target + " is " + file_kind(existing.st_mode) + ", not a regular file; not replaced";
        return false;
    }
    std::string temp;
    const int fd = create_beside(target, &temp);
    if (fd < 0) {
        *why = "cannot create a file beside " + target + ": " + std::strerror(errno);
        return false;
    }
    if (exists) ::fchmod(fd, existing.st_mode & 07777);
    bool ok = write_all(fd, data.data(), data.size());
    if (!ok) *why = "cannot write " + temp + ": " + std::strerror(errno);
    // Some file systems cannot sync (EINVAL, EROFS); the rename still holds.
    if (ok && ::fsync(fd) != 0 && errno != EINVAL && errno != EROFS) {
        *why = "cannot sync " + temp + ": " + std::strerror(errno);
        ok = false;
    }
    if (::close(fd) != 0 && ok) {
        *why = "cannot write " + temp + ": " + std::strerror(errno);
        ok = false;
    }
    if (ok && std::rename(temp.c_str(), target.c_str()) != 0) {
        *why = "cannot replace " + target + ": " + std::strerror(errno);
        ok = false;
    }
    if (!ok) ::unlink(temp.c_str());
    else sync_directory(target);
    return ok;
}

// FNV-1a over a cache's contents: catches a file cut short or damaged, not
// one crafted to pass (what a cache holds must be checked for that).
inline uint64_t checksum(const void* data, size_t bytes) {
    const unsigned char* p = static_cast<const unsigned char*>(data);
    uint64_t h = 1469598103934665603ull;
    for (size_t i = 0; i < bytes; ++i) h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

}  // namespace ipt::files
