// SPDX-License-Identifier: Apache-2.0
// The .npy reader on arbitrary bytes: it returns an image or throws
// UsageError, nothing else. What it returns is written and read back whole.
#include <cstddef>
#include <cstdint>
#include <exception>
#include <span>

#include "image_io.hpp"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    using namespace ipt::cli;
    HostImage image;
    try {
        image = decode_npy(std::span<const unsigned char>(data, size), "fuzz.npy");
    } catch (const std::exception&) {
        return 0;
    }
    if (image.bytes.size() != image.numel() * ipt_dtype_size(image.dtype))
        __builtin_trap();
    const std::vector<unsigned char> again = encode_npy(image);
    const HostImage back = decode_npy(again, "again.npy");
    if (back.dtype != image.dtype || back.rows != image.rows || back.cols != image.cols ||
        back.channels != image.channels || back.bytes != image.bytes)
        __builtin_trap();
    return 0;
}
