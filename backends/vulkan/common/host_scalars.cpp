// SPDX-License-Identifier: Apache-2.0
#include "common/host_scalars.hpp"

namespace ipt::vk {

void write_host_scalars(OpContext& ctx, int32_t dtype, std::initializer_list<HostScalar> values) {
    Recorder rec(ctx.device);
    bool first = true;
    for (const HostScalar& v : values) {
        if (!first && !ctx.args.wanted(v.name)) continue;
        first = false;
        const ipt_tensor* t = ctx.args.output(v.name, dtype, 1, 1, 1);
        ctx.address(t);  // checks that it is on this device
        rec.write(static_cast<Buffer*>(t->buffer), t->offset, &v.value, sizeof(double));
    }
    rec.submit();
}

}  // namespace ipt::vk
