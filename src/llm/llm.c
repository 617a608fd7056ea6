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

/* The LLM result's warnings (deduplicated by the caller). */
static void llm_warn(struct nnperf_llm *l, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

static void llm_warn(struct nnperf_llm *l, const char *fmt, ...)
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
            *out = strtoll(eq + 1, NULL, 10); /* checked by check_dims: digits, at most LLM_MAX_DIM */
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
        int64_t w = ex_atom(e, depth), r;
        if (!ck_mul_i64(v, w, &r) || r > ((int64_t)1 << 50) || r < -((int64_t)1 << 50)) {
            e->ok = 0; /* refused before it can overflow (a*b*c of 2^40 each) */
            return 0;
        }
        v = r;
    }
    return v;
}

static int64_t ex_sum(struct ex *e, int depth)
{
    int64_t v = ex_prod(e, depth);
    for (ex_ws(e); e->ok && (*e->p == '+' || *e->p == '-'); ex_ws(e)) {
        char op = *e->p++;
        int64_t w = ex_prod(e, depth);
        /* terms are at most 2^50 either way (ex_prod) and a sum beyond 2^52 is refused: no overflow */
        v = op == '+' ? v + w : v - w;
        if (v > ((int64_t)1 << 52) || v < -((int64_t)1 << 52)) {
            e->ok = 0;
            return 0;
        }
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
                    return diag_set(d, NNPERF_E_USAGE,
                                    "input '%s': dim %d is unknown; give the input's shape", x->name, k);
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
    double comm_s;       /* of latency_s: the interconnect's (tensor and pipeline parallelism) */
    double kv_bytes;     /* present.* outputs at the KV dtype */
    double weight_bytes; /* every initializer read by a node, once, at the weight dtype */
    double act_bytes;    /* peak of live activations (not weights, not the KV cache) */
};

struct vidx {
    const struct ir_value *v;
    int last, prod; /* last consumer, producer (node indices) */
    int ext;        /* materialised between kernels */
};

static int cmp_vidx(const void *a, const void *b)
{
    const struct vidx *x = a, *y = b;
    return x->v == y->v ? 0 : (uintptr_t)x->v < (uintptr_t)y->v ? -1 : 1;
}

static struct vidx *find_v(struct vidx *m, int n, const struct ir_value *v)
{
    struct vidx key = {v, 0, 0, 0};
    return bsearch(&key, m, (size_t)n, sizeof *m, cmp_vidx);
}

static int is_kv_out(const struct ir_value *v)
{
    return (v->flags & IR_V_OUTPUT) && starts(v->name, "present");
}

/* bytes of a value as a serving runtime holds it: logits (a graph output that is not the KV cache) for the last
 * token only (vLLM and TensorRT-LLM sample from the last position) */
static double held_bytes(const struct ir_value *v)
{
    double b = value_bytes(v, 0);
    if ((v->flags & IR_V_OUTPUT) && !is_kv_out(v) && v->rank == 3 && v->dims[1].val > 1)
        b /= (double)v->dims[1].val;
    return b;
}

/* peak live activation bytes over the execution order: values produced by nodes and materialised between kernels
 * (a graph output, or read by a node of another layer of the prediction: values inside a fused layer, such as a
 * fused attention's scores or a fused chain's intermediates, stay on chip), freed after their last consumer; graph
 * outputs live to the end; KV cache outputs and constants are not activations */
static double peak_activations(const struct ir_graph *g, const struct nnperf_prediction *p)
{
    int n = 0;
    for (int k = 0; k < g->n_nodes; k++) n += g->nodes[k]->n_out;
    struct vidx *m = malloc((size_t)(n ? n : 1) * sizeof *m);
    if (!m) return 0;
    n = 0;
    for (int k = 0; k < g->n_nodes; k++)
        for (int o = 0; o < g->nodes[k]->n_out; o++) {
            const struct ir_value *v = g->nodes[k]->out[o];
            if (v && !v->is_const && !is_kv_out(v) && (v->n_consumers || (v->flags & IR_V_OUTPUT)))
                m[n++] = (struct vidx){v, (v->flags & IR_V_OUTPUT) ? g->n_nodes : k, k,
                                       (v->flags & IR_V_OUTPUT) || !p || !p->layer_of};
        }
    qsort(m, (size_t)n, sizeof *m, cmp_vidx);
    for (int k = 0; k < g->n_nodes; k++)
        for (int i = 0; i < g->nodes[k]->n_in; i++) {
            struct vidx *x = g->nodes[k]->in[i] ? find_v(m, n, g->nodes[k]->in[i]) : NULL;
            if (!x) continue;
            if (x->last < k) x->last = k;
            if (!x->ext && (p->layer_of[x->prod] < 0 || p->layer_of[k] != p->layer_of[x->prod])) x->ext = 1;
        }
    double live = 0, peak = 0;
    for (int k = 0; k < g->n_nodes; k++) {
        for (int o = 0; o < g->nodes[k]->n_out; o++) {
            struct vidx *x = g->nodes[k]->out[o] ? find_v(m, n, g->nodes[k]->out[o]) : NULL;
            if (x && x->ext) live += held_bytes(x->v);
        }
        if (live > peak) peak = live;
        for (int i = 0; i < g->nodes[k]->n_in; i++) {
            const struct ir_value *v = g->nodes[k]->in[i];
            struct vidx *x = v ? find_v(m, n, v) : NULL;
            if (x && x->last == k) {
                if (x->ext) live -= held_bytes(v);
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
    struct run_ctx *draft; /* speculative decoding: the draft model's (its own scratch result) */
    const struct nnperf_platform *plat;
    const struct nnperf_llm_options *o;
    double wb, kvb; /* bytes per element overrides (0: the model's own) */
    struct diag *d;
};

/* ---- tensor and pipeline parallelism ---- */

/* over the platform's link (interconnect.*), as NCCL's cost model prices a ring ([NCCL-TUNING]): a fixed latency,
 * a latency per step, and the bytes each device sends at the link's bandwidth. An all-reduce of n bytes over t
 * devices is 2(t - 1) steps each sending n / t (reduce-scatter, then all-gather); an all-gather of n bytes in all is
 * t - 1 steps; a send between two pipeline stages is one step of n bytes */
static double link_time(const struct hw_desc *h, int steps, double bytes)
{
    return h->ic_lat_s + steps * h->ic_hop_s + bytes / (h->ic_bw * h->ic_eff);
}

/* the communication of one forward pass of B sequences of S tokens: with tensor parallelism t, Megatron-LM's two
 * all-reduces of the hidden states per decoder layer (after the attention's output projection and after the FFN) and
 * one after the vocabulary-parallel embedding, then an all-gather of the last token's logits ([MEGATRON]); with
 * pipeline parallelism p, p - 1 sends of the hidden states between stages. Activations cross at 16 bits (32 when
 * the model computes in fp32) */
static double comm_time(const struct run_ctx *rc, int batch, int seq, double *send)
{
    const struct nnperf_llm *l = rc->l;
    const struct hw_desc *h = &rc->plat->hw;
    *send = 0;
    if (l->tp * l->pp <= 1) return 0;
    double ab = l->compute && dtype_bytes(l->compute) > 2 ? dtype_bytes(l->compute) : 2;
    double x = (double)batch * seq * l->hidden * ab, t = 0;
    int tp = l->tp;
    if (tp > 1) {
        t += (2.0 * l->layers + 1) * link_time(h, 2 * (tp - 1), 2.0 * (tp - 1) / tp * x);
        t += link_time(h, tp - 1, (tp - 1.0) * batch * l->vocab * ab);
    }
    if (l->pp > 1) *send = link_time(h, 1, x);
    return t;
}

/* Pipeline parallelism p with m micro-batches of b sequences (GPipe, [GPIPE]): a stage runs 1/p of the model's time
 * t(b) (with its all-reduces) for one micro-batch, and a send crosses between stages. One pass of the batch (the
 * prefill) takes m + p - 1 stage slots; a decode step in steady state max(m, p) (a micro-batch's next token waits
 * for its last stage: with m < p the stages idle, with m >= p they never do). Between slots, slots - 1 sends (not
 * overlapped with compute). m = 1 is the whole batch crossing the p stages: t(B) + (p - 1) sends. */
static double pipeline_time(const struct nnperf_llm *l, int m, int one_pass, double t_b, double send,
                            double *comm, double tp_comm)
{
    int p = l->pp;
    double slots = one_pass ? m + p - 1 : (m > p ? m : p);
    *comm = slots * tp_comm / p + (slots - 1) * send;
    return slots * t_b / p + *comm;
}

/* One forward pass of `batch` sequences of `seq` tokens over a cache of `past` (one_pass: a prefill, else a step of
 * a continuing generation). With pipeline parallelism and micro-batches, the graph is analysed at one micro-batch
 * and timed as the pipeline runs them (pipeline_time); the sizes are the whole batch's (activations: one
 * micro-batch's, which is what a stage holds at a time); keep gets the micro-batch's layers. */
static enum nnperf_status run_phase(struct run_ctx *rc, int batch, int seq, int past, int one_pass,
                                    struct phase_out *po, struct llm_phase *keep)
{
    struct nnperf_llm *l = rc->l;
    int whole = batch, m = 1;
    if (l->pp > 1 && l->microbatches > 1) {
        int want = l->microbatches < batch ? l->microbatches : batch;
        batch = (whole + want - 1) / want; /* sequences per micro-batch */
        m = (whole + batch - 1) / batch;
    }
    double scale = (double)whole / batch; /* the batch's sizes from one micro-batch's */
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
                                              .batch = 0, /* one run of the graph: B sequences */
                                              .causal = 1,
                                              .weight_dtype = rc->o->weights,
                                              .kv_dtype = rc->o->kv};
        st = nnperf_predict(a, rc->plat, &popt, &p, err, sizeof err);
        if (st) diag_set(rc->d, st, "%s", err);
    }
    if (!st) {
        struct nnperf_prediction_summary s;
        nnperf_prediction_summary(p, &s);
        if (!l->compute) l->compute = ar_strdup(&l->ar, s.dtype);
        double send, tp_comm = comm_time(rc, batch, seq, &send);
        /* overhead.prefill_host_kernel_s: an eager prefill takes at least the host's dispatch of its kernels */
        double host_s = rc->plat->hw.prefill_host_kernel_s,
               host = one_pass && host_s > 0 ? pr_kernel_count(p) * host_s : 0;
        if (host > s.latency_s) s.latency_s = host;
        if (l->pp > 1)
            po->latency_s = pipeline_time(l, m, one_pass, s.latency_s, send, &po->comm_s, tp_comm);
        else
            po->comm_s = tp_comm, po->latency_s = s.latency_s + tp_comm;
        po->ddr_bytes = s.ddr_bytes_per_run * scale;
        po->ops = s.ops_per_run * scale;
        const struct ir_graph *g = an_graph(&a->st);
        po->kv_bytes = 0;
        for (int i = 0; i < g->n_outputs; i++)
            if (is_kv_out(g->outputs[i])) po->kv_bytes += value_bytes(g->outputs[i], rc->kvb) * scale;
        po->weight_bytes = weight_bytes(g, rc->wb);
        /* over the graph as the prediction lowered it: a view (repeat-KV) or a mask computed inside the attention
         * kernel is no node there */
        po->act_bytes = peak_activations(p->g, p);
        if (keep) {
            keep->batch = batch, keep->seq = seq, keep->past = past;
            keep->latency_s = po->latency_s, keep->ddr_bytes = s.ddr_bytes_per_run, keep->ops = s.ops_per_run;
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

/* ---- the model's position limit ---- */

static const struct ir_value *init_of(const struct ir_node *nd, int i)
{
    const struct ir_value *v = i < nd->n_in ? nd->in[i] : NULL;
    return v && (v->flags & IR_V_INIT) && v->rank >= 1 && v->dims[0].val > 0 ? v : NULL;
}

static void limit_from(struct nnperf_llm *l, int64_t n, const char *what, const struct ir_value *v)
{
    if (n <= 0 || (l->position_limit && n >= l->position_limit)) return;
    struct strbuf sb;
    sb_init(&sb, 512);
    sb_printf(&sb, "%s '%s' [", what, v->name);
    for (int k = 0; k < v->rank; k++) sb_printf(&sb, "%s%lld", k ? ", " : "", (long long)v->dims[k].val);
    sb_puts(&sb, "]");
    l->position_of = sb.p ? ar_strdup(&l->ar, sb.p) : NULL;
    sb_free(&sb);
    l->position_limit = n > (1 << 30) ? 1 << 30 : (int)n;
}

/* The longest context the model's positions cover: the rows of a rotary cos table (GroupQueryAttention's and
 * RotaryEmbedding's cos_cache; an eager export's cos_cached), or of a learned position embedding gathered by
 * position_ids (OPT's embed_positions starts at offset 2). The smallest such limit; 0 when none is found. */
static void find_position_limit(struct nnperf_llm *l, const struct ir_graph *g)
{
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        const struct ir_value *v;
        if (!strcmp(nd->op_type, "GroupQueryAttention") && (v = init_of(nd, 7)))
            limit_from(l, v->dims[0].val, "rotary table", v);
        else if (!strcmp(nd->op_type, "RotaryEmbedding") && (v = init_of(nd, 2)) && v->rank == 2)
            limit_from(l, v->dims[0].val, "rotary table", v);
        else if (!strcmp(nd->op_type, "Gather") && (v = init_of(nd, 0)) && v->rank == 2 && nd->n_in > 1 &&
                 nd->in[1] &&
                 (!strcmp(nd->in[1]->name, "position_ids") || strstr(v->name, "embed_positions")))
            limit_from(l, v->dims[0].val - (strstr(v->name, "embed_positions") ? 2 : 0), "position embedding",
                       v);
    }
    for (int i = 0; i < g->n_inits; i++) {
        const struct ir_value *v = g->inits[i];
        if (v->rank >= 2 && v->n_consumers && (strstr(v->name, "cos_cache") || strstr(v->name, "cos_cached")))
            limit_from(l, v->dims[v->rank - 2].val, "rotary table", v);
    }
}

/* ---- the token embedding and the LM head ---- */

static const struct ir_value *init_input(const struct ir_node *nd, int i)
{
    const struct ir_value *v = i < nd->n_in ? nd->in[i] : NULL;
    return v && (v->flags & IR_V_INIT) ? v : NULL;
}

/* The token embedding (a Gather of input_ids from a 2-D initializer: its rows are the vocabulary, its width the
 * hidden size) and the LM head (the MatMul or Gemm whose output is the logits: a graph output that is not the KV
 * cache; tied when it reads the embedding table, directly or through a Transpose), sized at the weight dtype */
static void find_ends(struct nnperf_llm *l, const struct ir_graph *g, double wb)
{
    const struct ir_value *emb = NULL;
    for (int k = 0; k < g->n_nodes && !emb; k++) {
        const struct ir_node *nd = g->nodes[k];
        const struct ir_value *v = init_input(nd, 0);
        if (!strcmp(nd->op_type, "Gather") && v && v->rank == 2 && nd->n_in > 1 && nd->in[1] &&
            !strcmp(nd->in[1]->name, "input_ids") && v->dims[0].val > 0 && v->dims[1].val > 0)
            emb = v;
    }
    if (!emb) return;
    l->vocab = (double)emb->dims[0].val, l->hidden = (double)emb->dims[1].val;
    l->embed_bytes = l->head_bytes = value_bytes(emb, wb);
    l->tied = 1;
    for (int k = 0; k < g->n_nodes; k++) {
        const struct ir_node *nd = g->nodes[k];
        if ((strcmp(nd->op_type, "MatMul") && strcmp(nd->op_type, "Gemm")) || !nd->n_out || !nd->out[0] ||
            !(nd->out[0]->flags & IR_V_OUTPUT) || is_kv_out(nd->out[0]) || nd->n_in < 2 || !nd->in[1])
            continue;
        const struct ir_value *w = nd->in[1];
        if (w->producer && !strcmp(w->producer->op_type, "Transpose") && init_input(w->producer, 0))
            w = w->producer->in[0];
        if (w == emb || !(w->flags & IR_V_INIT)) continue;
        l->head_bytes = value_bytes(w, wb);
        l->tied = 0;
    }
}

/* the parallelism asked for against the model's shard and the platform's devices and link */
static enum nnperf_status check_parallel(struct nnperf_llm *l, const struct nnperf_llm_options *o,
                                         const struct ir_model *m, const struct nnperf_platform *plat,
                                         struct diag *d)
{
    int built = llm_shard_of(m->producer);
    if (o->tp < 0 || o->tp > LLM_MAX_DEVICES || o->pp < 0 || o->pp > LLM_MAX_DEVICES)
        return diag_set(d, NNPERF_E_USAGE, "tensor and pipeline parallelism are 1 to %d devices",
                        LLM_MAX_DEVICES);
    l->tp = o->tp ? o->tp : built;
    l->pp = o->pp ? o->pp : 1;
    if (o->microbatches < 0 || o->microbatches > LLM_MAX_MICROBATCHES)
        return diag_set(d, NNPERF_E_USAGE, "pipeline micro-batches are 1 to %d (0: as many as stages)",
                        LLM_MAX_MICROBATCHES);
    if (o->microbatches > 1 && l->pp == 1)
        return diag_set(d, NNPERF_E_USAGE, "micro-batches (%d) need pipeline parallelism (--pp above 1)",
                        o->microbatches);
    l->microbatches = o->microbatches ? o->microbatches : l->pp;
    if (l->tp != built && built > 1)
        return diag_set(d, NNPERF_E_USAGE,
                        "tensor parallelism %d, but the model was built as one device of %d "
                        "(nnperf_llm_config_load_tp)",
                        l->tp, built);
    if (l->tp != built)
        return diag_set(
            d, NNPERF_E_USAGE,
            "tensor parallelism %d needs the decoder built as one device's shard (nnperf llm --config "
            "CONFIG.json --tp N; nnperf_llm_config_load_tp): an ONNX decoder is one device's whole "
            "model",
            l->tp);
    if (l->tp * l->pp == 1) return NNPERF_OK;
    int devices = plat->hw.devices > 0 ? plat->hw.devices : 1;
    if (l->tp * l->pp > devices)
        return diag_set(d, NNPERF_E_USAGE,
                        "tensor parallelism %d x pipeline parallelism %d = %d devices, but '%s' has %d "
                        "(interconnect.devices; multi-GPU presets: 8x-h100-sxm, 8x-a100-80gb, 2x-l4)",
                        l->tp, l->pp, l->tp * l->pp, l->platform, devices);
    if (plat->hw.ic_bw <= 0)
        return diag_set(d, NNPERF_E_USAGE,
                        "platform '%s' gives no link between its devices (interconnect.bandwidth)",
                        l->platform);
    if (l->hidden <= 0)
        return diag_set(
            d, NNPERF_E_USAGE,
            "parallelism needs the token embedding (a Gather of input_ids from a 2-D table) to size "
            "the transfers; the model has none");
    if (l->pp > 1 && l->pp > l->layers)
        return diag_set(
            d, NNPERF_E_USAGE,
            "pipeline parallelism %d is over the model's %d decoder layers (counted from its KV cache "
            "inputs)",
            l->pp, l->layers);
    return NNPERF_OK;
}

/* Speculative decoding's expected tokens per verification (Leviathan, Kalman and Matias, [SPEC-DECODING], eq. 1):
 * with k draft tokens each accepted with probability a, (1 - a^(k+1)) / (1 - a), k + 1 at a = 1 */
static enum nnperf_status check_speculative(struct nnperf_llm *l, const struct nnperf_llm_options *o,
                                            struct diag *d)
{
    int k = o->spec_tokens ? o->spec_tokens : 4;
    double a = o->spec_accept;
    if (k < 1 || k > 64 || !(a >= 0 && a <= 1))
        return diag_set(d, NNPERF_E_USAGE,
                        "speculative decoding: 1 to 64 draft tokens and an acceptance rate from 0 to 1");
    if (!l->has_kv_cache)
        return diag_set(d, NNPERF_E_USAGE, "speculative decoding needs a model with a KV cache (past_*)");
    if (o->serve)
        return diag_set(d, NNPERF_E_USAGE, "the serving simulation does not model speculative decoding");
    l->spec_tokens = k;
    l->spec_accept = a;
    l->spec_per_step = a >= 1 ? k + 1 : (1 - pow(a, k + 1)) / (1 - a);
    return NNPERF_OK;
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
    enum nnperf_status st = run_phase(rc, batch, prompt, 0, 1, &pre, first ? &l->prefill : NULL);
    if (st) return st;
    /* decode steps: past N .. N+M-1 (with a cache: sequence 1; without: the whole sequence again) */
    int K = rc->o->decode_points < M ? rc->o->decode_points : M;
    int past[LLM_MAX_POINTS];
    double t[LLM_MAX_POINTS], cm[LLM_MAX_POINTS], draft_w = 0, draft_kv = 0;
    int n = 0;
    for (int j = 0; j < K; j++) {
        int p = prompt + (K > 1 ? (int)(((int64_t)j * (M - 1) + (K - 1) / 2) / (K - 1)) : 0);
        if (n && p == past[n - 1]) continue;
        past[n] = p;
        int last = j == K - 1;
        struct phase_out o = {0};
        if (rc->draft) { /* one verification of k draft tokens (k draft steps, then k + 1 positions at once) per
                          * expected accepted tokens */
            int k = l->spec_tokens;
            struct phase_out dr = {0};
            st = run_phase(rc, batch, k + 1, p, 0, &o, first && last ? &l->last_decode : NULL);
            if (!st) st = run_phase(rc->draft, batch, 1, p, 0, &dr, NULL);
            if (st) return st;
            o.latency_s = (o.latency_s + k * dr.latency_s) / l->spec_per_step;
            o.comm_s /= l->spec_per_step;
            if (last) draft_w = dr.weight_bytes, draft_kv = dr.kv_bytes;
        } else if (l->has_kv_cache)
            st = run_phase(rc, batch, 1, p, 0, &o, first && last ? &l->last_decode : NULL);
        else
            st = run_phase(rc, batch, p + 1, 0, 0, &o, first && last ? &l->last_decode : NULL);
        if (st) return st;
        cm[n] = o.comm_s;
        t[n++] = o.latency_s;
        if (last) dec = o;
    }
    double sum = 0;
    for (int s = prompt; s < prompt + M; s++) sum += interp(past, t, n, s);
    if (first) {
        l->n_points = n;
        for (int j = 0; j < n; j++) l->point_ctx[j] = past[j] + 1, l->point_s[j] = t[j];
    }
    double comm_sum = 0;
    for (int s = prompt; s < prompt + M; s++) comm_sum += interp(past, cm, n, s);
    r->prompt = prompt, r->generate = M, r->batch = batch;
    r->ttft_s = pre.latency_s;
    r->ttft_comm_s = pre.comm_s;
    r->tpot_comm_s = comm_sum / M;
    r->tpot_first_s = t[0];
    r->tpot_last_s = t[n - 1];
    r->tpot_mean_s = sum / M;
    r->decode_tokens_per_s = sum > 0 ? (double)batch * M / sum : 0;
    r->e2e_s = pre.latency_s + sum;
    /* the cache after the last step holds N + M tokens (its present outputs); without a cache there is none */
    r->kv_cache_bytes = l->has_kv_cache ? dec.kv_bytes + draft_kv : 0;
    r->kv_bytes_per_token = r->kv_cache_bytes / ((double)batch * (prompt + M));
    r->weight_bytes = pre.weight_bytes + draft_w;
    if (l->pp > 1 && l->layers > 0) {
        /* the fullest pipeline stage: ceil(L / p) of the decoder layers with the embedding (first stage) or the
         * LM head (last stage, its own copy when tied) */
        double share = (double)((l->layers + l->pp - 1) / l->pp) / l->layers;
        double ends = l->embed_bytes + (l->tied ? 0 : l->head_bytes);
        r->weight_bytes = fmax(0, r->weight_bytes - ends) * share + fmax(l->embed_bytes, l->head_bytes);
        r->kv_cache_bytes *= share;
        r->kv_bytes_per_token *= share;
    }
    r->activation_bytes = pre.act_bytes > dec.act_bytes ? pre.act_bytes : dec.act_bytes;
    r->memory_bytes = r->weight_bytes + r->kv_cache_bytes + r->activation_bytes;
    r->fits = -1; /* fit_memory */
    return NNPERF_OK;
}

/* ---- options ---- */

static const int default_prompt = 512, default_batch = 1;

/* The caller's dim bindings: "NAME=N", NAME a symbol the conventions do not name (those follow the batches and
 * prompt lengths), each once, N whole and at most LLM_MAX_DIM */
static enum nnperf_status check_dims(const struct nnperf_llm_options *o, struct diag *d)
{
    for (int i = 0; i < o->n_dims; i++) {
        const char *s = o->dims[i], *eq = s ? strchr(s, '=') : NULL;
        if (!eq || eq == s)
            return diag_set(d, NNPERF_E_USAGE, "dim binding '%s': expected NAME=N", s ? s : "(null)");
        int n = (int)(eq - s);
        for (int k = 0; k < n; k++)
            if (!(isalnum((unsigned char)s[k]) || s[k] == '_' || s[k] == '.') || isdigit((unsigned char)s[0]))
                return diag_set(d, NNPERF_E_USAGE,
                                "dim binding '%s': '%.*s' is not a dim name (letters, digits, '_' and '.')",
                                s, n, s);
        const char *v = eq + 1;
        size_t digits = strspn(v, "0123456789");
        if (!digits || v[digits] || digits > 13 || strtoll(v, NULL, 10) > LLM_MAX_DIM)
            return diag_set(d, NNPERF_E_USAGE,
                            "dim binding '%s': the value must be a whole number from 0 to %lld", s,
                            (long long)LLM_MAX_DIM);
        for (size_t r = 0; r < sizeof dim_names / sizeof dim_names[0]; r++)
            if (strlen(dim_names[r].name) == (size_t)n && !strncmp(dim_names[r].name, s, (size_t)n))
                return diag_set(
                    d, NNPERF_E_USAGE,
                    "dim binding '%s': %.*s is one of the LLM's own dims, set from the batch sizes and "
                    "prompt lengths",
                    s, n, s);
        for (int j = 0; j < i; j++)
            if (!strncmp(o->dims[j], s, (size_t)n + 1))
                return diag_set(d, NNPERF_E_USAGE, "dim '%.*s' is bound twice ('%s' and '%s')", n, s,
                                o->dims[j], s);
    }
    return NNPERF_OK;
}

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
    const char *names[2] = {o->weights, o->kv}, *what[2] = {"weight", "KV cache"};
    for (int i = 0; i < 2; i++)
        if (names[i] && dtype_bytes(names[i]) <= 0)
            return diag_set(
                d, NNPERF_E_USAGE,
                "%s dtype '%s': unknown format (a dtype: int4, int8, fp8 (fp8_e4m3, fp8_e5m2), fp16, bf16, "
                "fp32; a GGUF type: q4_0, q4_1, q5_0, q5_1, q8_0, q2_k, q3_k_s/m/l, q4_k_s/m, q5_k_s/m, "
                "q6_k; intN:gG for N-bit groups of G; or bits per weight such as 4.85)",
                what[i], names[i]);
    if (o->compute && hw_dtype_from_name(o->compute) < 0)
        return diag_set(d, NNPERF_E_USAGE,
                        "compute dtype '%s': unknown dtype (int4, int8, fp8, fp16, bf16 or fp32)",
                        o->compute);
    if (o->n_dims < 0 || (o->n_dims && !o->dims)) return diag_set(d, NNPERF_E_USAGE, "no dim bindings given");
    return check_dims(o, d);
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

static void fmt_gb(char *b, size_t n, double x)
{
    rep_si(b, n, x, "B");
}

/* Memory against the platform: each configuration fits in memory.ddr_bytes less memory.reserved_bytes, or is
 * refused, or (allow_offload) streams the weights that do not fit from host memory every forward pass; then the
 * largest batch and context that fit, at the first configuration's rates per sequence and per token with the KV
 * cache given memory.kv_fraction of what the weights and activations leave (TensorRT-LLM's free-memory fraction) */
static enum nnperf_status fit_memory(struct nnperf_llm *l, const struct nnperf_llm_options *o,
                                     const struct nnperf_platform *plat, struct diag *d)
{
    double usable = l->device_bytes - l->reserved_bytes;
    for (int i = 0; l->device_bytes > 0 && i < l->n_rows; i++) {
        struct nnperf_llm_row *r = &l->rows[i];
        r->fits = r->memory_bytes <= usable;
        if (r->fits) continue;
        char need[32], w[32], kv[32], act[32], has[32], res[32], left[32];
        fmt_gb(need, sizeof need, r->memory_bytes), fmt_gb(w, sizeof w, r->weight_bytes);
        fmt_gb(kv, sizeof kv, r->kv_cache_bytes), fmt_gb(act, sizeof act, r->activation_bytes);
        fmt_gb(has, sizeof has, l->device_bytes), fmt_gb(res, sizeof res, l->reserved_bytes);
        fmt_gb(left, sizeof left, usable);
        double over = r->memory_bytes - usable;
        if (!o->allow_offload || over > r->weight_bytes || plat->hw.host_bw <= 0)
            return diag_set(
                d, NNPERF_E_USAGE,
                "prompt %d + %d generated at batch %d needs %s (weights %s + KV cache %s + activations %s) "
                "but "
                "'%s' has %s%s%s%s%s%s%s: it does not fit%s%s",
                r->prompt, r->generate, r->batch, need, w, kv, act, l->platform, has,
                l->tp * l->pp > 1 || plat->hw.devices > 1 ? " per device" : "",
                l->reserved_bytes > 0 ? " (" : "", l->reserved_bytes > 0 ? left : "",
                l->reserved_bytes > 0 ? " after the runtime's reserve of " : "",
                l->reserved_bytes > 0 ? res : "", l->reserved_bytes > 0 ? ")" : "",
                !o->allow_offload ? "; use smaller weights (--weights int4), a smaller batch or context, or "
                                    "--allow-offload to stream weights from host memory"
                : over > r->weight_bytes ? " even with every weight in host memory"
                                         : " and the platform has no host link (memory.host_bandwidth) to "
                                           "stream weights over",
                plat->hw.devices > l->tp * l->pp
                    ? "; or split it over more of the platform's devices (--tp, --pp)"
                    : "");
        /* the weights over the capacity cross the host link every forward pass, after the step's own work */
        r->offload_bytes = over;
        double t = over / plat->hw.host_bw;
        r->ttft_s += t, r->tpot_first_s += t, r->tpot_last_s += t, r->tpot_mean_s += t;
        r->e2e_s += t * (1 + r->generate);
        r->decode_tokens_per_s = (double)r->batch / r->tpot_mean_s;
        char ob[32];
        fmt_gb(ob, sizeof ob, over);
        llm_warn(
            l,
            "prompt %d at batch %d does not fit (%s of %s usable): %s of weights stream from host memory "
            "every forward pass (+%.3g ms per step at memory.host_bandwidth %.3g GB/s)",
            r->prompt, r->batch, need, left, ob, t * 1e3, plat->hw.host_bw / 1e9);
    }
    const struct nnperf_llm_row *r = &l->rows[0];
    double free_b = usable - r->weight_bytes, f = l->kv_fraction > 0 ? l->kv_fraction : 1;
    /* per sequence and per token: activations plus the KV cache's share of the memory it is given */
    double per_seq = (r->activation_bytes + r->kv_cache_bytes / f) / r->batch;
    double per_tok = per_seq * r->batch / (r->prompt + r->generate);
    l->max_batch = l->device_bytes <= 0          ? -1
                   : free_b <= 0 || per_seq <= 0 ? 0
                                                 : (int)fmin(free_b / per_seq, 1e9);
    l->max_context = l->device_bytes <= 0          ? -1
                     : free_b <= 0 || per_tok <= 0 ? 0
                                                   : (int)fmin(free_b / per_tok, 1e9);
    if (l->position_limit && (l->max_context < 0 || l->max_context > l->position_limit))
        l->max_context = l->position_limit;
    if (l->device_bytes <= 0)
        llm_warn(
            l, "platform '%s' gives no device memory capacity (memory.ddr_bytes): whether it fits is unknown",
            l->platform);
    return NNPERF_OK;
}

static enum nnperf_status price_phase(void *ctx, int batch, int seq, int past, double *t)
{
    struct run_ctx *rc = ctx;
    struct phase_out po = {0};
    enum nnperf_status st = run_phase(rc, batch, seq, past, 0, &po, NULL);
    *t = po.latency_s;
    return st;
}

/* the serving simulation over the memory the first configuration leaves for the KV cache */
static enum nnperf_status run_serve(struct run_ctx *rc, const struct nnperf_llm_options *o, struct diag *d)
{
    struct nnperf_llm *l = rc->l;
    struct llm_serve_in in = {*o->serve, 0, 0, l->position_limit, price_phase, rc};
    struct nnperf_serve_options *s = &in.o;
    if (!s->requests) s->requests = 1000;
    if (!s->prompt) s->prompt = o->prompts[0];
    if (!s->output) s->output = o->generate;
    if (!s->block_size) s->block_size = 32;
    if (!s->chunk) s->chunk = 2048;
    if (!s->max_batch) s->max_batch = 256;
    if (s->requests < 1 || s->requests > 1000000 || s->prompt < 1 || s->output < 1 || s->block_size < 1 ||
        s->block_size > 4096 || s->chunk < 1 || s->max_batch < 1 || s->max_batch > 65536 ||
        s->lengths < NNPERF_LENGTHS_FIXED || s->lengths > NNPERF_LENGTHS_EXPONENTIAL || !(s->rate >= 0) ||
        s->concurrency < 0 || (s->rate > 0) + (s->concurrency > 0) + !!s->trace != 1)
        return diag_set(d, NNPERF_E_USAGE,
                        "serving: give a rate (requests/s), a concurrency or a trace file, one of them; 1 to "
                        "1000000 requests, positive lengths, block size, chunk and batch");
    if (!(s->slo_ttft_s >= 0 && s->slo_ttft_s < 1e6) || !(s->slo_tpot_s >= 0 && s->slo_tpot_s < 1e6) ||
        (s->slo_percentile && s->slo_percentile != 90 && s->slo_percentile != 99))
        return diag_set(
            d, NNPERF_E_USAGE,
            "serving: a latency target is TTFT and TPOT bounds in seconds (0 or more) at percentile 90 "
            "or 99");
    if (!s->slo_percentile) s->slo_percentile = 90;
    if (s->trace && !(s->trace = ar_strdup(&l->ar, s->trace)))
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    if (!l->has_kv_cache || l->device_bytes <= 0)
        return diag_set(d, NNPERF_E_USAGE, "serving needs a model with a KV cache and the platform's memory");
    const struct nnperf_llm_row *r = &l->rows[0];
    double act = r->activation_bytes * fmax(1.0, (double)s->chunk / ((double)r->batch * r->prompt));
    double f = l->kv_fraction > 0 ? l->kv_fraction : 1;
    in.kv_bytes_per_token = r->kv_bytes_per_token;
    in.kv_capacity_bytes = f * (l->device_bytes - l->reserved_bytes - r->weight_bytes - act);
    enum nnperf_status st = llm_serve_run(&in, &l->serve, d);
    l->served = !st;
    l->serve_opts = *s;
    return st;
}

int nnperf_llm_serve_result(const struct nnperf_llm *l, struct nnperf_serve_result *r)
{
    memset(r, 0, sizeof *r);
    if (!l || !l->served) return 0;
    *r = l->serve;
    return 1;
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
        l->reserved_bytes = plat->hw.reserved_bytes;
        l->kv_fraction = plat->hw.kv_fraction;
        /* a platform changed after loading is no longer the one the published rows validated */
        if (!plat->hw.n_set) l->band = plat->hw.val_llm;
        l->platform_changed = plat->hw.n_set > 0;
        find_position_limit(l, ((const struct ir_model *)m)->graph);
        const char *wn = o.weights ? o.weights : o.compute;
        find_ends(l, ((const struct ir_model *)m)->graph, wn ? dtype_bytes(wn) : 0);
        st = check_parallel(l, &o, (const struct ir_model *)m, plat, &d);
        for (int i = 0; !st && l->position_limit && i < o.n_prompts; i++)
            if ((int64_t)o.prompts[i] + o.generate > l->position_limit)
                st = diag_set(
                    &d, NNPERF_E_USAGE,
                    "prompt %d + %d generated = %lld tokens is over the model's position limit of %d "
                    "tokens (%s)",
                    o.prompts[i], o.generate, (long long)o.prompts[i] + o.generate, l->position_limit,
                    l->position_of ? l->position_of : "its position table");
        /* a compute dtype stores the weights and the cache at it too unless --weights / --kv say otherwise (the
         * prediction reads them so) */
        l->weights = o.weights ? o.weights : o.compute ? o.compute : "model";
        l->kv = o.kv ? o.kv : o.compute ? o.compute : "model";
        if (o.compute) l->compute = ar_strdup(&l->ar, o.compute);
        l->n_rows = o.n_prompts * o.n_batches;
        l->rows = ar_calloc(&l->ar, (size_t)l->n_rows, sizeof *l->rows);
        if (!l->model || !l->platform || !l->rows) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
        if (!l->has_kv_cache)
            llm_warn(
                l, "the model has no KV cache inputs (past_*): each decode step re-runs the whole sequence");
    }
    const char *wname = o.weights ? o.weights : o.compute, *kvname = o.kv ? o.kv : o.compute;
    struct run_ctx rc = {
        l, &lm, NULL, plat, &o, wname ? dtype_bytes(wname) : 0, kvname ? dtype_bytes(kvname) : 0, &d};
    /* speculative decoding: the draft's inputs read into a scratch result of its own (its phases' warnings and
     * dims stay there) */
    struct nnperf_llm *dl = NULL;
    struct llm_model dlm = {(struct nnperf_model *)o.draft, NULL, 0};
    struct run_ctx drc = rc;
    if (!st && o.draft) {
        dl = calloc(1, sizeof *dl);
        if (!dl) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
        if (dl) ar_init(&dl->ar, 0);
        if (!st) st = check_speculative(l, &o, &d);
        if (!st) st = read_inputs(dl, &dlm, &d);
        if (!st && !dl->has_kv_cache)
            st = diag_set(&d, NNPERF_E_USAGE, "the draft model has no KV cache inputs (past_*)");
        if (!st) {
            dl->compute = l->compute;
            drc.l = dl, drc.lm = &dlm;
            rc.draft = &drc;
        }
    }
    for (int i = 0; !st && i < o.n_prompts; i++)
        for (int j = 0; !st && j < o.n_batches; j++)
            st = run_config(&rc, o.prompts[i], o.batches[j], !i && !j, &l->rows[i * o.n_batches + j]);
    if (!st) st = fit_memory(l, &o, plat, &d);
    if (!st && o.serve) st = run_serve(&rc, &o, &d);
    if (dl) nnperf_llm_free(dl);
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
    s->reserved_bytes = l->reserved_bytes;
    s->kv_fraction = l->kv_fraction;
    s->position_limit = l->position_limit;
    s->tp = l->tp;
    s->pp = l->pp;
    s->spec_tokens = l->spec_tokens;
    s->spec_accept = l->spec_accept;
    s->spec_tokens_per_step = l->spec_per_step;
    s->rows = l->n_rows;
    s->warnings = l->n_warn;
    s->expected_error_rows = l->band.rows;
    s->expected_error_median = l->band.rows ? l->band.median : NAN;
    s->expected_error_p90 = l->band.rows ? l->band.p90 : NAN;
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
