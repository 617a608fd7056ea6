/* mcu.h - the MAX78000 / MAX78002 CNN accelerator planner behind `nnperf map`: device descriptions (device.c), the
 * layer program built from the ONNX graph (program.c), the plan of processors, data memory, kernel memory and bias
 * memory with a cycle estimate (plan.c), the validator that checks any plan against every device rule
 * (validate.c) and the table / JSON / ai8x-synthesis YAML writers (render.c).
 *
 * The resource model follows the vendor's own network loader and its documentation ([AI8X-SYNTHESIS] in
 * docs/sources.md); docs/map.md explains the model, the planner's choices and the cycle model. */
#ifndef NNPERF_MCU_H
#define NNPERF_MCU_H

#include <stddef.h>
#include <stdint.h>

#include "../analysis/analysis.h"

#define MCU_MAX_PROC     64
#define MCU_MAX_INST     16
#define MCU_MAX_OPERANDS 16    /* element-wise operations take 2-16 operands (ai8x-synthesis README) */
#define MCU_MAX_LAYERS   512   /* program size this planner handles; the device limit is checked separately */
#define MCU_MAX_NODES    20000 /* graphs larger than this are not MCU models: refused with a message */
#define MCU_MAX_MSGS     100

/* One accelerator. Numbers and their sources are in device.c. */
struct mcu_device {
    const char *name;       /* "max78000" */
    const char *display;    /* "MAX78000" */
    int procs;              /* processors (64) */
    int procs_per_inst;     /* processors sharing one data-memory instance (4) */
    int instances;          /* data-memory instances (16) */
    int64_t instance_bytes; /* bytes per data-memory instance */
    int kern_words_big;     /* kernel words (one 3x3 8-bit kernel, 72 bits) of processors 0, 16, 32, 48 */
    int kern_words;         /* kernel words of the other processors */
    int bias_groups;        /* bias memory groups */
    int bias_group_bytes;   /* bytes per group (one 8-bit bias per output channel) */
    int max_layers;         /* layers, in-flight pooling / element-wise / activation not counted */
    int max_channels;       /* input or output channels per layer */
    int max_dim;            /* rows and columns */
    int max_pad;            /* padding 0..max_pad */
    int max_pool;           /* pooling window and stride 1..max_pool */
    int max_kernel_1d;      /* Conv1d kernel 1..max_kernel_1d */
    int depthwise;          /* groups == channels supported */
    int max_dilation;       /* 1 when dilation is not supported */
    int max_linear;         /* Linear in/out features */
    int max_flatten;        /* flattened C*H*W */
    int max_flatten_hw;     /* flattened H*W */
    double clock_hz;        /* CNN clock as the vendor's examples run it (nnperf map --clock overrides it) */
    const char *larger;     /* the device to suggest when a model does not fit (NULL: none) */
    /* device rules that differ between the two (the vendor's device classes) */
    int multipass_padded_conv1d; /* 1: padded Conv1d may read more than 64 channels */
    int eltwise_mp_emulated;     /* 1: element-wise beyond 2 passes x 2 operands cannot pool or convolve */
    int max_pool_passes;         /* passes a pooling pass-through layer may read (unless its output is 1x1) */
    int eltwise_conv_bias;       /* 1: element-wise operation and a convolution with bias in one layer */
    int stream_nonpad_final;     /* 1: the last streaming layer may have padding 0 */
    int max_stream_layers;       /* streaming (FIFO) layers at the start of the network */
    int64_t frame_size_max;      /* rows x columns x passes of a layer */
    int latency_pre_read;        /* 1: the cycle model's pre-read term (pooling after element-wise) */
    int latency_estimated;       /* 1: the vendor's tool estimates cycles for this device */
    int stream_bias;             /* 1: a streaming layer may have a bias (0: the vendor's tool warns, and a
                                  * streaming first layer takes one bias byte more) */
};

const struct mcu_device *mcu_device_find(const char *name); /* NULL when unknown */
int mcu_kern_words(const struct mcu_device *d,
                   int proc); /* kernel capacity of one processor in 72-bit words */
int64_t mcu_kern_bytes_total(const struct mcu_device *d); /* all processors' words x 9 bytes */
void mcu_commas(char *b, size_t n, long long v);          /* 1234567 -> "1,234,567" */

enum mcu_op { MCU_OP_CONV2D, MCU_OP_CONV1D, MCU_OP_CONVT2D, MCU_OP_LINEAR, MCU_OP_NONE };
enum mcu_pool { MCU_POOL_NONE, MCU_POOL_MAX, MCU_POOL_AVG };
enum mcu_act { MCU_ACT_NONE, MCU_ACT_RELU, MCU_ACT_ABS };
enum mcu_elt { MCU_ELT_NONE, MCU_ELT_ADD, MCU_ELT_SUB, MCU_ELT_XOR, MCU_ELT_OR };

const char *mcu_op_name(int op); /* ai8x-synthesis names: conv2d, conv1d, convtranspose2d, mlp, passthrough */
const char *mcu_elt_name(int elt); /* add, sub, xor, or */

struct mcu_layer {
    const char *name;  /* the main ONNX node (or "passthrough for layer N") */
    const char *nodes; /* every ONNX node grouped into this layer, comma separated */
    int op;            /* enum mcu_op */
    int kh, kw;        /* kernel (1D: kh = k, kw = 1) */
    int pad;           /* symmetric padding */
    int stride, groups, dilation;
    int pool, pool_kh, pool_kw, pool_stride; /* enum mcu_pool; in front of the operation */
    int pool_first;               /* 1: pool each operand, then element-wise; 0: element-wise, then pool */
    int act;                      /* enum mcu_act */
    int elt;                      /* enum mcu_elt; n_in > 1 without elt = concatenation */
    int n_in;                     /* input sequences (operands) */
    int in_seq[MCU_MAX_OPERANDS]; /* producing layer of each operand, -1 = the model input */
    int flatten;
    int passthrough; /* a copy inserted to re-form data with write_gap for an element-wise layer */
    int chw;         /* input in CHW format (first layer, one channel) */
    int in_ch, out_ch;
    int in_h, in_w;         /* input rows and columns (1D: in_w = 1) */
    int pooled_h, pooled_w; /* after pooling */
    int out_h, out_w;
    int passes;      /* input passes: ceil(in_ch / 64) */
    int64_t weights; /* weight count (kernel elements) */
    int64_t bias;    /* bias count (0: no bias) */
    uint64_t macs;
    int is_output;    /* its output is a model output */
    int output_width; /* 8, or 32 for the last layer (wide output) */
    int weight_bits;  /* 8, 4, 2 or 1 (layers with weights) */
    int graph_bits; /* bits of a quantized weight in the graph (DequantizeLinear of an int4 / int8 initializer), 0 */
    int streaming; /* runs in streaming (FIFO) mode: reads its input as rows arrive in a circular buffer */

    /* the plan */
    uint64_t in_mask, out_mask;
    int64_t in_offset, out_offset; /* byte offsets inside every data-memory instance */
    int write_gap;
    int64_t in_bytes, out_bytes; /* per instance: one operand read, output written (without gaps) */
    int kern_offset, kern_len;   /* kernel words: [offset, offset + len) on every input processor */
    int bias_group, bias_offset; /* -1 when no bias */
    uint64_t cycles;
};

/* A problem found while building the program, planning or validating. */
enum mcu_res {
    MCU_R_OPERATOR,   /* unsupported operator or parameter */
    MCU_R_PROCESSORS, /* processor mask */
    MCU_R_CHANNELS,   /* channels per processor / passes */
    MCU_R_DATA,       /* data memory bounds */
    MCU_R_OVERLAP,    /* live tensors overlapping */
    MCU_R_PLACEMENT,  /* an operand is not where its consumer reads it */
    MCU_R_KERNEL,     /* kernel memory */
    MCU_R_BIAS,       /* bias memory */
    MCU_R_LAYERS,     /* layer count */
    MCU_R_RULE,       /* a device rule about one layer's operation (padding, pooling, passes) */
    MCU_R_STREAMING,  /* streaming (FIFO) mode */
};

struct mcu_msg {
    int res;   /* enum mcu_res */
    int layer; /* -1 when not about one layer */
    char text[900];
};

struct mcu_msgs {
    int n, dropped;
    struct mcu_msg m[MCU_MAX_MSGS];
};

void mcu_msg_add(struct mcu_msgs *ms, int res, int layer, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 4, 5)))
#endif
    ;

/* Weight bits per ONNX node (a --weight-bits-file): NAME matches a node whose name equals it or contains "/NAME/"
 * (torch.onnx.export's module paths), as in an ai8x-training QAT policy's "overrides". */
struct mcu_bits_rule {
    const char *name;
    int bits;
    int line; /* in the file, for messages */
};
struct mcu_bits {
    int default_bits; /* 0: the plan's --weight-bits */
    int n;
    struct mcu_bits_rule r[MCU_MAX_LAYERS];
    const char *path;
    int *used;  /* per rule: matched a node (set by the planner) */
    char *text; /* the file's text: the rules' names point into it */
};

struct mcu_plan {
    struct arena ar; /* layers, names, strings */
    const struct mcu_device *dev;
    int weight_bits;             /* the default; every layer carries its own */
    const struct mcu_bits *bits; /* per-node overrides or NULL */
    const char *model;           /* path, for messages */
    const char *dataset;         /* guessed from the input shape, for the YAML */
    struct mcu_layer *layers;
    int n_layers;
    int cap_layers;
    struct mcu_msgs *problems; /* unsupported operators and planning failures (with advice) */
    struct mcu_msgs *notes;    /* things done on the host, folded BN, ... */
    struct mcu_msgs *warnings; /* what the vendor's tool warns about (the plan still fits) */
    int fits;
    int would_fit_4bit, would_fit_larger; /* with 4-bit weights, on dev->larger; -1: not tried */
    double clock_hz;                      /* CNN clock of the latency: --clock, else the device's */
    /* usage */
    int64_t weight_bytes, kern_words_used, bias_bytes, data_peak[MCU_MAX_INST];
    uint64_t cycles;
    double latency_s;
    int passthroughs;
    int streaming_layers; /* layers 0 .. streaming_layers-1 stream */
};

/* program.c: builds plan->layers from the analysed graph g (an_graph) of model m; unsupported operators and parameters go to
 * plan->problems (all of them). Returns NNPERF_OK or an error (out of memory, shapes not concrete) in d. */
enum nnperf_status mcu_build_program(struct mcu_plan *p, const struct ir_graph *g, const struct ir_model *m,
                                     struct diag *d);
/* plan.c */
int mcu_procs_per_pass(int channels, int *passes); /* processors a layer of this many channels enables */
/* Kernel words per input processor for the layer's masks in place (out_mask 0: the contiguous window its output
 * channels need): kernels = output processors spanned x output passes x input passes (flatten: x rows x columns),
 * packed weight_bits to a 72-bit word. */
int mcu_kern_len(const struct mcu_layer *l);
int64_t mcu_data_bytes(const struct mcu_layer *l, int channels, int h, int w, int wide);
/* Bytes per data-memory instance of the tensor layer q writes (q = -1: the network's input): a whole tensor, or
 * the circular buffer a streaming reader keeps of it. The planner and the validator both size blocks with it. */
int64_t mcu_tensor_bytes(const struct mcu_plan *p, int q);
/* Kernel offsets for the masks in place, as the vendor's loader places them: layers that use all 64 processors
 * first, then the others in order, each at the first offset (a multiple of 4) free on all its processors. */
void mcu_place_kernels(struct mcu_plan *p);
uint64_t mcu_layer_cycles(const struct mcu_plan *p, const struct mcu_layer *l);
/* Bias bytes layer l takes in its group: one per output channel, one more for a streaming first layer on a device
 * without streaming bias support (the vendor's loader works around the hardware so, izer/kbias.py). */
int mcu_bias_len(const struct mcu_plan *p, const struct mcu_layer *l);
/* Live range [start, end] (layers) of the tensor layer q writes (q = -1: the input); streaming buffers are all
 * live while the streaming layers run. */
void mcu_lifetime(const struct mcu_plan *p, int q, int *start, int *end);
/* validate.c: checks every device rule (a table of rule functions, one per rule); problems appended to out;
 * returns their number. */
int mcu_validate(const struct mcu_plan *p, struct mcu_msgs *out);
int mcu_popcount(uint64_t m);
/* The data-memory instances a processor mask touches: bit i set when any of processors 4i..4i+3 is (4 processors
 * share one memory instance). */
unsigned mcu_instances(uint64_t mask);
/* the plan behind a public handle (tests and the validator's users) */
struct nnperf_mcu_plan;
struct mcu_plan *mcu_plan_of(struct nnperf_mcu_plan *h);
/* Reads a weight-bits file (docs/map.md: "NAME: BITS" lines, or an ai8x-training QAT policy with weight_bits and
 * overrides). Errors name the file, line and key. */
enum nnperf_status mcu_bits_read(const char *path, struct mcu_bits *b, struct diag *d);
enum nnperf_status mcu_bits_parse(char *text, struct mcu_bits *b,
                                  struct diag *d); /* text: modified in place */
void mcu_bits_free(struct mcu_bits *b);            /* the text and used arrays, not b */
/* render.c */
enum nnperf_status mcu_render(const struct mcu_plan *p, const char *fmt, struct strbuf *sb);

#endif
