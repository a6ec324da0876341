// SPDX-License-Identifier: Apache-2.0
// Shared by every shader of libipt_vulkan: typed views of device memory
// (buffer device addresses), MATLAB class codes, conversions with MATLAB's
// rounding and saturation, and the linear work-group index.
//
// Specialisation constants every shader declares in the same places:
//   constant_id 0, 1: work-group size x, y    (local_size_x_id / local_size_y_id)
//   constant_id 2:    outputs per invocation  (PER_INV)
//   constant_id 3:    vector width            (VEC)
//   constant_id 4...: the shader's own
#extension GL_EXT_buffer_reference : require
#extension GL_EXT_shader_explicit_arithmetic_types : require
#extension GL_EXT_shader_explicit_arithmetic_types_int8 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int16 : require
#extension GL_EXT_shader_explicit_arithmetic_types_int64 : require
#extension GL_EXT_shader_explicit_arithmetic_types_float64 : require

layout(local_size_x_id = 0, local_size_y_id = 1, local_size_z = 1) in;
layout(constant_id = 2) const uint PER_INV = 1;
layout(constant_id = 3) const uint VEC = 1;

// ipt_dtype values (ipt.h).
#define DT_LOGICAL 1
#define DT_UINT8 2
#define DT_UINT16 3
#define DT_INT16 4
#define DT_INT32 5
#define DT_UINT32 6
#define DT_SINGLE 7
#define DT_DOUBLE 8

layout(buffer_reference, std430, buffer_reference_align = 1) buffer BufU8 { uint8_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer BufU16 { uint16_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 2) buffer BufI16 { int16_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer BufI32 { int v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer BufU32 { uint v[]; };
layout(buffer_reference, std430, buffer_reference_align = 4) buffer BufF32 { float v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer BufF64 { double v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer BufI64 { int64_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 8) buffer BufU64 { uint64_t v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer BufU32x4 { uvec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer BufF32x4 { vec4 v[]; };
layout(buffer_reference, std430, buffer_reference_align = 16) buffer BufF64x2 { dvec2 v[]; };

// Index of this work group in a grid folded into x and y (see grid_for()).
uint linear_group() { return gl_WorkGroupID.y * gl_NumWorkGroups.x + gl_WorkGroupID.x; }

// NaN tests on the bits: a driver may assume no NaN in arithmetic tests.
bool is_nan_d(double x) {
    uvec2 b = unpackDouble2x32(x);
    return (b.y & 0x7FF00000u) == 0x7FF00000u && ((b.y & 0x000FFFFFu) | b.x) != 0u;
}
bool is_nan_f(float x) {
    uint b = floatBitsToUint(x);
    return (b & 0x7F800000u) == 0x7F800000u && (b & 0x007FFFFFu) != 0u;
}

// Single <-> double on the bits, without single-precision arithmetic:
// NVIDIA's shaders flush single denormals to zero in every float operation,
// conversions included (shaderDenormPreserveFloat32 is not offered there).
double f32_bits_to_double(uint b) {
    if ((b & 0x7F800000u) != 0u) return double(uintBitsToFloat(b));  // normal, Inf, NaN
    const double m = ldexp(double(b & 0x007FFFFFu), -149);           // exact: zero or denormal
    return (b & 0x80000000u) != 0u ? -m : m;
}
uint double_to_f32_bits(double x) {
    const double ax = abs(x);
    if (!(ax < ldexp(1.0lf, -126))) return floatBitsToUint(float(x));  // normal, Inf, NaN
    // Round to nearest even on the denormal grid; a carry into the exponent
    // gives the smallest normal, as it should.
    return (unpackDouble2x32(x).y & 0x80000000u) | uint(roundEven(ldexp(ax, 149)));
}

// i mod n in [0, n) for any i and n > 0. GLSL leaves % undefined when an
// operand is negative (NVIDIA's driver returns other values than lavapipe),
// so a negative i is folded through -i - 1 >= 0.
int floor_mod(int i, int n) {
    return i >= 0 ? i % n : n - 1 - (-(i + 1)) % n;
}

// Index of a source row or column under symmetric padding (mirror with the
// edge repeated: ... 1 0 | 0 1 ... n-1 | n-1 n-2 ...), for any i.
int symmetric_index(int i, int n) {
    const int m = floor_mod(i, 2 * n);
    return m < n ? m : 2 * n - 1 - m;
}

// MATLAB's round: half away from zero (docs/matlab-semantics.md#rounding).
// x - trunc(x) is exact in binary floating point.
double round_half_away(double x) {
    precise double t = trunc(x);
    precise double f = x - t;
    if (f >= 0.5) t += 1.0;
    else if (f <= -0.5) t -= 1.0;
    return t;
}

// Round, then saturate to [lo, hi]; NaN becomes 0.
double saturate_round(double x, double lo, double hi) {
    if (is_nan_d(x)) return 0.0;
    if (x <= lo) return lo;
    if (x >= hi) return hi;
    return clamp(round_half_away(x), lo, hi);
}

// Value of element i of an image of class dt, as a double.
double load_d(uint64_t base, int dt, int i) {
    switch (dt) {
    case DT_LOGICAL:
    case DT_UINT8: return double(uint(BufU8(base).v[i]));
    case DT_UINT16: return double(uint(BufU16(base).v[i]));
    case DT_INT16: return double(int(BufI16(base).v[i]));
    case DT_INT32: return double(BufI32(base).v[i]);
    case DT_UINT32: return double(BufU32(base).v[i]);
    case DT_SINGLE: return f32_bits_to_double(BufU32(base).v[i]);
    default: return BufF64(base).v[i];
    }
}

// Same, as a float (exact for every class but int32, uint32 and double).
float load_f(uint64_t base, int dt, int i) {
    switch (dt) {
    case DT_LOGICAL:
    case DT_UINT8: return float(uint(BufU8(base).v[i]));
    case DT_UINT16: return float(uint(BufU16(base).v[i]));
    case DT_INT16: return float(int(BufI16(base).v[i]));
    case DT_INT32: return float(BufI32(base).v[i]);
    case DT_UINT32: return float(BufU32(base).v[i]);
    case DT_SINGLE: return BufF32(base).v[i];
    default: return float(BufF64(base).v[i]);
    }
}

// Stores x converted to class dt as MATLAB converts: integers round half away
// and saturate (NaN -> 0), logical is x != 0, single rounds to nearest.
void store_d(uint64_t base, int dt, int i, double x) {
    switch (dt) {
    case DT_LOGICAL: BufU8(base).v[i] = uint8_t((x != 0.0 && !is_nan_d(x)) ? 1u : 0u); break;
    case DT_UINT8: BufU8(base).v[i] = uint8_t(uint(saturate_round(x, 0.0, 255.0))); break;
    case DT_UINT16: BufU16(base).v[i] = uint16_t(uint(saturate_round(x, 0.0, 65535.0))); break;
    case DT_INT16: BufI16(base).v[i] = int16_t(int(saturate_round(x, -32768.0, 32767.0))); break;
    case DT_INT32: BufI32(base).v[i] = int(saturate_round(x, -2147483648.0, 2147483647.0)); break;
    case DT_UINT32: BufU32(base).v[i] = uint(saturate_round(x, 0.0, 4294967295.0)); break;
    case DT_SINGLE: BufU32(base).v[i] = double_to_f32_bits(x); break;
    default: BufF64(base).v[i] = x; break;
    }
}

// Raw copies of one element (selection operators: no arithmetic).
uint64_t load_bits(uint64_t base, int dt, int i) {
    switch (dt) {
    case DT_LOGICAL:
    case DT_UINT8: return uint64_t(BufU8(base).v[i]);
    case DT_UINT16:
    case DT_INT16: return uint64_t(BufU16(base).v[i]);
    case DT_INT32:
    case DT_UINT32:
    case DT_SINGLE: return uint64_t(BufU32(base).v[i]);
    default: return BufU64(base).v[i];
    }
}
void store_bits(uint64_t base, int dt, int i, uint64_t b) {
    switch (dt) {
    case DT_LOGICAL:
    case DT_UINT8: BufU8(base).v[i] = uint8_t(b); break;
    case DT_UINT16:
    case DT_INT16: BufU16(base).v[i] = uint16_t(b); break;
    case DT_INT32:
    case DT_UINT32:
    case DT_SINGLE: BufU32(base).v[i] = uint(b); break;
    default: BufU64(base).v[i] = b; break;
    }
}
