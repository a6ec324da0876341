// ipt.imlincomb on Vulkan: one elementwise pass over up to 8 images of any
// classes (each class a specialisation constant), the sum in double.
#include <cstring>
#include <string>

#include "op_support.hpp"

namespace {

using namespace ipt::vk;

struct Push {
    uint64_t a[8];
    uint64_t z;
    uint64_t k;
    int32_t n;
};

int32_t out_class(const std::string& name, int32_t a1) {
    if (name == "default") return a1 == IPT_LOGICAL ? IPT_DOUBLE : a1;
    if (name == "uint8") return IPT_UINT8;
    if (name == "uint16") return IPT_UINT16;
    if (name == "int16") return IPT_INT16;
    if (name == "int32") return IPT_INT32;
    if (name == "uint32") return IPT_UINT32;
    if (name == "single") return IPT_SINGLE;
    if (name == "double") return IPT_DOUBLE;
    ipt::plugin::invalid("ipt.imlincomb: parameter 'outclass' must be default, uint8, uint16, int16, "
                         "int32, uint32, single or double");
}

void run_imlincomb(OpContext& ctx) {
    const auto& args = ctx.args;
    static const char* const names[8] = {"A1", "A2", "A3", "A4", "A5", "A6", "A7", "A8"};
    const ipt_tensor* images[8] = {};
    int count = 0;
    for (int j = 0; j < 8; ++j) {
        images[j] = args.image(names[j]);
        if (images[j]) {
            if (j != count)
                ipt::plugin::invalid(std::string("ipt.imlincomb: parameter '") + names[j] +
                                     "' is given but an earlier image is not");
            ++count;
        }
    }
    const ipt_tensor* a1 = images[0];
    for (int j = 1; j < count; ++j)
        if (images[j]->rows != a1->rows || images[j]->cols != a1->cols ||
            images[j]->channels != a1->channels)
            ipt::plugin::invalid(std::string("ipt.imlincomb: parameter '") + names[j] +
                                 "' must have the size of 'A1'");
    // MATLAB takes images of one class (as the CPU reference checks).
    for (int j = 1; j < count; ++j)
        if (images[j]->dtype != a1->dtype)
            ipt::plugin::invalid(std::string("ipt.imlincomb: parameter '") + names[j] + "' must have the class of 'A1'");
    const uint64_t nk = args.count("K");
    if (nk != uint64_t(count) && nk != uint64_t(count) + 1)
        ipt::plugin::invalid("ipt.imlincomb: parameter 'K' must have one value per image, plus "
                             "optionally an offset (" + std::to_string(count) + " images, " +
                             std::to_string(nk) + " values)");
    const int32_t out_dt = out_class(args.text("outclass"), a1->dtype);
    const int64_t n = a1->rows * a1->cols * a1->channels;
    check_size("ipt.imlincomb", n);

    const ipt_tensor* z = args.output("Z", out_dt, a1->rows, a1->cols, a1->channels);
    if (n == 0) return;
    Push push{};
    for (int j = 0; j < count; ++j) push.a[j] = ctx.address(images[j]);
    push.z = ctx.address(z);
    push.n = static_cast<int32_t>(n);
    std::vector<uint32_t> constants = {uint32_t(count)};
    for (int j = 0; j < 8; ++j) constants.push_back(uint32_t(j < count ? images[j]->dtype : IPT_DOUBLE));
    constants.push_back(uint32_t(out_dt));
    constants.push_back(nk == uint64_t(count) + 1 ? 1u : 0u);
    const uint32_t group = ctx.tuning.group_size;
    VkPipeline pipeline = ctx.pipeline("imlincomb", group, 1, constants);
    Grid grid = grid_for(ctx.device, n, uint64_t(group) * ctx.tuning.per_invocation);
    Recorder rec(ctx.device);
    push.k = rec.params(args.floats("K"), nk * sizeof(double));
    rec.dispatch(pipeline, &push, sizeof push, grid.x, grid.y);
    rec.submit();
}

}  // namespace

IPT_VK_OP("ipt.imlincomb", "wave32", 60, run_imlincomb)
IPT_VK_OP("ipt.imlincomb", "wave64", 50, run_imlincomb)
