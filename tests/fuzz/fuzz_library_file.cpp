// SPDX-License-Identifier: Apache-2.0
// The check of a shared library file before dlopen (backends/common/
// library_file.hpp) on arbitrary bytes: a reason or an acceptance, never a
// read outside what it read from the file. An accepted file has its headers
// and segments inside it (checked again here from the bytes).
#include <elf.h>

#include <cstddef>
#include <cstdint>
#include <cstring>

#include "file_input.hpp"
#include "library_file.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (ipt::library_file_problem(ipt_fuzz::as_file(data, size))) return 0;
    Elf64_Ehdr eh;
    if (size < sizeof eh) __builtin_trap();
    std::memcpy(&eh, data, sizeof eh);
    if (eh.e_phoff > size || (size - eh.e_phoff) / sizeof(Elf64_Phdr) < eh.e_phnum) __builtin_trap();
    for (size_t i = 0; i < eh.e_phnum; ++i) {
        Elf64_Phdr ph;
        std::memcpy(&ph, data + eh.e_phoff + i * sizeof ph, sizeof ph);
        if (ph.p_filesz && (ph.p_offset > size || ph.p_filesz > size - ph.p_offset)) __builtin_trap();
    }
    return 0;
}
