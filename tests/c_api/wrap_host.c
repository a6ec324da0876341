/* SPDX-License-Identifier: Apache-2.0 */
/* ipt_image_wrap_host: the caller's memory as an input image, without a
 * copy; never written, never freed by the library. C99, as callers write it. */
#include <stdio.h>
#include <string.h>

#include "ipt/ipt.h"

static int failures = 0;
#define CHECK(cond)                                                         \
    do {                                                                    \
        if (!(cond)) {                                                      \
            printf("%s:%d: %s (%s)\n", __FILE__, __LINE__, #cond, ipt_last_error()); \
            ++failures;                                                     \
        }                                                                   \
    } while (0)

/* imcomplement of a wrapped uint8 image on one device; 1 when it matches. */
static int complement_on(ipt_context* ctx, uint32_t device, const unsigned char* data, int64_t rows, int64_t cols,
                         int64_t channels) {
    ipt_image *in = NULL, *out = NULL;
    ipt_call* call = NULL;
    ipt_image_info info;
    unsigned char back[2 * 3 * 3];
    int64_t i, n = rows * cols * channels;
    int ok = 1;
    ok &= ipt_image_wrap_host(ctx, IPT_UINT8, rows, cols, channels, data, 0, &in) == IPT_OK;
    ok &= ipt_call_create(ctx, "ipt.imcomplement", &call) == IPT_OK;
    ok &= ipt_call_set_image(call, "I", in) == IPT_OK;
    if (device != IPT_DEVICE_ANY) ok &= ipt_call_set_device(call, device) == IPT_OK;
    ok &= ipt_call_run(call) == IPT_OK;
    ok &= ipt_call_take_output(call, "J", &out) == IPT_OK;
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    ok &= out && ipt_image_get_info(out, &info) == IPT_OK && info.channels == channels && info.rows == rows;
    ok &= out && ipt_image_download(out, back, 0) == IPT_OK;
    for (i = 0; ok && i < n; ++i) ok &= back[i] == (unsigned char)(255 - data[i]);
    ipt_image_free(out);
    ipt_call_free(call);
    ipt_image_free(in);
    return ok;
}

int main(void) {
    ipt_context* ctx = NULL;
    ipt_image *img = NULL, *copy = NULL;
    ipt_call* call = NULL;
    unsigned char data[2 * 3 * 3], before[sizeof data], back[sizeof data];
    double doubles[3] = {1, 2, 3};
    uint32_t d;
    size_t i;

    for (i = 0; i < sizeof data; ++i) data[i] = (unsigned char)(i * 13 + 1);
    memcpy(before, data, sizeof data);
    if (ipt_context_create(0, &ctx) != IPT_OK) {
        printf("context: %s\n", ipt_last_error());
        return 1;
    }
    CHECK(ipt_version_api() >= 2);

    /* One channel and three planes, on every device; the caller's bytes stay as they were. */
    CHECK(complement_on(ctx, IPT_DEVICE_ANY, data, 2, 9, 1));
    CHECK(complement_on(ctx, IPT_DEVICE_ANY, data, 2, 3, 3));
    for (d = 0; d < ipt_device_count(ctx); ++d) CHECK(complement_on(ctx, d, data, 3, 2, 3));
    CHECK(memcmp(data, before, sizeof data) == 0);

    /* The library never writes into it. */
    CHECK(ipt_image_wrap_host(ctx, IPT_UINT8, 2, 9, 1, data, 9, &img) == IPT_OK);
    CHECK(ipt_image_upload(img, back, 0) == IPT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(ipt_last_error(), "never writes") != NULL);
    CHECK(memcmp(data, before, sizeof data) == 0);
    /* It reads like any image: a copy, a read-out. */
    CHECK(ipt_image_copy_to(ctx, img, IPT_DEVICE_HOST, &copy) == IPT_OK);
    memset(back, 0, sizeof back);
    CHECK(copy && ipt_image_download(copy, back, 0) == IPT_OK && memcmp(back, data, sizeof data) == 0);
    ipt_image_free(copy);
    /* Freed before the call ran: misuse naming the parameter, as for any image. */
    CHECK(ipt_call_create(ctx, "ipt.imcomplement", &call) == IPT_OK);
    CHECK(ipt_call_set_image(call, "I", img) == IPT_OK);
    ipt_image_free(img);
    CHECK(ipt_call_run(call) == IPT_ERR_MISUSE);
    CHECK(strstr(ipt_last_error(), "'I'") != NULL);
    ipt_call_free(call);
    CHECK(memcmp(data, before, sizeof data) == 0);

    /* Refused: another pitch, no data, misaligned data, bad sizes and classes, no out. */
    img = NULL;
    CHECK(ipt_image_wrap_host(ctx, IPT_UINT8, 2, 4, 1, data, 5, &img) == IPT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(ipt_last_error(), "row_pitch") != NULL);
    CHECK(ipt_image_wrap_host(ctx, IPT_UINT8, 2, 4, 1, NULL, 0, &img) == IPT_ERR_INVALID_ARGUMENT);
    CHECK(ipt_image_wrap_host(ctx, IPT_DOUBLE, 1, 2, 1, (const char*)doubles + 1, 0, &img) ==
          IPT_ERR_INVALID_ARGUMENT);
    CHECK(strstr(ipt_last_error(), "aligned") != NULL);
    CHECK(ipt_image_wrap_host(ctx, IPT_UINT8, -1, 4, 1, data, 0, &img) == IPT_ERR_INVALID_ARGUMENT);
    CHECK(ipt_image_wrap_host(ctx, (ipt_dtype)42, 1, 4, 1, data, 0, &img) == IPT_ERR_INVALID_ARGUMENT);
    CHECK(ipt_image_wrap_host(ctx, IPT_UINT8, 1, 4, 1, data, 0, NULL) == IPT_ERR_INVALID_ARGUMENT);
    CHECK(img == NULL);
    /* An empty image needs no memory behind it, but a pointer all the same. */
    CHECK(ipt_image_wrap_host(ctx, IPT_UINT8, 0, 4, 1, data, 0, &img) == IPT_OK);
    ipt_image_free(img);

    ipt_context_destroy(ctx);
    CHECK(ipt_image_wrap_host(ctx, IPT_UINT8, 1, 1, 1, data, 0, &img) == IPT_ERR_MISUSE);
    printf("%d failures\n", failures);
    return failures == 0 ? 0 : 1;
}
