/* ir.c - value tables (name lookup with outer scopes), opset lookup and dtype facts. */
#include "ir.h"

#include <limits.h>
#include <string.h>

/* The hash of a name of n bytes: 8 bytes a step (the names of transformer exports run to 60 bytes and more), then
 * a finaliser that mixes every bit into the low ones the table indexes with. Only compared within one process: byte
 * order does not matter. */
static uint32_t hash_bytes(const char *s, size_t n)
{
    uint64_t h = 0x9e3779b97f4a7c15ull ^ n;
    for (; n >= 8; s += 8, n -= 8) {
        uint64_t w;
        memcpy(&w, s, 8);
        h = (h ^ w) * 0xff51afd7ed558ccdull;
        h ^= h >> 32;
    }
    uint64_t w = 0;
    memcpy(&w, s, n);
    h = (h ^ w) * 0xc4ceb9fe1a85ec53ull;
    h ^= h >> 33;
    h *= 0xff51afd7ed558ccdull;
    h ^= h >> 33;
    return (uint32_t)h;
}

/* the slot of the name of n bytes at s (hash h) in g's table: the value's slot, or the empty one where it would go
 * (n bytes holding a NUL name no value) */
static size_t vt_slot(const struct ir_graph *g, const char *s, size_t n, uint32_t h)
{
    size_t mask = g->vt.cap - 1, i = h & mask;
    for (;;) {
        uint32_t k = g->vt.slot[i];
        if (!k) return i;
        if (g->vt.hash[i] == h) {
            const char *name = g->vt.vals[k - 1]->name;
            if (strnlen(name, n + 1) == n && !memcmp(name, s, n)) return i;
        }
        i = (i + 1) & mask;
    }
}

static struct ir_value *find_h(const struct ir_graph *g, const char *s, size_t n, uint32_t h)
{
    if (!g->vt.cap) return NULL;
    uint32_t k = g->vt.slot[vt_slot(g, s, n, h)];
    if (!k) return NULL;
    struct ir_value *v = g->vt.vals[k - 1];
    return g->vt.view ? &g->vt.view[v->id] : v;
}

struct ir_value *ir_find(const struct ir_graph *g, const char *name)
{
    size_t n = strlen(name);
    return g->vt.cap ? find_h(g, name, n, hash_bytes(name, n)) : NULL;
}

struct ir_value *ir_find_n(const struct ir_graph *g, const char *s, size_t n)
{
    return g->vt.cap ? find_h(g, s, n, hash_bytes(s, n)) : NULL;
}

struct ir_value *ir_lookup(const struct ir_graph *g, const char *name)
{
    size_t n = strlen(name);
    uint32_t h = hash_bytes(name, n);
    for (; g; g = g->parent) {
        struct ir_value *v = find_h(g, name, n, h);
        if (v) return v;
    }
    return NULL;
}

/* the name table at capacity nc (a power of two, at least twice the count: ir_add_value) */
static int vt_resize(struct arena *ar, struct ir_graph *g, size_t nc)
{
    uint32_t *ns = ar_calloc(ar, nc, sizeof *ns);
    uint32_t *nh = ar_calloc(ar, nc, sizeof *nh);
    if (!ns || !nh) return 0;
    for (size_t i = 0; i < g->vt.cap; i++) {
        if (!g->vt.slot[i]) continue;
        size_t j = g->vt.hash[i] & (nc - 1);
        while (ns[j]) j = (j + 1) & (nc - 1);
        ns[j] = g->vt.slot[i];
        nh[j] = g->vt.hash[i];
    }
    g->vt.slot = ns;
    g->vt.hash = nh;
    g->vt.cap = nc;
    return 1;
}

/* the value list at capacity nc (> n_values) */
static int values_resize(struct arena *ar, struct ir_graph *g, size_t nc)
{
    struct ir_value **nv = ar_calloc(ar, nc, sizeof *nv);
    if (!nv) return 0;
    if (g->n_values) memcpy(nv, g->values, (size_t)g->n_values * sizeof *nv);
    g->values = nv;
    g->vt.vals = nv;
    g->cap_values = (int)nc;
    return 1;
}

enum nnperf_status ir_add_value(struct arena *ar, struct ir_graph *g, const char *name, struct ir_value **out,
                                struct diag *d)
{
    if (g->vt.view)
        return diag_set(d, NNPERF_E_INVALID, "value '%s': an analysis's copy of a graph gets no new values",
                        name);
    size_t n = strlen(name);
    uint32_t h = hash_bytes(name, n);
    if (g->vt.cap && g->vt.slot[vt_slot(g, name, n, h)])
        return diag_set(d, NNPERF_E_INVALID, "value '%s' is defined twice (duplicate output or initializer)",
                        name);
    if ((g->vt.count + 1) * 2 > g->vt.cap && !vt_resize(ar, g, g->vt.cap ? g->vt.cap * 2 : 64))
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    struct ir_value *v = ar_alloc(ar, sizeof *v);
    if (!v) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    v->name = name;
    v->rank = -1;
    v->type_kind = TK_TENSOR;
    /* keep every value in definition order for reports; the name table numbers them by their place there */
    if (g->n_values == g->cap_values && !values_resize(ar, g, g->cap_values ? (size_t)g->cap_values * 2 : 16))
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    size_t i = vt_slot(g, name, n, h);
    g->vt.slot[i] = (uint32_t)g->n_values + 1;
    g->vt.hash[i] = h;
    g->vt.count++;
    g->values[g->n_values++] = v;
    *out = v;
    return NNPERF_OK;
}

int ir_reserve_values(struct arena *ar, struct ir_graph *g, size_t n)
{
    if (!n || n > (size_t)INT_MAX / 4) return 1; /* nothing reserved: grown as values come */
    size_t nc = 64;
    while (nc < 2 * n) nc *= 2;
    if (nc > g->vt.cap && !vt_resize(ar, g, nc)) return 0;
    return n <= (size_t)g->cap_values || values_resize(ar, g, n);
}

/* a copy of v's record to change (the defaults when it has none) */
static struct ir_value_more *more_copy(struct arena *ar, const struct ir_value *v)
{
    struct ir_value_more *r = ar_alloc(ar, sizeof *r);
    if (!r) return NULL;
    if (v->more)
        *r = *v->more;
    else
        r->decl_rank = -1;
    return r;
}

int ir_set_decl(struct arena *ar, struct ir_value *v, int rank, int dtype, struct ir_dim *dims)
{
    struct ir_value_more *d = NULL;
    if (rank >= 0 || dtype || dims) {
        if (!(d = ar_alloc(ar, sizeof *d))) return 0;
        d->decl_rank = rank;
        d->decl_dtype = dtype;
        d->decl_dims = dims;
        d->base = d;
    }
    if (!ir_elems(v) && !ir_unknown_reason(v)) {
        v->more = d;
        return 1;
    }
    struct ir_value_more *r = more_copy(ar, v);
    if (!r) return 0;
    r->decl_rank = rank;
    r->decl_dtype = dtype;
    r->decl_dims = dims;
    r->base = d;
    v->more = r;
    return 1;
}

int ir_set_elems(struct arena *ar, struct ir_value *v, int n, struct ir_value **elems)
{
    if (!elems && !ir_elems(v)) return 1;
    struct ir_value_more *r = more_copy(ar, v);
    if (!r) return 0;
    r->elems = elems;
    r->n_elems = elems ? n : -1;
    v->more = r;
    return 1;
}

int ir_set_unknown_reason(struct arena *ar, struct ir_value *v, const char *why)
{
    if (why == ir_unknown_reason(v)) return 1;
    struct ir_value_more *r = more_copy(ar, v);
    if (!r) return 0;
    r->unknown_reason = why;
    v->more = r;
    return 1;
}

int64_t ir_opset_of(const struct ir_model *m, const char *domain)
{
    if (!strcmp(domain, "ai.onnx")) domain = "";
    for (int i = 0; i < m->n_opsets; i++)
        if (!strcmp(m->opsets[i].domain, domain)) return m->opsets[i].version;
    return 1;
}

static const struct {
    const char *name;
    int bits;
} dtypes[DT_COUNT] = {
    [DT_UNDEFINED] = {"undefined", 0},
    [DT_FLOAT] = {"float32", 32},
    [DT_UINT8] = {"uint8", 8},
    [DT_INT8] = {"int8", 8},
    [DT_UINT16] = {"uint16", 16},
    [DT_INT16] = {"int16", 16},
    [DT_INT32] = {"int32", 32},
    [DT_INT64] = {"int64", 64},
    [DT_STRING] = {"string", 0},
    [DT_BOOL] = {"bool", 8},
    [DT_FLOAT16] = {"float16", 16},
    [DT_DOUBLE] = {"float64", 64},
    [DT_UINT32] = {"uint32", 32},
    [DT_UINT64] = {"uint64", 64},
    [DT_COMPLEX64] = {"complex64", 64},
    [DT_COMPLEX128] = {"complex128", 128},
    [DT_BFLOAT16] = {"bfloat16", 16},
    [DT_FLOAT8E4M3FN] = {"float8e4m3fn", 8},
    [DT_FLOAT8E4M3FNUZ] = {"float8e4m3fnuz", 8},
    [DT_FLOAT8E5M2] = {"float8e5m2", 8},
    [DT_FLOAT8E5M2FNUZ] = {"float8e5m2fnuz", 8},
    [DT_UINT4] = {"uint4", 4},
    [DT_INT4] = {"int4", 4},
    [DT_FLOAT4E2M1] = {"float4e2m1", 4},
};

const char *ir_dtype_name(int dt)
{
    return dt >= 0 && dt < DT_COUNT ? dtypes[dt].name : NULL;
}

int ir_dtype_bits(int dt)
{
    return dt >= 0 && dt < DT_COUNT ? dtypes[dt].bits : 0;
}

int ir_dtype_is_int(int dt)
{
    switch (dt) {
    case DT_UINT8:
    case DT_INT8:
    case DT_UINT16:
    case DT_INT16:
    case DT_INT32:
    case DT_INT64:
    case DT_BOOL:
    case DT_UINT32:
    case DT_UINT64:
    case DT_UINT4:
    case DT_INT4: return 1;
    default: return 0;
    }
}

int ir_dtype_is_float(int dt)
{
    switch (dt) {
    case DT_FLOAT:
    case DT_FLOAT16:
    case DT_DOUBLE:
    case DT_BFLOAT16:
    case DT_FLOAT8E4M3FN:
    case DT_FLOAT8E4M3FNUZ:
    case DT_FLOAT8E5M2:
    case DT_FLOAT8E5M2FNUZ:
    case DT_FLOAT4E2M1: return 1;
    default: return 0;
    }
}
