/* device.c - the MAX78000 and MAX78002 CNN accelerators as numbers, each with its source.
 *
 * Source for every number: the vendor's network loader, ai8x-synthesis (its device classes in izer/tornadocnn.py,
 * README "Limitations", izer/kernels.py, izer/kbias.py, izer/latency.py; [AI8X-SYNTHESIS] in docs/sources.md).
 * Where the sources give a total without its split, the split chosen here is marked "assumption". */
#include <stdio.h>
#include <string.h>

#include "mcu.h"

static const struct mcu_device devices[] = {
    {
        .name = "max78000",
        .display = "MAX78000",
        .procs = 64,         /* 4 quadrants x 16 processors */
        .procs_per_inst = 4, /* 4 processors share one data-memory instance */
        .instances = 16,     /* 512 KiB = 16 instances x 32 KiB */
        .instance_bytes = 32768,
        .kern_words_big = 768, /* 768 3x3 8-bit kernels (72-bit words) per processor: 442,368 bytes in all */
        .kern_words = 768,
        .bias_groups = 4, /* 4 x 512 B = 2 KiB; <= 512 output channels per layer */
        .bias_group_bytes = 512,
        .max_layers = 32,     /* in-flight pooling, element-wise and activation do not count */
        .max_channels = 1024, /* <= 16 passes of 64 */
        .max_dim = 1023,      /* rows / columns */
        .max_pad = 2,         /* Conv2d padding 0-2 */
        .max_pool = 16,       /* pooling 1-16, stride 1-16, no padding */
        .max_kernel_1d = 9,   /* Conv1d kernel 1-9 */
        .depthwise = 0,       /* no groups on the MAX78000 */
        .max_dilation = 1,
        .max_linear = 1024,    /* Linear <= 1024 in / out */
        .max_flatten = 16384,  /* flatten: C*H*W <= 16,384 */
        .max_flatten_hw = 256, /* flatten: H*W <= 256 */
        .clock_hz = 50e6,      /* the vendor's examples: CNN clock = APB clock (50 MHz) div 1 [MSDK-EXAMPLES];
                           * ai8x-synthesis's device class says 100 MHz */
        .larger = "max78002",
        .multipass_padded_conv1d = 1,
        .eltwise_mp_emulated =
            1,                /* element-wise over > 64 channels is emulated: 2 passes x 2 operands at most
                                     when the layer also pools or convolves */
        .max_pool_passes = 1, /* a pooling pass-through reads one pass (unless its output is 1x1) */
        .eltwise_conv_bias = 1,
        .stream_nonpad_final = 0, /* the last streaming layer must pad */
        .max_stream_layers = 8,
        .frame_size_max = 1 << 21, /* rows x columns x passes < 2^21 */
        .latency_pre_read = 1,
        .latency_estimated = 1,
        .stream_bias = 0, /* SUPPORT_STREAM_BIAS off: "Combining streaming and a bias" warning */
    },
    {
        .name = "max78002",
        .display = "MAX78002",
        .procs = 64,
        .procs_per_inst = 4,
        .instances = 16, /* 1,280 KiB = 16 instances x 80 KiB */
        .instance_bytes = 81920,
        .kern_words_big = 5120, /* processors 0, 16, 32, 48: 5,120 kernels; others 4,096 (2,340 KiB in all) */
        .kern_words = 4096,
        .bias_groups = 4, /* 8 KiB; split as 4 groups of 2 KiB like the MAX78000 (assumption) */
        .bias_group_bytes = 2048,
        .max_layers = 128,
        .max_channels = 1024, /* 1024 in the reference tool's code (its README says 2048) */
        .max_dim = 2047,
        .max_pad = 2,
        .max_pool = 16,
        .max_kernel_1d = 9,
        .depthwise = 1,     /* adds depthwise (groups = C) */
        .max_dilation = 16, /* adds dilation 1-16 */
        .max_linear = 1024,
        .max_flatten = 16384,
        .max_flatten_hw = 256,
        .clock_hz = 200e6, /* the vendor's examples: CNN clock = IPLL (200 MHz) div 1 while the CNN runs
                            * [MSDK-EXAMPLES]; ai8x-synthesis's device class says 120 MHz */
        .multipass_padded_conv1d = 0, /* padded Conv1d reads at most 64 channels */
        .eltwise_mp_emulated = 0,
        .max_pool_passes = 1 << 16,
        .eltwise_conv_bias = 0, /* element-wise operations go in a layer apart from a convolution with bias */
        .stream_nonpad_final = 1,
        .max_stream_layers = 8,
        .frame_size_max = 1 << 21,
        .latency_pre_read = 0,
        .latency_estimated =
            0, /* the vendor's tool estimates no MAX78002 latency: the MAX78000 model is used */
        .stream_bias = 1,
    },
};

int nnperf_mcu_target_count(void)
{
    return (int)(sizeof devices / sizeof devices[0]);
}

const char *nnperf_mcu_target_name(int i)
{
    return i >= 0 && i < nnperf_mcu_target_count() ? devices[i].name : NULL;
}

const struct mcu_device *mcu_device_find(const char *name)
{
    if (!name) return NULL;
    for (int i = 0; i < nnperf_mcu_target_count(); i++) {
        const char *a = devices[i].name, *b = name;
        while (*a && (*b == *a || *b == *a - 'a' + 'A')) a++, b++;
        if (!*a && !*b) return &devices[i];
    }
    return NULL;
}

int mcu_kern_words(const struct mcu_device *d, int proc)
{
    return proc % 16 == 0 ? d->kern_words_big : d->kern_words;
}

int64_t mcu_kern_bytes_total(const struct mcu_device *d)
{
    int64_t words = 0;
    for (int p = 0; p < d->procs; p++) words += mcu_kern_words(d, p);
    return words * 9; /* 72-bit words */
}

void mcu_commas(char *b, size_t n, long long v)
{
    char t[32];
    snprintf(t, sizeof t, "%lld", v < 0 ? -v : v);
    size_t len = strlen(t), o = 0;
    if (v < 0 && o + 1 < n) b[o++] = '-';
    for (size_t i = 0; i < len && o + 2 < n; i++) {
        b[o++] = t[i];
        if ((len - i - 1) % 3 == 0 && i + 1 < len) b[o++] = ',';
    }
    b[o] = 0;
}
