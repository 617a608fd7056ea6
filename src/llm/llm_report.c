/* llm_report.c - nnperf_llm_render: the LLM result as a table, JSON (schema "nnperf.llm", docs/llm.md), CSV (one
 * row per prompt and batch) or a self-contained HTML page (Summary, Prefill, Decode and Context tabs: layer
 * tables of the first configuration's prefill and last decode step, KV cache and latency against the context). */
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "llm.h"

static void fmt_bytes(char *b, size_t n, double x)
{
    rep_si(b, n, x, "B");
}

static void fmt_ms(char *b, size_t n, double s)
{
    rep_time(b, n, s);
}

static const char *fits_word(int fits)
{
    return fits < 0 ? "unknown" : fits ? "fits" : "does not fit";
}

/* ---- the columns of a configuration's row and of a phase's layer (fields.h) ---- */

#define R(m) offsetof(struct nnperf_llm_row, m)
#define MS(k_, in_, m_, head_)                                                                               \
    {                                                                                                        \
        .key = k_, .col = {head_, 1, 0, 0, 0}, .in = in_, .kind = RF_NUM, .off = R(m_), .scale = 1e3,        \
        .people = RF_P_TIME                                                                                  \
    }
#define BYTES(k_, in_, m_, head_)                                                                            \
    {                                                                                                        \
        .key = k_, .col = {head_, 1, 0, 0, 0}, .in = in_, .kind = RF_NUM, .off = R(m_), .whole = 1,          \
        .unit = "B"                                                                                          \
    }

/* whether it fits: JSON true/false/null, CSV true/false/empty, the table's words */
static void fits_cell(const void *ctx, const void *row, struct rf_cell *c)
{
    (void)ctx;
    int fits = ((const struct nnperf_llm_row *)row)->fits;
    c->s = fits < 0 ? NULL : fits ? "true" : "false";
    c->text = fits_word(fits);
}

static void fits_json(const void *ctx, const void *row, struct rep_json *j, const char *key)
{
    (void)ctx;
    int fits = ((const struct nnperf_llm_row *)row)->fits;
    if (fits < 0)
        rj_null(j, key);
    else
        rj_bool(j, key, fits);
}

#define JC  RF_MACHINE
#define JT  (RF_JSON | RF_TABLE | RF_HTML)
#define ALL (RF_ALL | RF_HTML)
static const struct rf_field row_fields[] = {
    {.key = "prompt", .col = {"prompt", 1, 0, 0, 0}, .in = ALL, .kind = RF_INT, .off = R(prompt)},
    {.key = "generate", .in = JC, .kind = RF_INT, .off = R(generate)},
    {.key = "batch", .col = {"batch", 1, 0, 0, 0}, .in = ALL, .kind = RF_INT, .off = R(batch)},
    MS("ttft_ms", ALL, ttft_s, "TTFT"),
    MS("tpot_ms", JT, tpot_mean_s, "TPOT mean"),
    MS("tpot_first_ms", JC, tpot_first_s, NULL),
    MS("tpot_last_ms", JC, tpot_last_s, NULL),
    MS("tpot_ms", RF_CSV, tpot_mean_s, NULL),
    {.key = "decode_tokens_per_s",
     .col = {"tokens/s", 1, 0, 0, 0},
     .in = ALL,
     .kind = RF_NUM,
     .off = R(decode_tokens_per_s),
     .people = RF_P_FIX2},
    MS("e2e_ms", ALL, e2e_s, "end to end"),
    BYTES("kv_cache_bytes", ALL, kv_cache_bytes, "KV cache"),
    {.key = "kv_bytes_per_token", .in = JC, .kind = RF_NUM, .off = R(kv_bytes_per_token)},
    BYTES("weight_bytes", JC, weight_bytes, NULL),
    BYTES("activation_bytes", JC, activation_bytes, NULL),
    BYTES("memory_bytes", ALL, memory_bytes, "memory"),
    {.key = "fits",
     .col = {"fits", 0, 0, 0, 0},
     .in = ALL,
     .kind = RF_FN,
     .fn = fits_cell,
     .json = fits_json},
    BYTES("offload_bytes", RF_JSON, offload_bytes, NULL),
    MS("ttft_comm_ms", RF_JSON, ttft_comm_s, NULL),
    MS("tpot_comm_ms", RF_JSON, tpot_comm_s, NULL),
};
#define N_ROW_FIELDS ((int)(sizeof row_fields / sizeof row_fields[0]))

#define LL(m) offsetof(struct llm_layer, m)
#define JH    (RF_JSON | RF_HTML)
static const struct rf_field layer_fields[] = {
    {.key = "name", .col = {"layer", 0, 0, 0, 0}, .in = JH, .kind = RF_STR, .off = LL(name), .hcls = "name"},
    {.key = "op", .col = {"op", 0, 0, 0, 0}, .in = JH, .kind = RF_STR, .off = LL(op)},
    {.key = "class", .in = RF_JSON, .kind = RF_STR, .off = LL(klass)},
    {.key = "bound", .col = {"bound", 0, 0, 0, 0}, .in = JH, .kind = RF_STR, .off = LL(bound)},
    {.key = "ops", .col = {"ops", 1, 0, 0, 0}, .in = JH, .kind = RF_NUM, .off = LL(ops)},
    {.key = "ddr_bytes",
     .col = {"DDR bytes", 1, 0, 0, 0},
     .in = JH,
     .kind = RF_NUM,
     .off = LL(ddr_bytes),
     .unit = "B"},
    {.key = "time_us",
     .col = {"time", 1, 0, 0, 0},
     .in = JH,
     .kind = RF_NUM,
     .off = LL(t_total),
     .scale = 1e6,
     .people = RF_P_TIME},
};
#define N_LAYER_FIELDS ((int)(sizeof layer_fields / sizeof layer_fields[0]))

/* the prediction's expected error (the platform's llm_validation) in words: the table's line; the HTML card's short
 * form is the reports' own (rep_expected_error_short, of a summary with only the expected_error_* members) */
static void band_text(const struct nnperf_llm *l, int lng, char *b, size_t n)
{
    if (!lng) {
        struct nnperf_prediction_summary s;
        memset(&s, 0, sizeof s);
        s.expected_error_rows = l->band.rows;
        s.expected_error_median = l->band.median;
        s.expected_error_p90 = l->band.p90;
        rep_expected_error_short(&s, b, n);
    } else if (l->band.rows <= 0)
        snprintf(b, n, "not validated (%s)",
                 l->platform_changed ? "the platform was changed with --set"
                                     : "no LLM test rows of this platform in bench/llm");
    else
        c_snprintf(b, n,
                   "+-%.0f%% median, +-%.0f%% at the 90th percentile (|error| over %d LLM test rows, "
                   "bench/llm)",
                   100 * l->band.median, 100 * l->band.p90, l->band.rows);
}

/* ---- table ---- */

static const char *const lengths_word[] = {"fixed", "uniform", "exponential"};

static void table_serve(const struct nnperf_llm *l, struct strbuf *sb)
{
    const struct nnperf_serve_options *o = &l->serve_opts;
    const struct nnperf_serve_result *s = &l->serve;
    char a[48], b[48], c[48];
    sb_printf(sb, "\nserving: %d requests, ", s->requests);
    if (o->trace)
        sb_printf(sb, "arrivals and lengths of the trace %s\n", o->trace);
    else {
        if (o->rate > 0)
            sb_printf(sb, "Poisson arrivals at %.6g requests/s", o->rate);
        else
            sb_printf(sb, "concurrency %d", o->concurrency);
        sb_printf(sb, ", prompt %d and output %d tokens (%s), seed %llu\n", o->prompt, o->output,
                  lengths_word[o->lengths], o->seed);
    }
    sb_printf(sb, "  KV cache: %.0f blocks of %d tokens, chunk %d tokens, at most %d sequences per step\n",
              s->kv_blocks, o->block_size, o->chunk, o->max_batch);
    sb_printf(sb, "  %-22s %12s %12s %12s\n", "", "p50", "p90", "p99");
    const char *names[3] = {"time to first token", "time per output token", "end to end"};
    const double *v[3] = {s->ttft_s, s->tpot_s, s->e2e_s};
    for (int k = 0; k < 3; k++) {
        fmt_ms(a, sizeof a, v[k][0]), fmt_ms(b, sizeof b, v[k][1]), fmt_ms(c, sizeof c, v[k][2]);
        sb_printf(sb, "  %-22s %12s %12s %12s\n", names[k], a, b, c);
    }
    fmt_ms(a, sizeof a, s->duration_s);
    sb_printf(sb, "  output tokens/s          %.2f\n", s->output_tokens_per_s);
    sb_printf(sb, "  input tokens/s           %.2f\n", s->input_tokens_per_s);
    sb_printf(sb, "  requests/s               %.4g (%d steps in %s)\n", s->requests_per_s, s->steps, a);
    sb_printf(sb, "  mean decode batch        %.2f\n", s->mean_decode_batch);
    sb_printf(sb, "  KV cache occupancy       mean %.1f%%, peak %.1f%%; %d preemptions\n",
              100 * s->kv_occupancy_mean, 100 * s->kv_occupancy_peak, s->preemptions);
    if (s->slo_searched) {
        sb_printf(sb, "  latency target           p%d", o->slo_percentile);
        if (o->slo_ttft_s > 0) fmt_ms(a, sizeof a, o->slo_ttft_s), sb_printf(sb, " TTFT <= %s", a);
        if (o->slo_tpot_s > 0) fmt_ms(a, sizeof a, o->slo_tpot_s), sb_printf(sb, " TPOT <= %s", a);
        if (s->slo_rate > 0) {
            fmt_ms(a, sizeof a, s->slo_ttft_s), fmt_ms(b, sizeof b, s->slo_tpot_s);
            sb_printf(sb, ": met up to %.4g requests/s (there TTFT %s, TPOT %s)\n", s->slo_rate, a, b);
        } else
            sb_puts(sb, ": met at no rate\n");
    }
}

static void table(const struct nnperf_llm *l, struct strbuf *sb)
{
    char a[48], b[48], c[48], d[48];
    const struct nnperf_llm_row *r = &l->rows[0];
    sb_printf(sb, "model: %s\nplatform: %s, weights %s, KV cache %s, compute %s\n", l->model, l->platform,
              l->weights, l->kv, l->compute ? l->compute : "default");
    if (l->has_kv_cache)
        sb_printf(sb, "KV cache: %d layers x %d KV heads x %d head dim, keys and values\n", l->layers,
                  l->kv_heads, l->head_dim);
    else
        sb_puts(sb, "KV cache: none (each decode step re-runs the whole sequence)\n");
    sb_printf(sb, "\nprompt %d tokens, %d generated, batch %d\n", r->prompt, r->generate, r->batch);
    fmt_ms(a, sizeof a, r->ttft_s);
    sb_printf(sb, "  time to first token      %s\n", a);
    fmt_ms(a, sizeof a, r->tpot_first_s), fmt_ms(b, sizeof b, r->tpot_last_s),
        fmt_ms(c, sizeof c, r->tpot_mean_s);
    sb_printf(sb, "  time per output token    first %s, last %s, mean %s\n", a, b, c);
    sb_printf(sb, "  decode tokens/s          %.2f\n", r->decode_tokens_per_s);
    if (l->spec_tokens)
        sb_printf(sb,
                  "  speculative decoding     %d draft tokens accepted at %.3g: %.4g tokens per target step "
                  "(time per output token is per token)\n",
                  l->spec_tokens, l->spec_accept, l->spec_per_step);
    fmt_ms(a, sizeof a, r->e2e_s);
    sb_printf(sb, "  end to end               %s\n", a);
    fmt_bytes(a, sizeof a, r->kv_cache_bytes), fmt_bytes(b, sizeof b, r->kv_bytes_per_token);
    sb_printf(sb, "  KV cache                 %s after %d tokens (%.0f bytes exactly; %s per token)\n", a,
              r->prompt + r->generate, r->kv_cache_bytes, b);
    fmt_bytes(a, sizeof a, r->weight_bytes), fmt_bytes(b, sizeof b, r->kv_cache_bytes);
    fmt_bytes(c, sizeof c, r->activation_bytes), fmt_bytes(d, sizeof d, r->memory_bytes);
    if (l->tp * l->pp > 1) {
        fmt_ms(a, sizeof a, r->ttft_comm_s), fmt_ms(b, sizeof b, r->tpot_comm_s);
        sb_printf(
            sb,
            "  interconnect             %s of the first token, %s per output token (tensor %d x pipeline "
            "%d = %d devices",
            a, b, l->tp, l->pp, l->tp * l->pp);
        if (l->pp > 1) sb_printf(sb, "; %d micro-batch%s", l->microbatches, l->microbatches > 1 ? "es" : "");
        sb_puts(sb, ")\n");
        fmt_bytes(a, sizeof a, r->weight_bytes), fmt_bytes(b, sizeof b, r->kv_cache_bytes);
    }
    sb_printf(sb, "  memory%s weights %s + KV cache %s + activations %s = %s",
              l->tp * l->pp > 1 ? " per device       " : "                  ", a, b, c, d);
    if (l->device_bytes > 0) {
        fmt_bytes(a, sizeof a, l->device_bytes);
        sb_printf(sb, " of %s", a);
        if (l->reserved_bytes > 0) {
            fmt_bytes(a, sizeof a, l->device_bytes - l->reserved_bytes),
                fmt_bytes(b, sizeof b, l->reserved_bytes);
            sb_printf(sb, " (%s after the runtime's reserve of %s)", a, b);
        }
        sb_printf(sb, ": %s\n", fits_word(r->fits));
        if (r->offload_bytes > 0) {
            fmt_bytes(a, sizeof a, r->offload_bytes);
            sb_printf(sb, "  offloaded                %s of weights streamed from host memory every step\n",
                      a);
        }
        sb_printf(sb,
                  "  largest batch that fits  %d (at %d tokens); largest context at batch %d: %d tokens%s\n",
                  l->max_batch, r->prompt + r->generate, r->batch, l->max_context,
                  l->position_limit && l->max_context == l->position_limit ? " (the model's position limit)"
                  : !l->position_limit ? " (memory only: the model's position limit is unknown)"
                                       : "");
    } else
        sb_puts(sb, " (device memory unknown)\n");
    if (l->position_limit)
        sb_printf(sb, "  position limit           %d tokens (%s)\n", l->position_limit, l->position_of);
    char xe[256];
    band_text(l, 1, xe, sizeof xe);
    sb_printf(sb, "  expected error           %s\n", xe);
    if (l->n_rows > 1) {
        sb_putc(sb, '\n');
        struct rf_rows w;
        rf_begin(&w, NNPERF_FORMAT_TABLE, row_fields, N_ROW_FIELDS, NULL, sb, NULL, NULL);
        for (int i = 0; i < l->n_rows; i++) rf_row(&w, &l->rows[i]);
        rf_end(&w, sb, 0, 0, NULL);
    }
    if (l->served) table_serve(l, sb);
    if (l->n_warn) {
        sb_printf(sb, "\nwarnings (%d):\n", l->n_warn);
        for (int i = 0; i < l->n_warn; i++) sb_printf(sb, "  %s\n", l->warn[i]);
    }
}

/* ---- JSON ---- */

/* a quantity kept as a double that counts whole things (bytes, tokens): written as an integer */
static void rj_whole(struct rep_json *j, const char *key, double x)
{
    rj_num(j, key, nearbyint(x));
}

static void json_phase(struct rep_json *j, const char *key, const struct llm_phase *ph)
{
    rj_obj(j, key, 0);
    rj_int(j, "batch", ph->batch);
    rj_int(j, "sequence", ph->seq);
    rj_int(j, "past", ph->past);
    rj_num(j, "latency_ms", ph->latency_s * 1e3);
    rj_num(j, "ddr_bytes", ph->ddr_bytes);
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_JSON, layer_fields, N_LAYER_FIELDS, NULL, NULL, j, "layers");
    for (int i = 0; i < ph->n_layers; i++) rf_row(&w, &ph->layers[i]);
    rf_end(&w, NULL, 0, 0, NULL);
    rj_end(j);
}

/* {"p50": ..., "p90": ..., "p99": ...} of three times in seconds, in ms */
static void json_percentiles(struct rep_json *j, const char *key, const double *v)
{
    rj_obj(j, key, 0);
    rj_num(j, "p50", v[0] * 1e3);
    rj_num(j, "p90", v[1] * 1e3);
    rj_num(j, "p99", v[2] * 1e3);
    rj_end(j);
}

static void json_serve(const struct nnperf_llm *l, struct rep_json *j)
{
    const struct nnperf_serve_options *o = &l->serve_opts;
    const struct nnperf_serve_result *s = &l->serve;
    rj_obj(j, "serve", 0);
    rj_int(j, "requests", s->requests);
    rj_num(j, "rate", o->rate);
    rj_int(j, "concurrency", o->concurrency);
    rj_int(j, "prompt", o->prompt);
    rj_int(j, "output", o->output);
    rj_str(j, "lengths", lengths_word[o->lengths]);
    rj_uint(j, "seed", o->seed);
    rj_str(j, "trace", o->trace);
    rj_int(j, "block_size", o->block_size);
    rj_int(j, "chunk", o->chunk);
    rj_int(j, "max_batch", o->max_batch);
    json_percentiles(j, "ttft_ms", s->ttft_s);
    json_percentiles(j, "tpot_ms", s->tpot_s);
    json_percentiles(j, "e2e_ms", s->e2e_s);
    rj_num(j, "duration_s", s->duration_s);
    rj_int(j, "steps", s->steps);
    rj_int(j, "preemptions", s->preemptions);
    rj_num(j, "output_tokens_per_s", s->output_tokens_per_s);
    rj_num(j, "input_tokens_per_s", s->input_tokens_per_s);
    rj_num(j, "requests_per_s", s->requests_per_s);
    rj_num(j, "mean_decode_batch", s->mean_decode_batch);
    rj_whole(j, "kv_blocks", s->kv_blocks);
    rj_num(j, "kv_occupancy_mean", s->kv_occupancy_mean);
    rj_num(j, "kv_occupancy_peak", s->kv_occupancy_peak);
    rj_arr(j, "kv_series", 0);
    for (int i = 0; i < s->n_series; i++) {
        rj_obj(j, NULL, 0);
        rj_num(j, "t_s", s->series_t[i]);
        rj_num(j, "kv_occupancy", s->series_kv[i]);
        rj_num(j, "running", s->series_running[i]);
        rj_end(j);
    }
    rj_end(j);
    if (s->slo_searched) {
        rj_obj(j, "slo", 0);
        rj_int(j, "percentile", o->slo_percentile);
        rj_num(j, "ttft_ms", o->slo_ttft_s * 1e3);
        rj_num(j, "tpot_ms", o->slo_tpot_s * 1e3);
        rj_num(j, "max_rate", s->slo_rate);
        rj_num(j, "ttft_ms_at_max_rate", s->slo_ttft_s * 1e3);
        rj_num(j, "tpot_ms_at_max_rate", s->slo_tpot_s * 1e3);
        rj_end(j);
    }
    rj_end(j);
}

static void json(const struct nnperf_llm *l, struct strbuf *sb)
{
    struct rep_json j;
    rj_init(&j, sb);
    rj_obj(&j, NULL, 1);
    rj_header(&j, "nnperf.llm", 1);
    rj_str(&j, "model", l->model);
    rj_str(&j, "platform", l->platform);
    rj_obj(&j, "dtypes", 0);
    rj_str(&j, "weights", l->weights);
    rj_str(&j, "kv", l->kv);
    rj_str(&j, "compute", l->compute ? l->compute : "default");
    rj_end(&j);
    rj_obj(&j, "kv_cache", 0);
    rj_bool(&j, "present", l->has_kv_cache);
    rj_int(&j, "layers", l->layers);
    rj_int(&j, "kv_heads", l->kv_heads);
    rj_int(&j, "head_dim", l->head_dim);
    rj_end(&j);
    rj_whole(&j, "device_bytes", l->device_bytes);
    rj_whole(&j, "reserved_bytes", l->reserved_bytes);
    rj_num(&j, "kv_fraction", l->kv_fraction);
    rj_int(&j, "position_limit", l->position_limit);
    rj_obj(&j, "parallel", 0);
    rj_int(&j, "tp", l->tp);
    rj_int(&j, "pp", l->pp);
    rj_int(&j, "devices", l->tp * l->pp);
    rj_int(&j, "microbatches", l->microbatches);
    rj_end(&j);
    if (l->spec_tokens) {
        rj_obj(&j, "speculative", 0);
        rj_int(&j, "draft_tokens", l->spec_tokens);
        rj_num(&j, "acceptance", l->spec_accept);
        rj_num(&j, "tokens_per_step", l->spec_per_step);
        rj_end(&j);
    }
    rj_obj(&j, "summary", 0); /* the first configuration's row and what fits */
    rf_json_members(&j, row_fields, N_ROW_FIELDS, NULL, &l->rows[0]);
    rj_int(&j, "max_batch", l->max_batch);
    rj_int(&j, "max_context", l->max_context);
    if (l->band.rows > 0) { /* the platform's llm_validation: how far to trust the numbers above */
        rj_obj(&j, "expected_error", 0);
        rj_num(&j, "median", l->band.median);
        rj_num(&j, "p90", l->band.p90);
        rj_int(&j, "test_rows", l->band.rows);
        rj_end(&j);
    } else
        rj_null(&j, "expected_error");
    rj_end(&j);
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_JSON, row_fields, N_ROW_FIELDS, NULL, sb, &j, "rows");
    for (int i = 0; i < l->n_rows; i++) rf_row(&w, &l->rows[i]);
    rf_end(&w, sb, 0, 0, NULL);
    rj_arr(&j, "decode_points", 0);
    for (int i = 0; i < l->n_points; i++) {
        rj_obj(&j, NULL, 0);
        rj_whole(&j, "context", l->point_ctx[i]);
        rj_num(&j, "tpot_ms", l->point_s[i] * 1e3);
        rj_end(&j);
    }
    rj_end(&j);
    json_phase(&j, "prefill", &l->prefill);
    json_phase(&j, "decode", &l->last_decode);
    if (l->served) json_serve(l, &j);
    rj_arr(&j, "warnings", 1);
    for (int i = 0; i < l->n_warn; i++) rj_str(&j, NULL, l->warn[i]);
    rj_end(&j);
    rj_end(&j);
}

/* ---- CSV ---- */

static void csv(const struct nnperf_llm *l, struct strbuf *sb)
{
    struct rf_rows w;
    rf_begin(&w, NNPERF_FORMAT_CSV, row_fields, N_ROW_FIELDS, NULL, sb, NULL, NULL);
    for (int i = 0; i < l->n_rows; i++) rf_row(&w, &l->rows[i]);
    rf_end(&w, sb, 0, 0, NULL);
}

/* ---- HTML ---- */

static void html_layers(const struct llm_phase *ph, const char *id, struct strbuf *sb)
{
    char a[64];
    snprintf(a, sizeof a, "%d layers; batch %d, sequence %d, past %d: ", ph->n_layers, ph->batch, ph->seq,
             ph->past);
    sb_puts(sb, "<p>");
    rep_esc(sb, a);
    fmt_ms(a, sizeof a, ph->latency_s);
    rep_esc(sb, a);
    sb_puts(sb, "</p>\n");
    struct rf_rows w;
    rf_begin_html(&w, layer_fields, N_LAYER_FIELDS, NULL, sb, id, "layers", ph->n_layers, -1);
    for (int i = 0; i < ph->n_layers; i++) rf_row(&w, &ph->layers[i]);
    rf_end(&w, sb, 0, 0, NULL);
}

static void html(const struct nnperf_llm *l, struct strbuf *sb)
{
    const struct nnperf_llm_row *r = &l->rows[0];
    char sub[512], a[64], b[64];
    snprintf(sub, sizeof sub,
             "%s on %s: prompt %d, %d generated, batch %d; weights %s, KV cache %s, compute %s", l->model,
             l->platform, r->prompt, r->generate, r->batch, l->weights, l->kv,
             l->compute ? l->compute : "default");
    static const struct rep_tab tabs[] = {
        {"summary", "Summary"}, {"prefill", "Prefill"}, {"decode", "Decode"}, {"context", "Context"}};
    rh_page_open(sb, "nnperf: LLM inference", sub);
    rh_nav(sb, tabs, 4);
    rh_tab_open(sb, "summary", "Time, throughput and memory", 1);
    sb_puts(sb, "<div class=\"cards\">\n");
    fmt_ms(a, sizeof a, r->ttft_s);
    rh_card(sb, "time to first token", a);
    fmt_ms(a, sizeof a, r->tpot_mean_s);
    rh_card(sb, "time per output token (mean)", a);
    c_snprintf(a, sizeof a, "%.2f", r->decode_tokens_per_s);
    rh_card(sb, "decode tokens/s", a);
    fmt_ms(a, sizeof a, r->e2e_s);
    rh_card(sb, "end to end", a);
    fmt_bytes(a, sizeof a, r->kv_cache_bytes);
    rh_card(sb, "KV cache at the end", a);
    fmt_bytes(a, sizeof a, r->memory_bytes);
    if (l->device_bytes > 0) {
        fmt_bytes(b, sizeof b, l->device_bytes);
        snprintf(a + strlen(a), sizeof a - strlen(a), " of %s", b);
    }
    rh_card(sb, fits_word(r->fits), a);
    char xe[96];
    band_text(l, 0, xe, sizeof xe);
    rh_card(sb, "expected error", xe);
    sb_puts(sb, "</div>\n");
    struct rf_rows w;
    rf_begin_html(&w, row_fields, N_ROW_FIELDS, NULL, sb, "rows", "configurations", l->n_rows, -1);
    for (int i = 0; i < l->n_rows; i++) rf_row(&w, &l->rows[i]);
    rf_end(&w, sb, 0, 0, NULL);
    if (l->n_warn) {
        sb_puts(sb, "<div class=\"warn\"><b>warnings</b><ul>");
        for (int i = 0; i < l->n_warn; i++) {
            sb_puts(sb, "<li>");
            rep_esc(sb, l->warn[i]);
            sb_puts(sb, "</li>");
        }
        sb_puts(sb, "</ul></div>\n");
    }
    rh_tab_close(sb);
    rh_tab_open(sb, "prefill", "Prefill (time to first token)", 0);
    html_layers(&l->prefill, "prefill-layers", sb);
    rh_tab_close(sb);
    rh_tab_open(sb, "decode", "Last decode step", 0);
    html_layers(&l->last_decode, "decode-layers", sb);
    rh_tab_close(sb);
    rh_tab_open(sb, "context", "KV cache and latency against the context", 0);
    /* KV cache of the first configuration's batch, linear in the context, up to the model's context (its position
     * limit; 2x the generation's end where it is unknown), or less where the memory runs out first */
    double end = r->prompt + r->generate, cmax = l->position_limit > 0 ? l->position_limit : 2 * end;
    if (l->max_context > end && l->max_context < cmax) cmax = l->max_context;
    double kx[2] = {0, cmax}, ky[2] = {0, r->kv_bytes_per_token * r->batch * cmax / 1e6};
    struct rep_series ks = {"KV cache (MB)", 2, kx, ky, NULL};
    char knote[160];
    const char *kn = knote;
    if (cmax == l->max_context && l->max_context != l->position_limit)
        snprintf(knote, sizeof knote, "up to the largest context that fits the memory at batch %d: %d tokens",
                 r->batch, l->max_context);
    else if (l->position_limit > 0)
        snprintf(knote, sizeof knote, "up to the model's position limit: %d tokens", l->position_limit);
    else
        c_snprintf(knote, sizeof knote,
                   "up to 2x the generation's end (%.0f tokens): the model's position limit is "
                   "unknown",
                   2 * end);
    struct rep_plot kp = {"KV cache against the context", "context (tokens)", "MB", 0, 0, 0, 0, &kn, 1};
    sb_puts(sb, "<div class=\"plot\">");
    rp_lines(&kp, &ks, 1, sb, 0);
    sb_puts(sb, "</div>\n");
    double ty[LLM_MAX_POINTS];
    for (int i = 0; i < l->n_points; i++) ty[i] = l->point_s[i] * 1e3;
    struct rep_series ts = {"decode step (ms)", l->n_points, l->point_ctx, ty, NULL};
    struct rep_plot tp = {
        "Time per output token against the context", "context (tokens)", "ms", 0, 0, 0, 0, NULL, 0};
    sb_puts(sb, "<div class=\"plot\">");
    rp_lines(&tp, &ts, 1, sb, 0);
    sb_puts(sb, "</div>\n");
    rh_tab_close(sb);
    rh_page_close(sb);
}

enum nnperf_status nnperf_llm_render(const struct nnperf_llm *l, enum nnperf_format fmt, char **out,
                                     size_t *len, char *err, size_t errlen)
{
    struct strbuf sb;
    sb_init(&sb, (size_t)64 << 20);
    switch (fmt) {
    case NNPERF_FORMAT_JSON: json(l, &sb); break;
    case NNPERF_FORMAT_CSV: csv(l, &sb); break;
    case NNPERF_FORMAT_HTML: html(l, &sb); break;
    default: table(l, &sb); break;
    }
    return rep_finish_as(&sb, fmt, out, len, err, errlen);
}
