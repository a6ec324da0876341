// SPDX-License-Identifier: Apache-2.0
// Writes the synthetic images of synthetic.hpp as .npy files (double), for
// docs/facet.md: facet_synthetic OUTDIR [SIZE] -> clean.npy s1.npy s2.npy textured.npy
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <string>

#include "synthetic.hpp"

namespace {

bool write_npy(const std::string& path, const facet_test::Image& im) {
    std::string header = "{'descr': '<f8', 'fortran_order': False, 'shape': (" + std::to_string(im.rows) + ", " +
                         std::to_string(im.cols) + "), }";
    // Magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64.
    while ((10 + header.size() + 1) % 64 != 0) header += ' ';
    header += '\n';
    std::ofstream out(path, std::ios::binary);
    const unsigned char magic[8] = {0x93, 'N', 'U', 'M', 'P', 'Y', 1, 0};
    out.write(reinterpret_cast<const char*>(magic), 8);
    const unsigned char len[2] = {static_cast<unsigned char>(header.size() & 0xFF),
                                  static_cast<unsigned char>(header.size() >> 8)};
    out.write(reinterpret_cast<const char*>(len), 2);
    out.write(header.data(), static_cast<std::streamsize>(header.size()));
    out.write(reinterpret_cast<const char*>(im.v.data()), static_cast<std::streamsize>(im.v.size() * sizeof(double)));
    return static_cast<bool>(out);
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: facet_synthetic OUTDIR [SIZE]\n");
        return 2;
    }
    const std::string dir = argv[1];
    const int size = argc > 2 ? std::atoi(argv[2]) : 256;
    if (size < 16) {
        std::fprintf(stderr, "facet_synthetic: SIZE must be at least 16\n");
        return 2;
    }
    const facet_test::Layout l = facet_test::layout_for(size);
    const bool ok = write_npy(dir + "/clean.npy", facet_test::clean_image(l)) &&
                    write_npy(dir + "/s1.npy", facet_test::s1_image(l)) &&
                    write_npy(dir + "/s2.npy", facet_test::s2_image(l)) &&
                    write_npy(dir + "/textured.npy", facet_test::textured_image(size, size));
    if (!ok) {
        std::fprintf(stderr, "facet_synthetic: cannot write into %s\n", dir.c_str());
        return 1;
    }
    return 0;
}
