/* SPDX-License-Identifier: Apache-2.0 */
/* The C side of bench/python/call_overhead.py: one imcomplement call on a
 * 64x64 uint8 host image the way an application makes it through ipt.h
 * (wrap the input, create the call, set the image, run, take the output,
 * download it, free), on the host device; prints the median of N calls in
 * microseconds after warm-up.
 *   ipt_c_call_bench [N] */
#include <ipt/ipt.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

static double now_us(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e6 + (double)t.tv_nsec * 1e-3;
}

static int by_value(const void* a, const void* b) {
    const double x = *(const double*)a, y = *(const double*)b;
    return (x > y) - (x < y);
}

static int one_call(ipt_context* ctx, const uint8_t* in, uint8_t* out) {
    ipt_image *a = NULL, *j = NULL;
    ipt_call* call = NULL;
    int ok = ipt_image_wrap_host(ctx, IPT_UINT8, 64, 64, 1, in, 0, &a) == IPT_OK &&
             ipt_call_create(ctx, "ipt.imcomplement", &call) == IPT_OK &&
             ipt_call_set_image(call, "I", a) == IPT_OK && ipt_call_run(call) == IPT_OK &&
             ipt_call_take_output(call, "J", &j) == IPT_OK && ipt_image_download(j, out, 0) == IPT_OK;
    ipt_image_free(j);
    ipt_call_free(call);
    ipt_image_free(a);
    return ok;
}

int main(int argc, char** argv) {
    const int n = argc > 1 ? atoi(argv[1]) : 20000;
    ipt_context* ctx = NULL;
    if (n < 1 || ipt_context_create(0, &ctx) != IPT_OK || ipt_set_device(ctx, IPT_DEVICE_HOST) != IPT_OK) {
        fprintf(stderr, "ipt_c_call_bench: %s\n", ipt_last_error());
        return 1;
    }
    static uint8_t in[64 * 64], out[64 * 64];
    for (int i = 0; i < 64 * 64; ++i) in[i] = (uint8_t)(i * 7);
    double* t = malloc(sizeof(double) * (size_t)n);
    for (int i = 0; i < 1000; ++i)
        if (!one_call(ctx, in, out)) {
            fprintf(stderr, "ipt_c_call_bench: %s\n", ipt_last_error());
            return 1;
        }
    for (int i = 0; i < n; ++i) {
        const double t0 = now_us();
        one_call(ctx, in, out);
        t[i] = now_us() - t0;
    }
    qsort(t, (size_t)n, sizeof(double), by_value);
    printf("%.3f\n", t[n / 2]);
    free(t);
    ipt_context_destroy(ctx);
    return out[1] == (uint8_t)(255 - in[1]) ? 0 : 1;
}
