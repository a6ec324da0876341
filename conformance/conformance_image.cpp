// SPDX-License-Identifier: Apache-2.0
#include "conformance_image.hpp"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>

namespace ipt::conformance {

bool is_float(ipt_dtype d) { return d == IPT_SINGLE || d == IPT_DOUBLE; }

bool is_integer(ipt_dtype d) {
    return d == IPT_UINT8 || d == IPT_UINT16 || d == IPT_INT16 || d == IPT_INT32 || d == IPT_UINT32;
}

size_t element_size(ipt_dtype d) {
    switch (d) {
    case IPT_LOGICAL: case IPT_UINT8: return 1;
    case IPT_UINT16: case IPT_INT16: return 2;
    case IPT_INT32: case IPT_UINT32: case IPT_SINGLE: return 4;
    case IPT_DOUBLE: return 8;
    default: return 0;
    }
}

std::string_view dtype_label(ipt_dtype d) {
    switch (d) {
    case IPT_LOGICAL: return "logical";
    case IPT_UINT8: return "uint8";
    case IPT_UINT16: return "uint16";
    case IPT_INT16: return "int16";
    case IPT_INT32: return "int32";
    case IPT_UINT32: return "uint32";
    case IPT_SINGLE: return "single";
    case IPT_DOUBLE: return "double";
    default: return "?";
    }
}

double dtype_lowest(ipt_dtype d) {
    if (d == IPT_LOGICAL) return 0;
    return visit_dtype(d, [](auto t) { return static_cast<double>(std::numeric_limits<decltype(t)>::lowest()); });
}

double dtype_highest(ipt_dtype d) {
    if (d == IPT_LOGICAL) return 1;
    return visit_dtype(d, [](auto t) { return static_cast<double>(std::numeric_limits<decltype(t)>::max()); });
}

double eps_of(ipt_dtype d) {
    if (d == IPT_SINGLE) return FLT_EPSILON;
    if (d == IPT_DOUBLE) return DBL_EPSILON;
    return 0;
}

double min_normal_of(ipt_dtype d) {
    if (d == IPT_SINGLE) return FLT_MIN;
    if (d == IPT_DOUBLE) return DBL_MIN;
    return 0;
}

std::vector<ipt_dtype> dtypes_in(uint32_t mask) {
    std::vector<ipt_dtype> out;
    for (int d = IPT_LOGICAL; d < IPT_DTYPE_COUNT; ++d)
        if (mask & (1u << d)) out.push_back(static_cast<ipt_dtype>(d));
    return out;
}

HostImage HostImage::make(ipt_dtype dtype, int64_t rows, int64_t cols, int64_t channels) {
    HostImage im;
    im.dtype = dtype;
    im.rows = rows;
    im.cols = cols;
    im.channels = channels;
    im.bytes.assign(im.numel() * element_size(dtype), 0);
    return im;
}

double HostImage::get(size_t i) const {
    return visit_dtype(dtype, [&](auto t) { return static_cast<double>(load<decltype(t)>(i)); });
}

void HostImage::put(size_t i, double v) {
    if (dtype == IPT_LOGICAL) {
        bytes[i] = v != 0 ? 1 : 0;
        return;
    }
    visit_dtype(dtype, [&](auto t) {
        using T = decltype(t);
        const T x = static_cast<T>(v);
        std::memcpy(bytes.data() + i * sizeof(T), &x, sizeof(T));
    });
}

std::string HostImage::shape_text() const {
    std::string s = std::to_string(rows) + "x" + std::to_string(cols);
    if (channels != 1) s += "x" + std::to_string(channels);
    return s;
}

double Rng::uniform() { return static_cast<double>(engine_() >> 11) * 0x1.0p-53; }

double Rng::uniform(double lo, double hi) { return lo + (hi - lo) * uniform(); }

int64_t Rng::integer(int64_t lo, int64_t hi) {
    const uint64_t span = static_cast<uint64_t>(hi) - static_cast<uint64_t>(lo) + 1;  // 0: full 2^64
    const uint64_t r = span == 0 ? engine_() : engine_() % span;  // bias is irrelevant here
    return static_cast<int64_t>(static_cast<uint64_t>(lo) + r);
}

uint64_t mix_seed(uint64_t seed, std::string_view text) {
    uint64_t h = 1469598103934665603ull;  // FNV-1a over the text
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    uint64_t z = seed ^ h;  // splitmix64 finaliser
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

namespace {

std::string number_text(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g", v);
    return buf;
}

double random_value(ipt_dtype d, const ImageSpec& s, Rng& rng) {
    const bool ranged = s.lo < s.hi;
    if (d == IPT_LOGICAL) return rng.chance(0.5) ? 1 : 0;
    if (is_float(d)) return ranged ? rng.uniform(s.lo, s.hi) : rng.uniform();
    if (ranged) return static_cast<double>(rng.integer(static_cast<int64_t>(std::ceil(s.lo)),
                                                       static_cast<int64_t>(std::floor(s.hi))));
    return static_cast<double>(rng.integer(static_cast<int64_t>(dtype_lowest(d)),
                                           static_cast<int64_t>(dtype_highest(d))));
}

double nonzero_value(ipt_dtype d, Rng& rng) {
    if (d == IPT_LOGICAL) return 1;
    if (is_float(d)) return 1.0 - rng.uniform();  // (0, 1]
    for (;;) {
        const double v = static_cast<double>(rng.integer(static_cast<int64_t>(dtype_lowest(d)),
                                                         static_cast<int64_t>(dtype_highest(d))));
        if (v != 0) return v;
    }
}

// [0,1] scene value to the class, as an image of that class would hold it.
double scene_to_class(ipt_dtype d, double x) {
    switch (d) {
    case IPT_LOGICAL: return x > 0.5 ? 1 : 0;
    case IPT_UINT8: return std::round(255 * x);
    case IPT_UINT16: return std::round(65535 * x);
    case IPT_INT16: return std::round(65535 * x) - 32768;
    case IPT_INT32: case IPT_UINT32: return std::round(1e6 * x);
    default: return x;
    }
}

}  // namespace

std::string ImageSpec::describe() const {
    std::string s = std::string(dtype_label(dtype)) + " " + std::to_string(rows) + "x" + std::to_string(cols);
    if (channels != 1) s += "x" + std::to_string(channels);
    s += " ";
    switch (fill) {
    case Fill::Random:
        s += "random";
        if (lo < hi) s += "[" + number_text(lo) + "," + number_text(hi) + "]";
        break;
    case Fill::Constant: s += "const"; break;
    case Fill::Zero: s += "zero"; break;
    case Fill::Min: s += "min"; break;
    case Fill::Max: s += "max"; break;
    case Fill::NaN: s += "nan"; break;
    case Fill::Inf: s += "inf"; break;
    case Fill::Denormal: s += "denormal"; break;
    case Fill::Extreme: s += "extreme"; break;
    case Fill::Density: s += "density=" + number_text(lo); break;
    case Fill::Levels: s += "levels=" + number_text(lo); break;
    case Fill::Synthetic: s += "synthetic"; break;
    case Fill::Values: s += tag.empty() ? "values" : tag; break;
    }
    return s;
}

ImageSpec spec(ipt_dtype dtype, int64_t rows, int64_t cols, Fill fill, double lo, double hi) {
    ImageSpec s;
    s.dtype = dtype;
    s.rows = rows;
    s.cols = cols;
    s.fill = fill;
    s.lo = lo;
    s.hi = hi;
    return s;
}

ImageSpec values_spec(ipt_dtype dtype, int64_t rows, int64_t cols, std::vector<double> values,
                      std::string tag) {
    if (static_cast<int64_t>(values.size()) != rows * cols)
        throw std::logic_error("conformance recipe: " + tag + " has " + std::to_string(values.size()) +
                               " values for " + std::to_string(rows) + "x" + std::to_string(cols));
    ImageSpec s = spec(dtype, rows, cols, Fill::Values);
    s.values = std::move(values);
    s.tag = std::move(tag);
    return s;
}

ImageSpec ones_spec(ipt_dtype dtype, int64_t rows, int64_t cols) {
    return values_spec(dtype, rows, cols, std::vector<double>(static_cast<size_t>(rows * cols), 1.0), "ones");
}

std::vector<double> synthetic_scene(int64_t rows, int64_t cols, Rng& rng) {
    std::vector<double> out(static_cast<size_t>(rows * cols));
    // The roof edge runs along the segment P0-P1 (in unit coordinates).
    const double p0x = 0.08, p0y = 0.72, p1x = 0.92, p1y = 0.56;
    const double dx = p1x - p0x, dy = p1y - p0y, len2 = dx * dx + dy * dy;
    for (int64_t r = 0; r < rows; ++r) {
        const double y = rows > 1 ? static_cast<double>(r) / static_cast<double>(rows - 1) : 0.5;
        for (int64_t c = 0; c < cols; ++c) {
            const double x = cols > 1 ? static_cast<double>(c) / static_cast<double>(cols - 1) : 0.5;
            double v = 0.1 + 0.5 * x;                                  // horizontal ramp
            if (y > 0.8) v = 0.15 + 0.75 * (y - 0.8) / 0.2;            // vertical ramp band
            if (x >= 0.12 && x < 0.42 && y >= 0.1 && y < 0.42) v = 0.9; // step edges
            const double ex = x - 0.7, ey = y - 0.3;
            if (ex * ex + ey * ey < 0.15 * 0.15) v = 0.05;              // dark disk
            const double t = std::clamp(((x - p0x) * dx + (y - p0y) * dy) / len2, 0.0, 1.0);
            const double qx = p0x + t * dx - x, qy = p0y + t * dy - y;
            const double d = std::sqrt(qx * qx + qy * qy);
            if (d < 0.05) v += 0.4 * (1 - d / 0.05);                    // roof edge
            if (std::abs(x - 0.55) < 0.5 / static_cast<double>(std::max<int64_t>(cols, 1)) && y > 0.45 && y < 0.75)
                v = 1.0;                                                 // one-pixel line
            v += 0.03 * (rng.uniform() + rng.uniform() - 1);            // noise
            out[static_cast<size_t>(r * cols + c)] = std::clamp(v, 0.0, 1.0);
        }
    }
    return out;
}

HostImage generate(const ImageSpec& s, Rng& rng) {
    HostImage im = HostImage::make(s.dtype, s.rows, s.cols, s.channels);
    const size_t n = im.numel();
    const ipt_dtype d = s.dtype;
    switch (s.fill) {
    case Fill::Random:
        for (size_t i = 0; i < n; ++i) im.put(i, random_value(d, s, rng));
        break;
    case Fill::Constant: {
        const double v = random_value(d, s, rng);
        for (size_t i = 0; i < n; ++i) im.put(i, v);
        break;
    }
    case Fill::Zero: break;  // make() zeroes
    case Fill::Min:
        for (size_t i = 0; i < n; ++i) im.put(i, dtype_lowest(d));
        break;
    case Fill::Max:
        for (size_t i = 0; i < n; ++i) im.put(i, dtype_highest(d));
        break;
    case Fill::NaN:
        for (size_t i = 0; i < n; ++i)
            im.put(i, rng.chance(0.1) ? std::numeric_limits<double>::quiet_NaN() : random_value(d, s, rng));
        break;
    case Fill::Inf:
        for (size_t i = 0; i < n; ++i) {
            const double u = rng.uniform();
            const double inf = std::numeric_limits<double>::infinity();
            im.put(i, u < 0.05 ? inf : u < 0.1 ? -inf : random_value(d, s, rng));
        }
        break;
    case Fill::Denormal:
        for (size_t i = 0; i < n; ++i) {
            if (rng.chance(0.5)) {
                const double sub = rng.uniform() * min_normal_of(d);
                im.put(i, rng.chance(0.5) ? sub : -sub);
            } else {
                im.put(i, random_value(d, s, rng));
            }
        }
        break;
    case Fill::Extreme:
        for (size_t i = 0; i < n; ++i) {
            const double top = dtype_highest(d);
            const double m = rng.chance(0.1) ? top : top * rng.uniform(0.25, 1.0);
            im.put(i, rng.chance(0.5) ? m : -m);
        }
        break;
    case Fill::Density:
        for (size_t i = 0; i < n; ++i) im.put(i, rng.chance(s.lo) ? nonzero_value(d, rng) : 0);
        break;
    case Fill::Levels: {
        const int64_t k = std::max<int64_t>(2, static_cast<int64_t>(s.lo));
        for (size_t i = 0; i < n; ++i) {
            const int64_t v = rng.integer(0, k - 1);
            im.put(i, is_float(d) ? static_cast<double>(v) / static_cast<double>(k - 1)
                                  : d == IPT_LOGICAL ? v % 2 : static_cast<double>(v));
        }
        break;
    }
    case Fill::Synthetic: {
        const size_t plane = static_cast<size_t>(s.rows * s.cols);
        for (int64_t ch = 0; ch < s.channels; ++ch) {
            const std::vector<double> scene = synthetic_scene(s.rows, s.cols, rng);
            for (size_t i = 0; i < plane; ++i) im.put(static_cast<size_t>(ch) * plane + i, scene_to_class(d, scene[i]));
        }
        break;
    }
    case Fill::Values:
        for (size_t i = 0; i < n; ++i) im.put(i, s.values[i % s.values.size()]);
        break;
    }
    return im;
}

std::vector<ImageSpec> special_specs(ipt_dtype dtype, int64_t rows, int64_t cols, int64_t channels) {
    std::vector<Fill> fills;
    if (dtype == IPT_LOGICAL) {
        fills = {Fill::Zero, Fill::Max};
    } else {
        fills = {Fill::Constant, Fill::Zero, Fill::Min, Fill::Max};
        if (is_float(dtype)) fills.insert(fills.end(), {Fill::NaN, Fill::Inf, Fill::Denormal, Fill::Extreme});
    }
    std::vector<ImageSpec> out;
    for (Fill f : fills) {
        ImageSpec s = spec(dtype, rows, cols, f);
        s.channels = channels;
        out.push_back(s);
    }
    if (dtype == IPT_LOGICAL) {
        for (double density : {0.001, 0.5, 0.999}) {
            ImageSpec s = spec(dtype, rows, cols, Fill::Density, density);
            s.channels = channels;
            out.push_back(s);
        }
    }
    return out;
}

}  // namespace ipt::conformance
