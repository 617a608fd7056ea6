/* config.c - nnperf_llm_config_load: a decoder-only model from a Hugging Face config.json (docs/llm.md, "From a
 * config"). The configuration is read (a small JSON reader: objects, arrays, strings, numbers, true/false/null;
 * nested objects such as text_config and rope_scaling are flattened to "text_config.hidden_size"), checked, and the
 * decoder is written as an ONNX model in the layout ONNX Runtime GenAI's model builder emits ([ORT-GENAI-BUILDER]:
 * SimplifiedLayerNormalization, SkipSimplifiedLayerNormalization, GroupQueryAttention with the rotary embedding
 * inside, MatMul projections, com.microsoft MoE for mixtures of experts), weight-free (every weight an external
 * reference to a file that does not exist), then loaded like any model: `nnperf llm` predicts it as it predicts an
 * exported decoder. Families: Llama 2/3, Mistral, Mixtral, Qwen2/2.5 (and Qwen2-MoE), Qwen3 (and Qwen3-MoE),
 * Gemma 1/2/3, Phi-3. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../hw/hw.h"
#include "../onnx/pbw.h"
#include "llm.h"

/* ---- a small JSON reader: scalars flattened by key path ---- */

#define CJ_MAX_KEYS  1024
#define CJ_MAX_DEPTH 8
#define CJ_MAX_PATH  128

struct cj_kv {
    char key[CJ_MAX_PATH];
    char str[128]; /* strings (truncated), "true"/"false"/"null", or the number's text */
    double num;
    int is_num, is_str;
};

struct cj {
    const char *p, *start, *end, *file;
    struct cj_kv *kv;
    int n;
    struct diag *d;
    int err;
};

static void cj_pos(const struct cj *j, int *line, int *col)
{
    *line = 1, *col = 1;
    for (const char *q = j->start; q < j->p && q < j->end; q++)
        if (*q == '\n')
            ++*line, *col = 1;
        else
            ++*col;
}

static int cj_fail(struct cj *j, const char *what)
{
    if (j->err) return 0;
    int line, col;
    cj_pos(j, &line, &col);
    diag_set(j->d, NNPERF_E_PARSE, "%s:%d:%d: %s", j->file, line, col, what);
    j->err = 1;
    return 0;
}

static void cj_ws(struct cj *j)
{
    while (j->p < j->end && (*j->p == ' ' || *j->p == '\t' || *j->p == '\n' || *j->p == '\r')) j->p++;
}

/* a string into out (truncated at cap - 1; escapes other than \" \\ \/ kept as their letter) */
static int cj_string(struct cj *j, char *out, size_t cap)
{
    size_t n = 0;
    if (j->p >= j->end || *j->p != '"') return cj_fail(j, "expected a string");
    j->p++;
    while (j->p < j->end && *j->p != '"') {
        char ch = *j->p++;
        if ((unsigned char)ch < 0x20) return cj_fail(j, "control character in a string");
        if (ch == '\\') {
            if (j->p >= j->end) break;
            ch = *j->p++;
            if (ch == 'u') { /* \uXXXX: kept as '?' */
                for (int k = 0; k < 4; k++, j->p++)
                    if (j->p >= j->end || !isxdigit((unsigned char)*j->p))
                        return cj_fail(j, "bad \\u escape in a string");
                ch = '?';
            }
        }
        if (n + 1 < cap) out[n++] = ch;
    }
    if (j->p >= j->end) return cj_fail(j, "unterminated string");
    j->p++;
    out[n] = 0;
    return 1;
}

static int cj_put(struct cj *j, const char *key, const char *str, double num, int is_num, int is_str)
{
    if (!key[0]) return 1;
    for (int i = 0; i < j->n; i++)
        if (!strcmp(j->kv[i].key, key)) return 1; /* the first value of a key (an array's first element) */
    if (j->n == CJ_MAX_KEYS) return cj_fail(j, "more than 1024 values");
    struct cj_kv *e = &j->kv[j->n++];
    snprintf(e->key, sizeof e->key, "%s", key);
    snprintf(e->str, sizeof e->str, "%s", str);
    e->num = num, e->is_num = is_num, e->is_str = is_str;
    return 1;
}

static int cj_value(struct cj *j, const char *path, int depth);

static int cj_container(struct cj *j, const char *path, int depth, int object)
{
    if (depth >= CJ_MAX_DEPTH) return cj_fail(j, "nested more than 8 deep");
    j->p++;
    cj_ws(j);
    char close = object ? '}' : ']';
    if (j->p < j->end && *j->p == close) {
        j->p++;
        return 1;
    }
    for (;;) {
        char child[CJ_MAX_PATH];
        if (object) {
            char key[96];
            cj_ws(j);
            if (!cj_string(j, key, sizeof key)) return 0;
            cj_ws(j);
            if (j->p >= j->end || *j->p != ':') return cj_fail(j, "expected ':' after a key");
            j->p++;
            snprintf(child, sizeof child, "%s%s%s", path, path[0] ? "." : "", key);
        } else
            snprintf(child, sizeof child, "%s", path); /* an array's elements: its first one counts */
        if (!cj_value(j, child, depth + 1)) return 0;
        cj_ws(j);
        if (j->p < j->end && *j->p == ',') {
            j->p++;
            continue;
        }
        if (j->p < j->end && *j->p == close) {
            j->p++;
            return 1;
        }
        return cj_fail(j, object ? "expected ',' or '}'" : "expected ',' or ']'");
    }
}

static int cj_value(struct cj *j, const char *path, int depth)
{
    cj_ws(j);
    if (j->p >= j->end) return cj_fail(j, "unexpected end of file");
    char c = *j->p;
    if (c == '{' || c == '[') return cj_container(j, path, depth, c == '{');
    if (c == '"') {
        char s[128];
        return cj_string(j, s, sizeof s) && cj_put(j, path, s, 0, 0, 1);
    }
    static const char *const words[3] = {"true", "false", "null"};
    for (int i = 0; i < 3; i++) {
        size_t n = strlen(words[i]);
        if ((size_t)(j->end - j->p) >= n && !strncmp(j->p, words[i], n)) {
            j->p += n;
            return cj_put(j, path, words[i], i == 0, 0, 0);
        }
    }
    if (c == '-' || isdigit((unsigned char)c)) {
        char buf[64];
        size_t n = 0;
        while (j->p < j->end && n + 1 < sizeof buf &&
               (isdigit((unsigned char)*j->p) || strchr("+-.eE", *j->p)))
            buf[n++] = *j->p++;
        buf[n] = 0;
        char *e;
        double v = c_strtod(buf, &e);
        if (*e || !isfinite(v)) return cj_fail(j, "bad number");
        return cj_put(j, path, buf, v, 1, 0);
    }
    return cj_fail(j, "expected a value");
}

/* ---- the configuration ---- */

enum fam {
    F_LLAMA,
    F_MISTRAL,
    F_MIXTRAL,
    F_QWEN2,
    F_QWEN2_MOE,
    F_QWEN3,
    F_QWEN3_MOE,
    F_GEMMA,
    F_GEMMA2,
    F_GEMMA3,
    F_PHI3
};

static const struct {
    const char *model_type;
    int fam;
} families[] = {
    {"llama", F_LLAMA},         {"mistral", F_MISTRAL}, {"mixtral", F_MIXTRAL},     {"qwen2", F_QWEN2},
    {"qwen2_moe", F_QWEN2_MOE}, {"qwen3", F_QWEN3},     {"qwen3_moe", F_QWEN3_MOE}, {"gemma", F_GEMMA},
    {"gemma2", F_GEMMA2},       {"gemma3", F_GEMMA3},   {"gemma3_text", F_GEMMA3},  {"phi3", F_PHI3},
};

struct llm_cfg {
    char model_type[64];
    int fam;
    int64_t hidden, layers, heads, kv_heads, head_dim, ffn, vocab, max_pos, rotary_dim;
    int64_t experts, top_k, moe_ffn, shared_ffn;
    int tied, qkv_bias, qk_norm, gemma, moe;
    double eps;
};

struct cfg_read {
    const struct cj *j;
    const char *prefix; /* "text_config." for a multimodal Gemma 3, else "" */
    const char *file;
    struct diag *d;
};

static const struct cj_kv *cfg_find(const struct cfg_read *r, const char *key)
{
    char k[CJ_MAX_PATH];
    snprintf(k, sizeof k, "%s%s", r->prefix, key);
    for (int pass = 0; pass < 2; pass++) {
        for (int i = 0; i < r->j->n; i++)
            if (!strcmp(r->j->kv[i].key, k)) return &r->j->kv[i];
        snprintf(k, sizeof k, "%s", key); /* then at the top level */
    }
    return NULL;
}

/* an integer key: required (def < 0) or def; checked in [lo, hi] */
static int cfg_int(const struct cfg_read *r, const char *key, int64_t def, int64_t lo, int64_t hi,
                   int64_t *out)
{
    const struct cj_kv *e = cfg_find(r, key);
    if (!e || (!e->is_num && !strcmp(e->str, "null"))) {
        if (def < 0) {
            diag_set(r->d, NNPERF_E_INVALID, "%s: '%s' is missing (a decoder's config.json has it)", r->file,
                     key);
            return 0;
        }
        *out = def;
        return 1;
    }
    if (!e->is_num || e->num != floor(e->num) || e->num < (double)lo || e->num > (double)hi) {
        diag_set(r->d, NNPERF_E_INVALID, "%s: '%s' is %s, expected a whole number from %lld to %lld", r->file,
                 key, e->str, (long long)lo, (long long)hi);
        return 0;
    }
    *out = (int64_t)e->num;
    return 1;
}

static double cfg_num(const struct cfg_read *r, const char *key, double def)
{
    const struct cj_kv *e = cfg_find(r, key);
    return e && e->is_num ? e->num : def;
}

static int cfg_bool(const struct cfg_read *r, const char *key, int def)
{
    const struct cj_kv *e = cfg_find(r, key);
    if (!e || e->is_str || e->is_num) return def;
    return !strcmp(e->str, "true") ? 1 : !strcmp(e->str, "false") ? 0 : def;
}

static enum nnperf_status read_cfg(const struct cj *j, const char *file, struct llm_cfg *c, struct diag *d)
{
    memset(c, 0, sizeof *c);
    struct cfg_read r = {j, "", file, d};
    const struct cj_kv *mt = cfg_find(&r, "model_type");
    if (!mt || !mt->is_str)
        return diag_set(d, NNPERF_E_INVALID,
                        "%s: no 'model_type' (a Hugging Face config.json names its model type)", file);
    snprintf(c->model_type, sizeof c->model_type, "%s", mt->str);
    c->fam = -1;
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++)
        if (!strcmp(families[i].model_type, mt->str)) c->fam = families[i].fam;
    if (c->fam < 0)
        return diag_set(
            d, NNPERF_E_UNSUPPORTED,
            "%s: model_type '%s' is not one nnperf builds (llama, mistral, mixtral, qwen2, qwen2_moe, "
            "qwen3, qwen3_moe, gemma, gemma2, gemma3, gemma3_text, phi3); export the model to ONNX instead",
            file, mt->str);
    if (c->fam == F_GEMMA3 && !strcmp(mt->str, "gemma3"))
        r.prefix = "text_config."; /* the language model's */
    const int64_t big = (int64_t)1 << 24;
    if (!cfg_int(&r, "hidden_size", -1, 1, 1 << 20, &c->hidden) ||
        !cfg_int(&r, "num_hidden_layers", -1, 1, 1024, &c->layers) ||
        !cfg_int(&r, "num_attention_heads", -1, 1, 4096, &c->heads) ||
        !cfg_int(&r, "num_key_value_heads", c->heads, 1, c->heads, &c->kv_heads) ||
        !cfg_int(&r, "head_dim", c->hidden / c->heads, 1, 4096, &c->head_dim) ||
        !cfg_int(&r, "vocab_size", -1, 1, big, &c->vocab) ||
        !cfg_int(&r, "max_position_embeddings", -1, 1, (int64_t)1 << 30, &c->max_pos))
        return NNPERF_E_INVALID;
    if (c->heads % c->kv_heads)
        return diag_set(d, NNPERF_E_INVALID,
                        "%s: num_attention_heads %lld is not a multiple of num_key_value_heads %lld", file,
                        (long long)c->heads, (long long)c->kv_heads);
    if (c->head_dim < 2 || c->head_dim % 2)
        return diag_set(d, NNPERF_E_INVALID, "%s: head_dim %lld is not even (rotary embedding)", file,
                        (long long)c->head_dim);
    c->moe = c->fam == F_MIXTRAL || c->fam == F_QWEN2_MOE || c->fam == F_QWEN3_MOE;
    int64_t ffn_def = c->moe && c->fam != F_MIXTRAL ? 0 : -1;
    if (!cfg_int(&r, "intermediate_size", ffn_def, 0, big, &c->ffn)) return NNPERF_E_INVALID;
    if (c->moe) {
        const char *ek = c->fam == F_MIXTRAL ? "num_local_experts" : "num_experts";
        if (!cfg_int(&r, ek, -1, 1, 4096, &c->experts) ||
            !cfg_int(&r, "num_experts_per_tok", -1, 1, c->experts, &c->top_k) ||
            !cfg_int(&r, "moe_intermediate_size", c->fam == F_MIXTRAL ? c->ffn : -1, 1, big, &c->moe_ffn) ||
            !cfg_int(&r, "shared_expert_intermediate_size", 0, 0, big, &c->shared_ffn))
            return NNPERF_E_INVALID;
    } else if (c->ffn < 1)
        return diag_set(d, NNPERF_E_INVALID, "%s: 'intermediate_size' is %lld, expected at least 1", file,
                        (long long)c->ffn);
    c->gemma = c->fam == F_GEMMA || c->fam == F_GEMMA2 || c->fam == F_GEMMA3;
    c->tied = cfg_bool(&r, "tie_word_embeddings", c->gemma);
    c->qkv_bias = c->fam == F_QWEN2 || c->fam == F_QWEN2_MOE;
    c->qk_norm = c->fam == F_QWEN3 || c->fam == F_QWEN3_MOE || c->fam == F_GEMMA3;
    c->eps = cfg_num(&r, "rms_norm_eps", 1e-6);
    double prf = cfg_num(&r, "partial_rotary_factor", 1.0);
    if (!(prf > 0 && prf <= 1))
        return diag_set(d, NNPERF_E_INVALID, "%s: partial_rotary_factor %g is not in (0, 1]", file, prf);
    c->rotary_dim = (int64_t)((double)c->head_dim * prf) / 2 * 2;
    if (c->rotary_dim < 2) c->rotary_dim = 2;
    /* the graph's size: weights are references, but every node and value is real */
    if ((double)c->layers * (c->moe ? 3.0 : 1.0) > 2048)
        return diag_set(d, NNPERF_E_LIMIT, "%s: %lld layers is over what nnperf builds", file,
                        (long long)c->layers);
    return NNPERF_OK;
}

/* ---- writing the ONNX model ---- */

enum { T_FLOAT = 1, T_INT32 = 6, T_INT64 = 7, T_FLOAT16 = 10 };

struct gb {
    struct pbw w;
    const struct llm_cfg *c;
    int tp;          /* the tensor-parallel degree the graph is one device's shard of */
    uint64_t offset; /* of the next external weight */
    int n;           /* nodes written (unique names) */
    int dt;          /* weights, activations and the cache */
};

static const char *const B_ = "batch_size", *const S_ = "sequence_length", *const P_ = "past_sequence_length",
                         *const T_ = "total_sequence_length";

static void attr_int(struct pbw *w, const char *name, int64_t v)
{
    size_t a = pbw_begin(w, 5);
    pbw_str(w, 1, name);
    pbw_uint(w, 3, (uint64_t)v);
    pbw_uint(w, 20, 2);
    pbw_end(w, a);
}

static void attr_float(struct pbw *w, const char *name, double v)
{
    size_t a = pbw_begin(w, 5);
    pbw_str(w, 1, name);
    float f = (float)v;
    uint8_t b[4];
    memcpy(b, &f, 4); /* little-endian hosts (the project builds on x86-64 and arm64) */
    pbw_tag(w, 2, PB_I32);
    pbw_bytes(w, b, 4);
    pbw_uint(w, 20, 1);
    pbw_end(w, a);
}

static void attr_str(struct pbw *w, const char *name, const char *v)
{
    size_t a = pbw_begin(w, 5);
    pbw_str(w, 1, name);
    pbw_str(w, 4, v);
    pbw_uint(w, 20, 3);
    pbw_end(w, a);
}

/* a node; ins/outs NULL-terminated ("" = an omitted input); the attributes follow through the callback args */
struct nattr {
    const char *name;
    int kind; /* 0 none, 1 int, 2 float, 3 string */
    int64_t i;
    double f;
    const char *s;
};

static void node(struct gb *g, const char *op, const char *domain, const char *name, const char *const *ins,
                 const char *const *outs, const struct nattr *at)
{
    size_t m = pbw_begin(&g->w, 1);
    for (int i = 0; ins[i]; i++) pbw_str(&g->w, 1, ins[i]);
    for (int i = 0; outs[i]; i++) pbw_str(&g->w, 2, outs[i]);
    pbw_str(&g->w, 3, name);
    pbw_str(&g->w, 4, op);
    for (int i = 0; at && at[i].name; i++) {
        if (at[i].kind == 1) attr_int(&g->w, at[i].name, at[i].i);
        if (at[i].kind == 2) attr_float(&g->w, at[i].name, at[i].f);
        if (at[i].kind == 3) attr_str(&g->w, at[i].name, at[i].s);
    }
    if (domain[0]) pbw_str(&g->w, 7, domain);
    pbw_end(&g->w, m);
    g->n++;
}

/* a weight: dims, the graph's dtype, stored as an external reference (never read) */
static void weight(struct gb *g, const char *name, int rank, const int64_t *dims)
{
    size_t t = pbw_begin(&g->w, 5);
    uint64_t n = 1;
    for (int i = 0; i < rank; i++) pbw_uint(&g->w, 1, (uint64_t)dims[i]), n *= (uint64_t)dims[i];
    pbw_uint(&g->w, 2, (uint64_t)g->dt);
    pbw_str(&g->w, 8, name);
    uint64_t bytes = n * (g->dt == T_FLOAT ? 4 : 2);
    char num[32];
    const char *keys[3] = {"location", "offset", "length"};
    for (int k = 0; k < 3; k++) {
        size_t e = pbw_begin(&g->w, 13);
        pbw_str(&g->w, 1, keys[k]);
        if (k == 0)
            pbw_str(&g->w, 2, "nnperf-config.weights");
        else {
            snprintf(num, sizeof num, "%llu", (unsigned long long)(k == 1 ? g->offset : bytes));
            pbw_str(&g->w, 2, num);
        }
        pbw_end(&g->w, e);
    }
    pbw_uint(&g->w, 14, 1); /* data_location EXTERNAL */
    pbw_end(&g->w, t);
    g->offset += (bytes + 63) / 64 * 64;
}

/* a small int64 constant (raw data): a 1-D tensor of n values, or a scalar (n = 0: one value, no dims) */
static void const_i64(struct gb *g, const char *name, int n, const int64_t *v)
{
    size_t t = pbw_begin(&g->w, 5);
    if (n)
        pbw_uint(&g->w, 1, (uint64_t)n);
    else
        n = 1;
    pbw_uint(&g->w, 2, T_INT64);
    pbw_str(&g->w, 8, name);
    uint8_t raw[8 * 8];
    for (int i = 0; i < n && i < 8; i++)
        for (int b = 0; b < 8; b++) raw[i * 8 + b] = (uint8_t)((uint64_t)v[i] >> (8 * b));
    pbw_len(&g->w, 9, raw, (size_t)n * 8);
    pbw_end(&g->w, t);
}

static void const_scalar(struct gb *g, const char *name, double v)
{
    size_t t = pbw_begin(&g->w, 5);
    pbw_uint(&g->w, 2, (uint64_t)g->dt);
    pbw_str(&g->w, 8, name);
    uint8_t raw[4];
    if (g->dt == T_FLOAT) {
        float f = (float)v;
        memcpy(raw, &f, 4);
        pbw_len(&g->w, 9, raw, 4);
    } else { /* fp16 of v (a value that does not matter for the prediction: rounded through the exponent) */
        int e;
        double m = frexp(fabs(v), &e); /* v = m 2^e, m in [0.5, 1) */
        uint16_t h = 0;
        if (v != 0 && e - 1 + 15 > 0 && e - 1 + 15 < 31)
            h = (uint16_t)(((e - 1 + 15) << 10) | ((uint16_t)((m * 2 - 1) * 1024) & 0x3ff));
        if (v < 0) h |= 0x8000;
        raw[0] = (uint8_t)h, raw[1] = (uint8_t)(h >> 8);
        pbw_len(&g->w, 9, raw, 2);
    }
    pbw_end(&g->w, t);
}

#define NM 192
#define A_END                                                                                                \
    {                                                                                                        \
        NULL, 0, 0, 0, NULL                                                                                  \
    }

static void mm(struct gb *g, const char *x, const char *wname, int64_t din, int64_t dout, const char *out)
{
    int64_t dims[2] = {din, dout};
    weight(g, wname, 2, dims);
    char nn[NM];
    snprintf(nn, sizeof nn, "%s/MatMul", out);
    node(g, "MatMul", "", nn, (const char *[]){x, wname, NULL}, (const char *[]){out, NULL}, NULL);
}

static void bias_add(struct gb *g, const char *x, const char *bname, int64_t n, const char *out)
{
    weight(g, bname, 1, &n);
    char nn[NM];
    snprintf(nn, sizeof nn, "%s/Add", out);
    node(g, "Add", "", nn, (const char *[]){x, bname, NULL}, (const char *[]){out, NULL}, NULL);
}

static void rmsnorm(struct gb *g, const char *x, const char *wname, int64_t d, const char *out)
{
    weight(g, wname, 1, &d);
    char nn[NM];
    snprintf(nn, sizeof nn, "%s/LayerNorm", out);
    struct nattr at[] = {
        {"axis", 1, -1, 0, NULL}, {"epsilon", 2, 0, g->c->eps, NULL}, {"stash_type", 1, 1, 0, NULL}, A_END};
    node(g, "SimplifiedLayerNormalization", "", nn, (const char *[]){x, wname, NULL},
         (const char *[]){out, NULL}, at);
}

/* SkipSimplifiedLayerNormalization: out = norm(x + skip), sum = x + skip */
static void skipnorm(struct gb *g, const char *x, const char *skip, const char *wname, const char *out,
                     const char *sum)
{
    weight(g, wname, 1, &g->c->hidden);
    char nn[NM], o1[NM], o2[NM];
    snprintf(nn, sizeof nn, "%s/SkipLayerNorm", out);
    snprintf(o1, sizeof o1, "%s/unused_1", out), snprintf(o2, sizeof o2, "%s/unused_2", out);
    struct nattr at[] = {{"epsilon", 2, 0, g->c->eps, NULL}, A_END};
    node(g, "SkipSimplifiedLayerNormalization", "com.microsoft", nn, (const char *[]){x, skip, wname, NULL},
         (const char *[]){out, o1, o2, sum, NULL}, at);
}

/* the feed-forward of one dense MLP: down(act(gate(x)) * up(x)) */
static void mlp(struct gb *g, const char *x, const char *pre, int64_t ffn, const char *out)
{
    const struct llm_cfg *c = g->c;
    char gw[NM], uw[NM], dw[NM], go[NM], uo[NM], ao[NM], so[NM], mo[NM], nn[NM];
    snprintf(gw, sizeof gw, "%s/gate_proj.weight", pre), snprintf(go, sizeof go, "%s/gate_proj", pre);
    snprintf(uw, sizeof uw, "%s/up_proj.weight", pre), snprintf(uo, sizeof uo, "%s/up_proj", pre);
    snprintf(dw, sizeof dw, "%s/down_proj.weight", pre);
    mm(g, x, gw, c->hidden, ffn, go);
    mm(g, x, uw, c->hidden, ffn, uo);
    snprintf(ao, sizeof ao, "%s/act_fn", pre);
    if (c->gemma) { /* GELU (tanh approximation) */
        snprintf(nn, sizeof nn, "%s/FastGelu", ao);
        node(g, "FastGelu", "com.microsoft", nn, (const char *[]){go, NULL}, (const char *[]){ao, NULL},
             NULL);
    } else { /* SiLU = x * sigmoid(x) */
        snprintf(so, sizeof so, "%s/Sigmoid", ao);
        node(g, "Sigmoid", "", so, (const char *[]){go, NULL}, (const char *[]){so, NULL}, NULL);
        snprintf(nn, sizeof nn, "%s/Mul", ao);
        node(g, "Mul", "", nn, (const char *[]){go, so, NULL}, (const char *[]){ao, NULL}, NULL);
    }
    snprintf(mo, sizeof mo, "%s/Mul", pre);
    node(g, "Mul", "", mo, (const char *[]){ao, uo, NULL}, (const char *[]){mo, NULL}, NULL);
    mm(g, mo, dw, ffn, c->hidden, out);
}

/* a mixture of experts: the router's logits and com.microsoft MoE over SwiGLU experts (fc1 up, fc3 gate, fc2
 * down), plus Qwen2-MoE's shared expert gated by a sigmoid */
static void moe(struct gb *g, const char *x, const char *pre, const char *out)
{
    const struct llm_cfg *c = g->c;
    char rw[NM], ro[NM], w1[NM], w2[NM], w3[NM], mo[NM];
    snprintf(rw, sizeof rw, "%s/gate.weight", pre), snprintf(ro, sizeof ro, "%s/router", pre);
    mm(g, x, rw, c->hidden, c->experts, ro);
    snprintf(w1, sizeof w1, "%s/experts.fc1", pre), snprintf(w2, sizeof w2, "%s/experts.fc2", pre);
    snprintf(w3, sizeof w3, "%s/experts.fc3", pre);
    int64_t d1[3] = {c->experts, c->moe_ffn, c->hidden}, d2[3] = {c->experts, c->hidden, c->moe_ffn};
    weight(g, w1, 3, d1), weight(g, w2, 3, d2), weight(g, w3, 3, d1);
    snprintf(mo, sizeof mo, "%s/MoE", pre);
    const char *res = c->shared_ffn ? mo : out;
    struct nattr at[] = {
        {"k", 1, c->top_k, 0, NULL},
        {"activation_type", 3, 0, 0, "silu"},
        {"normalize_routing_weights", 1, c->fam == F_MIXTRAL || c->fam == F_QWEN3_MOE, 0, NULL},
        A_END};
    node(g, "MoE", "com.microsoft", mo, (const char *[]){x, ro, w1, "", w2, "", w3, NULL},
         (const char *[]){res, NULL}, at);
    if (!c->shared_ffn) return;
    char sp[NM], so[NM], sgw[NM], sgo[NM], sg[NM], sm[NM];
    snprintf(sp, sizeof sp, "%s/shared_expert", pre), snprintf(so, sizeof so, "%s/shared_expert/out", pre);
    mlp(g, x, sp, c->shared_ffn, so);
    snprintf(sgw, sizeof sgw, "%s/shared_expert_gate.weight", pre);
    snprintf(sgo, sizeof sgo, "%s/shared_expert_gate", pre);
    mm(g, x, sgw, c->hidden, 1, sgo);
    snprintf(sg, sizeof sg, "%s/shared_expert_gate/Sigmoid", pre);
    node(g, "Sigmoid", "", sg, (const char *[]){sgo, NULL}, (const char *[]){sg, NULL}, NULL);
    snprintf(sm, sizeof sm, "%s/shared_expert/gated", pre);
    node(g, "Mul", "", sm, (const char *[]){so, sg, NULL}, (const char *[]){sm, NULL}, NULL);
    node(g, "Add", "", out, (const char *[]){mo, sm, NULL}, (const char *[]){out, NULL}, NULL);
}

/* Qwen3 / Gemma 3 normalise each head of q and k: Reshape to [B, S, heads, head_dim], norm, Reshape back */
static void head_norm(struct gb *g, const char *x, const char *pre, const char *what, int64_t heads,
                      const char *out)
{
    char s1[NM], s2[NM], r1[NM], nw[NM], no[NM];
    snprintf(s1, sizeof s1, "%s/%s_shape", pre, what), snprintf(s2, sizeof s2, "%s/%s_shape_back", pre, what);
    int64_t v1[4] = {0, 0, heads, g->c->head_dim}, v2[3] = {0, 0, heads * g->c->head_dim};
    const_i64(g, s1, 4, v1), const_i64(g, s2, 3, v2);
    snprintf(r1, sizeof r1, "%s/%s_norm/Reshape", pre, what);
    node(g, "Reshape", "", r1, (const char *[]){x, s1, NULL}, (const char *[]){r1, NULL}, NULL);
    snprintf(nw, sizeof nw, "%s/%s_norm.weight", pre, what), snprintf(no, sizeof no, "%s/%s_norm", pre, what);
    rmsnorm(g, r1, nw, g->c->head_dim, no);
    char r2[NM];
    snprintf(r2, sizeof r2, "%s/%s_norm/Reshape_1", pre, what);
    node(g, "Reshape", "", r2, (const char *[]){no, s2, NULL}, (const char *[]){out, NULL}, NULL);
}

/* the KV cache inputs (field 11: past_key_values.N.key/value, past length) or outputs (12: present.N.*, total) */
static void cache_io(struct gb *g, uint32_t field, const char *prefix, const char *len)
{
    char nm[NM];
    for (int64_t i = 0; i < g->c->layers; i++)
        for (int kv = 0; kv < 2; kv++) {
            snprintf(nm, sizeof nm, "%s.%lld.%s", prefix, (long long)i, kv ? "value" : "key");
            const char *sym[4] = {B_, NULL, len, NULL};
            int64_t val[4] = {0, g->c->kv_heads, 0, g->c->head_dim};
            pbw_value_info(&g->w, field, nm, g->dt, 4, sym, val);
        }
}

static void shard_producer(char *buf, size_t n, int tp)
{
    if (tp > 1)
        snprintf(buf, n, "nnperf-llm-config tp=%d", tp);
    else
        snprintf(buf, n, "nnperf-llm-config");
}

int llm_shard_of(const char *producer)
{
    const char *pre = "nnperf-llm-config tp=";
    if (!producer || strncmp(producer, pre, strlen(pre))) return 1;
    long v = strtol(producer + strlen(pre), NULL, 10);
    return v >= 1 && v <= LLM_MAX_DEVICES ? (int)v : 1;
}

static void build(struct gb *g)
{
    const struct llm_cfg *c = g->c;
    struct pbw *w = &g->w;
    pbw_uint(w, 1, 8); /* ir_version */
    char producer[64];
    shard_producer(producer, sizeof producer, g->tp);
    pbw_str(w, 2, producer);
    const char *domains[2] = {"", "com.microsoft"};
    int64_t versions[2] = {17, 1};
    for (int i = 0; i < 2; i++) {
        size_t o = pbw_begin(w, 8);
        if (domains[i][0]) pbw_str(w, 1, domains[i]);
        pbw_uint(w, 2, (uint64_t)versions[i]);
        pbw_end(w, o);
    }
    size_t gr = pbw_begin(w, 7);
    pbw_str(w, 2, c->model_type);
    /* inputs and outputs */
    const char *sym_bs[2] = {B_, S_}, *sym_bt[2] = {B_, T_};
    pbw_value_info(w, 11, "input_ids", T_INT64, 2, sym_bs, NULL);
    pbw_value_info(w, 11, "attention_mask", T_INT64, 2, sym_bt, NULL);
    char nm[NM], nm2[NM];
    cache_io(g, 11, "past_key_values", P_);
    const char *sym_l[3] = {B_, S_, NULL};
    int64_t val_l[3] = {0, 0, c->vocab};
    pbw_value_info(w, 12, "logits", g->dt, 3, sym_l, val_l);
    cache_io(g, 12, "present", T_);
    /* the attention mask as GroupQueryAttention takes it: seqlens_k = sum(mask) - 1, total length */
    int64_t one = 1;
    const_i64(g, "const_axes_1", 1, &one); /* ReduceSum's axes, and the 1 subtracted */
    const char *mr = "/model/attn_mask_reformat";
    snprintf(nm, sizeof nm, "%s/ReduceSum", mr);
    node(g, "ReduceSum", "", nm, (const char *[]){"attention_mask", "const_axes_1", NULL},
         (const char *[]){"mask_sum", NULL}, (struct nattr[]){{"keepdims", 1, 1, 0, NULL}, A_END});
    snprintf(nm, sizeof nm, "%s/Sub", mr);
    node(g, "Sub", "", nm, (const char *[]){"mask_sum", "const_axes_1", NULL},
         (const char *[]){"mask_sub", NULL}, NULL);
    snprintf(nm, sizeof nm, "%s/Cast", mr);
    node(g, "Cast", "", nm, (const char *[]){"mask_sub", NULL}, (const char *[]){"seqlens_k", NULL},
         (struct nattr[]){{"to", 1, T_INT32, 0, NULL}, A_END});
    snprintf(nm, sizeof nm, "%s/Shape", mr);
    node(g, "Shape", "", nm, (const char *[]){"attention_mask", NULL}, (const char *[]){"mask_shape", NULL},
         NULL);
    snprintf(nm, sizeof nm, "%s/Gather", mr);
    const_i64(g, "const_index_1", 0, &one); /* a scalar 1 */
    node(g, "Gather", "", nm, (const char *[]){"mask_shape", "const_index_1", NULL},
         (const char *[]){"total_len64", NULL}, (struct nattr[]){{"axis", 1, 0, 0, NULL}, A_END});
    snprintf(nm, sizeof nm, "%s/Cast_1", mr);
    node(g, "Cast", "", nm, (const char *[]){"total_len64", NULL}, (const char *[]){"total_seq_len", NULL},
         (struct nattr[]){{"to", 1, T_INT32, 0, NULL}, A_END});
    int64_t rot[2] = {c->max_pos, c->rotary_dim / 2}, emb[2] = {c->vocab, c->hidden};
    weight(g, "cos_cache", 2, rot), weight(g, "sin_cache", 2, rot);
    weight(g, "model.embed_tokens.weight", 2, emb);
    node(g, "Gather", "", "/model/embed_tokens/Gather",
         (const char *[]){"model.embed_tokens.weight", "input_ids", NULL},
         (const char *[]){"embeddings", NULL}, NULL);
    const char *x = "embeddings";
    if (c->gemma) { /* Gemma scales the embeddings by sqrt(hidden) */
        const_scalar(g, "embed_scale", sqrt((double)c->hidden));
        node(g, "Mul", "", "/model/embed_tokens/Mul", (const char *[]){"embeddings", "embed_scale", NULL},
             (const char *[]){"embeddings_scaled", NULL}, NULL);
        x = "embeddings_scaled";
    }
    rmsnorm(g, x, "model.layers.0.input_layernorm.weight", c->hidden, "/model/layers.0/input_layernorm");
    char n[NM], resid[NM];
    snprintf(n, sizeof n, "/model/layers.0/input_layernorm");
    snprintf(resid, sizeof resid, "%s", x);
    int64_t q_out = c->heads * c->head_dim, kv_out = c->kv_heads * c->head_dim;
    for (int64_t i = 0; i < c->layers; i++) {
        char pre[NM], q[NM], k[NM], v[NM], wn[NM], a[NM], o[NM], tmp[NM];
        snprintf(pre, sizeof pre, "/model/layers.%lld", (long long)i);
        const char *proj[3] = {"q_proj", "k_proj", "v_proj"};
        char *dst[3] = {q, k, v};
        int64_t outs[3] = {q_out, kv_out, kv_out};
        for (int p = 0; p < 3; p++) {
            snprintf(wn, sizeof wn, "%s/attn/%s.weight", pre, proj[p]);
            snprintf(dst[p], NM, "%s/attn/%s", pre, proj[p]);
            mm(g, n, wn, c->hidden, outs[p], dst[p]);
            if (c->qkv_bias) {
                snprintf(wn, sizeof wn, "%s/attn/%s.bias", pre, proj[p]);
                snprintf(tmp, sizeof tmp, "%s/attn/%s/biased", pre, proj[p]);
                bias_add(g, dst[p], wn, outs[p], tmp);
                snprintf(dst[p], NM, "%s", tmp);
            }
        }
        if (c->qk_norm) {
            snprintf(tmp, sizeof tmp, "%s/attn/q_normed", pre);
            head_norm(g, q, pre, "attn/q", c->heads, tmp);
            snprintf(q, sizeof q, "%s", tmp);
            snprintf(tmp, sizeof tmp, "%s/attn/k_normed", pre);
            head_norm(g, k, pre, "attn/k", c->kv_heads, tmp);
            snprintf(k, sizeof k, "%s", tmp);
        }
        snprintf(a, sizeof a, "%s/attn/GroupQueryAttention", pre);
        snprintf(nm, sizeof nm, "past_key_values.%lld.key", (long long)i);
        snprintf(nm2, sizeof nm2, "past_key_values.%lld.value", (long long)i);
        char pk[NM], pv[NM];
        snprintf(pk, sizeof pk, "present.%lld.key", (long long)i);
        snprintf(pv, sizeof pv, "present.%lld.value", (long long)i);
        struct nattr gat[] = {{"num_heads", 1, c->heads, 0, NULL},
                              {"kv_num_heads", 1, c->kv_heads, 0, NULL},
                              {"do_rotary", 1, 1, 0, NULL},
                              {"rotary_interleaved", 1, 0, 0, NULL},
                              {"scale", 2, 0, 1.0 / sqrt((double)c->head_dim), NULL},
                              {"local_window_size", 1, -1, 0, NULL},
                              A_END};
        node(g, "GroupQueryAttention", "com.microsoft", a,
             (const char *[]){q, k, v, nm, nm2, "seqlens_k", "total_seq_len", "cos_cache", "sin_cache", NULL},
             (const char *[]){a, pk, pv, NULL}, gat);
        snprintf(wn, sizeof wn, "%s/attn/o_proj.weight", pre);
        snprintf(o, sizeof o, "%s/attn/o_proj", pre);
        mm(g, a, wn, q_out, c->hidden, o);
        if (c->fam == F_GEMMA2 || c->fam == F_GEMMA3) { /* Gemma 2/3: a norm after attention */
            snprintf(wn, sizeof wn, "model.layers.%lld.post_attention_layernorm.weight", (long long)i);
            snprintf(tmp, sizeof tmp, "%s/post_attention_layernorm", pre);
            rmsnorm(g, o, wn, c->hidden, tmp);
            snprintf(o, sizeof o, "%s", tmp);
            snprintf(wn, sizeof wn, "model.layers.%lld.pre_feedforward_layernorm.weight", (long long)i);
        } else
            snprintf(wn, sizeof wn, "model.layers.%lld.post_attention_layernorm.weight", (long long)i);
        char n2[NM], r2[NM];
        snprintf(n2, sizeof n2, "%s/post_attention_layernorm/output_0", pre);
        snprintf(r2, sizeof r2, "%s/post_attention_layernorm/output_3", pre);
        skipnorm(g, o, resid, wn, n2, r2);
        char y[NM], mpre[NM];
        snprintf(mpre, sizeof mpre, "%s/mlp", pre);
        snprintf(y, sizeof y, "%s/mlp/down_proj", pre);
        if (c->moe)
            moe(g, n2, mpre, y);
        else
            mlp(g, n2, mpre, c->ffn, y);
        if (c->fam == F_GEMMA2 || c->fam == F_GEMMA3) {
            snprintf(wn, sizeof wn, "model.layers.%lld.post_feedforward_layernorm.weight", (long long)i);
            snprintf(tmp, sizeof tmp, "%s/post_feedforward_layernorm", pre);
            rmsnorm(g, y, wn, c->hidden, tmp);
            snprintf(y, sizeof y, "%s", tmp);
        }
        if (i + 1 < c->layers) {
            snprintf(wn, sizeof wn, "model.layers.%lld.input_layernorm.weight", (long long)i + 1);
            snprintf(n, sizeof n, "/model/layers.%lld/input_layernorm/output_0", (long long)i + 1);
            snprintf(resid, sizeof resid, "/model/layers.%lld/input_layernorm/output_3", (long long)i + 1);
        } else {
            snprintf(wn, sizeof wn, "model.norm.weight");
            snprintf(n, sizeof n, "/model/norm/output_0");
            snprintf(resid, sizeof resid, "/model/norm/output_3");
        }
        skipnorm(g, y, r2, wn, n, resid);
    }
    if (c->tied) { /* the embedding table read as the lm_head: MatMul(x, Transpose(table)) (no perm: the axes
                    * reversed), folded, counted once */
        node(g, "Transpose", "", "/lm_head/Transpose", (const char *[]){"model.embed_tokens.weight", NULL},
             (const char *[]){"lm_head.weight_t", NULL}, NULL);
        node(g, "MatMul", "", "/lm_head/MatMul", (const char *[]){n, "lm_head.weight_t", NULL},
             (const char *[]){"logits", NULL}, NULL);
    } else {
        int64_t dims[2] = {c->hidden, c->vocab};
        weight(g, "lm_head.weight", 2, dims);
        node(g, "MatMul", "", "/lm_head/MatMul", (const char *[]){n, "lm_head.weight", NULL},
             (const char *[]){"logits", NULL}, NULL);
    }
    pbw_end(w, gr);
}

static int64_t ceil_div(int64_t a, int64_t b)
{
    return (a + b - 1) / b;
}

/* One device's shard of tensor parallelism tp as Megatron-LM splits a decoder ([MEGATRON]) and vLLM and
 * TensorRT-LLM run it: the attention heads and the KV heads split across the devices (each device holds one KV head
 * when there are fewer KV heads than devices: they are replicated), the FFN and every expert's FFN split along
 * their intermediate size, the embedding and the LM head along the vocabulary; the norms and the router are
 * replicated. The all-reduces that join the shards are priced by nnperf_llm. */
static enum nnperf_status shard(struct llm_cfg *c, int tp, const char *file, struct diag *d)
{
    if (tp == 1) return NNPERF_OK;
    if (c->heads % tp)
        return diag_set(
            d, NNPERF_E_USAGE,
            "%s: tensor parallelism %d does not divide num_attention_heads %lld (each device runs a "
            "whole number of heads)",
            file, tp, (long long)c->heads);
    if (c->kv_heads >= tp ? c->kv_heads % tp : tp % c->kv_heads)
        return diag_set(d, NNPERF_E_USAGE,
                        "%s: tensor parallelism %d and num_key_value_heads %lld: one must divide the other",
                        file, tp, (long long)c->kv_heads);
    c->heads /= tp;
    c->kv_heads = c->kv_heads >= tp ? c->kv_heads / tp : 1;
    c->ffn = ceil_div(c->ffn, tp);
    if (c->moe) c->moe_ffn = ceil_div(c->moe_ffn, tp), c->shared_ffn = ceil_div(c->shared_ffn, tp);
    c->vocab = ceil_div(c->vocab, tp);
    return NNPERF_OK;
}

enum nnperf_status nnperf_llm_config_load(const char *path, struct nnperf_model **out, char *err,
                                          size_t errlen)
{
    return nnperf_llm_config_load_tp(path, 1, out, err, errlen);
}

enum nnperf_status nnperf_llm_config_load_tp(const char *path, int tp, struct nnperf_model **out, char *err,
                                             size_t errlen)
{
    *out = NULL;
    struct diag d = {0};
    char *text = NULL;
    size_t len = 0;
    if (!path) {
        if (err && errlen) snprintf(err, errlen, "nnperf_llm_config_load: no path");
        return NNPERF_E_USAGE;
    }
    enum nnperf_status st = hw_read_file(path, &text, &len, &d);
    struct cj j = {text, text, text ? text + len : NULL, path, NULL, 0, &d, 0};
    struct llm_cfg c;
    if (!st) {
        j.kv = calloc(CJ_MAX_KEYS, sizeof *j.kv);
        if (!j.kv) st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
    }
    if (!st) {
        cj_ws(&j);
        if (j.p >= j.end || *j.p != '{')
            cj_fail(&j, "expected a JSON object (a Hugging Face config.json)");
        else if (cj_value(&j, "", 0)) {
            cj_ws(&j);
            if (j.p < j.end) cj_fail(&j, "text after the JSON object");
        }
        if (j.err) st = d.status;
    }
    if (!st && (tp < 1 || tp > LLM_MAX_DEVICES))
        st = diag_set(&d, NNPERF_E_USAGE, "tensor parallelism %d is out of range (1 to %d)", tp,
                      LLM_MAX_DEVICES);
    if (!st) st = read_cfg(&j, path, &c, &d);
    if (!st) st = shard(&c, tp, path, &d);
    free(j.kv);
    free(text);
    struct gb g = {.c = &c, .dt = T_FLOAT16, .tp = tp};
    if (!st) {
        pbw_init(&g.w, (size_t)1 << 30);
        build(&g);
        if (g.w.err)
            st = diag_set(&d, (enum nnperf_status)g.w.err, "%s: the model is too large to build", path);
    }
    if (!st) {
        /* the model owns the buffer; its weights' external file does not exist (weight-free) */
        st = nnperf_model_load_buffer(g.w.p, g.w.len, path, "/nonexistent-nnperf-config", NULL, out, err,
                                      errlen);
        if (!st) {
            ((struct ir_model *)*out)->mapped = 2;
            g.w.p = NULL;
        }
        pbw_free(&g.w);
        return st;
    }
    pbw_free(&g.w);
    if (err && errlen) snprintf(err, errlen, "%s", d.msg[0] ? d.msg : nnperf_status_name(st));
    return st;
}
