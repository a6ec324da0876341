// SPDX-License-Identifier: Apache-2.0
// The readers that take a path (libpng and libtiff read through FILE* and
// file descriptors) get the input through an anonymous in-memory file.
#pragma once

#include <sys/mman.h>
#include <unistd.h>

#include <cstddef>
#include <cstdint>
#include <string>

namespace ipt_fuzz {

// A path whose file holds exactly the given bytes; valid until the next call.
inline std::string as_file(const uint8_t* data, size_t size) {
    static const int fd = memfd_create("ipt_fuzz_input", MFD_CLOEXEC);
    if (fd < 0 || ftruncate(fd, 0) != 0) __builtin_trap();
    size_t done = 0;
    while (done < size) {
        const ssize_t n = pwrite(fd, data + done, size - done, static_cast<off_t>(done));
        if (n <= 0) __builtin_trap();
        done += static_cast<size_t>(n);
    }
    return "/proc/self/fd/" + std::to_string(fd);
}

}  // namespace ipt_fuzz
