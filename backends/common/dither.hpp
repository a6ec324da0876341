// MATLAB's ditherc rules every backend shares (MATLAB_SEMANTICS.md, dither):
// the argument checks, the quantised colormap, and the integer arithmetic of
// the scan. Header only; dither_setup runs on the host.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::common {

struct DitherSetup {
    std::vector<int32_t> mapq;  // n x 3, floor(map*(L-1) + 0.5); [0 0 0; L-1 L-1 L-1] without a map
    int qm = 5, qe = 8;
    int shift = 3;              // max(Qm,Qe) - Qm: a value's cell is q >> shift
    int32_t top = 255;          // L - 1, L = 2^max(Qm,Qe)
    int32_t bias = 8;           // floor(L/32)
    bool gray = true;           // no map: logical output, I in all three channels
    int32_t out_dtype = IPT_LOGICAL;  // logical; uint8 up to 256 colours, else uint16
    int64_t colours() const { return static_cast<int64_t>(mapq.size() / 3); }
};

// Checks I, map, Qm and Qe and quantises the colormap. A map needs an RGB I
// with values in [0,1] and at most 65536 colours; no map needs one channel.
inline DitherSetup dither_setup(const ipt::plugin::KernelArgs& args) {
    const ipt_tensor* img = args.image("I");
    const ipt_tensor* map = args.image("map");
    const int64_t qm = args.integer("Qm"), qe = args.integer("Qe");
    if (qm < 1 || qm > 16) ipt::plugin::invalid("ipt.dither: parameter 'Qm' must be in 1..16");
    if (qe < 1 || qe > 16) ipt::plugin::invalid("ipt.dither: parameter 'Qe' must be in 1..16");
    const int32_t dt = img->dtype;
    if (dt != IPT_UINT8 && dt != IPT_UINT16 && dt != IPT_SINGLE && dt != IPT_DOUBLE)
        ipt::plugin::invalid("ipt.dither: parameter 'I' must be uint8, uint16, single or double");

    DitherSetup s;
    s.qm = static_cast<int>(qm);
    s.qe = static_cast<int>(qe);
    const int bits = std::max(s.qm, s.qe);
    s.shift = bits - s.qm;
    s.top = (int32_t(1) << bits) - 1;
    s.bias = (int32_t(1) << bits) / 32;
    s.gray = map == nullptr;
    if (map) {
        if (img->channels != 3)
            ipt::plugin::invalid("ipt.dither: parameter 'I' must be an RGB image (3 channels) "
                                 "when map is given");
        if (map->dtype != IPT_DOUBLE || map->cols != 3 || map->rows < 1 || map->channels != 1)
            ipt::plugin::invalid("ipt.dither: parameter 'map' must be an n x 3 double colormap");
        if (map->rows > 65536)
            ipt::plugin::invalid("ipt.dither: parameter 'map' must have at most 65536 colours");
        const double* m = static_cast<const double*>(map->data);
        s.mapq.resize(static_cast<size_t>(map->rows * 3));
        for (int64_t i = 0; i < map->rows * 3; ++i) {
            if (!(m[i] >= 0.0 && m[i] <= 1.0))
                ipt::plugin::invalid("ipt.dither: parameter 'map' must have values in [0, 1]");
            s.mapq[i] = static_cast<int32_t>(std::floor(m[i] * s.top + 0.5));
        }
        s.out_dtype = map->rows <= 256 ? IPT_UINT8 : IPT_UINT16;
    } else {
        if (img->channels != 1)
            ipt::plugin::invalid("ipt.dither: parameter 'I' must be a grayscale image (1 channel) "
                                 "when no map is given");
        s.mapq = {0, 0, 0, s.top, s.top, s.top};
        s.out_dtype = IPT_LOGICAL;
    }
    return s;
}

// A uint8 value on the error scale: floor(v*(L-1)/255 + 0.5), in integers.
inline int32_t dither_level(int32_t v8, int32_t top) {
    const int64_t a = int64_t(v8) * top;
    return static_cast<int32_t>((2 * a + 255) / 510);
}

// Share N/16 of an error: sign(e) * floor((floor(L/32) + N*|e|) / 16); 0 for
// e = 0 even when floor(L/32) >= 16.
inline int32_t dither_share(int32_t e, int32_t n, int32_t bias) {
    return e > 0 ? (bias + n * e) >> 4 : (e < 0 ? -((bias - n * e) >> 4) : 0);
}

}  // namespace ipt::common
