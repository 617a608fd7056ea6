/* ir.c - value tables (name lookup with outer scopes), opset lookup and dtype facts. */
#include "ir.h"

#include <string.h>

static uint64_t hash_str(const char *s)
{
    uint64_t h = 1469598103934665603ull; /* FNV-1a */
    for (; *s; s++) h = (h ^ (unsigned char)*s) * 1099511628211ull;
    return h;
}

struct ir_value *ir_find(const struct ir_graph *g, const char *name)
{
    if (!g->vt.cap) return NULL;
    size_t mask = g->vt.cap - 1, i = (size_t)hash_str(name) & mask;
    for (;;) {
        struct ir_value *v = g->vt.slot[i];
        if (!v) return NULL;
        if (!strcmp(v->name, name)) return g->vt.view ? &g->vt.view[v->id] : v;
        i = (i + 1) & mask;
    }
}

struct ir_value *ir_lookup(const struct ir_graph *g, const char *name)
{
    for (; g; g = g->parent) {
        struct ir_value *v = ir_find(g, name);
        if (v) return v;
    }
    return NULL;
}

static int vt_grow(struct arena *ar, struct ir_graph *g)
{
    size_t nc = g->vt.cap ? g->vt.cap * 2 : 64;
    struct ir_value **ns = ar_calloc(ar, nc, sizeof *ns);
    if (!ns) return 0;
    for (size_t i = 0; i < g->vt.cap; i++) {
        struct ir_value *v = g->vt.slot[i];
        if (!v) continue;
        size_t j = (size_t)hash_str(v->name) & (nc - 1);
        while (ns[j]) j = (j + 1) & (nc - 1);
        ns[j] = v;
    }
    g->vt.slot = ns;
    g->vt.cap = nc;
    return 1;
}

enum nnperf_status ir_add_value(struct arena *ar, struct ir_graph *g, const char *name, struct ir_value **out,
                                struct diag *d)
{
    if (g->vt.view)
        return diag_set(d, NNPERF_E_INVALID, "value '%s': an analysis's copy of a graph gets no new values",
                        name);
    if (ir_find(g, name))
        return diag_set(d, NNPERF_E_INVALID, "value '%s' is defined twice (duplicate output or initializer)",
                        name);
    if ((g->vt.count + 1) * 2 > g->vt.cap && !vt_grow(ar, g))
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    struct ir_value *v = ar_alloc(ar, sizeof *v);
    if (!v) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    v->name = name;
    v->rank = -1;
    v->decl_rank = -1;
    v->type_kind = TK_TENSOR;
    size_t i = (size_t)hash_str(name) & (g->vt.cap - 1);
    while (g->vt.slot[i]) i = (i + 1) & (g->vt.cap - 1);
    g->vt.slot[i] = v;
    g->vt.count++;
    /* keep every value in definition order for reports */
    if ((g->n_values & (g->n_values - 1)) == 0) {
        size_t nc = g->n_values ? (size_t)g->n_values * 2 : 16;
        struct ir_value **nv = ar_calloc(ar, nc, sizeof *nv);
        if (!nv) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
        if (g->n_values) memcpy(nv, g->values, (size_t)g->n_values * sizeof *nv);
        g->values = nv;
    }
    g->values[g->n_values++] = v;
    *out = v;
    return NNPERF_OK;
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
