// SPDX-License-Identifier: Apache-2.0
// Host images, class facts and the deterministic input generators of the
// conformance suite. Everything here is plain host code: no library calls.
#pragma once

#include <cstdint>
#include <cstring>
#include <random>
#include <string>
#include <string_view>
#include <vector>

#include "ipt/ipt.h"

namespace ipt::conformance {

// ---- classes -------------------------------------------------------------

bool is_float(ipt_dtype d);
bool is_integer(ipt_dtype d);  // the integer classes, not logical
size_t element_size(ipt_dtype d);
std::string_view dtype_label(ipt_dtype d);  // "uint8", ...; "?" when unknown
double dtype_lowest(ipt_dtype d);           // logical 0, integers intmin, floats -realmax
double dtype_highest(ipt_dtype d);
double eps_of(ipt_dtype d);                 // machine epsilon of single/double, 0 otherwise
double min_normal_of(ipt_dtype d);          // FLT_MIN / DBL_MIN, 0 otherwise
std::vector<ipt_dtype> dtypes_in(uint32_t mask);  // in ipt_dtype order

// Calls f(T{}) with the element type of a class (logical as uint8_t).
template <class F>
decltype(auto) visit_dtype(ipt_dtype d, F&& f) {
    switch (d) {
    case IPT_LOGICAL: return f(uint8_t{});
    case IPT_UINT8: return f(uint8_t{});
    case IPT_UINT16: return f(uint16_t{});
    case IPT_INT16: return f(int16_t{});
    case IPT_INT32: return f(int32_t{});
    case IPT_UINT32: return f(uint32_t{});
    case IPT_SINGLE: return f(float{});
    default: return f(double{});
    }
}

// ---- host images ---------------------------------------------------------

// Row-major, tightly packed, channel planes one after another: the library's
// layout, so the bytes go to ipt_image_upload unchanged.
struct HostImage {
    ipt_dtype dtype = IPT_DOUBLE;
    int64_t rows = 0;
    int64_t cols = 0;
    int64_t channels = 1;
    std::vector<unsigned char> bytes;

    static HostImage make(ipt_dtype dtype, int64_t rows, int64_t cols, int64_t channels = 1);
    size_t numel() const { return static_cast<size_t>(rows * cols * channels); }
    double get(size_t i) const;
    // Stores v converted to the class; v must be representable (generators
    // produce values in range; logical stores v != 0).
    void put(size_t i, double v);
    template <class T> T load(size_t i) const {
        T v;
        std::memcpy(&v, bytes.data() + i * sizeof(T), sizeof(T));
        return v;
    }
    std::string shape_text() const;  // "17x23" or "17x23x3"
};

// ---- random numbers ------------------------------------------------------

// mt19937_64 is fully specified by the standard, so a seed replays the same
// inputs on every platform; the mappings to ranges below are our own for the
// same reason (std distributions differ between standard libraries).
class Rng {
public:
    explicit Rng(uint64_t seed) : engine_(seed) {}
    uint64_t next() { return engine_(); }
    double uniform();                          // [0, 1)
    double uniform(double lo, double hi);      // [lo, hi)
    int64_t integer(int64_t lo, int64_t hi);   // [lo, hi], inclusive
    bool chance(double p) { return uniform() < p; }

private:
    std::mt19937_64 engine_;
};

uint64_t mix_seed(uint64_t seed, std::string_view text);  // seed for one case

// ---- image recipes -------------------------------------------------------

enum class Fill {
    Random,     // uniform: integers over the class range, floats in [0,1) (or [lo,hi))
    Constant,   // one random value everywhere
    Zero,
    Min,        // the class's lowest value everywhere
    Max,        // the class's highest value everywhere
    NaN,        // floats: random with 10% NaN
    Inf,        // floats: random with 5% +Inf and 5% -Inf
    Denormal,   // floats: half the elements subnormal (both signs)
    Extreme,    // floats: magnitudes in [realmax/4, realmax] (a tenth exactly realmax), both signs:
                // sums of a few products overflow, and in which order decides where
    Density,    // a fraction `lo` of the elements nonzero (random nonzero value)
    Levels,     // random integers 0..lo-1 (floats: k/(lo-1)): plateaus and ties
    Synthetic,  // the demo scene: step and roof edges, gradients, a disk, noise
    Values,     // the given values (row-major, planes after each other)
};

struct ImageSpec {
    ipt_dtype dtype = IPT_DOUBLE;
    int64_t rows = 1;
    int64_t cols = 1;
    int64_t channels = 1;
    Fill fill = Fill::Random;
    double lo = 0;  // Random: range when lo < hi; Density: fraction; Levels: count
    double hi = 0;
    std::vector<double> values;  // Fill::Values
    std::string tag;             // short name of explicit values in labels ("ones")

    std::string describe() const;  // "uint8 17x23 random"
};

ImageSpec spec(ipt_dtype dtype, int64_t rows, int64_t cols, Fill fill = Fill::Random,
               double lo = 0, double hi = 0);
ImageSpec values_spec(ipt_dtype dtype, int64_t rows, int64_t cols, std::vector<double> values,
                      std::string tag);
ImageSpec ones_spec(ipt_dtype dtype, int64_t rows, int64_t cols);

HostImage generate(const ImageSpec& s, Rng& rng);

// The synthetic scene in [0,1], rows x cols, as doubles (row-major).
std::vector<double> synthetic_scene(int64_t rows, int64_t cols, Rng& rng);

// The special images every operator sees for an input class: constant, zero,
// min, max; NaN, Inf, denormals and realmax-scaled values (extreme) for floats; 0.1%, 50% and 99.9% density
// for logical.
std::vector<ImageSpec> special_specs(ipt_dtype dtype, int64_t rows, int64_t cols, int64_t channels);

}  // namespace ipt::conformance
