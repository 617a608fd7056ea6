/* load.c - ONNX ModelProto -> IR, reading the protobuf wire format in place. Names, attributes and shapes are
 * copied into the model arena (they are small); tensor bytes stay in the mapping as views. Model-local functions
 * are inlined at their call sites; If/Loop/Scan bodies become subgraphs with an outer scope. This file reads the
 * ModelProto itself; load.h lists the files that read the messages inside it. */
#include <string.h>

#include "load.h"

static const struct fspec model_fields[] = {
    [1] = {WV, "ir_version"},     [2] = {WL, "producer_name"}, [3] = {WL, "producer_version"},
    [4] = {WL, "domain"},         [5] = {WV, "model_version"}, [6] = {WL, "doc_string"},
    [7] = {WL, "graph"},          [8] = {WL, "opset_import"},  [14] = {WL, "metadata_props"},
    [20] = {WL, "training_info"}, [25] = {WL, "functions"},
};
static const struct fspec opset_fields[] = {
    [1] = {WL, "domain"},
    [2] = {WV, "version"},
};

static const char *domain_name(const char *domain)
{
    return domain[0] ? domain : "ai.onnx";
}

/* opset_import: present (IR 3 and later require it), each version 1 or more, ai.onnx no newer than the registry
 * knows (an operator of a newer opset may mean something else), one version per domain (a node binds to the version
 * of its domain: two make that ambiguous; the same one twice is harmless). onnx.proto: ModelProto.opset_import,
 * docs/sources.md [ONNX-PROTO]. */
static enum nnperf_status check_opsets(struct ld *L)
{
    const struct ir_model *m = L->m;
    if (!m->n_opsets)
        return diag_set(L->d, NNPERF_E_INVALID,
                        "the model has no opset_import (IR version %lld requires one)",
                        (long long)m->ir_version);
    int64_t newest = L->reg->newest_opset;
    for (int i = 0; i < m->n_opsets; i++) {
        const struct ir_opset *os = &m->opsets[i];
        if (os->version < 1)
            return diag_set(L->d, NNPERF_E_INVALID,
                            "opset_import: domain '%s' has version %lld, expected 1 or more",
                            domain_name(os->domain), (long long)os->version);
        if (!os->domain[0] && os->version > newest)
            return diag_set(
                L->d, NNPERF_E_UNSUPPORTED,
                "opset_import: ai.onnx version %lld is newer than the newest this nnperf knows (%lld)",
                (long long)os->version, (long long)newest);
        for (int j = 0; j < i; j++)
            if (!strcmp(m->opsets[j].domain, os->domain) && m->opsets[j].version != os->version)
                return diag_set(L->d, NNPERF_E_INVALID,
                                "opset_import: domain '%s' is imported twice (versions %lld and %lld)",
                                domain_name(os->domain), (long long)m->opsets[j].version,
                                (long long)os->version);
    }
    return NNPERF_OK;
}

void ox_bind_op(struct ld *L, struct ir_node *nd)
{
    uint64_t h = (uint64_t)(uintptr_t)nd->op_type * 0x9e3779b97f4a7c15ull; /* the address's bits mixed */
    struct ox_op_memo *e = &L->op_memo[(h >> 32) % OX_OP_MEMO];
    if (!e->op_type || (e->op_type != nd->op_type && strcmp(e->op_type, nd->op_type)) ||
        (e->domain != nd->domain && strcmp(e->domain, nd->domain)))
        *e = (struct ox_op_memo){nd->domain, nd->op_type, L->reg->find(nd->domain, nd->op_type),
                                 (int)ir_opset_of(L->m, nd->domain)};
    nd->opset = e->opset;
    nd->op = e->op;
}

static enum nnperf_status load_model(struct ld *L)
{
    struct ir_model *m = L->m;
    struct diag *d = L->d;
    const char *why;
    struct pb r = pb_make(m->buf, m->len);
    struct pb_field f;
    const uint8_t *gp = NULL;
    size_t glen = 0;
    int nfun = 0, nops = 0, saw_ir = 0, rc;
    while ((rc = pb_next(&r, &f, &why)) != 0) {
        /* at the top level a field running past its message runs past the end of the file */
        if (rc < 0 && why == pb_why_past_end)
            return diag_set(
                d, NNPERF_E_PARSE,
                "truncated file: ModelProto field %u at byte %zu claims %llu bytes, the file has %zu", f.num,
                pb_offset(&r), (unsigned long long)f.u, m->len);
        if (rc < 0)
            return ox_bad_field(L, "ModelProto", why, r.field, &f, model_fields, FSPEC_N(model_fields));
        if (!ox_wire_ok(L, "ModelProto", model_fields, FSPEC_N(model_fields), &f, r.field)) return d->status;
        switch (f.num) {
        case MP_IR_VERSION:
            if (f.wire == PB_VARINT) {
                m->ir_version = (int64_t)f.u;
                saw_ir = 1;
            }
            break;
        case MP_PRODUCER:
            if (f.wire == PB_LEN && !(m->producer = ox_str(L, &f))) return ox_nomem(L);
            break;
        case MP_GRAPH:
            if (f.wire == PB_LEN) {
                gp = f.data;
                glen = f.len;
            }
            break;
        case MP_OPSET:
            if (f.wire == PB_LEN) nops++;
            break;
        case MP_FUNCTIONS:
            if (f.wire == PB_LEN) nfun++;
            break;
        default: break;
        }
    }
    if (!saw_ir && !gp)
        return diag_set(d, NNPERF_E_PARSE, "not an ONNX model: no ir_version and no graph field");
    if (!gp) return diag_set(d, NNPERF_E_PARSE, "the model has no graph");
    if (!saw_ir) return diag_set(d, NNPERF_E_PARSE, "the model has no ir_version");
    if (m->ir_version < 3)
        return diag_set(d, NNPERF_E_UNSUPPORTED, "IR version %lld is not supported (3 and later are)",
                        (long long)m->ir_version);
    m->opsets = ar_calloc(&m->ar, (size_t)(nops ? nops : 1), sizeof *m->opsets);
    m->functions = ar_calloc(&m->ar, (size_t)(nfun ? nfun : 1), sizeof *m->functions);
    if (!m->opsets || !m->functions) return ox_nomem(L);
    r = pb_make(m->buf, m->len);
    FOR_FIELDS(r, f, "ModelProto")
    {
        if (f.wire != PB_LEN) continue;
        if (f.num == MP_OPSET) {
            struct pb q = pb_make(f.data, f.len);
            struct pb_field g;
            struct ir_opset *os = &m->opsets[m->n_opsets++];
            os->domain = "";
            FOR_FIELDS_CHECKED(q, g, "OperatorSetIdProto", opset_fields)
            {
                if (g.num == OS_DOMAIN && g.wire == PB_LEN && !(os->domain = ox_str(L, &g)))
                    return ox_nomem(L);
                if (g.num == OS_VERSION && g.wire == PB_VARINT) os->version = (int64_t)g.u;
            }
            if (!strcmp(os->domain, "ai.onnx")) os->domain = "";
        } else if (f.num == MP_FUNCTIONS) {
            enum nnperf_status st = ox_parse_function(L, f.data, f.len, &m->functions[m->n_functions++]);
            if (st) return st;
        }
    }
    enum nnperf_status st = check_opsets(L);
    if (st || (st = ox_check_functions(L))) return st;
    st = ox_parse_graph(L, gp, glen, NULL, NULL, &m->graph);
    if (st) return st;
    if ((st = ox_resolve_graph(L, m->graph))) return st;
    ir_number_graph(m->graph); /* for the analyses' copies of the graph (ir_clone_graph) */
    return NNPERF_OK;
}

enum nnperf_status ox_load_model(struct ir_model *m, const struct ox_registry *reg, struct diag *d)
{
    struct ld L0 = {.m = m, .ar = &m->ar, .d = d, .reg = reg, .pack_strings = 1};
    ar_init(&L0.tmp, 0);
    enum nnperf_status st = load_model(&L0);
    ar_free(&L0.tmp);
    return st;
}
