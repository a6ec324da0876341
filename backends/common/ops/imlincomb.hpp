// SPDX-License-Identifier: Apache-2.0
// ipt.imlincomb's front-end: Z = imlincomb(K1,A1,...,Kn,An[,K][,outclass])
// (docs/matlab-semantics.md#imlincomb). The rule every backend computes: each
// element is K1*A1 + ... + Kn*An, summed in double from left to right, plus
// the offset K last, then converted once to the output class: round half away
// from zero and saturate for integer classes (NaN becomes 0), a plain
// conversion for single and double. Nothing is rounded before that, so
// imlincomb(1,A,-1,B,128) on uint8 is not (A-B)+128 with a saturated A-B.
//
// The schema enforces the rest: A1 given, the other images of A1's size and
// class, K with one value per image or one more (the offset), outclass one of
// its names. Images may be given with gaps (A1, A3): the ones given are the
// terms, in order.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "ipt/ipt_plugin.hpp"

namespace ipt::frontend {

constexpr int kImlincombMaxImages = 8;

struct ImlincombPlan {
    std::vector<const ipt_tensor*> images;  // the terms' images, in order
    std::vector<double> k;                  // one coefficient per image
    bool has_offset = false;
    double offset = 0;                      // 0 when !has_offset
    int32_t in_dtype = 0;                   // of every image
    int32_t out_dtype = 0;                  // of Z
    int64_t rows = 0, cols = 0, channels = 1;
    int64_t numel = 0;                      // of each image and of Z
};

// outclass: 'default' is the class of A1, double when A1 is logical.
inline int32_t imlincomb_output_class(const std::string& outclass, int32_t a1) {
    if (outclass == "uint8") return IPT_UINT8;
    if (outclass == "uint16") return IPT_UINT16;
    if (outclass == "int16") return IPT_INT16;
    if (outclass == "int32") return IPT_INT32;
    if (outclass == "uint32") return IPT_UINT32;
    if (outclass == "single") return IPT_SINGLE;
    if (outclass == "double") return IPT_DOUBLE;
    return a1 == IPT_LOGICAL ? IPT_DOUBLE : a1;  // "default"
}

inline ImlincombPlan plan_imlincomb(const ipt::plugin::KernelArgs& args) {
    static const char* const names[kImlincombMaxImages] = {"A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"};
    ImlincombPlan p;
    for (const char* name : names)
        if (const ipt_tensor* t = args.image(name)) p.images.push_back(t);
    const ipt_tensor* a1 = p.images.front();
    const double* K = args.floats("K");
    const size_t n = p.images.size();
    p.k.assign(K, K + n);
    p.has_offset = args.count("K") == n + 1;
    p.offset = p.has_offset ? K[n] : 0.0;
    p.in_dtype = a1->dtype;
    p.out_dtype = imlincomb_output_class(args.text("outclass"), a1->dtype);
    p.rows = a1->rows;
    p.cols = a1->cols;
    p.channels = a1->channels;
    p.numel = a1->rows * a1->cols * a1->channels;
    return p;
}

}  // namespace ipt::frontend
