/* llm.c - nnperf_llm: prefill and decode predictions of a decoder-only model (docs/llm.md).
 *
 * The model's inputs are read once: input_ids, attention_mask, position_ids and the KV cache inputs (past_*), and
 * the symbols of their dims are classified by name (batch, sequence, past and total sequence lengths, in the
 * spellings of HF Optimum and ONNX Runtime GenAI), expressions such as "past_sequence_length + sequence_length"
 * included. For each phase (batch B, sequence S, past P) every input gets a concrete shape, the model is analysed
 * and predicted through the public API, and the numbers are copied out; the analysis and prediction are freed
 * before the next phase (so one loaded model serves every phase). Decode steps (S = 1, P = N .. N+M-1) are
 * predicted at a few past lengths and summed over every step by linear interpolation. */
#include "llm.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LLM_MAX_WARNINGS 200
#define LLM_MAX_INPUTS   1024

static void add_msg(struct nnperf_llm *l, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    ar_append_msg(&l->ar, &l->warn, &l->n_warn, &l->cap_warn, LLM_MAX_WARNINGS, fmt, ap);
    va_end(ap);
}

void llm_warn(struct nnperf_llm *l, const char *fmt, ...)
{
    char msg[600];
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    for (int i = 0; i < l->n_warn; i++)
        if (!strcmp(l->warn[i], msg)) return; /* every phase says the same: once */
    add_msg(l, "%s", msg);
}

/* ---- dims by name ---- */

enum { R_NONE = -1, R_BATCH, R_SEQ, R_PAST, R_TOTAL };

static const struct {
    const char *name;
    int role;
} dim_names[] = {
    {"batch", R_BATCH},
    {"batch_size", R_BATCH},
    {"bs", R_BATCH},
    {"sequence", R_SEQ},
    {"sequence_length", R_SEQ},
    {"seq", R_SEQ},
    {"seq_len", R_SEQ},
    {"seq_length", R_SEQ},
    {"decoder_sequence_length", R_SEQ},
    {"past_sequence", R_PAST},
    {"past_sequence_length", R_PAST},
    {"past_seq_len", R_PAST},
    {"past_length", R_PAST},
    {"past_len", R_PAST},
    {"past_decoder_sequence_length", R_PAST},
    {"total_sequence", R_TOTAL},
    {"total_sequence_length", R_TOTAL},
    {"total_seq_len", R_TOTAL},
    {"total_length", R_TOTAL},
    {"all_sequence_length", R_TOTAL},
};

struct binding {
    int64_t v[4];             /* by role */
    const char *const *extra; /* "NAME=N" given by the caller */
    int n_extra;
};

static int lookup_name(const struct binding *b, const char *s, size_t n, int64_t *out)
{
    for (size_t i = 0; i < sizeof dim_names / sizeof dim_names[0]; i++)
        if (strlen(dim_names[i].name) == n && !strncmp(dim_names[i].name, s, n)) {
            *out = b->v[dim_names[i].role];
            return 1;
        }
    for (int i = 0; i < b->n_extra; i++) {
        const char *eq = strchr(b->extra[i], '=');
        if (eq && (size_t)(eq - b->extra[i]) == n && !strncmp(b->extra[i], s, n)) {
            char *end;
            long long v = strtoll(eq + 1, &end, 10);
            if (*end || v < 0) return 0;
            *out = v;
            return 1;
        }
    }
    return 0;
}

/* A tiny evaluator for dim expressions: sums and differences of products of names and integers. */
struct ex {
    const char *p;
    const struct binding *b;
    int ok;
};

static void ex_ws(struct ex *e)
{
    while (*e->p == ' ') e->p++;
}

static int64_t ex_sum(struct ex *e, int depth);

static int64_t ex_atom(struct ex *e, int depth)
{
    ex_ws(e);
    int64_t v = 0;
    if (*e->p == '(' && depth < 8) {
        e->p++;
        v = ex_sum(e, depth + 1);
        ex_ws(e);
        if (*e->p != ')') e->ok = 0;
        if (*e->p) e->p++;
    } else if (isdigit((unsigned char)*e->p)) {
        while (isdigit((unsigned char)*e->p) && v < ((int64_t)1 << 40)) v = v * 10 + (*e->p++ - '0');
    } else if (isalpha((unsigned char)*e->p) || *e->p == '_') {
        const char *s = e->p;
        while (isalnum((unsigned char)*e->p) || *e->p == '_' || *e->p == '.') e->p++;
        if (!lookup_name(e->b, s, (size_t)(e->p - s), &v)) e->ok = 0;
    } else
        e->ok = 0;
    return v;
}

static int64_t ex_prod(struct ex *e, int depth)
{
    int64_t v = ex_atom(e, depth);
    for (ex_ws(e); e->ok && *e->p == '*'; ex_ws(e)) {
        e->p++;
        int64_t w = ex_atom(e, depth);
        if (w && v > ((int64_t)1 << 50) / w) e->ok = 0;
        v *= w;
    }
    return v;
}

static int64_t ex_sum(struct ex *e, int depth)
{
    int64_t v = ex_prod(e, depth);
    for (ex_ws(e); e->ok && (*e->p == '+' || *e->p == '-'); ex_ws(e)) {
        char op = *e->p++;
        int64_t w = ex_prod(e, depth);
        v = op == '+' ? v + w : v - w;
    }
    return v;
}

static int eval_dim(const char *sym, const struct binding *b, int64_t *out)
{
    struct ex e = {sym, b, 1};
    int64_t v = ex_sum(&e, 0);
    ex_ws(&e);
    if (!e.ok || *e.p || v < 0) return 0;
    *out = v;
    return 1;
}

/* ---- the model's inputs ---- */

struct in_dim {
    int64_t val;
    const char *sym;
};

struct llm_in {
    const char *name;
    int rank, dtype, is_kv;
    struct in_dim dims[NNPERF_MAX_RANK];
};

struct llm_model {
    struct nnperf_model *m;
    struct llm_in *in;
    int n_in;
};

static int starts(const char *s, const char *p)
{
    return !strncmp(s, p, strlen(p));
}

/* the model's inputs as loaded (before any analysis binds them) */
static enum nnperf_status read_inputs(struct nnperf_llm *l, struct llm_model *lm, struct diag *d)
{
    const struct ir_graph *g = ((const struct ir_model *)lm->m)->graph;
    lm->in = ar_calloc(&l->ar, (size_t)(g->n_inputs ? g->n_inputs : 1), sizeof *lm->in);
    if (!lm->in) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    int ids = 0;
    for (int i = 0; i < g->n_inputs; i++) {
        const struct ir_value *v = g->inputs[i];
        if (v->flags & IR_V_INIT) continue;
        if (lm->n_in == LLM_MAX_INPUTS)
            return diag_set(d, NNPERF_E_LIMIT, "more than %d inputs", LLM_MAX_INPUTS);
        struct llm_in *x = &lm->in[lm->n_in++];
        x->name = v->name;
        x->rank = v->rank;
        x->dtype = v->dtype;
        if (v->rank < 0)
            return diag_set(d, NNPERF_E_USAGE, "input '%s' has no declared shape: an LLM's inputs need one",
                            v->name);
        for (int k = 0; k < v->rank; k++) x->dims[k] = (struct in_dim){v->dims[k].val, v->dims[k].sym};
        x->is_kv = starts(v->name, "past") && v->rank == 4;
        if (!strcmp(v->name, "input_ids")) ids = 1;
        if (x->is_kv) {
            l->has_kv_cache = 1;
            l->layers++;
            if (x->dims[1].val > 0) l->kv_heads = (int)x->dims[1].val;
            if (x->dims[3].val > 0) l->head_dim = (int)x->dims[3].val;
        }
    }
    l->layers /= 2; /* a key and a value per layer */
    if (!ids)
        return diag_set(
            d, NNPERF_E_USAGE,
            "the model has no input named 'input_ids': nnperf llm reads decoder-only language models "
            "(input_ids, attention_mask, past_key_values.N.key/value)");
    return NNPERF_OK;
}

/* "name=AxBxC" for every input of the phase */
static enum nnperf_status input_specs(struct nnperf_llm *l, const struct llm_model *lm,
                                      const struct binding *b, const char **specs, struct arena *ar,
                                      struct diag *d)
{
    (void)l;
    for (int i = 0; i < lm->n_in; i++) {
        const struct llm_in *x = &lm->in[i];
        struct strbuf sb;
        sb_init(&sb, 4096);
        sb_printf(&sb, "%s=", x->name);
        if (!x->rank) sb_puts(&sb, "scalar");
        for (int k = 0; k < x->rank; k++) {
            int64_t v = x->dims[k].val;
            if (v < 0 && (!x->dims[k].sym || !eval_dim(x->dims[k].sym, b, &v))) {
                sb_free(&sb);
                if (!x->dims[k].sym)
                    return diag_set(d, NNPERF_E_USAGE, "input '%s': dim %d is unknown; give it with --input",
                                    x->name, k);
                return diag_set(
                    d, NNPERF_E_USAGE,
                    "input '%s': cannot bind dim %d '%s' (known names: batch_size, sequence_length, "
                    "past_sequence_length, total_sequence_length and their spellings); give it with "
                    "--dim '%s=N'",
                    x->name, k, x->dims[k].sym, x->dims[k].sym);
            }
            sb_printf(&sb, "%s%lld", k ? "x" : "", (long long)v);
        }
        specs[i] = sb.p ? ar_strdup(ar, sb.p) : NULL;
        sb_free(&sb);
        if (!specs[i]) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    return NNPERF_OK;
}

/* ---- dtypes ---- */

static double dtype_bytes(const char *name)
{
    return pr_dtype_bytes(name);
}

/* bytes of a value at its own dtype, or at override bytes per element when it is floating point */
static double value_bytes(const struct ir_value *v, double override)
{
    int64_t n;
    if (!ir_numel(v, &n)) return 0;
    if (override > 0 && ir_dtype_is_float(v->dtype)) return (double)n * override;
    return (double)n * ir_dtype_bits(v->dtype) / 8.0;
}

/* ---- one phase ---- */

struct phase_out {
    double latency_s, ddr_bytes, ops;
    double kv_bytes;     /* present.* outputs at the KV dtype */
    double weight_bytes; /* every initializer read by a node, once, at the weight dtype */
    double act_bytes;    /* peak of live activations (not weights, not the KV cache) */
};

struct vidx {
    const struct ir_value *v;
    int last;
};

static int cmp_vidx(const void *a, const void *b)
{
    const struct vidx *x = a, *y = b;
    return x->v == y->v ? 0 : (uintptr_t)x->v < (uintptr_t)y->v ? -1 : 1;
}

static struct vidx *find_v(struct vidx *m, int n, const struct ir_value *v)
{
    struct vidx key = {v, 0};
    return bsearch(&key, m, (size_t)n, sizeof *m, cmp_vidx);
}

static int is_kv_out(const struct ir_value *v)
{
    return (v->flags & IR_V_OUTPUT) && starts(v->name, "present");
}

/* peak live activation bytes over the execution order (values produced by nodes, freed after their last
 * consumer; graph outputs live to the end; KV cache outputs and constants are not activations) */
static double peak_activations(const struct ir_graph *g)
{
    int n = 0;
    for (int k = 0; k < g->n_nodes; k++) n += g->nodes[k]->n_out;
    struct vidx *m = malloc((size_t)(n ? n : 1) * sizeof *m);
    if (!m) return 0;
    n = 0;
    for (int k = 0; k < g->n_nodes; k++)
        for (int o = 0; o < g->nodes[k]->n_out; o++) {
            const struct ir_value *v = g->nodes[k]->out[o];
            if (v && !v->is_const && !is_kv_out(v))
                m[n++] = (struct vidx){v, (v->flags & IR_V_OUTPUT) ? g->n_nodes : k};
        }
    qsort(m, (size_t)n, sizeof *m, cmp_vidx);
    for (int k = 0; k < g->n_nodes; k++)
        for (int i = 0; i < g->nodes[k]->n_in; i++) {
            struct vidx *x = g->nodes[k]->in[i] ? find_v(m, n, g->nodes[k]->in[i]) : NULL;
            if (x && x->last < k) x->last = k;
        }
    double live = 0, peak = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        for (int o = 0; o < g->nodes[k]->n_out; o++) {
            struct vidx *x = g->nodes[k]->out[o] ? find_v(m, n, g->nodes[k]->out[o]) : NULL;
            if (x && g->nodes[k]->out[o]->n_consumers + !!(g->nodes[k]->out[o]->flags & IR_V_OUTPUT))
                live += value_bytes(x->v, 0);
        }
        if (live > peak) peak = live;
        for (int i = 0; i < g->nodes[k]->n_in; i++) {
            const struct ir_value *v = g->nodes[k]->in[i];
            struct vidx *x = v ? find_v(m, n, v) : NULL;
            if (x && x->last == k) {
                live -= value_bytes(v, 0);
                x->last = -1; /* freed once even when read twice */
            }
        }
    }
    free(m);
    return peak;
}

static double weight_bytes(const struct ir_graph *g, double wb)
{
    double sum = 0;
    for (int i = 0; i < g->n_inits; i++)
        if (g->inits[i]->n_consumers) sum += value_bytes(g->inits[i], wb);
    return sum;
}

struct run_ctx {
    struct nnperf_llm *l;
    struct llm_model *lm;
    const struct nnperf_platform *plat;
    const struct nnperf_llm_options *o;
    double wb, kvb; /* bytes per element overrides (0: the model's own) */
    struct diag *d;
};

static enum nnperf_status run_phase(struct run_ctx *rc, int batch, int seq, int past, struct phase_out *po,
                                    struct llm_phase *keep)
{
    struct nnperf_llm *l = rc->l;
    struct binding b = {{batch, seq, past, (int64_t)past + seq}, rc->o->dims, rc->o->n_dims};
    struct arena tmp;
    ar_init(&tmp, 0);
    const char **specs = ar_calloc(&tmp, (size_t)(rc->lm->n_in ? rc->lm->n_in : 1), sizeof *specs);
    enum nnperf_status st = specs ? input_specs(l, rc->lm, &b, specs, &tmp, rc->d)
                                  : diag_set(rc->d, NNPERF_E_NOMEM, "out of memory");
    struct nnperf_analysis *a = NULL;
    struct nnperf_prediction *p = NULL;
    char err[1024];
    if (!st) {
        struct nnperf_analyze_options ao = {specs, rc->lm->n_in, NULL, 0};
        st = nnperf_analyze(rc->lm->m, &ao, &a, err, sizeof err);
        if (st) diag_set(rc->d, st, "%s", err);
    }
    if (!st) {
        struct nnperf_summary s;
        nnperf_analysis_summary(a, &s);
        if (s.unbound_dims)
            st = diag_set(rc->d, NNPERF_E_USAGE, "dim '%s' is still unbound after binding the LLM dims",
                          nnperf_analysis_unbound_dim(a, 0));
        else if (s.unknown_nodes)
            llm_warn(l, "%s", s.warnings ? nnperf_analysis_warning(a, 0) : "some nodes could not be counted");
    }
    if (!st) {
        struct nnperf_predict_options popt = {.dtype = rc->o->compute,
                                              .batch = 1,
                                              .causal = 1,
                                              .weight_dtype = rc->o->weights,
                                              .kv_dtype = rc->o->kv};
        st = nnperf_predict(a, rc->plat, &popt, &p, err, sizeof err);
        if (st) diag_set(rc->d, st, "%s", err);
    }
    if (!st) {
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        po->latency_s = s.latency_s;
        po->ddr_bytes = s.ddr_bytes_per_run;
        po->ops = s.ops_per_run;
        if (!l->compute) l->compute = ar_strdup(&l->ar, s.dtype);
        const struct ir_graph *g = an_graph(&a->st);
        po->kv_bytes = 0;
        for (int i = 0; i < g->n_outputs; i++)
            if (is_kv_out(g->outputs[i])) po->kv_bytes += value_bytes(g->outputs[i], rc->kvb);
        po->weight_bytes = weight_bytes(g, rc->wb);
        po->act_bytes = peak_activations(g);
        if (keep) {
            keep->batch = batch, keep->seq = seq, keep->past = past;
            keep->latency_s = s.latency_s, keep->ddr_bytes = s.ddr_bytes_per_run, keep->ops = s.ops_per_run;
            int n = nnperf_prediction_layer_count(p);
            keep->layers = ar_calloc(&l->ar, (size_t)(n ? n : 1), sizeof *keep->layers);
            if (!keep->layers) st = diag_set(rc->d, NNPERF_E_NOMEM, "out of memory");
            for (int i = 0; !st && i < n; i++) {
                struct nnperf_layer_info li;
                nnperf_prediction_layer(p, i, &li);
                struct llm_layer *L = &keep->layers[keep->n_layers++];
                L->name = ar_strdup(&l->ar, li.name);
                L->op = ar_strdup(&l->ar, li.op);
                L->klass = ar_strdup(&l->ar, li.klass);
                L->bound = ar_strdup(&l->ar, li.bound);
                L->ops = li.ops, L->ddr_bytes = li.ddr_bytes, L->weight_bytes = li.weight_bytes;
                L->t_total = li.t_total;
                if (!L->name || !L->op || !L->klass || !L->bound)
                    st = diag_set(rc->d, NNPERF_E_NOMEM, "out of memory");
            }
        }
        for (int i = 0; i < s.warnings && !keep; i++)
            if (!strstr(nnperf_prediction_warning(p, i), "spilled"))
                llm_warn(l, "%s", nnperf_prediction_warning(p, i));
    }
    nnperf_prediction_free(p);
    nnperf_analysis_free(a);
    ar_free(&tmp);
    return st;
}

/* ---- one configuration ---- */

static double interp(const int *x, const double *y, int n, int at)
{
    if (n == 1 || at <= x[0]) return y[0];
    for (int j = 1; j < n; j++)
        if (at <= x[j])
            return y[j - 1] + (y[j] - y[j - 1]) * (double)(at - x[j - 1]) / (double)(x[j] - x[j - 1]);
    return y[n - 1];
}

static enum nnperf_status run_config(struct run_ctx *rc, int prompt, int batch, int first,
                                     struct nnperf_llm_row *r)
{
    struct nnperf_llm *l = rc->l;
    int M = rc->o->generate;
    struct phase_out pre = {0}, dec = {0};
    enum nnperf_status st = run_phase(rc, batch, prompt, 0, &pre, first ? &l->prefill : NULL);
    if (st) return st;
    /* decode steps: past N .. N+M-1 (with a cache: sequence 1; without: the whole sequence again) */
    int K = rc->o->decode_points < M ? rc->o->decode_points : M;
    int past[LLM_MAX_POINTS];
    double t[LLM_MAX_POINTS];
    int n = 0;
    for (int j = 0; j < K; j++) {
        int p = prompt + (K > 1 ? (int)(((int64_t)j * (M - 1) + (K - 1) / 2) / (K - 1)) : 0);
        if (n && p == past[n - 1]) continue;
        past[n] = p;
        int last = j == K - 1;
        struct phase_out o = {0};
        if (l->has_kv_cache)
            st = run_phase(rc, batch, 1, p, &o, first && last ? &l->last_decode : NULL);
        else
            st = run_phase(rc, batch, p + 1, 0, &o, first && last ? &l->last_decode : NULL);
        if (st) return st;
        t[n++] = o.latency_s;
        if (last) dec = o;
    }
    double sum = 0;
    for (int s = prompt; s < prompt + M; s++) sum += interp(past, t, n, s);
    if (first) {
        l->n_points = n;
        for (int j = 0; j < n; j++) l->point_ctx[j] = past[j] + 1, l->point_s[j] = t[j];
    }
    r->prompt = prompt, r->generate = M, r->batch = batch;
    r->ttft_s = pre.latency_s;
    r->tpot_first_s = t[0];
    r->tpot_last_s = t[n - 1];
    r->tpot_mean_s = sum / M;
    r->decode_tokens_per_s = sum > 0 ? (double)batch * M / sum : 0;
    r->e2e_s = pre.latency_s + sum;
    /* the cache after the last step holds N + M tokens (its present outputs); without a cache there is none */
    r->kv_cache_bytes = l->has_kv_cache ? dec.kv_bytes : 0;
    r->kv_bytes_per_token = r->kv_cache_bytes / ((double)batch * (prompt + M));
    r->weight_bytes = pre.weight_bytes;
    r->activation_bytes = pre.act_bytes > dec.act_bytes ? pre.act_bytes : dec.act_bytes;
    r->memory_bytes = r->weight_bytes + r->kv_cache_bytes + r->activation_bytes;
    r->fits = l->device_bytes > 0 ? r->memory_bytes <= l->device_bytes : -1;
    return NNPERF_OK;
}

/* ---- options ---- */

static const int default_prompt = 512, default_batch = 1;

static enum nnperf_status check_opts(const struct nnperf_llm_options *in, struct nnperf_llm_options *o,
                                     struct diag *d)
{
    *o = in ? *in : (struct nnperf_llm_options){0};
    if (!o->n_prompts || !o->prompts) o->prompts = &default_prompt, o->n_prompts = 1;
    if (!o->n_batches || !o->batches) o->batches = &default_batch, o->n_batches = 1;
    if (!o->generate) o->generate = 128;
    if (!o->decode_points) o->decode_points = 5;
    if ((int64_t)o->n_prompts * o->n_batches > LLM_MAX_ROWS)
        return diag_set(d, NNPERF_E_USAGE, "%d prompts x %d batches is over %d configurations", o->n_prompts,
                        o->n_batches, LLM_MAX_ROWS);
    for (int i = 0; i < o->n_prompts; i++)
        if (o->prompts[i] < 1 || o->prompts[i] > (1 << 24))
            return diag_set(d, NNPERF_E_USAGE, "prompt length %d is out of range (1 to 16777216)",
                            o->prompts[i]);
    for (int i = 0; i < o->n_batches; i++)
        if (o->batches[i] < 1 || o->batches[i] > 1000000)
            return diag_set(d, NNPERF_E_USAGE, "batch %d is out of range (1 to 1000000)", o->batches[i]);
    if (o->generate < 1 || o->generate > (1 << 24))
        return diag_set(d, NNPERF_E_USAGE, "generated tokens %d out of range (1 to 16777216)", o->generate);
    if (o->decode_points < 2 || o->decode_points > LLM_MAX_POINTS)
        return diag_set(d, NNPERF_E_USAGE, "decode points %d out of range (2 to %d)", o->decode_points,
                        LLM_MAX_POINTS);
    const char *names[3] = {o->weights, o->kv, o->compute}, *what[3] = {"weights", "kv", "compute"};
    for (int i = 0; i < 3; i++)
        if (names[i] && dtype_bytes(names[i]) <= 0)
            return diag_set(d, NNPERF_E_USAGE,
                            "--%s '%s': unknown dtype (int4, int8, fp8, fp16, bf16 or fp32)", what[i],
                            names[i]);
    if (o->compute && !strcmp(o->compute, "fp8"))
        return diag_set(d, NNPERF_E_USAGE,
                        "--compute fp8: platforms have no fp8 peak; use int8, fp16 or bf16");
    return NNPERF_OK;
}

/* --compute DTYPE without a peak on a platform with weight-only quantization (compute.weight_only): the weights
 * are stored at DTYPE (unless --weights says otherwise) and the layers compute at the platform's default dtype, as
 * the prediction does; said here so that the weight bytes and the dtypes reported follow */
static void weight_only_compute(const struct nnperf_platform *plat, struct nnperf_llm_options *o)
{
    int dt = o->compute ? hw_dtype_from_name(o->compute) : -1;
    if (dt < 0 || !plat->hw.weight_only || plat->hw.peak_ops[dt] > 0) return;
    if (!o->weights) o->weights = o->compute;
    o->compute = NULL;
}

enum nnperf_status nnperf_llm(struct nnperf_model *m, const struct nnperf_platform *plat,
                              const struct nnperf_llm_options *opts, struct nnperf_llm **out, char *err,
                              size_t errlen)
{
    *out = NULL;
    struct diag d = {0};
    if (!m || !plat) {
        if (err && errlen) snprintf(err, errlen, "nnperf_llm: no model or platform");
        return NNPERF_E_USAGE;
    }
    struct nnperf_llm *l = calloc(1, sizeof *l);
    if (!l) {
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    ar_init(&l->ar, 0);
    struct nnperf_llm_options o;
    struct llm_model lm = {m, NULL, 0};
    enum nnperf_status st = check_opts(opts, &o, &d);
    weight_only_compute(plat, &o);
    if (!st) st = read_inputs(l, &lm, &d);
    if (!st) {
        struct nnperf_platform_info pi;
        nnperf_platform_info(plat, &pi);
        l->model = ar_strdup(&l->ar, ((const struct ir_model *)m)->path);
        l->platform = ar_strdup(&l->ar, pi.name);
        l->device_bytes = pi.ddr_bytes;
        l->weights = o.weights ? o.weights : "model";
        l->kv = o.kv ? o.kv : "model";
        if (o.compute) l->compute = ar_strdup(&l->ar, o.compute);
        l->n_rows = o.n_prompts * o.n_batches;
        l->rows = ar_calloc(&l->ar, (size_t)l->n_rows, sizeof *l->rows);
        if (!l->model || !l->platform || !l->rows) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
        if (!l->has_kv_cache)
            llm_warn(
                l, "the model has no KV cache inputs (past_*): each decode step re-runs the whole sequence");
    }
    struct run_ctx rc = {
        l, &lm, plat, &o, o.weights ? dtype_bytes(o.weights) : 0, o.kv ? dtype_bytes(o.kv) : 0, &d};
    for (int i = 0; !st && i < o.n_prompts; i++)
        for (int j = 0; !st && j < o.n_batches; j++)
            st = run_config(&rc, o.prompts[i], o.batches[j], !i && !j, &l->rows[i * o.n_batches + j]);
    if (!st) {
        /* what fits: memory grows linearly in the batch (KV cache and activations per sequence) and in the
         * context (KV cache and activations per token, at the first configuration's rates) */
        const struct nnperf_llm_row *r = &l->rows[0];
        double free_b = l->device_bytes - r->weight_bytes;
        double per_seq = (r->kv_cache_bytes + r->activation_bytes) / r->batch;
        double per_tok = per_seq / (r->prompt + r->generate) * r->batch;
        l->max_batch = l->device_bytes <= 0          ? -1
                       : free_b <= 0 || per_seq <= 0 ? 0
                                                     : (int)fmin(free_b / per_seq, 1e9);
        l->max_context = l->device_bytes <= 0          ? -1
                         : free_b <= 0 || per_tok <= 0 ? 0
                                                       : (int)fmin(free_b / per_tok, 1e9);
        if (l->device_bytes <= 0)
            llm_warn(l,
                     "platform '%s' gives no device memory capacity (memory.ddr_bytes): whether it fits is "
                     "unknown",
                     l->platform);
    }
    if (st) {
        diag_prefix(&d, "%s: ", ((const struct ir_model *)m)->path);
        if (err && errlen) snprintf(err, errlen, "%s", d.msg[0] ? d.msg : nnperf_status_name(st));
        nnperf_llm_free(l);
        return st;
    }
    *out = l;
    return NNPERF_OK;
}

void nnperf_llm_free(struct nnperf_llm *l)
{
    if (!l) return;
    ar_free(&l->ar);
    free(l);
}

void nnperf_llm_summary(const struct nnperf_llm *l, struct nnperf_llm_summary *s)
{
    memset(s, 0, sizeof *s);
    s->model = l->model;
    s->platform = l->platform;
    s->weights = l->weights;
    s->kv = l->kv;
    s->compute = l->compute;
    s->layers = l->layers;
    s->kv_heads = l->kv_heads;
    s->head_dim = l->head_dim;
    s->has_kv_cache = l->has_kv_cache;
    s->device_bytes = l->device_bytes;
    s->max_batch = l->max_batch;
    s->max_context = l->max_context;
    s->rows = l->n_rows;
    s->warnings = l->n_warn;
}

void nnperf_llm_row(const struct nnperf_llm *l, int i, struct nnperf_llm_row *r)
{
    if (i >= 0 && i < l->n_rows)
        *r = l->rows[i];
    else
        memset(r, 0, sizeof *r);
}

const char *nnperf_llm_warning(const struct nnperf_llm *l, int i)
{
    return i >= 0 && i < l->n_warn ? l->warn[i] : NULL;
}
