// ipt.dither on Vulkan: the inverse colormap as a table built in parallel
// (when 2^(3 Qm) cells are few enough), then the error diffusion as a
// wavefront in one work group (shaders/dither*.comp). The scan is inherently
// sequential along its anti-diagonals; this is the operator that gains least
// from a GPU. The errors stay in shared memory when four rows of every live
// column fit there.
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct InversePush {
    uint64_t mapq, table;
    int32_t colours, qm, shift, cells;
};
struct DitherPush {
    uint64_t img, mapq, table, errors, out;
    int32_t rows, cols, colours, top, bias, shift, qm;
};

void run_dither(OpContext& ctx) {
    const auto& args = ctx.args;
    const ipt_tensor* img = args.image("I");
    const ipt_tensor* map = args.image("map");
    const int64_t qm = args.integer("Qm"), qe = args.integer("Qe");
    if (qm < 1 || qm > 16) ipt::plugin::invalid("ipt.dither: parameter 'Qm' must be in 1..16");
    if (qe < 1 || qe > 16) ipt::plugin::invalid("ipt.dither: parameter 'Qe' must be in 1..16");
    const int32_t dt = img->dtype;
    if (dt != IPT_UINT8 && dt != IPT_UINT16 && dt != IPT_SINGLE && dt != IPT_DOUBLE)
        ipt::plugin::invalid("ipt.dither: parameter 'I' must be uint8, uint16, single or double");
    const int bits = static_cast<int>(std::max(qm, qe));
    const double top = static_cast<double>((int64_t(1) << bits) - 1);
    std::vector<int32_t> mapq;
    if (map) {
        if (img->channels != 3)
            ipt::plugin::invalid("ipt.dither: parameter 'I' must be an RGB image (3 channels) when map is given");
        if (map->dtype != IPT_DOUBLE || map->cols != 3 || map->rows < 1 || map->channels != 1)
            ipt::plugin::invalid("ipt.dither: parameter 'map' must be an n x 3 double colormap");
        if (map->rows > 65536) ipt::plugin::invalid("ipt.dither: parameter 'map' must have at most 65536 colours");
        const double* m = static_cast<const double*>(map->data);
        mapq.resize(static_cast<size_t>(map->rows * 3));
        for (int64_t i = 0; i < map->rows * 3; ++i) {
            if (!(m[i] >= 0.0 && m[i] <= 1.0))
                ipt::plugin::invalid("ipt.dither: parameter 'map' must have values in [0, 1]");
            mapq[i] = static_cast<int32_t>(std::floor(m[i] * top + 0.5));
        }
    } else {
        if (img->channels != 1)
            ipt::plugin::invalid("ipt.dither: parameter 'I' must be a grayscale image (1 channel) when no map is given");
        const int32_t white = static_cast<int32_t>(top);
        mapq = {0, 0, 0, white, white, white};
    }
    const int64_t colours = static_cast<int64_t>(mapq.size() / 3);
    const int32_t out_dtype = !map ? IPT_LOGICAL : (colours <= 256 ? IPT_UINT8 : IPT_UINT16);
    const int64_t rows = img->rows, cols = img->cols;
    const int nch = map ? 3 : 1;
    check_size("ipt.dither", rows * cols * nch);
    const int shift = bits - static_cast<int>(qm);
    const int64_t cells = int64_t(1) << (nch * qm);
    const bool use_table = cells <= (int64_t(1) << 21);
    const ipt_tensor* x = args.output("X", out_dtype, rows, cols, 1);
    if (rows == 0 || cols == 0) return;

    Recorder rec(ctx.device);
    const VkDeviceAddress mapq_address = rec.params(mapq);
    Buffer* table = use_table ? rec.scratch(uint64_t(cells) * 4) : nullptr;
    if (use_table) {
        InversePush ip{mapq_address, table->address, int32_t(colours), int32_t(qm), shift, int32_t(cells)};
        const uint32_t width = ctx.tuning.group_size;
        Grid grid = grid_for(ctx.device, cells, width);
        rec.dispatch(ctx.pipeline("dither_inverse", width, 1, {uint32_t(nch)}), &ip, sizeof ip, grid.x, grid.y);
    }
    // Shared ring: 4 rows of more than rows/2 + 1 columns (dither.comp), the
    // count rounded up to a multiple of 64 so that few sizes make pipelines;
    // 16-bit errors when top, the largest |error|, is below 2^15.
    const int64_t ring_cols = (rows / 2 + 2 + 63) / 64 * 64;
    const bool ring16 = top <= 32767;
    const bool ring = ring_cols * 4 * nch * (ring16 ? 2 : 4) <= int64_t(ctx.device.max_shared_bytes());
    Buffer* errors = ring ? nullptr : rec.scratch(uint64_t(rows) * cols * nch * 4);
    DitherPush p{ctx.address(img), mapq_address, table ? table->address : 0, errors ? errors->address : 0,
                 ctx.address(x), int32_t(rows), int32_t(cols), int32_t(colours), int32_t(top),
                 int32_t((int64_t(1) << bits) / 32), shift, int32_t(qm)};
    const uint32_t width = std::min<uint32_t>(ctx.device.max_workgroup_invocations(), 1024);
    rec.dispatch(ctx.pipeline("dither", width, 1,
                              {uint32_t(dt), uint32_t(nch), use_table ? 1u : 0u, uint32_t(out_dtype),
                               ring ? uint32_t(ring_cols) : 0u, ring && ring16 ? 1u : 0u}),
                 &p, sizeof p, 1);
    rec.submit();
}

}  // namespace

IPT_VK_OP_PLAIN("ipt.dither", run_dither)
