// SPDX-License-Identifier: Apache-2.0
// openipt_mex: the MEX gateway of OpenIPT for MATLAB and Octave, over the
// public C API only (ipt.h, ipt_ops.h). It is generic: operators, their
// parameters and outputs come from the catalogue at run time.
//
//   openipt_mex('call', op, args...)       run an operator (see parse_call)
//   openipt_mex('ops')                     struct array: name, matlab, summary
//   openipt_mex('schema', op)              struct array of op's parameters
//   openipt_mex('devices')                 struct array of devices
//   openipt_mex('info')                    versions, plugin load report, devices
//   openipt_mex('explain')                 the last call's dispatch record
//   openipt_mex('device' [, spec])         pin calls to a device; returns the pinned id
//   openipt_mex('upload', A [, spec])      image to a device: a handle struct
//   openipt_mex('download', h)             handle -> MATLAB array
//   openipt_mex('free', h)                 frees a handle
//   openipt_mex('imageinfo', h)            class, size and device of a handle
//   openipt_mex('layout', A, reps)         times the layout conversion (docs/matlab.md)
//   openipt_mex('layout', A, way)          A's planes transposed by it ('rows', 'columns'; tests)
//
// Every error is a MATLAB error with the identifier openipt:<status> and the
// library's message. No C++ exception leaves mexFunction: errors are caught,
// every handle of the failed command is released, and only then is the
// MATLAB error raised (it does not return).
#include <mex.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif
#if defined(__GNUC__) && defined(__x86_64__)
#include <immintrin.h>
#endif

#include <algorithm>
#include <cctype>
#include <ctime>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <new>
#include <string>
#include <unordered_map>
#include <vector>

#include <ipt/ipt.h>
#include <ipt/ipt_ops.h>

namespace {

// ---- errors -----------------------------------------------------------------

struct Error {
    ipt_status status;
    std::string message;
};

const char* status_id(ipt_status s) {
    switch (s) {
        case IPT_ERR_INVALID_ARGUMENT: return "openipt:invalidArgument";
        case IPT_ERR_UNSUPPORTED: return "openipt:unsupported";
        case IPT_ERR_OUT_OF_MEMORY: return "openipt:outOfMemory";
        case IPT_ERR_NOT_FOUND: return "openipt:notFound";
        case IPT_ERR_PLUGIN: return "openipt:plugin";
        case IPT_ERR_DEVICE: return "openipt:device";
        case IPT_ERR_ABI: return "openipt:abi";
        case IPT_ERR_MISUSE: return "openipt:misuse";
        default: return "openipt:internal";
    }
}

[[noreturn]] void fail(ipt_status s, std::string message) { throw Error{s, std::move(message)}; }

void check(ipt_status s) {
    if (s == IPT_OK) return;
    std::string msg = ipt_last_error();
    if (msg.empty()) msg = ipt_status_name(s);
    fail(s, msg);
}

// ---- state kept between calls -------------------------------------------------

ipt_context* g_ctx = nullptr;
uint32_t g_device = IPT_DEVICE_ANY;
std::unordered_map<uint64_t, ipt_image*> g_images;  // GPU-resident images by handle
uint64_t g_next_handle = 1;

void at_exit() {
    for (auto& [id, im] : g_images) ipt_image_free(im);
    g_images.clear();
    ipt_context_destroy(g_ctx);
    g_ctx = nullptr;
}

ipt_context* context() {
    if (!g_ctx) {
        if (ipt_version_abi() != IPT_ABI_VERSION)
            fail(IPT_ERR_ABI, "libipt has ABI version " + std::to_string(ipt_version_abi()) +
                                  ", the gateway was built for " + std::to_string(IPT_ABI_VERSION));
        check(ipt_context_create(0, &g_ctx));
        // Handles of GPU-resident images refer to this context: keep the
        // gateway loaded (clear mex / clear all) while MATLAB runs.
        mexLock();
        mexAtExit(at_exit);
    }
    return g_ctx;
}

// ---- small conversions ----------------------------------------------------------

std::string to_string(const mxArray* a, const std::string& what) {
    if (!a || !mxIsChar(a)) fail(IPT_ERR_INVALID_ARGUMENT, what + " must be a character vector or string");
    char* s = mxArrayToString(a);
    if (!s) fail(IPT_ERR_INVALID_ARGUMENT, what + " must be a character vector");
    std::string out(s);
    mxFree(s);
    return out;
}

std::string lower(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

mxArray* str(const char* s) { return mxCreateString(s ? s : ""); }
mxArray* num(double v) { return mxCreateDoubleScalar(v); }

bool dtype_of(mxClassID c, ipt_dtype* out) {
    switch (c) {
        case mxLOGICAL_CLASS: *out = IPT_LOGICAL; return true;
        case mxUINT8_CLASS: *out = IPT_UINT8; return true;
        case mxUINT16_CLASS: *out = IPT_UINT16; return true;
        case mxINT16_CLASS: *out = IPT_INT16; return true;
        case mxINT32_CLASS: *out = IPT_INT32; return true;
        case mxUINT32_CLASS: *out = IPT_UINT32; return true;
        case mxSINGLE_CLASS: *out = IPT_SINGLE; return true;
        case mxDOUBLE_CLASS: *out = IPT_DOUBLE; return true;
        default: return false;
    }
}

mxClassID class_of(ipt_dtype d) {
    switch (d) {
        case IPT_LOGICAL: return mxLOGICAL_CLASS;
        case IPT_UINT8: return mxUINT8_CLASS;
        case IPT_UINT16: return mxUINT16_CLASS;
        case IPT_INT16: return mxINT16_CLASS;
        case IPT_INT32: return mxINT32_CLASS;
        case IPT_UINT32: return mxUINT32_CLASS;
        case IPT_SINGLE: return mxSINGLE_CLASS;
        case IPT_DOUBLE: return mxDOUBLE_CLASS;
        default: return mxUNKNOWN_CLASS;
    }
}

// ---- layout: MATLAB column-major <-> OpenIPT row-major planes ---------------------
//
// A plane is transposed in blocks of 64 x 64 bytes (M x M elements, M = 64 /
// element size): the block's M source columns are read as whole cache lines
// into an L1 buffer, transposed there in registers, and its M destination rows
// leave as whole cache lines. Whole lines on both sides keep power-of-two
// strides (2048 x 2048 images) from thrashing the few L1 sets they map to, and
// let a large output go out with streaming stores, which skip the read for
// ownership of each destination line.

namespace layout {

#if defined(__GNUC__)
#define OPENIPT_FLATTEN __attribute__((flatten))
#else
#define OPENIPT_FLATTEN
#endif

constexpr int64_t kLine = 64;
// Columns per pass down the rows: 1 KiB of each destination row at a time,
// so that a destination page is visited once per KiB.
constexpr int64_t kPassBytes = 1024;
// Conversions from this size on are streamed. On the development machine
// (32 MiB L3, shared), normal stores were as fast or faster below it (but for
// uint8 at 8 MiB), and the output stays in cache for its reader; from it on,
// streaming took up to 3x less time.
constexpr size_t kStreamBytes = size_t{16} << 20;

// The portable kind: plain loops over 8 x 8 tiles.
struct Scalar {
    template <class T>
    struct Tile {
        static constexpr int64_t R = 8, C = 8;
        static void run(const T* s, int64_t ss, T* d, int64_t ds) {
            for (int64_t i = 0; i < R; ++i)
                for (int64_t j = 0; j < C; ++j) d[i * ds + j] = s[j * ss + i];
        }
    };
    // 64 bytes from anywhere to 64-aligned d; 64 bytes from anywhere to d,
    // streamed (d 64-aligned) where the kind can.
    static void load_line(void* d, const void* s) { std::memcpy(d, s, kLine); }
    template <bool Stream>
    static void store_line(void* d, const void* s) { std::memcpy(d, s, kLine); }
    static void prefetch([[maybe_unused]] const void* p) {
#if defined(__GNUC__)
        __builtin_prefetch(p, 0, 2);
#endif
    }
    static void fence() {}
};

#if defined(__SSE2__)
// Register tiles transpose N registers of N elements, register j holding
// source column j: log2(N) rounds of unpacklo/unpackhi(x[k], x[k + N/2]) into
// registers 2k, 2k + 1. Each round rotates the (register, element) index bits
// by one, so after log2(N) rounds register i holds destination row i.
struct Sse2 {
    template <class T>
    struct Tile;
    static void load_line(void* d, const void* s) {
        const __m128i* p = static_cast<const __m128i*>(s);
        __m128i* q = static_cast<__m128i*>(d);
        const __m128i a = _mm_loadu_si128(p), b = _mm_loadu_si128(p + 1);
        const __m128i c = _mm_loadu_si128(p + 2), e = _mm_loadu_si128(p + 3);
        _mm_store_si128(q, a);
        _mm_store_si128(q + 1, b);
        _mm_store_si128(q + 2, c);
        _mm_store_si128(q + 3, e);
    }
    template <bool Stream>
    static void store_line(void* d, const void* s) {
        const __m128i* p = static_cast<const __m128i*>(s);
        __m128i* q = static_cast<__m128i*>(d);
        __m128i x[4];
        for (int k = 0; k < 4; ++k) x[k] = _mm_loadu_si128(p + k);
        for (int k = 0; k < 4; ++k) {
            if constexpr (Stream) _mm_stream_si128(q + k, x[k]);
            else _mm_storeu_si128(q + k, x[k]);
        }
    }
    static void prefetch(const void* p) { _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T1); }
    static void fence() { _mm_sfence(); }
};

#define OPENIPT_SSE2_TILE(T, N, UNPACK)                                                                  \
    template <>                                                                                            \
    struct Sse2::Tile<T> {                                                                                 \
        static constexpr int64_t R = N, C = N;                                                             \
        static void run(const T* s, int64_t ss, T* d, int64_t ds) {                                        \
            __m128i x[N], y[N];                                                                            \
            for (int j = 0; j < N; ++j) x[j] = _mm_loadu_si128(reinterpret_cast<const __m128i*>(s + j * ss)); \
            for (int round = 1; round < N; round *= 2) {                                                   \
                for (int k = 0; k < N / 2; ++k) {                                                          \
                    y[2 * k] = _mm_unpacklo_##UNPACK(x[k], x[k + N / 2]);                                  \
                    y[2 * k + 1] = _mm_unpackhi_##UNPACK(x[k], x[k + N / 2]);                              \
                }                                                                                          \
                for (int k = 0; k < N; ++k) x[k] = y[k];                                                   \
            }                                                                                              \
            for (int i = 0; i < N; ++i) _mm_storeu_si128(reinterpret_cast<__m128i*>(d + i * ds), x[i]);    \
        }                                                                                                  \
    };
OPENIPT_SSE2_TILE(uint8_t, 16, epi8)
OPENIPT_SSE2_TILE(uint16_t, 8, epi16)
OPENIPT_SSE2_TILE(uint32_t, 4, epi32)
OPENIPT_SSE2_TILE(uint64_t, 2, epi64)
#undef OPENIPT_SSE2_TILE
#endif

#if defined(__GNUC__) && defined(__x86_64__)
#define OPENIPT_AVX2 __attribute__((target("avx2")))
// The same network on 256-bit registers, whose unpacks stay within 128-bit
// lanes: lane 0 of register j holds source column j, lane 1 column j + N, so
// each lane transposes an N x N tile and register i ends as 2N contiguous
// elements of destination row i.
struct Avx2 {
    template <class T>
    struct Tile;
    OPENIPT_AVX2 static __m256i load2(const void* lo, const void* hi) {
        return _mm256_inserti128_si256(_mm256_castsi128_si256(_mm_loadu_si128(static_cast<const __m128i*>(lo))),
                                       _mm_loadu_si128(static_cast<const __m128i*>(hi)), 1);
    }
    OPENIPT_AVX2 static void load_line(void* d, const void* s) {
        const __m256i* p = static_cast<const __m256i*>(s);
        __m256i* q = static_cast<__m256i*>(d);
        const __m256i a = _mm256_loadu_si256(p), b = _mm256_loadu_si256(p + 1);
        _mm256_store_si256(q, a);
        _mm256_store_si256(q + 1, b);
    }
    template <bool Stream>
    OPENIPT_AVX2 static void store_line(void* d, const void* s) {
        const __m256i* p = static_cast<const __m256i*>(s);
        __m256i* q = static_cast<__m256i*>(d);
        const __m256i a = _mm256_loadu_si256(p), b = _mm256_loadu_si256(p + 1);
        if constexpr (Stream) {
            _mm256_stream_si256(q, a);
            _mm256_stream_si256(q + 1, b);
        } else {
            _mm256_storeu_si256(q, a);
            _mm256_storeu_si256(q + 1, b);
        }
    }
    static void prefetch(const void* p) { _mm_prefetch(static_cast<const char*>(p), _MM_HINT_T1); }
    static void fence() { _mm_sfence(); }
};

#define OPENIPT_AVX2_TILE(T, N, UNPACK)                                                                 \
    template <>                                                                                           \
    struct Avx2::Tile<T> {                                                                                \
        static constexpr int64_t R = N, C = 2 * N;                                                        \
        OPENIPT_AVX2 static void run(const T* s, int64_t ss, T* d, int64_t ds) {                          \
            __m256i x[N], y[N];                                                                           \
            for (int j = 0; j < N; ++j) x[j] = load2(s + j * ss, s + (j + N) * ss);                      \
            for (int round = 1; round < N; round *= 2) {                                                  \
                for (int k = 0; k < N / 2; ++k) {                                                         \
                    y[2 * k] = _mm256_unpacklo_##UNPACK(x[k], x[k + N / 2]);                              \
                    y[2 * k + 1] = _mm256_unpackhi_##UNPACK(x[k], x[k + N / 2]);                          \
                }                                                                                         \
                for (int k = 0; k < N; ++k) x[k] = y[k];                                                  \
            }                                                                                             \
            for (int i = 0; i < N; ++i) _mm256_storeu_si256(reinterpret_cast<__m256i*>(d + i * ds), x[i]); \
        }                                                                                                 \
    };
OPENIPT_AVX2_TILE(uint8_t, 16, epi8)
OPENIPT_AVX2_TILE(uint16_t, 8, epi16)
OPENIPT_AVX2_TILE(uint32_t, 4, epi32)
OPENIPT_AVX2_TILE(uint64_t, 2, epi64)
#undef OPENIPT_AVX2_TILE
#endif

// M source columns s + j * ss of M elements (64 bytes each) into M rows of
// `out` (stride os): the columns are first copied whole into L1.
template <class Isa, class T>
inline void transpose_block(const T* s, int64_t ss, T* out, int64_t os) {
    using Tile = typename Isa::template Tile<T>;
    constexpr int64_t M = kLine / sizeof(T);
    alignas(64) T in[M * M];
    for (int64_t j = 0; j < M; ++j) Isa::load_line(in + j * M, s + j * ss);
    for (int64_t r = 0; r < M; r += Tile::R)
        for (int64_t c = 0; c < M; c += Tile::C) Tile::run(in + c * M + r, M, out + r * os + c, os);
}

// Destination columns [c0, c1) of a plane (src rows x cols column-major, dst
// row-major), rows >= M and cols >= M. Passes of P columns go down all the
// rows in strips of M. The last block of a strip or pass overlaps the one
// before it rather than leaving an edge. Streamed, [c0, c1) must be whole
// aligned lines of every row.
template <class Isa, class T, bool Stream>
inline void blocks(const T* src, T* dst, int64_t rows, int64_t cols, int64_t c0, int64_t c1) {
    constexpr int64_t M = kLine / sizeof(T), P = kPassBytes / sizeof(T);
    alignas(64) T out[M * M];
    for (int64_t p = c0; p < c1; p += P) {
        const int64_t pe = std::min(c1, p + P);
        for (int64_t r = 0; r < rows; r += M) {
            const int64_t rr = std::min(r, rows - M);
            for (int64_t c = p; c < pe; c += M) {
                const int64_t cc = std::min(c, cols - M);
                // The block's columns for the next strip, into L2: the hardware
                // prefetchers do not follow the P streams of a pass. The last
                // element's line is the one this block has not touched. (In
                // the loop: GCC drops a call to a function that only prefetches.)
                if (rr + 2 * M <= rows)
                    for (int64_t j = 0; j < M; ++j) Isa::prefetch(src + (cc + j) * rows + rr + 2 * M - 1);
                transpose_block<Isa>(src + cc * rows + rr, rows, out, M);
                for (int64_t i = 0; i < M; ++i)
                    Isa::template store_line<Stream>(dst + (rr + i) * cols + cc, out + i * M);
            }
        }
    }
}

// Destination columns [0, c1) of a plane whose rows are not all aligned
// alike, c1 a multiple of M, in the same order, streamed: every destination
// line is written whole, from this block's row and, where the row is not
// line-aligned at the block, the previous block's. The two lines a pass cuts
// in each row are stored normally.
template <class Isa, class T>
inline void blocks_streamed(const T* src, T* dst, int64_t rows, int64_t cols, int64_t c1) {
    constexpr int64_t M = kLine / sizeof(T), P = kPassBytes / sizeof(T);
    alignas(64) unsigned char row[M][2 * kLine];  // per row: the previous block's, then this block's
    T* const out = reinterpret_cast<T*>(row[0] + kLine);
    for (int64_t p = 0; p < c1; p += P) {
        const int64_t pe = std::min(c1, p + P);
        for (int64_t r = 0; r < rows; r += M) {
            const int64_t rr = std::min(r, rows - M);
            for (int64_t c = p; c < pe; c += M) {
                if (rr + 2 * M <= rows)  // as in blocks()
                    for (int64_t j = 0; j < M; ++j) Isa::prefetch(src + (c + j) * rows + rr + 2 * M - 1);
                transpose_block<Isa>(src + c * rows + rr, rows, out, 2 * M);
                for (int64_t i = 0; i < M; ++i) {
                    auto* d = reinterpret_cast<unsigned char*>(dst + (rr + i) * cols + c);
                    const auto h = static_cast<int64_t>(reinterpret_cast<uintptr_t>(d) % kLine);
                    if (h == 0) {
                        Isa::template store_line<true>(d, row[i] + kLine);
                        continue;
                    }
                    if (c > p) Isa::template store_line<true>(d - h, row[i] + kLine - h);
                    else std::memcpy(d, row[i] + kLine, static_cast<size_t>(kLine - h));
                    if (c + M < pe) Isa::load_line(row[i], row[i] + kLine);
                    else std::memcpy(d + kLine - h, row[i] + 2 * kLine - h, static_cast<size_t>(h));
                }
            }
        }
    }
}

// One plane, streamed or not.
template <class Isa, class T>
inline void plane(const T* src, T* dst, int64_t rows, int64_t cols, bool stream) {
    constexpr int64_t M = kLine / static_cast<int64_t>(sizeof(T));
    if (rows < M || cols < M) {  // too small for a block: element by element, reading or writing contiguously
        if (rows < cols) {
            for (int64_t c = 0; c < cols; ++c)
                for (int64_t r = 0; r < rows; ++r) dst[r * cols + c] = src[c * rows + r];
        } else {
            for (int64_t r = 0; r < rows; ++r)
                for (int64_t c = 0; c < cols; ++c) dst[r * cols + c] = src[c * rows + r];
        }
        return;
    }
    if (!stream) return blocks<Isa, T, false>(src, dst, rows, cols, 0, cols);
    if ((cols * static_cast<int64_t>(sizeof(T))) % kLine == 0) {
        // Every row aligned alike: the columns from the first line boundary on
        // are whole lines of every row.
        const auto a = static_cast<int64_t>((kLine - reinterpret_cast<uintptr_t>(dst) % kLine) % kLine / sizeof(T));
        const int64_t b = a + (cols - a) / M * M;
        blocks<Isa, T, false>(src, dst, rows, cols, 0, a);
        blocks<Isa, T, true>(src, dst, rows, cols, a, b);
        blocks<Isa, T, false>(src, dst, rows, cols, b, cols);
        return;
    }
    const int64_t c1 = cols - cols % M;
    blocks_streamed<Isa>(src, dst, rows, cols, c1);
    if (c1 < cols) blocks<Isa, T, false>(src, dst, rows, cols, c1, cols);
}

using PlaneFn = void (*)(const void*, void*, int64_t, int64_t, bool);

// Everything below one of these is inlined (flatten), so the tiles compile for
// that instruction set and nothing else does.
template <class Isa, class T>
OPENIPT_FLATTEN void plane_of(const void* s, void* d, int64_t rows, int64_t cols, bool stream) {
    plane<Isa>(static_cast<const T*>(s), static_cast<T*>(d), rows, cols, stream);
    if (stream) Isa::fence();
}
#if defined(OPENIPT_AVX2)
template <class T>
OPENIPT_AVX2 OPENIPT_FLATTEN void plane_avx2(const void* s, void* d, int64_t rows, int64_t cols, bool stream) {
    plane<Avx2>(static_cast<const T*>(s), static_cast<T*>(d), rows, cols, stream);
    if (stream) Avx2::fence();
}
#endif

template <class T>
PlaneFn plane_function() {
#if defined(OPENIPT_AVX2)
    static const bool avx2 = (__builtin_cpu_init(), __builtin_cpu_supports("avx2"));
    if (avx2) return plane_avx2<T>;
#endif
#if defined(__SSE2__)
    return plane_of<Sse2, T>;
#else
    return plane_of<Scalar, T>;
#endif
}

// planes of rows x cols elements of `elem` bytes, column-major -> row-major.
void transpose(const void* src, void* dst, size_t elem, int64_t rows, int64_t cols, int64_t planes) {
    const PlaneFn f = elem == 1   ? plane_function<uint8_t>()
                      : elem == 2 ? plane_function<uint16_t>()
                      : elem == 4 ? plane_function<uint32_t>()
                                  : plane_function<uint64_t>();
    const int64_t n = rows * cols;
    const bool stream = static_cast<size_t>(n * planes) * elem >= kStreamBytes;
    for (int64_t p = 0; p < planes; ++p)
        f(static_cast<const char*>(src) + static_cast<size_t>(p * n) * elem,
          static_cast<char*>(dst) + static_cast<size_t>(p * n) * elem, rows, cols, stream);
}

}  // namespace layout

// planes of rows x cols elements of `elem` bytes: column-major -> row-major.
void to_row_major(const void* src, void* dst, size_t elem, int64_t rows, int64_t cols, int64_t planes) {
    layout::transpose(src, dst, elem, rows, cols, planes);
}

// row-major -> column-major: the same transpose with rows and cols swapped.
void to_column_major(const void* src, void* dst, size_t elem, int64_t rows, int64_t cols, int64_t planes) {
    layout::transpose(src, dst, elem, cols, rows, planes);
}

struct FreeDeleter {
    void operator()(void* p) const noexcept { std::free(p); }
};
using Buffer = std::unique_ptr<void, FreeDeleter>;

Buffer aligned_buffer(size_t bytes) {
    const size_t rounded = ((bytes == 0 ? 64 : bytes) + 63) / 64 * 64;
    void* p = std::aligned_alloc(64, rounded);
    if (!p) fail(IPT_ERR_OUT_OF_MEMORY, "out of memory for " + std::to_string(bytes) + " bytes");
    return Buffer(p);
}

// Conversion buffers kept between calls: fresh memory costs a page fault per
// page, which at 2048^2 doubles is as much as the conversion itself. A call
// borrows buffers and gives them back when it ends; a few are kept.
struct Scratch {
    Buffer data;
    size_t bytes = 0;
};
std::vector<Scratch> g_scratch;
constexpr size_t kScratchKept = 4;

struct Borrowed {
    Scratch s;
    Borrowed() = default;
    explicit Borrowed(size_t bytes) {
        // The smallest kept buffer that fits, else a new one.
        size_t best = g_scratch.size();
        for (size_t i = 0; i < g_scratch.size(); ++i)
            if (g_scratch[i].bytes >= bytes && (best == g_scratch.size() || g_scratch[i].bytes < g_scratch[best].bytes))
                best = i;
        if (best < g_scratch.size()) {
            s = std::move(g_scratch[best]);
            g_scratch.erase(g_scratch.begin() + static_cast<std::ptrdiff_t>(best));
        } else {
            s.data = aligned_buffer(bytes);
            s.bytes = bytes;
        }
    }
    Borrowed(Borrowed&&) = default;
    Borrowed& operator=(Borrowed&&) = default;
    ~Borrowed() {
        if (!s.data) return;
        g_scratch.push_back(std::move(s));
        if (g_scratch.size() > kScratchKept) {  // drop the smallest
            auto it = std::min_element(g_scratch.begin(), g_scratch.end(),
                                       [](const Scratch& a, const Scratch& b) { return a.bytes < b.bytes; });
            g_scratch.erase(it);
        }
    }
    void* get() const { return s.data.get(); }
};

// ---- images ------------------------------------------------------------------------

struct Shape {
    ipt_dtype dtype;
    int64_t rows, cols, channels;
    size_t elem;
};

// What a MATLAB array may be as an image: real, full, one of MATLAB's image
// classes, 2-D or m x n x c.
Shape shape_of(const mxArray* a, const std::string& what) {
    if (mxIsSparse(a)) fail(IPT_ERR_UNSUPPORTED, what + ": sparse arrays are not supported");
    if (mxIsComplex(a)) fail(IPT_ERR_UNSUPPORTED, what + ": complex values are not supported");
    Shape s{};
    if (!dtype_of(mxGetClassID(a), &s.dtype))
        fail(IPT_ERR_UNSUPPORTED, what + ": class " + mxGetClassName(a) +
                                      " is not supported (logical, uint8, uint16, int16, int32, uint32, "
                                      "single, double)");
    const mwSize nd = mxGetNumberOfDimensions(a);
    const mwSize* d = mxGetDimensions(a);
    if (nd > 3) fail(IPT_ERR_UNSUPPORTED, what + ": arrays of more than 3 dimensions are not supported");
    s.rows = static_cast<int64_t>(d[0]);
    s.cols = static_cast<int64_t>(d[1]);
    s.channels = nd == 3 ? static_cast<int64_t>(d[2]) : 1;
    if (s.channels == 0) fail(IPT_ERR_UNSUPPORTED, what + ": an m x n x 0 array is not an image");
    s.elem = ipt_dtype_size(s.dtype);
    return s;
}

// A host image over a MATLAB array: the array's own memory where the two
// layouts coincide (a row, a column, a scalar), else a row-major copy held
// in `keep` until the call has run.
ipt_image* host_image(const mxArray* a, const std::string& what, std::vector<Borrowed>& keep) {
    const Shape s = shape_of(a, what);
    const void* data = mxGetData(a);
    const size_t bytes = static_cast<size_t>(s.rows * s.cols * s.channels) * s.elem;
    ipt_image* img = nullptr;
    if (s.rows <= 1 || s.cols <= 1) {
        if (bytes == 0 || reinterpret_cast<uintptr_t>(data) % s.elem != 0) {
            keep.emplace_back(bytes);
            if (bytes) std::memcpy(keep.back().get(), data, bytes);
            data = keep.back().get();
        }
    } else {
        keep.emplace_back(bytes);
        to_row_major(data, keep.back().get(), s.elem, s.rows, s.cols, s.channels);
        data = keep.back().get();
    }
    check(ipt_image_wrap_host(context(), s.dtype, s.rows, s.cols, s.channels, data, 0, &img));
    return img;
}

mxArray* to_matlab(const ipt_image* img) {
    ipt_image_info info{};
    info.struct_size = sizeof info;
    check(ipt_image_get_info(img, &info));
    const auto dtype = static_cast<ipt_dtype>(info.dtype);
    const mxClassID cls = class_of(dtype);
    if (cls == mxUNKNOWN_CLASS) fail(IPT_ERR_INTERNAL, "an output has an unknown class");
    mwSize dims[3] = {static_cast<mwSize>(info.rows), static_cast<mwSize>(info.cols),
                      static_cast<mwSize>(info.channels)};
    // Every element is written below: no zero fill.
    mxArray* out = cls == mxLOGICAL_CLASS ? mxCreateLogicalArray(info.channels > 1 ? 3 : 2, dims)
                                          : mxCreateUninitNumericArray(info.channels > 1 ? 3 : 2, dims, cls, mxREAL);
    const size_t elem = ipt_dtype_size(dtype);
    const size_t bytes = static_cast<size_t>(info.rows * info.cols * info.channels) * elem;
    if (bytes == 0) return out;
    if (info.rows <= 1 || info.cols <= 1) {
        check(ipt_image_download(img, mxGetData(out), 0));
        return out;
    }
    // A host image is read where it lies (tightly packed rows); any other is
    // downloaded first.
    void* address = nullptr;
    int64_t pitch = 0;
    if (info.device_id == IPT_DEVICE_HOST && ipt_image_native_address(img, &address, &pitch) == IPT_OK &&
        pitch == info.cols * static_cast<int64_t>(elem)) {
        check(ipt_sync(context(), IPT_DEVICE_HOST));
        to_column_major(address, mxGetData(out), elem, info.rows, info.cols, info.channels);
        return out;
    }
    Borrowed tmp(bytes);
    check(ipt_image_download(img, tmp.get(), 0));
    to_column_major(tmp.get(), mxGetData(out), elem, info.rows, info.cols, info.channels);
    return out;
}

// A GPU-resident image travels through MATLAB as struct('openipt_image', id).
constexpr const char* kHandleField = "openipt_image";

bool is_handle(const mxArray* a) {
    return mxIsStruct(a) && mxGetNumberOfElements(a) == 1 && mxGetField(a, 0, kHandleField) != nullptr;
}

uint64_t handle_id(const mxArray* a, const std::string& what) {
    const mxArray* f = is_handle(a) ? mxGetField(a, 0, kHandleField) : nullptr;
    if (!f || mxGetNumberOfElements(f) != 1 || mxGetClassID(f) != mxUINT64_CLASS)
        fail(IPT_ERR_INVALID_ARGUMENT, what + " is not an OpenIPT image handle");
    return *static_cast<const uint64_t*>(mxGetData(f));
}

ipt_image* lookup(const mxArray* a, const std::string& what) {
    const uint64_t id = handle_id(a, what);
    auto it = g_images.find(id);
    if (it == g_images.end()) fail(IPT_ERR_MISUSE, what + ": the image was freed");
    return it->second;
}

mxArray* new_handle(ipt_image* img) {
    const uint64_t id = g_next_handle++;
    g_images.emplace(id, img);
    const char* fields[] = {kHandleField};
    mxArray* s = mxCreateStructMatrix(1, 1, 1, fields);
    mxArray* v = mxCreateNumericMatrix(1, 1, mxUINT64_CLASS, mxREAL);
    *static_cast<uint64_t*>(mxGetData(v)) = id;
    mxSetField(s, 0, kHandleField, v);
    return s;
}

// ---- devices ---------------------------------------------------------------------

std::vector<ipt_device_info> device_list() {
    std::vector<ipt_device_info> out;
    for (uint32_t i = 0; i < ipt_device_count(context()); ++i) {
        ipt_device_info d{};
        d.struct_size = sizeof d;
        check(ipt_device_get(context(), i, &d));
        out.push_back(d);
    }
    return out;
}

// An id from a number, 'any', a kind ('cpu', 'cuda': its first device),
// 'kind:N' (the N-th of that kind) or a device name, as `ipt --device`.
uint32_t resolve_device(const mxArray* a) {
    const auto devs = device_list();
    std::string listing;
    for (const auto& d : devs)
        listing += (listing.empty() ? "" : ", ") + std::to_string(d.id) + " " + d.name + " (" + d.kind + ")";
    if (mxIsNumeric(a) && mxGetNumberOfElements(a) == 1) {
        const double v = mxGetScalar(a);
        if (v >= 0 && v < static_cast<double>(devs.size()) && v == static_cast<double>(static_cast<uint32_t>(v)))
            return static_cast<uint32_t>(v);
        fail(IPT_ERR_NOT_FOUND, "unknown device " + std::to_string(v) + "; devices: " + listing);
    }
    const std::string text = to_string(a, "device");
    if (lower(text) == "any" || lower(text) == "auto") return IPT_DEVICE_ANY;
    const auto colon = text.find(':');
    if (colon != std::string::npos) {
        const std::string kind = text.substr(0, colon);
        const long index = std::strtol(text.c_str() + colon + 1, nullptr, 10);
        long seen = 0;
        for (const auto& d : devs)
            if (kind == d.kind && seen++ == index) return d.id;
    } else {
        for (const auto& d : devs)
            if (text == d.kind) return d.id;
        for (const auto& d : devs)
            if (text == d.name) return d.id;
    }
    fail(IPT_ERR_NOT_FOUND, "unknown device '" + text + "'; devices: " + listing);
}

mxArray* devices_struct() {
    const auto devs = device_list();
    const char* f[] = {"id", "name", "kind", "vendor", "plugin", "identity", "memory_bytes", "compute_units"};
    mxArray* s = mxCreateStructMatrix(1, devs.size(), 8, f);
    for (size_t i = 0; i < devs.size(); ++i) {
        const auto& d = devs[i];
        mxSetField(s, i, "id", num(d.id));
        mxSetField(s, i, "name", str(d.name));
        mxSetField(s, i, "kind", str(d.kind));
        mxSetField(s, i, "vendor", str(d.vendor));
        mxSetField(s, i, "plugin", str(d.plugin));
        mxSetField(s, i, "identity", str(d.identity));
        mxSetField(s, i, "memory_bytes", num(static_cast<double>(d.memory_bytes)));
        mxSetField(s, i, "compute_units", num(d.compute_units));
    }
    return s;
}

// ---- catalogue ------------------------------------------------------------------

const ipt_op_schema* find_op(const std::string& name) {
    const ipt_op_schema* op = ipt_op_find(context(), name.c_str());
    if (!op && name.find('.') == std::string::npos) op = ipt_op_find(context(), ("ipt." + name).c_str());
    if (!op) fail(IPT_ERR_NOT_FOUND, "unknown operator '" + name + "'");
    if (op->struct_size < IPT_OP_SCHEMA_MIN_SIZE) fail(IPT_ERR_ABI, "operator '" + name + "' has a short schema");
    return op;
}

const char* kind_name(int32_t k) {
    switch (k) {
        case IPT_PARAM_INPUT: return "input";
        case IPT_PARAM_OUTPUT: return "output";
        case IPT_PARAM_INT: return "int";
        case IPT_PARAM_FLOAT: return "float";
        case IPT_PARAM_FLOATS: return "floats";
        case IPT_PARAM_ENUM: return "enum";
        default: return "unknown";
    }
}

mxArray* schema_struct(const ipt_op_schema* op) {
    const char* f[] = {"name", "kind", "optional", "values", "default", "classes", "doc"};
    mxArray* s = mxCreateStructMatrix(1, op->param_count, 7, f);
    for (uint32_t i = 0; i < op->param_count; ++i) {
        const ipt_param_schema* p = ipt_op_param(op, i);
        mxSetField(s, i, "name", str(p->name));
        mxSetField(s, i, "kind", str(kind_name(p->kind)));
        mxSetField(s, i, "optional", mxCreateLogicalScalar((p->flags & IPT_P_OPTIONAL) != 0));
        mxSetField(s, i, "values", str(p->values));
        mxSetField(s, i, "default", str(p->default_text));
        // The classes an image parameter accepts, as MATLAB class names.
        std::vector<const char*> classes;
        for (int d = 1; d < IPT_DTYPE_COUNT; ++d)
            if (p->dtypes & IPT_DT(d)) classes.push_back(ipt_dtype_name(static_cast<ipt_dtype>(d)));
        mxArray* c = mxCreateCellMatrix(1, classes.size());
        for (size_t j = 0; j < classes.size(); ++j) mxSetCell(c, j, str(classes[j]));
        mxSetField(s, i, "classes", c);
        mxSetField(s, i, "doc", str(p->doc));
    }
    return s;
}

mxArray* ops_struct() {
    const uint32_t n = ipt_op_count(context());
    const char* f[] = {"name", "matlab", "summary"};
    mxArray* s = mxCreateStructMatrix(1, n, 3, f);
    for (uint32_t i = 0; i < n; ++i) {
        const ipt_op_schema* op = ipt_op_get(context(), i);
        if (!op) continue;
        mxSetField(s, i, "name", str(op->name));
        mxSetField(s, i, "matlab", str(op->matlab));
        mxSetField(s, i, "summary", str(op->summary));
    }
    return s;
}

// ---- call ------------------------------------------------------------------------

// Everything one call holds; released however the call ends.
struct CallState {
    ipt_call* call = nullptr;
    std::vector<ipt_image*> images;   // host inputs (wrapped) and outputs not handed on
    std::vector<Borrowed> buffers;    // row-major copies the inputs wrap
    ~CallState() {
        ipt_call_free(call);
        for (ipt_image* im : images) ipt_image_free(im);
    }
};

bool is_integral(double v) { return v == static_cast<double>(static_cast<int64_t>(v)); }

std::vector<double> doubles_of(const mxArray* a, const std::string& what) {
    if (mxIsComplex(a) || mxIsSparse(a) || !(mxIsNumeric(a) || mxIsLogical(a)))
        fail(IPT_ERR_INVALID_ARGUMENT, what + " must be real numbers");
    const size_t n = mxGetNumberOfElements(a);
    std::vector<double> v(n);
    const void* d = mxGetData(a);
    for (size_t i = 0; i < n; ++i) {
        switch (mxGetClassID(a)) {
            case mxDOUBLE_CLASS: v[i] = static_cast<const double*>(d)[i]; break;
            case mxSINGLE_CLASS: v[i] = static_cast<const float*>(d)[i]; break;
            case mxLOGICAL_CLASS: v[i] = static_cast<const mxLogical*>(d)[i] ? 1 : 0; break;
            case mxINT8_CLASS: v[i] = static_cast<const int8_t*>(d)[i]; break;
            case mxUINT8_CLASS: v[i] = static_cast<const uint8_t*>(d)[i]; break;
            case mxINT16_CLASS: v[i] = static_cast<const int16_t*>(d)[i]; break;
            case mxUINT16_CLASS: v[i] = static_cast<const uint16_t*>(d)[i]; break;
            case mxINT32_CLASS: v[i] = static_cast<const int32_t*>(d)[i]; break;
            case mxUINT32_CLASS: v[i] = static_cast<const uint32_t*>(d)[i]; break;
            case mxINT64_CLASS: v[i] = static_cast<double>(static_cast<const int64_t*>(d)[i]); break;
            case mxUINT64_CLASS: v[i] = static_cast<double>(static_cast<const uint64_t*>(d)[i]); break;
            default: fail(IPT_ERR_INVALID_ARGUMENT, what + " must be real numbers");
        }
    }
    return v;
}

// A class the operator's parameter does not take is IPT_ERR_UNSUPPORTED (no
// implementation accepts the call), so that the MATLAB functions fall
// through to the next function of their name.
void check_class(const ipt_op_schema* op, const ipt_param_schema* p, ipt_dtype d) {
    if (p->dtypes & IPT_DT(d)) return;
    std::string accepted;
    for (int k = 1; k < IPT_DTYPE_COUNT; ++k)
        if (p->dtypes & IPT_DT(k))
            accepted += (accepted.empty() ? "" : ", ") + std::string(ipt_dtype_name(static_cast<ipt_dtype>(k)));
    fail(IPT_ERR_UNSUPPORTED, std::string(op->name) + ": parameter '" + p->name + "' must be of class " + accepted +
                                  ", got " + ipt_dtype_name(d));
}

// One parameter from a MATLAB value, by the kind the schema gives it. Text
// (char or string) sets any kind from its textual form, as the CLI does.
void set_param(CallState& st, const ipt_op_schema* op, const ipt_param_schema* p, const mxArray* v,
               int64_t* device_of_handles) {
    const std::string what = std::string(op->name) + ": parameter '" + p->name + "'";
    if (p->kind == IPT_PARAM_INPUT) {
        if (is_handle(v)) {
            ipt_image* img = lookup(v, what);
            ipt_image_info info{};
            info.struct_size = sizeof info;
            check(ipt_image_get_info(img, &info));
            check_class(op, p, static_cast<ipt_dtype>(info.dtype));
            if (*device_of_handles < 0) *device_of_handles = info.device_id;
            check(ipt_call_set_image(st.call, p->name, img));
            return;
        }
        ipt_dtype dtype{};
        if (mxIsSparse(v) || mxIsComplex(v) || !dtype_of(mxGetClassID(v), &dtype)) (void)shape_of(v, what);  // fails
        check_class(op, p, dtype);
        ipt_image* img = host_image(v, what, st.buffers);
        st.images.push_back(img);
        check(ipt_call_set_image(st.call, p->name, img));
        return;
    }
    if (mxIsChar(v)) {
        const std::string text = to_string(v, what);
        if (p->kind == IPT_PARAM_ENUM)
            check(ipt_call_set_string(st.call, p->name, text.c_str()));
        else
            check(ipt_call_set_text(st.call, p->name, text.c_str()));
        return;
    }
    if (p->kind == IPT_PARAM_OUTPUT) fail(IPT_ERR_INVALID_ARGUMENT, what + " is an output, not an argument");
    if (p->kind == IPT_PARAM_ENUM) fail(IPT_ERR_INVALID_ARGUMENT, what + " must be text, one of " + p->values);
    const std::vector<double> d = doubles_of(v, what);
    if (p->kind == IPT_PARAM_FLOATS) {
        check(ipt_call_set_floats(st.call, p->name, d.data(), d.size()));
        return;
    }
    if (d.size() != 1) fail(IPT_ERR_INVALID_ARGUMENT, what + " must be a scalar");
    if (p->kind == IPT_PARAM_INT) {
        if (!is_integral(d[0])) fail(IPT_ERR_INVALID_ARGUMENT, what + " must be a whole number");
        check(ipt_call_set_int(st.call, p->name, static_cast<int64_t>(d[0])));
    } else {
        check(ipt_call_set_float(st.call, p->name, d[0]));
    }
}

const ipt_param_schema* param_named(const ipt_op_schema* op, const std::string& name) {
    const std::string l = lower(name);
    for (uint32_t i = 0; i < op->param_count; ++i) {
        const ipt_param_schema* p = ipt_op_param(op, i);
        if (lower(p->name) == l) return p;
    }
    return nullptr;
}

// openipt_mex('call', op, args...): positional values fill the operator's
// arguments in catalogue order ([] keeps a default) until a text argument
// names a parameter (case-insensitive); from there on name-value pairs. The
// first max(1, nargout) outputs in catalogue order are returned: MATLAB
// arrays, or handles when an input was a handle (the outputs stay on its
// device).
void cmd_call(int nlhs, mxArray* plhs[], int nrhs, const mxArray* prhs[]) {
    if (nrhs < 2) fail(IPT_ERR_INVALID_ARGUMENT, "call: the operator name is missing");
    const ipt_op_schema* op = find_op(to_string(prhs[1], "operator name"));
    CallState st;
    check(ipt_call_create(context(), op->name, &st.call));

    std::vector<const ipt_param_schema*> args, outs;
    for (uint32_t i = 0; i < op->param_count; ++i) {
        const ipt_param_schema* p = ipt_op_param(op, i);
        (p->kind == IPT_PARAM_OUTPUT ? outs : args).push_back(p);
    }
    int64_t handle_device = -1;
    size_t next = 0;
    int k = 2;
    for (; k < nrhs; ++k) {
        const mxArray* v = prhs[k];
        if (mxIsChar(v) && k + 1 < nrhs) {
            const std::string text = to_string(v, "argument");
            if (param_named(op, text)) break;
        }
        if (next >= args.size())
            fail(IPT_ERR_INVALID_ARGUMENT, std::string(op->name) + ": too many arguments (" +
                                               std::to_string(args.size()) + " at most before name-value pairs)");
        const ipt_param_schema* p = args[next++];
        if (mxIsChar(v) && p->kind == IPT_PARAM_INPUT)  // text where an image goes: a misspelt name
            fail(IPT_ERR_INVALID_ARGUMENT, std::string(op->name) + ": text '" + to_string(v, "argument") +
                                               "' where the image '" + p->name +
                                               "' goes (not a parameter name; values in catalogue order)");
        if (mxIsEmpty(v) && !mxIsChar(v) && p->kind != IPT_PARAM_INPUT) continue;  // [] keeps the default
        if (mxIsEmpty(v) && p->kind == IPT_PARAM_INPUT && (p->flags & IPT_P_OPTIONAL)) continue;
        set_param(st, op, p, v, &handle_device);
    }
    for (; k < nrhs; k += 2) {
        const std::string name = to_string(prhs[k], std::string(op->name) + ": a parameter name");
        const ipt_param_schema* p = param_named(op, name);
        if (!p || p->kind == IPT_PARAM_OUTPUT)
            fail(IPT_ERR_INVALID_ARGUMENT, std::string(op->name) + ": unknown parameter '" + name + "'");
        if (k + 1 >= nrhs)
            fail(IPT_ERR_INVALID_ARGUMENT, std::string(op->name) + ": parameter '" + p->name + "' has no value");
        const mxArray* v = prhs[k + 1];
        if (mxIsEmpty(v) && !mxIsChar(v) && !(p->kind == IPT_PARAM_INPUT && !(p->flags & IPT_P_OPTIONAL)))
            continue;
        set_param(st, op, p, v, &handle_device);
    }

    const size_t want = static_cast<size_t>(std::max(1, nlhs));
    if (want > outs.size())
        fail(IPT_ERR_INVALID_ARGUMENT, std::string(op->name) + ": " + std::to_string(want) + " outputs asked for, " +
                                           std::to_string(outs.size()) + " at most");
    for (size_t i = 0; i < want; ++i)
        if (outs[i]->flags & IPT_P_OPTIONAL) check(ipt_call_want_output(st.call, outs[i]->name));
    if (handle_device >= 0) check(ipt_call_set_device(st.call, static_cast<uint32_t>(handle_device)));
    check(ipt_call_run(st.call));
    for (size_t i = 0; i < want; ++i) {
        ipt_image* img = nullptr;
        check(ipt_call_take_output(st.call, outs[i]->name, &img));
        if (handle_device >= 0) {
            plhs[i] = new_handle(img);
        } else {
            st.images.push_back(img);
            plhs[i] = to_matlab(img);
        }
    }
}

// ---- the other commands --------------------------------------------------------

mxArray* info_struct() {
    const char* f[] = {"abi_version", "api_version", "plugins", "devices", "device"};
    mxArray* s = mxCreateStructMatrix(1, 1, 5, f);
    mxSetField(s, 0, "abi_version", num(ipt_version_abi()));
    mxSetField(s, 0, "api_version", num(ipt_version_api()));
    const uint32_t n = ipt_plugin_report_count(context());
    const char* pf[] = {"path", "source", "outcome", "error", "name", "version", "device_count", "device_note"};
    mxArray* p = mxCreateStructMatrix(1, n, 8, pf);
    for (uint32_t i = 0; i < n; ++i) {
        ipt_plugin_report r{};
        r.struct_size = sizeof r;
        check(ipt_plugin_report_get(context(), i, &r));
        mxSetField(p, i, "path", str(r.path));
        mxSetField(p, i, "source", str(r.source));
        mxSetField(p, i, "outcome", str(r.outcome == IPT_LOAD_LOADED      ? "loaded"
                                        : r.outcome == IPT_LOAD_DUPLICATE ? "duplicate"
                                                                          : "failed"));
        mxSetField(p, i, "error", str(r.error));
        mxSetField(p, i, "name", str(r.name));
        mxSetField(p, i, "version", str(r.version));
        mxSetField(p, i, "device_count", num(r.device_count));
        mxSetField(p, i, "device_note", str(r.device_note));
    }
    mxSetField(s, 0, "plugins", p);
    mxSetField(s, 0, "devices", devices_struct());
    mxSetField(s, 0, "device", num(g_device == IPT_DEVICE_ANY ? -1.0 : static_cast<double>(g_device)));
    return s;
}

mxArray* explain_struct() {
    ipt_dispatch_info di{};
    di.struct_size = sizeof di;
    if (ipt_last_dispatch(context(), &di) != IPT_OK) return mxCreateDoubleMatrix(0, 0, mxREAL);
    const char* f[] = {"op", "plugin", "variant", "device_id", "run_ms", "transfer_ms", "reason", "candidates"};
    mxArray* s = mxCreateStructMatrix(1, 1, 8, f);
    mxSetField(s, 0, "op", str(di.op));
    mxSetField(s, 0, "plugin", str(di.plugin));
    mxSetField(s, 0, "variant", str(di.variant));
    mxSetField(s, 0, "device_id", num(di.device_id));
    mxSetField(s, 0, "run_ms", num(di.run_ms));
    mxSetField(s, 0, "transfer_ms", num(di.transfer_ms));
    mxSetField(s, 0, "reason", str(di.reason));
    const uint32_t n = ipt_last_candidate_count(context());
    const char* cf[] = {"plugin", "variant", "device_id", "run_ms", "transfer_ms", "cost_ms", "chosen", "note"};
    mxArray* c = mxCreateStructMatrix(1, n, 8, cf);
    for (uint32_t i = 0; i < n; ++i) {
        ipt_candidate_info ci{};
        ci.struct_size = sizeof ci;
        if (ipt_last_candidate_get(context(), i, &ci) != IPT_OK) break;
        mxSetField(c, i, "plugin", str(ci.plugin));
        mxSetField(c, i, "variant", str(ci.variant));
        mxSetField(c, i, "device_id", num(ci.device_id));
        mxSetField(c, i, "run_ms", num(ci.run_ms));
        mxSetField(c, i, "transfer_ms", num(ci.transfer_ms));
        mxSetField(c, i, "cost_ms", num(ci.cost_ms));
        mxSetField(c, i, "chosen", mxCreateLogicalScalar(ci.chosen != 0));
        mxSetField(c, i, "note", str(ci.note));
    }
    mxSetField(s, 0, "candidates", c);
    return s;
}

void cmd_upload(int nlhs, mxArray* plhs[], int nrhs, const mxArray* prhs[]) {
    (void)nlhs;
    if (nrhs < 2) fail(IPT_ERR_INVALID_ARGUMENT, "upload: the image is missing");
    uint32_t dev = g_device;
    if (nrhs >= 3) dev = resolve_device(prhs[2]);
    if (dev == IPT_DEVICE_ANY) {  // the first device that is not the host
        for (const auto& d : device_list())
            if (d.id != IPT_DEVICE_HOST) { dev = d.id; break; }
        if (dev == IPT_DEVICE_ANY) fail(IPT_ERR_NOT_FOUND, "upload: no GPU device (openipt.devices() lists them)");
    }
    std::vector<Borrowed> keep;
    ipt_image* host = host_image(prhs[1], "upload: image", keep);
    ipt_image* img = nullptr;
    const ipt_status s = ipt_image_copy_to(context(), host, dev, &img);
    ipt_image_free(host);
    check(s);
    plhs[0] = new_handle(img);
}

mxArray* image_info_struct(const ipt_image* img) {
    ipt_image_info info{};
    info.struct_size = sizeof info;
    check(ipt_image_get_info(img, &info));
    const char* f[] = {"class", "size", "device_id"};
    mxArray* s = mxCreateStructMatrix(1, 1, 3, f);
    mxSetField(s, 0, "class", str(ipt_dtype_name(static_cast<ipt_dtype>(info.dtype))));
    mxArray* sz = mxCreateDoubleMatrix(1, info.channels > 1 ? 3 : 2, mxREAL);
    double* z = mxGetPr(sz);
    z[0] = static_cast<double>(info.rows);
    z[1] = static_cast<double>(info.cols);
    if (info.channels > 1) z[2] = static_cast<double>(info.channels);
    mxSetField(s, 0, "size", sz);
    mxSetField(s, 0, "device_id", num(info.device_id));
    return s;
}

// Times the layout conversion of A both ways and a plain copy of the same
// bytes: [to_row_major_s, to_column_major_s, memcpy_s], medians over reps of
// the thread's CPU time. The copy is timed in a loop of its own, so that it
// does not find its source where a conversion left it.
mxArray* layout_timing(const mxArray* a, int reps) {
    const Shape s = shape_of(a, "layout: A");
    if (reps < 1) fail(IPT_ERR_INVALID_ARGUMENT, "layout: reps must be positive");
    const size_t bytes = static_cast<size_t>(s.rows * s.cols * s.channels) * s.elem;
    Buffer x = aligned_buffer(bytes), y = aligned_buffer(bytes);
    if (bytes) std::memcpy(x.get(), mxGetData(a), bytes);
    std::vector<double> t[3];
    // CPU time of this thread: on a shared machine, time spent preempted is
    // not the conversion's.
    auto now = [] {
        timespec ts{};
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
        return static_cast<double>(ts.tv_sec) + 1e-9 * static_cast<double>(ts.tv_nsec);
    };
    for (int r = 0; r < reps + 3; ++r) {  // three warm-up rounds
        const double t0 = now();
        to_row_major(x.get(), y.get(), s.elem, s.rows, s.cols, s.channels);
        const double t1 = now();
        to_column_major(y.get(), x.get(), s.elem, s.rows, s.cols, s.channels);
        const double t2 = now();
        if (r < 3) continue;
        t[0].push_back(t1 - t0);
        t[1].push_back(t2 - t1);
    }
    for (int r = 0; r < reps + 3; ++r) {
        const double t0 = now();
        if (bytes) std::memcpy(y.get(), x.get(), bytes);
        const double t1 = now();
        if (r >= 3) t[2].push_back(t1 - t0);
    }
    mxArray* out = mxCreateDoubleMatrix(1, 3, mxREAL);
    for (int i = 0; i < 3; ++i) {
        std::sort(t[i].begin(), t[i].end());
        mxGetPr(out)[i] = t[i][t[i].size() / 2];
    }
    return out;
}

// The conversion itself, for the tests: A's planes transposed, once through
// to_row_major into a conversion buffer ('rows') and once through
// to_column_major straight into the result ('columns', reading A's bytes as
// row-major planes of size(A, 2) x size(A, 1)). Either way the result is
// permute(A, [2 1 3]).
mxArray* layout_transposed(const mxArray* a, const std::string& way) {
    if (way != "rows" && way != "columns")
        fail(IPT_ERR_INVALID_ARGUMENT, "layout: the third argument is reps, 'rows' or 'columns'");
    const Shape s = shape_of(a, "layout: A");
    const size_t bytes = static_cast<size_t>(s.rows * s.cols * s.channels) * s.elem;
    mwSize dims[3] = {static_cast<mwSize>(s.cols), static_cast<mwSize>(s.rows), static_cast<mwSize>(s.channels)};
    const mwSize nd = s.channels > 1 ? 3 : 2;
    mxArray* out = s.dtype == IPT_LOGICAL ? mxCreateLogicalArray(nd, dims)
                                          : mxCreateUninitNumericArray(nd, dims, mxGetClassID(a), mxREAL);
    if (bytes == 0) return out;
    if (way == "rows") {
        Borrowed buf(bytes);
        to_row_major(mxGetData(a), buf.get(), s.elem, s.rows, s.cols, s.channels);
        std::memcpy(mxGetData(out), buf.get(), bytes);
    } else {
        to_column_major(mxGetData(a), mxGetData(out), s.elem, s.cols, s.rows, s.channels);
    }
    return out;
}

void dispatch(int nlhs, mxArray* plhs[], int nrhs, const mxArray* prhs[]) {
    if (nrhs < 1) fail(IPT_ERR_INVALID_ARGUMENT, "openipt_mex: the command is missing");
    const std::string cmd = to_string(prhs[0], "openipt_mex: the command");
    if (cmd == "call") return cmd_call(nlhs, plhs, nrhs, prhs);
    if (cmd == "ops") { plhs[0] = ops_struct(); return; }
    if (cmd == "schema") {
        if (nrhs < 2) fail(IPT_ERR_INVALID_ARGUMENT, "schema: the operator name is missing");
        plhs[0] = schema_struct(find_op(to_string(prhs[1], "operator name")));
        return;
    }
    if (cmd == "devices") { plhs[0] = devices_struct(); return; }
    if (cmd == "info") { plhs[0] = info_struct(); return; }
    if (cmd == "explain") { plhs[0] = explain_struct(); return; }
    if (cmd == "device") {
        if (nrhs >= 2) {
            const uint32_t id = resolve_device(prhs[1]);
            check(ipt_set_device(context(), id));
            g_device = id;
        }
        plhs[0] = num(g_device == IPT_DEVICE_ANY ? -1.0 : static_cast<double>(g_device));
        return;
    }
    if (cmd == "upload") return cmd_upload(nlhs, plhs, nrhs, prhs);
    if (cmd == "download") {
        if (nrhs < 2) fail(IPT_ERR_INVALID_ARGUMENT, "download: the handle is missing");
        plhs[0] = to_matlab(lookup(prhs[1], "download: image"));
        return;
    }
    if (cmd == "imageinfo") {
        if (nrhs < 2) fail(IPT_ERR_INVALID_ARGUMENT, "imageinfo: the handle is missing");
        plhs[0] = image_info_struct(lookup(prhs[1], "imageinfo: image"));
        return;
    }
    if (cmd == "free") {
        if (nrhs < 2) fail(IPT_ERR_INVALID_ARGUMENT, "free: the handle is missing");
        auto it = g_images.find(handle_id(prhs[1], "free: image"));
        if (it != g_images.end()) {
            ipt_image_free(it->second);
            g_images.erase(it);
        }
        return;
    }
    if (cmd == "layout") {
        if (nrhs < 3) fail(IPT_ERR_INVALID_ARGUMENT, "layout: A and reps (or 'rows', 'columns') are needed");
        plhs[0] = mxIsChar(prhs[2]) ? layout_transposed(prhs[1], to_string(prhs[2], "layout: way"))
                                    : layout_timing(prhs[1], static_cast<int>(mxGetScalar(prhs[2])));
        return;
    }
    fail(IPT_ERR_INVALID_ARGUMENT, "openipt_mex: unknown command '" + cmd +
                                       "' (call, ops, schema, devices, info, explain, device, upload, download, "
                                       "imageinfo, free, layout)");
}

}  // namespace

void mexFunction(int nlhs, mxArray* plhs[], int nrhs, const mxArray* prhs[]) {
    std::string id, message;
    try {
        dispatch(nlhs, plhs, nrhs, prhs);
        return;
    } catch (const Error& e) {
        id = status_id(e.status);
        message = e.message;
    } catch (const std::bad_alloc&) {
        id = status_id(IPT_ERR_OUT_OF_MEMORY);
        message = "out of memory";
    } catch (const std::exception& e) {
        id = status_id(IPT_ERR_INTERNAL);
        message = e.what();
    } catch (...) {
        id = status_id(IPT_ERR_INTERNAL);
        message = "unknown error";
    }
    // Every object of the failed command is gone by now.
    mexErrMsgIdAndTxt(id.c_str(), "%s", message.c_str());
}
