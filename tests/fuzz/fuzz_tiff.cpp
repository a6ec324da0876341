// SPDX-License-Identifier: Apache-2.0
// The TIFF reader on arbitrary bytes: an image that matches its own
// description, or UsageError; never a crash, a leak or undefined behaviour.
#include <cstddef>
#include <cstdint>
#include <exception>

#include "file_input.hpp"
#include "image_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace ipt::cli;
    try {
        const HostImage image = read_tiff(ipt_fuzz::as_file(data, size));
        if (image.bytes.size() != image.numel() * ipt_dtype_size(image.dtype)) __builtin_trap();
    } catch (const std::exception&) {
    }
    return 0;
}
