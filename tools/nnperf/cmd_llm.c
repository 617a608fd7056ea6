/* cmd_llm.c - `nnperf llm MODEL.onnx --hw P`: prefill and decode of a decoder-only language model (time to first
 * token, time per output token, tokens/s, KV cache, memory fit) over prompt lengths and batch sizes. A thin client
 * of nnperf_llm (include/nnperf.h; docs/llm.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

int cmd_llm(const struct cli_args *a)
{
    const char *model = a->n_operands ? a->operands[0] : NULL, *hw = cli_str(a, OPT_HW),
               *config = cli_str(a, OPT_CONFIG);
    if (!model == !config) {
        cli_error(model ? "llm: give a model or --config, not both"
                        : "llm: no model given (MODEL.onnx or --config "
                          "CONFIG.json; see 'nnperf help llm')");
        return 2;
    }
    if (!hw) {
        cli_error("llm: --hw is required (see 'nnperf help llm')");
        return 2;
    }
    struct nnperf_llm_options o = {
        .prompts = a->v[OPT_PROMPT].i,
        .n_prompts = a->v[OPT_PROMPT].n,
        .generate = a->v[OPT_GENERATE].n ? a->v[OPT_GENERATE].i[0] : 0,
        .batches = a->v[OPT_LLM_BATCH].i,
        .n_batches = a->v[OPT_LLM_BATCH].n,
        .weights = cli_str(a, OPT_WEIGHTS),
        .kv = cli_str(a, OPT_KV),
        .compute = cli_str(a, OPT_COMPUTE),
        .decode_points = a->v[OPT_DECODE_POINTS].n ? a->v[OPT_DECODE_POINTS].i[0] : 0,
        .dims = a->v[OPT_DIM].s,
        .n_dims = a->v[OPT_DIM].n,
        .allow_offload = cli_flag(a, OPT_ALLOW_OFFLOAD),
        .tp = a->v[OPT_TP].n ? a->v[OPT_TP].i[0] : 0,
        .pp = a->v[OPT_PP].n ? a->v[OPT_PP].i[0] : 0,
        .microbatches = a->v[OPT_MICROBATCHES].n ? a->v[OPT_MICROBATCHES].i[0] : 0,
        .spec_tokens = a->v[OPT_SPEC_TOKENS].n ? a->v[OPT_SPEC_TOKENS].i[0] : 0,
        .spec_accept = a->v[OPT_ACCEPT].n ? a->v[OPT_ACCEPT].d[0] : 0,
    };
    const char *draft = cli_str(a, OPT_DRAFT);
    if (!draft != !a->v[OPT_ACCEPT].n || (!draft && a->v[OPT_SPEC_TOKENS].n)) {
        cli_error("llm: --draft MODEL and --accept A go together (and --spec-tokens with them)");
        return 2;
    }
    struct nnperf_serve_options so = {
        .requests = a->v[OPT_REQUESTS].n ? a->v[OPT_REQUESTS].i[0] : 0,
        .rate = a->v[OPT_RATE].n ? a->v[OPT_RATE].d[0] : 0,
        .concurrency = a->v[OPT_CONCURRENCY].n ? a->v[OPT_CONCURRENCY].i[0] : 0,
        .seed = a->v[OPT_SEED].n ? (unsigned long long)a->v[OPT_SEED].i[0] : 0,
        .lengths = a->v[OPT_LENGTHS].n ? a->v[OPT_LENGTHS].i[0] : NNPERF_LENGTHS_FIXED,
        .block_size = a->v[OPT_BLOCK_SIZE].n ? a->v[OPT_BLOCK_SIZE].i[0] : 0,
        .chunk = a->v[OPT_CHUNK].n ? a->v[OPT_CHUNK].i[0] : 0,
        .max_batch = a->v[OPT_MAX_BATCH].n ? a->v[OPT_MAX_BATCH].i[0] : 0,
        .trace = cli_str(a, OPT_TRACE),
        .slo_ttft_s = a->v[OPT_SLO_TTFT].n ? a->v[OPT_SLO_TTFT].d[0] / 1e3 : 0,
        .slo_tpot_s = a->v[OPT_SLO_TPOT].n ? a->v[OPT_SLO_TPOT].d[0] / 1e3 : 0,
        .slo_percentile = a->v[OPT_SLO_PERCENTILE].n ? (a->v[OPT_SLO_PERCENTILE].i[0] ? 99 : 90) : 0,
    };
    int serve_given = a->v[OPT_REQUESTS].n || a->v[OPT_RATE].n || a->v[OPT_CONCURRENCY].n ||
                      a->v[OPT_SEED].n || a->v[OPT_LENGTHS].n || a->v[OPT_BLOCK_SIZE].n ||
                      a->v[OPT_CHUNK].n || a->v[OPT_MAX_BATCH].n || a->v[OPT_TRACE].n ||
                      a->v[OPT_SLO_TTFT].n || a->v[OPT_SLO_TPOT].n || a->v[OPT_SLO_PERCENTILE].n;
    if (cli_flag(a, OPT_SERVE)) {
        if ((so.rate > 0) + (so.concurrency > 0) + !!so.trace != 1) {
            cli_error(
                "llm: --serve needs --rate R (requests/s), --concurrency C or --trace FILE, one of them");
            return 2;
        }
        o.serve = &so;
    } else if (serve_given) {
        cli_error(
            "llm: --rate, --concurrency, --trace, --requests, --lengths, --seed, --block-size, --chunk, "
            "--max-batch and --slo-* go with --serve");
        return 2;
    }
    struct cli_run r;
    if (cli_run_init(a, &r)) return 2;
    char err[1024];
    struct nnperf_platform *p;
    if (cli_load_platform(a, hw, &p)) return 2;
    struct nnperf_model *m;
    if (config ? nnperf_llm_config_load_tp(config, o.tp ? o.tp : 1, &m, err, sizeof err) != NNPERF_OK
               : cli_load_model(model, NULL, &m)) {
        if (config) cli_error("%s", err);
        nnperf_platform_free(p);
        return 2;
    }
    struct nnperf_model *dm = NULL;
    if (draft) {
        size_t n = strlen(draft);
        int is_cfg = n > 5 && !strcmp(draft + n - 5, ".json");
        if (is_cfg ? nnperf_llm_config_load(draft, &dm, err, sizeof err) != NNPERF_OK
                   : cli_load_model(draft, NULL, &dm)) {
            if (is_cfg) cli_error("%s", err);
            nnperf_model_free(m);
            nnperf_platform_free(p);
            return 2;
        }
        o.draft = dm;
    }
    struct nnperf_llm *l;
    int rc = 2;
    if (nnperf_llm(m, p, &o, &l, err, sizeof err) != NNPERF_OK)
        cli_error("%s", err);
    else {
        char *buf;
        size_t len;
        if (nnperf_llm_render(l, r.fmt, &buf, &len, err, sizeof err) != NNPERF_OK)
            cli_error("%s", err);
        else {
            rc = cli_write_output(a, buf, len);
            free(buf);
        }
        nnperf_llm_free(l);
    }
    nnperf_model_free(dm);
    nnperf_model_free(m);
    nnperf_platform_free(p);
    return rc;
}
