/* SPDX-License-Identifier: Apache-2.0 */
/* The public C headers compile as C99 and the host API links from C. */
#include <stdio.h>
#include <string.h>

#include "ipt/ipt.h"
#include "ipt/ipt_ops.h"
#include "ipt/ipt_plugin.h"

int main(void) {
    ipt_context* ctx = NULL;
    ipt_image* img = NULL;
    ipt_device_info dev;
    const ipt_op_schema* conv;
    double values[4] = {1, 2, 3, 4}, back[4] = {0, 0, 0, 0};
    int failures = 0;

    if (ipt_context_create(IPT_CONTEXT_NO_DISCOVERY, &ctx) != IPT_OK) {
        printf("context: %s\n", ipt_last_error());
        return 1;
    }
    memset(&dev, 0, sizeof dev);
    dev.struct_size = sizeof dev;
    if (ipt_device_get(ctx, IPT_DEVICE_HOST, &dev) != IPT_OK || strcmp(dev.kind, "cpu") != 0) ++failures;
    if (ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_DOUBLE, 2, 2, 1, &img) != IPT_OK) ++failures;
    if (img && ipt_image_upload(img, values, 0) != IPT_OK) ++failures;
    if (img && ipt_image_download(img, back, 0) != IPT_OK) ++failures;
    if (memcmp(values, back, sizeof values) != 0) ++failures;
    conv = ipt_op_find(ctx, "ipt.conv2");
    if (!conv || conv->param_count != IPT_COUNT_OF(ipt_conv2_params)) ++failures;
    if (IPT_BUILTIN_OP_COUNT < 18) ++failures;
    if (ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_DOUBLE, -1, 2, 1, &img) != IPT_ERR_INVALID_ARGUMENT) ++failures;
    if (ipt_image_create(ctx, IPT_DEVICE_HOST, IPT_UINT8, IPT_IMAGE_MAX_DIM + 1, 0, 1, &img) !=
        IPT_ERR_INVALID_ARGUMENT)
        ++failures;
    ipt_image_free(img);
    /* A freed handle is misuse, reported, never a crash. */
    if (img && ipt_image_download(img, back, 0) != IPT_ERR_MISUSE) ++failures;
    ipt_image_free(img);
    if (strstr(ipt_last_error(), "already freed") == NULL) ++failures;
    ipt_context_destroy(ctx);
    if (ipt_device_count(ctx) != 0) ++failures;
    printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
