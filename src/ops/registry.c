/* registry.c - the operator table built from op_list.def, name lookup by binary search and the public listing. */
#include <string.h>

#include "ops.h"

const struct op_def op_table[OPID_COUNT] = {
#define OP(id, dom, name, since, until, klass, fpe, infer, count)                                            \
    {dom, name, since, until, klass, fpe, infer, count},
#include "op_list.def"
#undef OP
};

static int cmp_key(const char *d1, const char *n1, const char *d2, const char *n2)
{
    int c = strcmp(d1, d2);
    return c ? c : strcmp(n1, n2);
}

int op_find(const char *domain, const char *name)
{
    if (!strcmp(domain, "ai.onnx")) domain = "";
    int lo = 0, hi = OPID_COUNT - 1;
    while (lo <= hi) {
        int mid = (lo + hi) / 2;
        int c = cmp_key(domain, name, op_table[mid].domain, op_table[mid].name);
        if (!c) return mid;
        if (c < 0)
            hi = mid - 1;
        else
            lo = mid + 1;
    }
    return -1;
}

int op_find_name(const char *name)
{
    /* the table is sorted by domain, then name: one binary search within each domain's run of rows */
    for (int start = 0; start < OPID_COUNT;) {
        const char *dom = op_table[start].domain;
        int lo = start, hi = OPID_COUNT; /* the run's end: the first row of a greater domain */
        while (lo < hi) {
            int mid = (lo + hi) / 2;
            if (strcmp(op_table[mid].domain, dom) > 0)
                hi = mid;
            else
                lo = mid + 1;
        }
        int end = lo;
        lo = start, hi = end - 1;
        while (lo <= hi) {
            int mid = (lo + hi) / 2;
            int c = strcmp(name, op_table[mid].name);
            if (!c) return mid;
            if (c < 0)
                hi = mid - 1;
            else
                lo = mid + 1;
        }
        start = end;
    }
    return -1;
}

int64_t op_newest_opset(void)
{
    int64_t v = 1;
    for (int i = 0; i < OPID_COUNT; i++)
        if (!op_table[i].domain[0] && op_table[i].since > v) v = op_table[i].since;
    return v;
}

static const char *const class_names[OC_COUNT] = {
    [OC_CONV] = "conv",
    [OC_GEMM] = "gemm",
    [OC_MATMUL] = "matmul",
    [OC_ATTENTION] = "attention",
    [OC_RNN] = "rnn",
    [OC_ELTWISE] = "eltwise",
    [OC_ACT] = "activation",
    [OC_POOL] = "pool",
    [OC_NORM] = "norm",
    [OC_REDUCE] = "reduce",
    [OC_SOFTMAX] = "softmax",
    [OC_RESIZE] = "resize",
    [OC_DATA] = "data",
    [OC_VIEW] = "view",
    [OC_QUANT] = "quant",
    [OC_GEN] = "generator",
    [OC_CONTROL] = "control",
    [OC_SEQUENCE] = "sequence",
    [OC_OTHER] = "other",
    [OC_CONV_GROUPED] = "conv_grouped",
    [OC_CONV_DEPTHWISE] = "conv_depthwise",
};

const char *op_class_name(int klass)
{
    return klass >= 0 && klass < OC_COUNT ? class_names[klass] : "?";
}

int nnperf_op_count(void)
{
    return OPID_COUNT;
}

void nnperf_op_info(int i, const char **domain, const char **name, int *since, int *until, const char **klass)
{
    if (i < 0 || i >= OPID_COUNT) return;
    const struct op_def *o = &op_table[i];
    if (domain) *domain = o->domain[0] ? o->domain : "ai.onnx";
    if (name) *name = o->name;
    if (since) *since = o->since;
    if (until) *until = o->until;
    if (klass) *klass = op_class_name(o->klass);
}
