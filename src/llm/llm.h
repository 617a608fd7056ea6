/* llm.h - LLM inference predictions (`nnperf llm`, docs/llm.md): the result of nnperf_llm, shared by the driver
 * (llm.c: binding the decoder's dims, prefill and decode predictions, KV cache and memory) and its writers
 * (llm_report.c: table, JSON, CSV, HTML). The result owns copies of everything it reports. */
#ifndef NNPERF_LLM_H
#define NNPERF_LLM_H

#include "../predict/predict.h"
#include "../report/render.h"

#define LLM_MAX_POINTS       64
#define LLM_MAX_ROWS         4096
#define LLM_MAX_DIM          ((int64_t)1 << 40) /* the largest value of a dim binding */
#define LLM_MAX_DEVICES      1024               /* tensor x pipeline parallelism */
#define LLM_MAX_MICROBATCHES 4096               /* pipeline micro-batches per batch */

/* the tensor parallelism a model's producer name says it is one device's shard of: "nnperf-llm-config tp=N" (a
 * decoder built by nnperf_llm_config_load_tp, config.c); 1 for any other */
int llm_shard_of(const char *producer);

/* one layer of a kept phase (copied from the prediction) */
struct llm_layer {
    const char *name, *op, *klass, *bound;
    double ops, ddr_bytes, weight_bytes, t_total;
};

/* a predicted phase: one prefill or one decode step */
struct llm_phase {
    int batch, seq, past;
    double latency_s, ddr_bytes, ops;
    int n_layers;
    struct llm_layer *layers; /* kept for the first configuration's prefill and last decode step only */
};

struct nnperf_llm {
    struct arena ar;
    const char *model, *platform;
    const char *weights, *kv, *compute; /* dtype names as used ("model" = the model's own) */
    int has_kv_cache, layers, kv_heads, head_dim;
    double device_bytes, reserved_bytes, kv_fraction;
    /* the platform's llm_validation (rows 0: not validated, or changed with --set after loading: platform_changed) */
    struct hw_val_family band;
    int platform_changed;
    int max_batch, max_context;
    int position_limit;      /* 0 unknown */
    const char *position_of; /* where the limit comes from ("rotary table 'cos_cache' [8192, 64]") */
    struct nnperf_llm_row *rows;
    int n_rows;
    struct llm_phase prefill, last_decode; /* first configuration, with layers */
    /* first configuration's decode samples: context (past + 1) and step latency */
    int n_points;
    double point_ctx[LLM_MAX_POINTS], point_s[LLM_MAX_POINTS];
    const char **warn;
    int n_warn, cap_warn;
    int tp, pp;           /* tensor and pipeline parallelism */
    int microbatches;     /* pipeline parallelism: micro-batches per batch (1 with pp 1) */
    double hidden, vocab; /* the token embedding's width and (this device's) rows; 0 not found */
    double embed_bytes,
        head_bytes;  /* the embedding table and the LM head at the weight dtype (tied: the same) */
    int tied;        /* the LM head reads the embedding table */
    int spec_tokens; /* speculative decoding: draft tokens per verification (0: none) */
    double spec_accept, spec_per_step; /* acceptance rate, expected tokens per verification */
    int served;
    struct nnperf_serve_result serve;
    struct nnperf_serve_options serve_opts; /* with defaults resolved */
};

/* the serving simulation (serve.c): its options with defaults resolved, the KV cache, and a price of one phase */
struct llm_serve_in {
    struct nnperf_serve_options o;
    double kv_bytes_per_token, kv_capacity_bytes;
    int position_limit;
    enum nnperf_status (*price)(void *ctx, int batch, int seq, int past, double *t);
    void *ctx;
};
enum nnperf_status llm_serve_run(const struct llm_serve_in *in, struct nnperf_serve_result *res,
                                 struct diag *d);

#endif
