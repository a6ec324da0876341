/* SPDX-License-Identifier: Apache-2.0 */
/*
 * OpenIPT operator catalogue: the built-in operators, their parameters,
 * accepted classes and MATLAB defaults, as data. This header is the one source
 * of truth: the registry validates calls against it, the CLI and `ipt info`
 * print it, conformance reads the comparison rule of each operator from it,
 * and a plugin that introduces an operator describes it with the same structs.
 *
 * Parameter names follow MathWorks' documentation of each function.
 */
#ifndef IPT_OPS_H
#define IPT_OPS_H

#include <float.h>

#include "ipt.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ipt_param_kind {
    IPT_PARAM_INPUT = 1,   /* input image */
    IPT_PARAM_OUTPUT = 2,  /* output image, allocated by the implementation */
    IPT_PARAM_INT = 3,     /* int64 */
    IPT_PARAM_FLOAT = 4,   /* double */
    IPT_PARAM_FLOATS = 5,  /* array of double */
    IPT_PARAM_ENUM = 6,    /* one of a list of strings */
    IPT_PARAM_KIND_MAX_ENUM = 0x7FFFFFFF
} ipt_param_kind;

/* dtype bit masks */
#define IPT_DT(d) (1u << (d))
#define IPT_DT_UNSIGNED (IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT(IPT_UINT32))
#define IPT_DT_INTEGER (IPT_DT_UNSIGNED | IPT_DT(IPT_INT16) | IPT_DT(IPT_INT32))
#define IPT_DT_FLOAT (IPT_DT(IPT_SINGLE) | IPT_DT(IPT_DOUBLE))
#define IPT_DT_NUMERIC (IPT_DT_INTEGER | IPT_DT_FLOAT)
#define IPT_DT_ALL (IPT_DT_NUMERIC | IPT_DT(IPT_LOGICAL))
#define IPT_DT_IMAGE (IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT(IPT_INT16) | IPT_DT_FLOAT)

/* Parameter flags. Each is a validation rule the registry applies. */
#define IPT_P_OPTIONAL 0x0001u  /* may be absent (no default) */
#define IPT_P_RGB 0x0002u       /* image: 1 or 3 channels (without it or IPT_P_PLANES, exactly 1) */
#define IPT_P_VECTOR 0x0004u    /* image: one row or one column */
#define IPT_P_NONEMPTY 0x0008u  /* image: rows >= 1 and cols >= 1 */
#define IPT_P_FINITE 0x0010u    /* number(s): no NaN or Inf */
#define IPT_P_INTEGRAL 0x0020u  /* number(s): whole values */
#define IPT_P_LUT 0x0040u       /* image: numel = number of values of ref's class (256 or 65536) */
#define IPT_P_HOST 0x0080u      /* image: a small parameter array the implementation reads on the host */
#define IPT_P_SAME_SIZE 0x0100u /* image: same rows, cols (and channels) as ref */
#define IPT_P_SAME_DTYPE 0x0200u /* image: same class as ref */
#define IPT_P_COUNT_IMAGES 0x0400u /* floats: count = number of images given, or one more */
#define IPT_P_ORDER_OF 0x0800u  /* int: 1 <= value <= nnz(ref) */
#define IPT_P_MAP 0x1000u       /* image: a colormap, n x 3 with n >= 1 */
#define IPT_P_PLANES 0x2000u    /* image: any number of channels (planes) >= 1; overrides IPT_P_RGB */

/* One parameter of an operator. It carries no struct_size: it travels only in
 * arrays whose container gives the stride (ipt_op_schema.param_stride). */
typedef struct ipt_param_schema {
    const char* name;
    int32_t kind;              /* ipt_param_kind */
    uint32_t dtypes;           /* images: accepted classes (outputs: possible classes) */
    uint32_t flags;            /* IPT_P_* */
    const char* values;        /* ENUM: "a|b|c"; INT: allowed values "4|8" or NULL */
    const char* default_text;  /* MATLAB default as text, NULL if none */
    double min_value;          /* numbers: inclusive bounds (each element of FLOATS) */
    double max_value;
    uint32_t min_count;        /* FLOATS: element count bounds */
    uint32_t max_count;
    const char* ref;           /* the other parameter a rule refers to */
    const char* doc;
} ipt_param_schema;

/* How the outputs of an operator are compared across backends. */
typedef enum ipt_compare_kind {
    IPT_CMP_EXACT = 1,      /* bit for bit (NaN matches NaN) */
    IPT_CMP_RANGE_EPS = 2,  /* |x - ref| <= tolerance * eps(class of x) * max(1, max|ref|) */
    IPT_CMP_CONV = 3,       /* |x - ref| <= tolerance * eps(class of x) * (|A| * |B|)(p) */
    IPT_CMP_BWDIST = 4,     /* D exact; IDX exact except at ties, where D(IDX) must match */
    IPT_COMPARE_KIND_MAX_ENUM = 0x7FFFFFFF
} ipt_compare_kind;

typedef struct ipt_op_schema {
    uint32_t struct_size;
    const char* name;          /* namespaced: "ipt.conv2" */
    const char* matlab;        /* the MATLAB function it follows */
    const char* summary;
    uint32_t param_count;
    uint32_t param_stride;     /* bytes from one parameter to the next: the writer's
                                  sizeof(ipt_param_schema); read them with ipt_op_param() */
    const ipt_param_schema* params;
    const char* alternatives;  /* "B|u,v": exactly one group of optional inputs is given */
    int32_t compare;           /* ipt_compare_kind, for floating outputs */
    double tolerance;
    const char* compare_doc;
    /* API version 3: how the operator splits into tiles (ipt_tiling) and its
     * rule (ipt_call_tiling evaluates it; docs/abi.md#tiling). A reader reads
     * them only when struct_size >= IPT_SIZE_THROUGH(ipt_op_schema, tiling_rule). */
    int32_t tiling;
    const char* tiling_rule;
} ipt_op_schema;

/* The least sizes a reader accepts: every field of API version 1. */
#define IPT_PARAM_SCHEMA_MIN_SIZE IPT_SIZE_THROUGH(ipt_param_schema, doc)
#define IPT_OP_SCHEMA_MIN_SIZE IPT_SIZE_THROUGH(ipt_op_schema, compare_doc)

/* How an operator's result over an image relates to its results over tiles
 * of the image (API version 3). */
typedef enum ipt_tiling {
    IPT_TILING_UNKNOWN = 0,   /* the operator does not say: not tiled */
    IPT_TILING_POINTWISE = 1, /* each output pixel from the same input pixel (halo 0) */
    IPT_TILING_WINDOW = 2,    /* each output pixel from a neighbourhood: tiles with a halo
                                 from tiling_rule, the operator's padding at the image edge */
    IPT_TILING_REDUCE = 3,    /* a map over tiles and an exact reduce (tiling_rule: how) */
    IPT_TILING_WHOLE = 4,     /* needs the whole image (tiling_rule: why) */
    IPT_TILING_MAX_ENUM = 0x7FFFFFFF
} ipt_tiling;

/* The tiling of one prepared call (ipt_call_tiling). */
typedef struct ipt_tiling_info {
    uint32_t struct_size;
    int32_t tiling;       /* ipt_tiling; WHOLE when a condition of the rule fails */
    int64_t halo_rows;    /* rows each tile needs beyond its edge, above and below */
    int64_t halo_cols;    /* columns each tile needs beyond its edge, left and right */
    const char* reason;   /* why not tiled (UNKNOWN, WHOLE, a failed condition), how
                             reduced (REDUCE), "" otherwise; valid until the call is
                             freed or asked again */
} ipt_tiling_info;

/* Evaluates the operator's tiling rule against the parameters and the small
 * images (kernel, neighbourhood) set on the call so far; the tiled image
 * itself need not be set. IPT_ERR_PLUGIN when the operator's rule is
 * malformed, IPT_ERR_INVALID_ARGUMENT when a parameter it reads is invalid. */
IPT_API ipt_status ipt_call_tiling(ipt_call* call, ipt_tiling_info* out);

/* The index-th parameter of an operator, whatever the size of ipt_param_schema
 * in the header its writer was built with. */
static inline const ipt_param_schema* ipt_op_param(const ipt_op_schema* op, uint32_t index) {
    return (const ipt_param_schema*)((const char*)op->params + (size_t)index * op->param_stride);
}

/* Helpers to write schemas as short positional initialisers. IPT_PARAMS(a)
 * gives the count, stride and address of a parameter array, in that order. */
#define IPT_IN(name, dtypes, flags, ref, doc) \
    { name, IPT_PARAM_INPUT, dtypes, flags, NULL, NULL, 0, 0, 0, 0, ref, doc }
#define IPT_OUT(name, dtypes, flags, doc) \
    { name, IPT_PARAM_OUTPUT, dtypes, flags, NULL, NULL, 0, 0, 0, 0, NULL, doc }
#define IPT_INT(name, flags, values, def, lo, hi, ref, doc) \
    { name, IPT_PARAM_INT, 0, flags, values, def, lo, hi, 0, 0, ref, doc }
#define IPT_FLOAT(name, flags, def, lo, hi, doc) \
    { name, IPT_PARAM_FLOAT, 0, flags, NULL, def, lo, hi, 0, 0, NULL, doc }
#define IPT_FLOATS(name, flags, def, lo, hi, nmin, nmax, doc) \
    { name, IPT_PARAM_FLOATS, 0, flags, NULL, def, lo, hi, nmin, nmax, NULL, doc }
#define IPT_ENUM(name, flags, values, def, doc) \
    { name, IPT_PARAM_ENUM, 0, flags, values, def, 0, 0, 0, 0, NULL, doc }
#define IPT_COUNT_OF(a) ((uint32_t)(sizeof(a) / sizeof((a)[0])))
#define IPT_PARAMS(a) IPT_COUNT_OF(a), (uint32_t)sizeof((a)[0]), (a)
/* "no bound": range checks apply to finite values only */
#define IPT_UNBOUNDED DBL_MAX

/* ---------------------------------------------------------------------- */
/* The built-in catalogue.                                                 */
/* ---------------------------------------------------------------------- */

static const ipt_param_schema ipt_intlut_params[] = {
    IPT_IN("A", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT(IPT_INT16), IPT_P_RGB, NULL,
           "image"),
    IPT_IN("LUT", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT(IPT_INT16),
           IPT_P_VECTOR | IPT_P_LUT | IPT_P_SAME_DTYPE, "A",
           "lookup table: 256 entries for uint8, 65536 for uint16 and int16 (indexed from -32768)"),
    IPT_OUT("B", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT(IPT_INT16), 0,
            "LUT(A+1), class and size of A"),
};

static const ipt_param_schema ipt_stretchlim_params[] = {
    IPT_IN("I", IPT_DT_ALL, IPT_P_RGB, NULL, "image"),
    IPT_FLOATS("tol", IPT_P_FINITE, "[0.01 0.99]", 0, 1, 1, 2,
               "[low_fract high_fract]; a scalar t means [t 1-t]"),
    IPT_OUT("LOWHIGH", IPT_DT(IPT_DOUBLE), 0, "2 x channels, limits on the [0,1] scale"),
};

static const ipt_param_schema ipt_imadjust_params[] = {
    IPT_IN("I", IPT_DT_IMAGE, IPT_P_RGB, NULL, "image"),
    IPT_FLOATS("low_high_in", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 0, 1, 2, 6,
               "[low_in high_in] (or 2 x 3 for RGB, column per channel); default stretchlim(I)"),
    IPT_FLOATS("low_high_out", IPT_P_FINITE, "[0 1]", 0, 1, 2, 6,
               "[low_out high_out]; low_out > high_out inverts"),
    IPT_FLOATS("gamma", IPT_P_FINITE, "1", 0, IPT_UNBOUNDED, 1, 3, "shape of the curve, one per channel or one"),
    IPT_OUT("J", IPT_DT_IMAGE, 0, "class and size of I"),
};

static const ipt_param_schema ipt_imlincomb_params[] = {
    IPT_FLOATS("K", IPT_P_COUNT_IMAGES, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED, 1, 9,
               "K1..Kn, then optionally the offset K"),
    IPT_IN("A1", IPT_DT_ALL, IPT_P_RGB, NULL, "first image"),
    IPT_IN("A2", IPT_DT_ALL, IPT_P_OPTIONAL | IPT_P_RGB | IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE, "A1", "image"),
    IPT_IN("A3", IPT_DT_ALL, IPT_P_OPTIONAL | IPT_P_RGB | IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE, "A1", "image"),
    IPT_IN("A4", IPT_DT_ALL, IPT_P_OPTIONAL | IPT_P_RGB | IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE, "A1", "image"),
    IPT_IN("A5", IPT_DT_ALL, IPT_P_OPTIONAL | IPT_P_RGB | IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE, "A1", "image"),
    IPT_IN("A6", IPT_DT_ALL, IPT_P_OPTIONAL | IPT_P_RGB | IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE, "A1", "image"),
    IPT_IN("A7", IPT_DT_ALL, IPT_P_OPTIONAL | IPT_P_RGB | IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE, "A1", "image"),
    IPT_IN("A8", IPT_DT_ALL, IPT_P_OPTIONAL | IPT_P_RGB | IPT_P_SAME_SIZE | IPT_P_SAME_DTYPE, "A1", "image"),
    IPT_ENUM("outclass", 0, "default|uint8|uint16|int16|int32|uint32|single|double", "default",
             "class of Z; default: class of A1 (double when A1 is logical)"),
    IPT_OUT("Z", IPT_DT_NUMERIC, 0, "sum in double, rounded once"),
};

static const ipt_param_schema ipt_edge_params[] = {
    IPT_IN("I", IPT_DT_IMAGE | IPT_DT(IPT_LOGICAL), 0, NULL, "grayscale image"),
    IPT_ENUM("method", 0, "sobel|prewitt|roberts|log|zerocross|canny", "sobel", "edge detector"),
    IPT_FLOATS("threshold", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 0, IPT_UNBOUNDED, 1, 2,
               "sensitivity; [low high] for canny; absent: automatic"),
    IPT_ENUM("direction", 0, "both|horizontal|vertical", "both", "sobel, prewitt, roberts"),
    IPT_ENUM("thinning", 0, "thinning|nothinning", "thinning", "sobel, prewitt, roberts"),
    IPT_FLOAT("sigma", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 1e-6, IPT_UNBOUNDED,
              "log (default 2) and canny (default sqrt(2))"),
    IPT_IN("h", IPT_DT_FLOAT, IPT_P_OPTIONAL | IPT_P_NONEMPTY | IPT_P_HOST, NULL,
           "zerocross filter"),
    IPT_OUT("BW", IPT_DT(IPT_LOGICAL), 0, "edges"),
    IPT_OUT("thresh", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL, "threshold used (1x2 for canny)"),
};

static const ipt_param_schema ipt_imregionalmax_params[] = {
    IPT_IN("I", IPT_DT_ALL, 0, NULL, "image"),
    IPT_INT("conn", 0, "4|8", "8", 4, 8, NULL, "connectivity"),
    IPT_OUT("BW", IPT_DT(IPT_LOGICAL), 0, "pixels of regional maxima"),
};

static const ipt_param_schema ipt_ordfilt2_params[] = {
    IPT_IN("A", IPT_DT_ALL, 0, NULL, "image"),
    IPT_INT("order", IPT_P_ORDER_OF, NULL, NULL, 1, 1e18, "domain",
            "which order statistic, 1-based, at most nnz(domain)"),
    IPT_IN("domain", IPT_DT(IPT_LOGICAL), IPT_P_NONEMPTY | IPT_P_HOST, NULL, "neighbourhood"),
    IPT_IN("S", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL | IPT_P_HOST | IPT_P_SAME_SIZE, "domain",
           "additive offsets"),
    IPT_ENUM("padopt", 0, "zeros|symmetric", "zeros", "border"),
    IPT_OUT("B", IPT_DT_ALL, 0, "class of A (double when S is given)"),
};

static const ipt_param_schema ipt_medfilt2_params[] = {
    IPT_IN("A", IPT_DT_ALL, 0, NULL, "image"),
    IPT_FLOATS("size", IPT_P_FINITE | IPT_P_INTEGRAL, "[3 3]", 1, 4096, 2, 2, "[m n]"),
    IPT_ENUM("padopt", 0, "zeros|symmetric|indexed", "zeros", "border"),
    IPT_OUT("B", IPT_DT_ALL, 0, "class of A"),
};

static const ipt_param_schema ipt_conv2_params[] = {
    IPT_IN("A", IPT_DT_FLOAT, 0, NULL, "image"),
    IPT_IN("B", IPT_DT_FLOAT, IPT_P_OPTIONAL, NULL, "kernel"),
    IPT_IN("u", IPT_DT_FLOAT, IPT_P_OPTIONAL | IPT_P_VECTOR, NULL,
           "column kernel of conv2(u,v,A)"),
    IPT_IN("v", IPT_DT_FLOAT, IPT_P_OPTIONAL | IPT_P_VECTOR, NULL, "row kernel of conv2(u,v,A)"),
    IPT_ENUM("shape", 0, "full|same|valid", "full", "part of the convolution returned"),
    IPT_OUT("C", IPT_DT_FLOAT, 0, "single when every input is single, else double"),
};

static const ipt_param_schema ipt_imfilter_params[] = {
    IPT_IN("A", IPT_DT_ALL, IPT_P_RGB, NULL, "image"),
    IPT_IN("h", IPT_DT_FLOAT, IPT_P_NONEMPTY, NULL, "filter"),
    IPT_ENUM("boundary", 0, "constant|symmetric|replicate|circular", "constant",
             "padding; constant uses X"),
    IPT_FLOAT("X", 0, "0", -IPT_UNBOUNDED, IPT_UNBOUNDED, "pad value for boundary=constant"),
    IPT_ENUM("output", 0, "same|full", "same", "size of B"),
    IPT_ENUM("mode", 0, "corr|conv", "corr", "correlation or convolution"),
    IPT_OUT("B", IPT_DT_ALL, 0, "class of A; integers rounded half away and saturated"),
};

static const ipt_param_schema ipt_fspecial_params[] = {
    IPT_ENUM("type", 0, "average|disk|gaussian|laplacian|log|motion|prewitt|sobel|unsharp",
             NULL, "filter"),
    IPT_FLOATS("hsize", IPT_P_OPTIONAL | IPT_P_FINITE | IPT_P_INTEGRAL, NULL, 1, 4096, 1, 2,
               "average (default 3), gaussian (3), log (5)"),
    IPT_FLOAT("sigma", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 1e-300, IPT_UNBOUNDED,
              "gaussian and log (default 0.5)"),
    IPT_FLOAT("alpha", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 0, 1, "laplacian, unsharp (default 0.2)"),
    IPT_FLOAT("radius", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 0, 4096, "disk (default 5)"),
    IPT_FLOAT("len", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 0, 4096, "motion (default 9)"),
    IPT_FLOAT("theta", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED,
              "motion, degrees (default 0)"),
    IPT_OUT("h", IPT_DT(IPT_DOUBLE), 0, "filter"),
};

static const ipt_param_schema ipt_mean2_params[] = {
    IPT_IN("A", IPT_DT_ALL, IPT_P_RGB, NULL, "image"),
    IPT_OUT("m", IPT_DT_FLOAT, 0, "1x1; single for single A, else double"),
};

static const ipt_param_schema ipt_strel_params[] = {
    IPT_ENUM("shape", 0, "square|rectangle|diamond|octagon|line|disk|periodicline|arbitrary",
             NULL, "structuring element"),
    IPT_INT("w", IPT_P_OPTIONAL, NULL, NULL, 0, 1e6, NULL, "square: width"),
    IPT_FLOATS("size", IPT_P_OPTIONAL | IPT_P_FINITE | IPT_P_INTEGRAL, NULL, 0, 1e6, 2, 2,
               "rectangle: [m n]"),
    IPT_INT("r", IPT_P_OPTIONAL, NULL, NULL, 0, 1e6, NULL,
            "diamond, octagon (multiple of 3), disk: radius"),
    IPT_INT("n", 0, "0|4|6|8", "4", 0, 8, NULL, "disk: number of periodic lines"),
    IPT_FLOAT("len", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 0, 1e6, "line: length"),
    IPT_FLOAT("deg", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED,
              "line: angle in degrees"),
    IPT_INT("P", IPT_P_OPTIONAL, NULL, NULL, 0, 1e6, NULL, "periodicline: 2P+1 points"),
    IPT_FLOATS("V", IPT_P_OPTIONAL | IPT_P_FINITE | IPT_P_INTEGRAL, NULL, -1e6, 1e6, 2, 2,
               "periodicline: [row col] step"),
    IPT_IN("nhood_in", IPT_DT(IPT_LOGICAL), IPT_P_OPTIONAL | IPT_P_HOST, NULL,
           "arbitrary: the neighbourhood"),
    IPT_OUT("nhood", IPT_DT(IPT_LOGICAL), 0, "neighbourhood, centre at floor((size+1)/2)"),
    IPT_OUT("decomposition", IPT_DT(IPT_LOGICAL), IPT_P_OPTIONAL,
            "one channel per factor, each of the size of nhood; dilating by each in turn "
            "equals dilating by nhood"),
};

static const ipt_param_schema ipt_imdilate_params[] = {
    IPT_IN("A", IPT_DT_ALL, 0, NULL, "image"),
    IPT_IN("nhood", IPT_DT(IPT_LOGICAL), IPT_P_HOST, NULL, "structuring element neighbourhood"),
    IPT_IN("heights", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL | IPT_P_HOST | IPT_P_SAME_SIZE, "nhood",
           "non-flat structuring element heights"),
    IPT_OUT("B", IPT_DT_ALL, 0, "class of A"),
};

static const ipt_param_schema ipt_bwdist_params[] = {
    IPT_IN("BW", IPT_DT_ALL, 0, NULL, "nonzero pixels are the features"),
    IPT_ENUM("method", 0, "euclidean|cityblock|chessboard|quasi-euclidean", "euclidean",
             "distance metric"),
    IPT_OUT("D", IPT_DT(IPT_SINGLE), 0, "distance to the nearest nonzero pixel"),
    IPT_OUT("IDX", IPT_DT(IPT_UINT32), IPT_P_OPTIONAL,
            "1-based column-major linear index of that pixel (0 when none)"),
};

static const ipt_param_schema ipt_radon_params[] = {
    IPT_IN("I", IPT_DT_ALL, 0, NULL, "image"),
    IPT_FLOATS("theta", IPT_P_FINITE, "0:179", -IPT_UNBOUNDED, IPT_UNBOUNDED, 1, 1u << 20,
               "projection angles in degrees"),
    IPT_OUT("R", IPT_DT(IPT_DOUBLE), 0, "one column per angle"),
    IPT_OUT("xp", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL, "radial coordinates, a column"),
};

static const ipt_param_schema ipt_dither_params[] = {
    IPT_IN("I", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT_FLOAT, IPT_P_RGB, NULL,
           "grayscale image, or RGB image when map is given"),
    IPT_IN("map", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL | IPT_P_HOST | IPT_P_MAP, NULL,
           "colormap, n x 3 in [0,1]"),
    IPT_INT("Qm", 0, NULL, "5", 1, 16, NULL, "bits per axis of the inverse colormap"),
    IPT_INT("Qe", 0, NULL, "8", 1, 16, NULL, "bits of the colour error"),
    IPT_OUT("X", IPT_DT(IPT_LOGICAL) | IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16), 0,
            "logical without map; zero-based indices with one"),
};

/* Image class conversions: im2double, im2single, im2uint8, im2uint16, im2int16. */
#define IPT_DT_IM2CLASS (IPT_DT(IPT_LOGICAL) | IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT(IPT_INT16) | IPT_DT_FLOAT)
static const ipt_param_schema ipt_im2double_params[] = {
    IPT_IN("I", IPT_DT_IM2CLASS, IPT_P_RGB, NULL, "grayscale, RGB or binary image"),
    IPT_OUT("J", IPT_DT(IPT_DOUBLE), 0, "integers scaled to [0,1]; single and double as they are"),
};
static const ipt_param_schema ipt_im2single_params[] = {
    IPT_IN("I", IPT_DT_IM2CLASS, IPT_P_RGB, NULL, "grayscale, RGB or binary image"),
    IPT_OUT("J", IPT_DT(IPT_SINGLE), 0, "integers scaled to [0,1]; single and double as they are"),
};
static const ipt_param_schema ipt_im2uint8_params[] = {
    IPT_IN("I", IPT_DT_IM2CLASS, IPT_P_RGB, NULL, "grayscale, RGB or binary image"),
    IPT_OUT("J", IPT_DT(IPT_UINT8), 0, "uint8(255*I) for single and double, rescaled integers, 255 for true"),
};
static const ipt_param_schema ipt_im2uint16_params[] = {
    IPT_IN("I", IPT_DT_IM2CLASS, IPT_P_RGB, NULL, "grayscale, RGB or binary image"),
    IPT_OUT("J", IPT_DT(IPT_UINT16), 0, "uint16(65535*I) for single and double, rescaled integers, 65535 for true"),
};
static const ipt_param_schema ipt_im2int16_params[] = {
    IPT_IN("I", IPT_DT_IM2CLASS, IPT_P_RGB, NULL, "grayscale, RGB or binary image"),
    IPT_OUT("J", IPT_DT(IPT_INT16), 0,
            "uint16(65535*I) - 32768 for single and double, rescaled integers, -32768 and 32767 for logical"),
};

/* Intensity conversions: imcomplement, mat2gray, rgb2gray. */
static const ipt_param_schema ipt_imcomplement_params[] = {
    IPT_IN("I", IPT_DT_ALL, IPT_P_RGB, NULL, "image"),
    IPT_OUT("J", IPT_DT_ALL, 0,
            "class and size of I: ~I (logical), intmax-I (unsigned), -1-I (signed), 1-I (floating)"),
};

static const ipt_param_schema ipt_mat2gray_params[] = {
    IPT_IN("A", IPT_DT_ALL, IPT_P_RGB, NULL, "matrix"),
    IPT_FLOATS("limits", IPT_P_OPTIONAL, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED, 2, 2,
               "[amin amax], the values of A that become 0 and 1; default [min(A(:)) max(A(:))]"),
    IPT_OUT("I", IPT_DT(IPT_DOUBLE), 0, "double in [0,1], size of A"),
};

static const ipt_param_schema ipt_rgb2gray_params[] = {
    IPT_IN("RGB", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT_FLOAT, IPT_P_RGB, NULL,
           "truecolor image, m x n x 3"),
    IPT_OUT("I", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT_FLOAT, 0,
            "m x n, class of RGB: 0.298936021293775 R + 0.587043074451121 G + 0.114020904255103 B"),
};

/* Colour spaces: rgb2hsv, hsv2rgb, rgb2ycbcr, ycbcr2rgb. Each takes an
 * m x n x 3 image or a c x 3 colormap (one channel, three columns). */
static const ipt_param_schema ipt_rgb2hsv_params[] = {
    IPT_IN("RGB", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT_FLOAT, IPT_P_RGB, NULL,
           "m x n x 3 RGB image, or c x 3 colormap (double)"),
    IPT_OUT("HSV", IPT_DT_FLOAT, 0, "hue, saturation, value in [0,1]; single for single input, else double"),
};

static const ipt_param_schema ipt_hsv2rgb_params[] = {
    IPT_IN("HSV", IPT_DT_FLOAT | IPT_DT(IPT_LOGICAL), IPT_P_RGB, NULL,
           "m x n x 3 HSV image, or c x 3 colormap"),
    IPT_OUT("RGB", IPT_DT_FLOAT, 0, "class of HSV (double for logical)"),
};

static const ipt_param_schema ipt_rgb2ycbcr_params[] = {
    IPT_IN("RGB", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT_FLOAT, IPT_P_RGB, NULL,
           "m x n x 3 RGB image, or c x 3 colormap"),
    IPT_OUT("YCBCR", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT_FLOAT, 0,
            "BT.601 Y in [16,235], Cb and Cr in [16,240] (scaled to the class); class of RGB"),
};

static const ipt_param_schema ipt_ycbcr2rgb_params[] = {
    IPT_IN("YCBCR", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT_FLOAT, IPT_P_RGB, NULL,
           "m x n x 3 YCbCr image, or c x 3 colormap"),
    IPT_OUT("RGB", IPT_DT(IPT_UINT8) | IPT_DT(IPT_UINT16) | IPT_DT_FLOAT, 0,
            "class of YCBCR; floating values clamped to [0,1]"),
};

/* Geometric transformations: imresize. */
static const ipt_param_schema ipt_imresize_params[] = {
    IPT_IN("A", IPT_DT_ALL, IPT_P_PLANES | IPT_P_NONEMPTY, NULL,
           "image of any number of planes, each resized alike; logical is resized as uint8 0/255, then > 128"),
    IPT_FLOATS("Scale", IPT_P_FINITE, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED, 1, 2,
               "positive resize factor, or [row_scale col_scale]; B has ceil(Scale .* size(A)) pixels"),
    IPT_FLOATS("OutputSize", IPT_P_INTEGRAL, NULL, 1, 2147483647.0, 2, 2,
               "[numrows numcols], positive integers; one may be NaN to keep the aspect ratio"),
    IPT_ENUM("method", 0, "nearest|bilinear|bicubic|box|triangle|cubic|lanczos2|lanczos3", "bicubic",
             "interpolation kernel; bilinear is triangle and bicubic is cubic"),
    IPT_INT("Antialiasing", IPT_P_OPTIONAL, "0|1", NULL, 0, 1, NULL,
            "widen the kernel when shrinking; default true, false for nearest"),
    IPT_OUT("B", IPT_DT_ALL, 0, "class of A"),
};

/* Gradients: imgradientxy, imgradient. */
static const ipt_param_schema ipt_imgradientxy_params[] = {
    IPT_IN("I", IPT_DT_ALL, 0, NULL, "2-D grayscale or binary image"),
    IPT_ENUM("method", 0, "sobel|prewitt|central|intermediate", "sobel", "gradient operator"),
    IPT_OUT("Gx", IPT_DT_FLOAT, 0, "gradient along x (columns); single for single I, else double"),
    IPT_OUT("Gy", IPT_DT_FLOAT, IPT_P_OPTIONAL, "gradient along y (rows, downwards); class of Gx"),
};

static const ipt_param_schema ipt_imgradient_params[] = {
    IPT_IN("I", IPT_DT_ALL, 0, NULL, "2-D grayscale or binary image"),
    IPT_ENUM("method", 0, "sobel|prewitt|central|intermediate|roberts", "sobel", "gradient operator"),
    IPT_OUT("Gmag", IPT_DT_FLOAT, 0, "hypot(Gx, Gy); single for single I, else double"),
    IPT_OUT("Gdir", IPT_DT_FLOAT, IPT_P_OPTIONAL,
            "degrees in [-180, 180] counter-clockwise from the x axis; class of Gmag (double for roberts)"),
};

/* Padding and cropping: padarray, imcrop. */
static const ipt_param_schema ipt_padarray_params[] = {
    IPT_IN("A", IPT_DT_ALL, IPT_P_RGB, NULL, "array; the planes of an RGB image are padded alike"),
    IPT_FLOATS("padsize", IPT_P_FINITE | IPT_P_INTEGRAL, NULL, 0, 16777216, 1, 3,
               "[rows cols] of padding; a scalar pads rows only; a third element must be 0"),
    IPT_ENUM("method", 0, "constant|circular|replicate|symmetric", "constant",
             "constant pads with padval; symmetric mirrors with the edge repeated"),
    IPT_FLOAT("padval", 0, "0", -IPT_UNBOUNDED, IPT_UNBOUNDED,
              "pad value for method=constant, converted to the class of A"),
    IPT_ENUM("direction", 0, "both|pre|post", "both", "where the padding goes along each dimension"),
    IPT_OUT("B", IPT_DT_ALL, 0, "class of A"),
};

static const ipt_param_schema ipt_imcrop_params[] = {
    IPT_IN("I", IPT_DT_ALL, IPT_P_RGB, NULL, "image"),
    IPT_FLOATS("rect", IPT_P_FINITE, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED, 4, 4,
               "[xmin ymin width height] in spatial coordinates (pixel centres at integers)"),
    IPT_OUT("J", IPT_DT_ALL, 0,
            "class of I: the pixels the rectangle touches; [] (0x0 double) when it misses I"),
};

/* Smoothing filters: imgaussfilt, imboxfilt, integralImage. */
static const ipt_param_schema ipt_imgaussfilt_params[] = {
    IPT_IN("A", IPT_DT_NUMERIC, IPT_P_RGB, NULL, "image (each plane filtered alike)"),
    IPT_FLOATS("sigma", IPT_P_FINITE, "0.5", 1e-300, IPT_UNBOUNDED, 1, 2,
               "standard deviation, scalar or [rows cols]"),
    IPT_FLOATS("FilterSize", IPT_P_OPTIONAL | IPT_P_FINITE | IPT_P_INTEGRAL, NULL, 1, 4097, 1, 2,
               "odd, scalar or [rows cols]; default 2*ceil(2*sigma)+1"),
    IPT_ENUM("Padding", 0, "replicate|circular|symmetric|constant", "replicate",
             "padding; constant uses X (MATLAB: a numeric Padding)"),
    IPT_FLOAT("X", 0, "0", -IPT_UNBOUNDED, IPT_UNBOUNDED, "pad value for Padding=constant"),
    IPT_ENUM("FilterDomain", 0, "auto|spatial|frequency", "auto", "always computed spatially (the same filter)"),
    IPT_OUT("B", IPT_DT_NUMERIC, 0, "class and size of A; integers rounded half away and saturated"),
};

static const ipt_param_schema ipt_imboxfilt_params[] = {
    IPT_IN("A", IPT_DT_NUMERIC, IPT_P_RGB, NULL, "image (each plane filtered alike)"),
    IPT_FLOATS("filterSize", IPT_P_FINITE | IPT_P_INTEGRAL, "3", 1, 4097, 1, 2, "odd, scalar or [rows cols]"),
    IPT_ENUM("Padding", 0, "replicate|circular|symmetric|constant", "replicate",
             "padding; constant uses X (MATLAB: a numeric Padding)"),
    IPT_FLOAT("X", 0, "0", -IPT_UNBOUNDED, IPT_UNBOUNDED, "pad value for Padding=constant"),
    IPT_FLOAT("NormalizationFactor", IPT_P_OPTIONAL, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED,
              "factor of the window sums; default 1/prod(filterSize)"),
    IPT_OUT("B", IPT_DT_NUMERIC, 0, "class and size of A; integers rounded half away and saturated"),
};

static const ipt_param_schema ipt_integralimage_params[] = {
    IPT_IN("I", IPT_DT_ALL, IPT_P_RGB, NULL, "image (each plane alike)"),
    IPT_ENUM("orientation", 0, "upright|rotated", "upright", "upright or 45-degree rotated sums"),
    IPT_OUT("J", IPT_DT(IPT_DOUBLE), 0, "double; (m+1) x (n+1) upright, (m+1) x (n+2) rotated"),
};

/* Histograms and thresholds: imhist, otsuthresh, graythresh, histeq. */
static const ipt_param_schema ipt_imhist_params[] = {
    IPT_IN("I", IPT_DT_ALL, IPT_P_RGB, NULL, "grayscale or binary image; every element is counted"),
    IPT_INT("n", IPT_P_OPTIONAL, NULL, NULL, 1, 16777216, NULL,
            "number of bins; default 256 (2 for logical, which allows only 2)"),
    IPT_OUT("counts", IPT_DT(IPT_DOUBLE), 0, "n x 1 histogram counts"),
    IPT_OUT("binLocations", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL,
            "n x 1 bin locations, linspace over the class's range"),
};

static const ipt_param_schema ipt_otsuthresh_params[] = {
    IPT_IN("counts", IPT_DT_NUMERIC, IPT_P_VECTOR | IPT_P_NONEMPTY | IPT_P_HOST, NULL,
           "histogram counts, nonnegative and finite"),
    IPT_OUT("T", IPT_DT(IPT_DOUBLE), 0, "1 x 1 threshold in [0,1]"),
    IPT_OUT("EM", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL, "1 x 1 effectiveness metric in [0,1]"),
};

static const ipt_param_schema ipt_graythresh_params[] = {
    IPT_IN("I", IPT_DT_IMAGE, IPT_P_RGB, NULL, "image; every element is counted"),
    IPT_OUT("T", IPT_DT(IPT_DOUBLE), 0, "1 x 1 Otsu threshold of imhist(im2uint8(I), 256), in [0,1]"),
    IPT_OUT("EM", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL, "1 x 1 effectiveness metric in [0,1]"),
};

static const ipt_param_schema ipt_histeq_params[] = {
    IPT_IN("I", IPT_DT_IMAGE, IPT_P_RGB, NULL, "grayscale image; every element is counted and mapped"),
    IPT_INT("n", IPT_P_OPTIONAL, NULL, NULL, 1, 65536, NULL,
            "number of equally filled output levels; default 64 when hgram is not given"),
    IPT_FLOATS("hgram", IPT_P_OPTIONAL, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED, 1, 65536,
               "target histogram over equally spaced levels of the class's range (instead of n)"),
    IPT_OUT("J", IPT_DT_IMAGE, 0, "class and size of I"),
    IPT_OUT("T", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL, "1 x 256 gray-level transformation, values in [0,1]"),
};

/* Rotation, translation and geometric warps: imrotate, imtranslate, imwarp. */
static const ipt_param_schema ipt_imrotate_params[] = {
    IPT_IN("I", IPT_DT_ALL, IPT_P_RGB, NULL, "image; the planes of an RGB image are rotated alike"),
    IPT_FLOAT("angle", IPT_P_FINITE, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED,
              "degrees counter-clockwise; multiples of 90 are exact"),
    IPT_ENUM("method", 0, "nearest|bilinear|bicubic", "nearest", "interpolation"),
    IPT_ENUM("bbox", 0, "loose|crop", "loose", "loose: J holds all of the rotated image; crop: the size of I"),
    IPT_OUT("J", IPT_DT_ALL, 0, "class of I; 0 outside the rotated image"),
};

static const ipt_param_schema ipt_imtranslate_params[] = {
    IPT_IN("A", IPT_DT_ALL, IPT_P_RGB, NULL, "image; the planes of an RGB image are translated alike"),
    IPT_FLOATS("translation", IPT_P_FINITE, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED, 2, 2,
               "[TX TY]: columns right, rows down; may be fractional"),
    IPT_ENUM("method", 0, "nearest|linear|cubic", "linear", "interpolation"),
    IPT_ENUM("OutputView", 0, "same|full", "same", "same: the size of A; full: all of the translated image"),
    IPT_FLOATS("FillValues", IPT_P_FINITE, "0", -IPT_UNBOUNDED, IPT_UNBOUNDED, 1, 3,
               "value outside A, scalar or one per plane"),
    IPT_OUT("B", IPT_DT_ALL, 0, "class of A"),
};

static const ipt_param_schema ipt_imwarp_params[] = {
    IPT_IN("A", IPT_DT_ALL, IPT_P_RGB, NULL, "image; the planes of an RGB image are warped alike"),
    IPT_FLOATS("T", IPT_P_FINITE, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED, 9, 9,
               "3x3 matrix of affine2d or projective2d, row by row: [x y w] = [u v 1] * T; "
               "affine when the last column is [0;0;1]; must be invertible"),
    IPT_ENUM("interp", 0, "nearest|linear|cubic", "linear", "interpolation"),
    IPT_FLOATS("OutputView", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, -IPT_UNBOUNDED, IPT_UNBOUNDED, 6, 6,
               "imref2d as [numrows numcols xmin xmax ymin ymax] (world limits); default: the bounds "
               "of the transformed image on A's pixel grid"),
    IPT_FLOATS("FillValues", IPT_P_FINITE, "0", -IPT_UNBOUNDED, IPT_UNBOUNDED, 1, 3,
               "value outside A, scalar or one per plane"),
    IPT_INT("SmoothEdges", 0, "0|1", "0", 0, 1, NULL,
            "0: a sample beyond A's outermost pixel centres is the fill value; "
            "1: A is padded with the fill value first, so its edges blend into it"),
    IPT_OUT("B", IPT_DT_ALL, 0, "class of A"),
    IPT_OUT("RB", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL,
            "1 x 6 spatial referencing of B: [numrows numcols xmin xmax ymin ymax]"),
};

/* Neighbourhood statistics: stdfilt, rangefilt, entropyfilt. */
static const ipt_param_schema ipt_stdfilt_params[] = {
    IPT_IN("I", IPT_DT_ALL, IPT_P_RGB, NULL, "image (each plane alike)"),
    IPT_IN("nhood", IPT_DT(IPT_LOGICAL), IPT_P_OPTIONAL | IPT_P_NONEMPTY | IPT_P_HOST, NULL,
           "neighbourhood, odd in each dimension; default true(3)"),
    IPT_OUT("J", IPT_DT_FLOAT, 0, "local standard deviation (n-1 normalisation, symmetric padding)"),
};

static const ipt_param_schema ipt_rangefilt_params[] = {
    IPT_IN("I", IPT_DT_ALL, IPT_P_RGB, NULL, "image (each plane alike)"),
    IPT_IN("nhood", IPT_DT(IPT_LOGICAL), IPT_P_OPTIONAL | IPT_P_NONEMPTY | IPT_P_HOST, NULL,
           "neighbourhood; default true(3)"),
    IPT_OUT("J", IPT_DT_ALL, 0,
            "local max minus local min; class of I, the unsigned class for int16 and int32"),
};

static const ipt_param_schema ipt_entropyfilt_params[] = {
    IPT_IN("I", IPT_DT_ALL, IPT_P_RGB, NULL, "image (each plane alike)"),
    IPT_IN("nhood", IPT_DT(IPT_LOGICAL), IPT_P_OPTIONAL | IPT_P_NONEMPTY | IPT_P_HOST, NULL,
           "neighbourhood, odd in each dimension; default true(9)"),
    IPT_OUT("J", IPT_DT(IPT_DOUBLE), 0, "local entropy in bits (256 bins, 2 for logical; symmetric padding)"),
};

/* Correlation and adaptive noise removal: normxcorr2, wiener2. */
static const ipt_param_schema ipt_normxcorr2_params[] = {
    IPT_IN("template", IPT_DT_NUMERIC | IPT_DT(IPT_LOGICAL), IPT_P_NONEMPTY, NULL,
           "template, no larger than A, not constant"),
    IPT_IN("A", IPT_DT_NUMERIC | IPT_DT(IPT_LOGICAL), IPT_P_NONEMPTY, NULL, "image"),
    IPT_OUT("C", IPT_DT(IPT_DOUBLE), 0,
            "correlation coefficients, size(A)+size(template)-1; 0 where A's window is constant"),
};

static const ipt_param_schema ipt_wiener2_params[] = {
    IPT_IN("I", IPT_DT_IMAGE, 0, NULL, "grayscale image"),
    IPT_FLOATS("size", IPT_P_FINITE | IPT_P_INTEGRAL, "[3 3]", 1, 4096, 2, 2, "[m n] neighbourhood"),
    IPT_FLOAT("noise", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 0, IPT_UNBOUNDED,
              "additive noise power; default: the mean of the local variances"),
    IPT_OUT("J", IPT_DT_IMAGE, 0, "class and size of I"),
    IPT_OUT("noise_out", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL, "1 x 1 noise power used"),
};

/* Contrast-limited adaptive histogram equalisation: adapthisteq. */
static const ipt_param_schema ipt_adapthisteq_params[] = {
    IPT_IN("I", IPT_DT_IMAGE, 0, NULL, "grayscale image"),
    IPT_FLOATS("NumTiles", IPT_P_FINITE | IPT_P_INTEGRAL, "[8 8]", 2, 16777216, 2, 2, "[rows cols] of tiles"),
    IPT_FLOAT("ClipLimit", IPT_P_FINITE, "0.01", 0, 1, "contrast enhancement limit; higher is more contrast"),
    IPT_INT("NBins", 0, NULL, "256", 2, 16777216, NULL, "histogram bins of each tile's transformation"),
    IPT_ENUM("Range", 0, "full|original", "full", "output range: the class's full range or I's"),
    IPT_ENUM("Distribution", 0, "uniform|rayleigh|exponential", "uniform", "desired histogram shape"),
    IPT_FLOAT("Alpha", IPT_P_OPTIONAL | IPT_P_FINITE, NULL, 1e-300, IPT_UNBOUNDED,
              "rayleigh and exponential parameter; default 0.4; not with uniform"),
    IPT_OUT("J", IPT_DT_IMAGE, 0, "class and size of I"),
};

/* Thresholds: multithresh, imbinarize, adaptthresh. */
static const ipt_param_schema ipt_multithresh_params[] = {
    IPT_IN("A", IPT_DT_NUMERIC, IPT_P_RGB, NULL, "image; every element is counted"),
    IPT_INT("N", 0, NULL, "1", 1, 20, NULL, "number of thresholds"),
    IPT_OUT("thresh", IPT_DT_NUMERIC, 0, "1 x N thresholds in the range of A"),
    IPT_OUT("metric", IPT_DT(IPT_DOUBLE), IPT_P_OPTIONAL, "1 x 1 effectiveness metric in [0,1]"),
};

static const ipt_param_schema ipt_imbinarize_params[] = {
    IPT_IN("I", IPT_DT_NUMERIC, 0, NULL, "grayscale image"),
    IPT_ENUM("method", 0, "global|adaptive", "global", "global: Otsu's threshold; adaptive: adaptthresh"),
    IPT_IN("T", IPT_DT_NUMERIC, IPT_P_OPTIONAL | IPT_P_NONEMPTY, NULL,
           "threshold on the [0,1] scale, scalar or the size of I (instead of method)"),
    IPT_FLOAT("Sensitivity", IPT_P_FINITE, "0.5", 0, 1, "adaptive: higher sets more pixels foreground"),
    IPT_ENUM("ForegroundPolarity", 0, "bright|dark", "bright", "adaptive: which side is foreground"),
    IPT_OUT("BW", IPT_DT(IPT_LOGICAL), 0, "I > T, on I's class scale"),
};

static const ipt_param_schema ipt_adaptthresh_params[] = {
    IPT_IN("I", IPT_DT_NUMERIC, 0, NULL, "grayscale image"),
    IPT_FLOAT("sensitivity", IPT_P_FINITE, "0.5", 0, 1, "higher sets more pixels foreground"),
    IPT_FLOATS("NeighborhoodSize", IPT_P_OPTIONAL | IPT_P_FINITE | IPT_P_INTEGRAL, NULL, 1, 16777217, 1, 2,
               "odd, scalar or [rows cols]; default 2*floor(size(I)/16)+1"),
    IPT_ENUM("ForegroundPolarity", 0, "bright|dark", "bright", "which side is foreground"),
    IPT_ENUM("Statistic", 0, "mean|median|gaussian", "mean", "local statistic"),
    IPT_OUT("T", IPT_DT_FLOAT, 0, "local thresholds on the [0,1] scale, size of I"),
};

/* Tiling rules (docs/abi.md#tiling): [conditions ?] [halo terms] [# reason]. */
/* The last argument is the tiling and its rule: IPT_T_POINT, IPT_T_WIN(rule), ... */
#define IPT_SCHEMA(name, matlab, summary, params, alt, cmp, tol, cmpdoc, ...) \
    { sizeof(ipt_op_schema), name, matlab, summary, IPT_PARAMS(params), alt, cmp, tol, cmpdoc, __VA_ARGS__ }
#define IPT_T_POINT IPT_TILING_POINTWISE, NULL
#define IPT_T_WIN(rule) IPT_TILING_WINDOW, rule
#define IPT_T_WHOLE(why) IPT_TILING_WHOLE, why

static const ipt_op_schema ipt_builtin_ops[] = {
    IPT_SCHEMA("ipt.intlut", "intlut", "convert integer values using a lookup table",
               ipt_intlut_params, NULL, IPT_CMP_EXACT, 0, "exact",
               IPT_T_POINT),
    IPT_SCHEMA("ipt.stretchlim", "stretchlim", "limits for contrast stretching",
               ipt_stretchlim_params, NULL, IPT_CMP_EXACT, 0,
               "exact (histogram bins are integers)",
               IPT_T_WHOLE("the limits come from the histogram of the whole image")),
    IPT_SCHEMA("ipt.imadjust", "imadjust", "adjust intensity values",
               ipt_imadjust_params, NULL, IPT_CMP_RANGE_EPS, 8,
               "integer classes exact; floating: 8 eps(class) of the output range",
               IPT_TILING_POINTWISE, "low_high_in ? # the default limits are stretchlim of the whole image"),
    IPT_SCHEMA("ipt.imlincomb", "imlincomb", "linear combination of images",
               ipt_imlincomb_params, NULL, IPT_CMP_RANGE_EPS, 4,
               "integer classes exact; floating: 4 eps(class) * max(1, max|Z|)",
               IPT_T_POINT),
    /* Integer and single inputs are processed in single (im2single), so thresh
     * agrees to single precision: 64 eps(single) = 64 * 2^29 eps(double). */
    IPT_SCHEMA("ipt.edge", "edge", "find edges", ipt_edge_params, NULL, IPT_CMP_RANGE_EPS, 64.0 * 536870912.0,
               "BW exact; thresh 64 eps(single) * max(1, |thresh|)",
               IPT_T_WHOLE("the automatic threshold is a statistic of the whole image, and thinning and canny's hysteresis follow edges across it")),
    IPT_SCHEMA("ipt.imregionalmax", "imregionalmax", "regional maxima",
               ipt_imregionalmax_params, NULL, IPT_CMP_EXACT, 0, "exact",
               IPT_T_WHOLE("a regional maximum is a connected plateau, which may span the whole image")),
    IPT_SCHEMA("ipt.ordfilt2", "ordfilt2", "2-D order-statistic filtering",
               ipt_ordfilt2_params, NULL, IPT_CMP_EXACT, 0, "exact (selection, no arithmetic)",
               IPT_T_WIN("dims:domain")),
    IPT_SCHEMA("ipt.medfilt2", "medfilt2", "2-D median filtering", ipt_medfilt2_params, NULL,
               IPT_CMP_EXACT, 0, "exact (the even-size mean is one rounding)",
               IPT_T_WIN("size:size")),
    IPT_SCHEMA("ipt.conv2", "conv2", "2-D convolution", ipt_conv2_params, "B|u,v",
               IPT_CMP_CONV, 16,
               "|C - ref| <= 16 eps(class) (|A|*|B|)(p) per element; FFT variants (variant "
               "'fft'): 16 eps(class) max_p (|A|*|B|)(p), since transform rounding scales "
               "with the whole result",
               IPT_T_WIN("shape=same ? dims:B | vec:u,v # the full and valid outputs differ in size from A")),
    IPT_SCHEMA("ipt.imfilter", "imfilter", "N-D filtering of images", ipt_imfilter_params, NULL,
               IPT_CMP_CONV, 16,
               "integer classes exact; floating: 16 eps(class) (|A|*|h|)(p)",
               IPT_T_WIN("output=same & boundary!=circular ? dims:h # the full output differs in size from A, and circular padding wraps around the whole image")),
    IPT_SCHEMA("ipt.fspecial", "fspecial", "predefined 2-D filter", ipt_fspecial_params, NULL,
               IPT_CMP_RANGE_EPS, 4, "4 eps * max|h|",
               IPT_T_WHOLE("it makes a filter and takes no image")),
    IPT_SCHEMA("ipt.mean2", "mean2", "average of matrix elements", ipt_mean2_params, NULL,
               IPT_CMP_RANGE_EPS, 16,
               "16 eps(class of m) * max(1, |m|); integer classes are summed exactly, so "
               "they differ by the final division's rounding at most",
               IPT_TILING_REDUCE, "the sum of each tile (exact for integer classes), divided once by the number of elements"),
    IPT_SCHEMA("ipt.strel", "strel", "morphological structuring element", ipt_strel_params, NULL,
               IPT_CMP_EXACT, 0, "exact",
               IPT_T_WHOLE("it makes a structuring element and takes no image")),
    IPT_SCHEMA("ipt.imdilate", "imdilate", "dilate image", ipt_imdilate_params, NULL,
               IPT_CMP_EXACT, 0, "exact (flat: selection; non-flat: one addition)",
               IPT_T_WIN("dims:nhood")),
    IPT_SCHEMA("ipt.imerode", "imerode", "erode image", ipt_imdilate_params, NULL,
               IPT_CMP_EXACT, 0, "exact (flat: selection; non-flat: one subtraction)",
               IPT_T_WIN("dims:nhood")),
    IPT_SCHEMA("ipt.bwdist", "bwdist", "distance transform of binary image",
               ipt_bwdist_params, NULL, IPT_CMP_BWDIST, 0,
               "D exact to single rounding; IDX exact except at ties, where D at IDX must match",
               IPT_T_WHOLE("the nearest nonzero pixel may lie anywhere in the image")),
    IPT_SCHEMA("ipt.radon", "radon", "Radon transform", ipt_radon_params, NULL,
               IPT_CMP_RANGE_EPS, 256,
               "256 eps(double) * max(1, max|R|) (GPUs sum each bin in another order)",
               IPT_T_WHOLE("each projection sums along lines through the whole image")),
    IPT_SCHEMA("ipt.dither", "dither", "Floyd-Steinberg dithering", ipt_dither_params, NULL,
               IPT_CMP_EXACT, 0, "exact (integer error terms)",
               IPT_T_WHOLE("error diffusion carries each pixel's error on through the rest of the image")),
    /* Image class conversions. Integer outputs are exact; floating outputs are one
     * correctly rounded division or conversion, so exact too. */
    IPT_SCHEMA("ipt.im2double", "im2double", "convert image to double precision", ipt_im2double_params, NULL,
               IPT_CMP_EXACT, 0, "exact",
               IPT_T_POINT),
    IPT_SCHEMA("ipt.im2single", "im2single", "convert image to single precision", ipt_im2single_params, NULL,
               IPT_CMP_EXACT, 0, "exact",
               IPT_T_POINT),
    IPT_SCHEMA("ipt.im2uint8", "im2uint8", "convert image to 8-bit unsigned integers", ipt_im2uint8_params,
               NULL, IPT_CMP_EXACT, 0, "exact",
               IPT_T_POINT),
    IPT_SCHEMA("ipt.im2uint16", "im2uint16", "convert image to 16-bit unsigned integers", ipt_im2uint16_params,
               NULL, IPT_CMP_EXACT, 0, "exact",
               IPT_T_POINT),
    IPT_SCHEMA("ipt.im2int16", "im2int16", "convert image to 16-bit signed integers", ipt_im2int16_params,
               NULL, IPT_CMP_EXACT, 0, "exact",
               IPT_T_POINT),
    /* Intensity conversions: imcomplement, mat2gray, rgb2gray. */
    IPT_SCHEMA("ipt.imcomplement", "imcomplement", "complement image", ipt_imcomplement_params, NULL,
               IPT_CMP_EXACT, 0, "exact (one subtraction in the class of I)",
               IPT_T_POINT),
    IPT_SCHEMA("ipt.mat2gray", "mat2gray", "convert matrix to grayscale image", ipt_mat2gray_params, NULL,
               IPT_CMP_RANGE_EPS, 2,
               "2 eps(double) (limits exact; one product and one sum per element, no fused multiply-add)",
               IPT_TILING_POINTWISE, "limits ? # the default limits are the minimum and maximum of the whole image"),
    IPT_SCHEMA("ipt.rgb2gray", "rgb2gray", "convert RGB image to grayscale", ipt_rgb2gray_params, NULL,
               IPT_CMP_RANGE_EPS, 4,
               "integer classes exact; floating: 4 eps(class) * max(1, max|I|)",
               IPT_T_POINT),
    /* Colour spaces. */
    IPT_SCHEMA("ipt.rgb2hsv", "rgb2hsv", "convert RGB colors to HSV", ipt_rgb2hsv_params, NULL,
               IPT_CMP_RANGE_EPS, 8,
               "8 eps(class) * max(1, max|HSV|) (the hue's division may round differently on GPUs)",
               IPT_T_POINT),
    IPT_SCHEMA("ipt.hsv2rgb", "hsv2rgb", "convert HSV colors to RGB", ipt_hsv2rgb_params, NULL,
               IPT_CMP_RANGE_EPS, 4, "4 eps(class) * max(1, max|RGB|)",
               IPT_T_POINT),
    IPT_SCHEMA("ipt.rgb2ycbcr", "rgb2ycbcr", "convert RGB color values to YCbCr color space",
               ipt_rgb2ycbcr_params, NULL, IPT_CMP_RANGE_EPS, 4,
               "integer classes exact; floating: 4 eps(class) * max(1, max|YCBCR|)",
               IPT_T_POINT),
    IPT_SCHEMA("ipt.ycbcr2rgb", "ycbcr2rgb", "convert YCbCr color values to RGB color space",
               ipt_ycbcr2rgb_params, NULL, IPT_CMP_RANGE_EPS, 4,
               "integer classes exact; floating: 4 eps(class) * max(1, max|RGB|)",
               IPT_T_POINT),
    /* Geometric transformations: imresize. */
    IPT_SCHEMA("ipt.imresize", "imresize", "resize image", ipt_imresize_params, "Scale|OutputSize",
               IPT_CMP_RANGE_EPS, 16,
               "integer and logical classes exact; floating: 16 eps(class) * max(1, max|B|)",
               IPT_T_WHOLE("the output size, and each output pixel's source, follow the size of the whole image")),
    /* Gradients. Every backend computes the same differences in the same order,
     * so Gx and Gy agree to the bit (up to single denormals a GPU may flush);
     * Gmag and Gdir add one hypot and one atan2. */
    IPT_SCHEMA("ipt.imgradientxy", "imgradientxy", "find directional gradients of 2-D image",
               ipt_imgradientxy_params, NULL, IPT_CMP_RANGE_EPS, 4,
               "4 eps(class) * max(1, max|G|) (same differences in the same order everywhere)",
               IPT_T_WIN("fixed:1")),
    IPT_SCHEMA("ipt.imgradient", "imgradient", "find gradient magnitude and direction of 2-D image",
               ipt_imgradient_params, NULL, IPT_CMP_RANGE_EPS, 16,
               "16 eps(class) * max(1, max|out|): Gmag's hypot and Gdir's atan2 and degree "
               "conversion, each a few ulp",
               IPT_T_WIN("fixed:1")),
    /* Padding and cropping: copies, so every class is exact. */
    IPT_SCHEMA("ipt.padarray", "padarray", "pad array", ipt_padarray_params, NULL, IPT_CMP_EXACT, 0,
               "exact (copies and one conversion of padval on the host)",
               IPT_T_WHOLE("the output is larger than the image")),
    IPT_SCHEMA("ipt.imcrop", "imcrop", "crop image", ipt_imcrop_params, NULL, IPT_CMP_EXACT, 0,
               "exact (a copy)",
               IPT_T_WHOLE("the rectangle is in the coordinates of the whole image")),
    /* Smoothing filters: imgaussfilt, imboxfilt, integralImage. */
    IPT_SCHEMA("ipt.imgaussfilt", "imgaussfilt", "2-D Gaussian filtering of images", ipt_imgaussfilt_params, NULL,
               IPT_CMP_RANGE_EPS, 32,
               "integer classes exact; floating: 32 eps(class) * max(1, max|B|) (GPUs may sum a "
               "small kernel in another order)",
               IPT_T_WIN("Padding!=circular ? size:FilterSize | gauss:sigma # circular padding wraps around the whole image")),
    IPT_SCHEMA("ipt.imboxfilt", "imboxfilt", "2-D box filtering of images", ipt_imboxfilt_params, NULL,
               IPT_CMP_RANGE_EPS, 16,
               "integer classes exact; floating: 16 eps(class) * max(1, max|B|) (the window sums "
               "come from one integral image in one order on every backend)",
               IPT_T_WIN("Padding!=circular ? size:filterSize # circular padding wraps around the whole image")),
    IPT_SCHEMA("ipt.integralimage", "integralImage", "calculate 2-D integral image", ipt_integralimage_params,
               NULL, IPT_CMP_RANGE_EPS, 4,
               "4 eps(double) * max(1, max|J|) (every backend sums in MATLAB's order; integer "
               "and logical sums are exact below 2^53)",
               IPT_T_WHOLE("each output sums everything above and to the left of it in the whole image")),
    /* Histograms and thresholds. Counts are integers and the per-bin
     * arithmetic runs on the host, shared by every backend: exact. */
    IPT_SCHEMA("ipt.imhist", "imhist", "histogram of image data", ipt_imhist_params, NULL,
               IPT_CMP_EXACT, 0, "exact (integer counts; bin locations computed on the host)",
               IPT_TILING_REDUCE, "the histogram of each tile, the counts summed"),
    IPT_SCHEMA("ipt.otsuthresh", "otsuthresh", "global histogram threshold using Otsu's method",
               ipt_otsuthresh_params, NULL, IPT_CMP_EXACT, 0, "exact (computed on the host in double)",
               IPT_T_WHOLE("it takes a histogram, not an image")),
    IPT_SCHEMA("ipt.graythresh", "graythresh", "global image threshold using Otsu's method",
               ipt_graythresh_params, NULL, IPT_CMP_EXACT, 0,
               "exact (integer counts; Otsu's arithmetic on the host in double)",
               IPT_TILING_REDUCE, "the histogram of im2uint8 of each tile, the counts summed, then otsuthresh"),
    IPT_SCHEMA("ipt.histeq", "histeq", "enhance contrast using histogram equalization", ipt_histeq_params, NULL,
               IPT_CMP_EXACT, 0, "exact (integer counts; the table is built on the host and looked up)",
               IPT_T_WHOLE("the transformation comes from the histogram of the whole image")),
    /* Rotation, translation and warps: integer outputs exact (every backend
     * interpolates in double in the same order); floating within a few ulp. */
    IPT_SCHEMA("ipt.imrotate", "imrotate", "rotate image", ipt_imrotate_params, NULL, IPT_CMP_RANGE_EPS, 16,
               "integer and logical classes exact; floating: 16 eps(class) * max(1, max|J|)",
               IPT_T_WHOLE("each output pixel's source depends on its position in the whole image")),
    IPT_SCHEMA("ipt.imtranslate", "imtranslate", "translate image", ipt_imtranslate_params, NULL,
               IPT_CMP_RANGE_EPS, 16,
               "integer and logical classes exact; floating: 16 eps(class) * max(1, max|B|)",
               IPT_T_WHOLE("each output pixel's source depends on its position in the whole image")),
    IPT_SCHEMA("ipt.imwarp", "imwarp", "apply geometric transformation to image", ipt_imwarp_params, NULL,
               IPT_CMP_RANGE_EPS, 16,
               "integer and logical classes exact; floating: 16 eps(class) * max(1, max|B|)",
               IPT_T_WHOLE("each output pixel's source depends on its position in the whole image")),
    /* Neighbourhood statistics. */
    IPT_SCHEMA("ipt.stdfilt", "stdfilt", "local standard deviation of image", ipt_stdfilt_params, NULL,
               IPT_CMP_RANGE_EPS, 1024,
               "1024 eps(class) * max(1, max|J|): the variance is a difference of window sums",
               IPT_T_WIN("dims:nhood | fixed:1")),
    IPT_SCHEMA("ipt.rangefilt", "rangefilt", "local range of image", ipt_rangefilt_params, NULL,
               IPT_CMP_EXACT, 0, "exact (one subtraction of two selections)",
               IPT_T_WIN("dims:nhood | fixed:1")),
    IPT_SCHEMA("ipt.entropyfilt", "entropyfilt", "local entropy of grayscale image", ipt_entropyfilt_params, NULL,
               IPT_CMP_RANGE_EPS, 64, "64 eps(double) * max(1, max|J|) (sums of p log2 p)",
               IPT_T_WIN("dims:nhood | fixed:4")),
    /* Correlation and adaptive noise removal. */
    IPT_SCHEMA("ipt.normxcorr2", "normxcorr2", "normalized 2-D cross-correlation", ipt_normxcorr2_params, NULL,
               IPT_CMP_RANGE_EPS, 1048576,
               "2^20 eps(double): the local variances are differences of window sums",
               IPT_T_WHOLE("the output is larger than A (size(A)+size(template)-1) and each value normalises over the template's extent")),
    IPT_SCHEMA("ipt.wiener2", "wiener2", "2-D adaptive noise-removal filtering", ipt_wiener2_params, NULL,
               IPT_CMP_RANGE_EPS, 64,
               "integer classes exact; floating: 64 eps(class) * max(1, max|J|)",
               IPT_T_WIN("noise ? size:size # without noise, the noise power is the mean of the local variances over the whole image")),
    /* Contrast-limited adaptive histogram equalisation. */
    IPT_SCHEMA("ipt.adapthisteq", "adapthisteq", "contrast-limited adaptive histogram equalization (CLAHE)",
               ipt_adapthisteq_params, NULL, IPT_CMP_RANGE_EPS, 16,
               "integer classes exact; floating: 16 eps(class) * max(1, max|J|)",
               IPT_T_WHOLE("NumTiles divides the whole image into contextual regions whose transformations are interpolated across it")),
    /* Thresholds. */
    IPT_SCHEMA("ipt.multithresh", "multithresh", "multilevel image thresholds using Otsu's method",
               ipt_multithresh_params, NULL, IPT_CMP_EXACT, 0,
               "exact (integer counts; the search runs on the host in double)",
               IPT_T_WHOLE("the thresholds come from the histogram of the whole image over its range")),
    IPT_SCHEMA("ipt.imbinarize", "imbinarize", "binarize 2-D grayscale image by thresholding",
               ipt_imbinarize_params, NULL, IPT_CMP_EXACT, 0, "exact",
               IPT_T_WHOLE("global: Otsu's threshold of the whole image; adaptive: the default neighbourhood follows the image size")),
    IPT_SCHEMA("ipt.adaptthresh", "adaptthresh", "adaptive image threshold using local first-order statistics",
               ipt_adaptthresh_params, NULL, IPT_CMP_RANGE_EPS, 16,
               "16 eps(class) * max(1, max|T|)",
               IPT_T_WIN("NeighborhoodSize ? gauss:NeighborhoodSize # the default NeighborhoodSize, 2*floor(size(I)/16)+1, follows the image size")),
};

#define IPT_BUILTIN_OP_COUNT IPT_COUNT_OF(ipt_builtin_ops)

#ifdef __cplusplus
}
#endif

#endif /* IPT_OPS_H */
