// ipt.imlincomb: Z = K1*A1 + ... + Kn*An (+ K), computed in double from left
// to right (the offset last) and converted once to the output class: round
// half away from zero and saturate for integers, NaN -> 0 (MATLAB_SEMANTICS.md,
// imlincomb). The output class is `outclass`, by default the class of A1
// (double when A1 is logical). The images must have the size and the class
// of A1 (MathWorks: "numeric arrays of the same size and class"); channels
// (RGB) are combined element by element like any other dimension.
//
// Compiled for the baseline ISA on purpose: without FMA every product is
// rounded before it is added, so the one rounding to the output class sees
// the same double sum on every machine.
#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "common/convert.hpp"
#include "common/image.hpp"
#include "common/op_registry.hpp"
#include "common/parallel.hpp"

namespace {

using ipt::plugin::invalid;
using ipt::plugin::KernelArgs;

constexpr int64_t kChunk = 2048;

struct Term {
    double k;
    const ipt_tensor* image;
};

int32_t output_class(const std::string& outclass, int32_t a1) {
    if (outclass == "default") return a1 == IPT_LOGICAL ? IPT_DOUBLE : a1;
    if (outclass == "uint8") return IPT_UINT8;
    if (outclass == "uint16") return IPT_UINT16;
    if (outclass == "int16") return IPT_INT16;
    if (outclass == "int32") return IPT_INT32;
    if (outclass == "uint32") return IPT_UINT32;
    if (outclass == "single") return IPT_SINGLE;
    if (outclass == "double") return IPT_DOUBLE;
    invalid("ipt.imlincomb: parameter 'outclass' must be default, uint8, uint16, int16, int32, uint32, single or "
            "double");
}

// acc[i] += k * A[i] for one chunk.
template <class T>
void accumulate(double* acc, const void* data, int64_t begin, int64_t n, double k, bool first) {
    const T* a = static_cast<const T*>(data) + begin;
    if (first)
        for (int64_t i = 0; i < n; ++i) acc[i] = k * static_cast<double>(a[i]);
    else
        for (int64_t i = 0; i < n; ++i) acc[i] += k * static_cast<double>(a[i]);
}

void accumulate_any(int32_t dtype, double* acc, const void* data, int64_t begin, int64_t n, double k, bool first) {
    switch (dtype) {
    case IPT_LOGICAL: accumulate<uint8_t>(acc, data, begin, n, k, first); break;
    case IPT_UINT8: accumulate<uint8_t>(acc, data, begin, n, k, first); break;
    case IPT_UINT16: accumulate<uint16_t>(acc, data, begin, n, k, first); break;
    case IPT_INT16: accumulate<int16_t>(acc, data, begin, n, k, first); break;
    case IPT_INT32: accumulate<int32_t>(acc, data, begin, n, k, first); break;
    case IPT_UINT32: accumulate<uint32_t>(acc, data, begin, n, k, first); break;
    case IPT_SINGLE: accumulate<float>(acc, data, begin, n, k, first); break;
    default: accumulate<double>(acc, data, begin, n, k, first); break;
    }
}

template <class Out>
void combine(const std::vector<Term>& terms, bool has_offset, double offset, int64_t n, Out* z) {
    const int64_t chunks = (n + kChunk - 1) / kChunk;
    ipt::cpu::parallel_for(0, chunks, [&](int64_t c) {
        double acc[kChunk];
        const int64_t b = c * kChunk, m = std::min(kChunk, n - b);
        for (size_t t = 0; t < terms.size(); ++t)
            accumulate_any(terms[t].image->dtype, acc, terms[t].image->data, b, m, terms[t].k, t == 0);
        if (has_offset)
            for (int64_t i = 0; i < m; ++i) acc[i] += offset;
        Out* dst = z + b;
        for (int64_t i = 0; i < m; ++i) dst[i] = ipt::cpu::to_class<Out>(acc[i]);
    });
}

void run_imlincomb(const KernelArgs& args) {
    // The images given, in order (the registry allows gaps: A1, A3 is two images).
    std::vector<const ipt_tensor*> images;
    static const char* const names[] = {"A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"};
    if (!args.image("A1")) invalid("ipt.imlincomb: parameter 'A1' is required");
    const ipt_tensor* a1 = args.image("A1");
    for (const char* name : names) {
        const ipt_tensor* t = args.image(name);
        if (!t) continue;
        std::string what = "ipt.imlincomb: parameter '";
        what += name;
        if (t->rows != a1->rows || t->cols != a1->cols || t->channels != a1->channels)
            invalid(what + "' must have the size of 'A1'");
        if (t->dtype != a1->dtype) invalid(what + "' must have the class of 'A1'");
        images.push_back(t);
    }
    if (!args.present("K")) invalid("ipt.imlincomb: parameter 'K' is required");
    const uint64_t nk = args.count("K");
    if (nk != images.size() && nk != images.size() + 1)
        invalid("ipt.imlincomb: parameter 'K' must hold one coefficient per image (" + std::to_string(images.size()) +
                "), optionally followed by the offset; got " + std::to_string(nk) + " values");
    const double* K = args.floats("K");
    std::vector<Term> terms;
    for (size_t i = 0; i < images.size(); ++i) terms.push_back({K[i], images[i]});
    const bool has_offset = nk == images.size() + 1;
    const double offset = has_offset ? K[images.size()] : 0.0;
    const int32_t out_class = output_class(args.text("outclass"), a1->dtype);

    const ipt_tensor* Z = args.output("Z", out_class, a1->rows, a1->cols, a1->channels);
    const int64_t n = a1->rows * a1->cols * a1->channels;
    ipt::cpu::visit_dtype(out_class, [&](auto tag) {
        using Out = decltype(tag);
        if constexpr (!std::is_same_v<Out, bool>) combine(terms, has_offset, offset, n, static_cast<Out*>(Z->data));
    });
}

}  // namespace

IPT_CPU_OP("ipt.imlincomb", "", 100, run_imlincomb)
