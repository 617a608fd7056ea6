/* pb_oracle.c - the zero-copy ONNX reader (src/onnx) against a full decode of the same bytes by protobuf-c (code
 * generated at build time by protoc-c from the system's onnx.proto, tests/oracle/CMakeLists.txt).
 *
 * usage: pb_oracle VALID_DIR... [-- MIXED_DIR...]
 * Every *.onnx file under a VALID_DIR (recursively) must load in both, and nnperf's graph right after loading must
 * equal protobuf-c's message: ir_version, producer, opsets; per graph (and recursively per subgraph attribute) the
 * nodes in file order (op_type, domain, name, input and output names, every attribute's name, type and value), the
 * initializers (dtype, dims, and where the data is: the bytes of raw_data / packed float_data / double_data must be
 * the very bytes protobuf-c decoded, i.e. nnperf's (offset, length) views are exact; varint data decodes to the
 * same numbers; external data has the same location, offset and length), the graph inputs (kind, dtype, dims and
 * dim names) and the graph outputs (name, declared dtype and dims). Models with model-local functions are compared
 * apart from their nodes (nnperf inlines the calls). For files under a MIXED_DIR (test models, some deliberately
 * bad: the bad-input corpus, fuzzer seeds and crashes): whatever protobuf-c rejects, nnperf must reject too; nnperf
 * may refuse what protobuf-c decodes for a reason of meaning (a cycle, an escaping external path, a limit); what
 * both accept is compared as above. Prints counts; exit 1 on any difference. */
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/testfiles.h"
#include "ir/ir.h"
#include "nnperf.h"
#include "onnx.pb-c.h"

static int n_diff;           /* differences found in the current file */
static const char *cur_file; /* for messages */
static long n_nodes, n_attrs, n_inits, n_bytes_checked, n_values;

static void diff(const char *fmt, ...)
{
    if (n_diff++ < 5) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "%s: ", cur_file);
        vfprintf(stderr, fmt, ap);
        fputc('\n', stderr);
        va_end(ap);
    }
}

static int str_eq(const char *a, const char *b)
{
    return !strcmp(a ? a : "", b ? b : "");
}

static const char *dom(const char *d)
{
    return (!d || !strcmp(d, "ai.onnx")) ? "" : d;
}

/* ---- types and shapes ---- */

/* the tensor type inside sequence/optional nesting, and the kind nnperf gives it (loader's convention) */
static const Onnx__TypeProto__Tensor *inner_tensor(const Onnx__TypeProto *t, int *kind, int depth)
{
    if (!t || depth > 32) return NULL;
    switch (t->value_case) {
    case ONNX__TYPE_PROTO__VALUE_TENSOR_TYPE: *kind = TK_TENSOR; return t->tensor_type;
    case ONNX__TYPE_PROTO__VALUE_SPARSE_TENSOR_TYPE:
        *kind = TK_SPARSE;
        return (const Onnx__TypeProto__Tensor *)NULL;
    case ONNX__TYPE_PROTO__VALUE_SEQUENCE_TYPE: {
        int k2 = TK_UNKNOWN;
        const Onnx__TypeProto__Tensor *x = inner_tensor(t->sequence_type->elem_type, &k2, depth + 1);
        *kind = TK_SEQUENCE;
        return x;
    }
    case ONNX__TYPE_PROTO__VALUE_OPTIONAL_TYPE: {
        int k2 = TK_UNKNOWN;
        const Onnx__TypeProto__Tensor *x = inner_tensor(t->optional_type->elem_type, &k2, depth + 1);
        *kind = k2 == TK_SEQUENCE ? TK_SEQUENCE : TK_OPTIONAL;
        return x;
    }
    case ONNX__TYPE_PROTO__VALUE_MAP_TYPE: *kind = TK_MAP; return NULL;
    default: *kind = TK_UNKNOWN; return NULL;
    }
}

static void cmp_dims(const char *what, const char *name, const Onnx__TensorShapeProto *sh, int rank,
                     const struct ir_dim *dims)
{
    int prank = sh ? (int)sh->n_dim : -1;
    if (prank != rank) {
        diff("%s '%s': rank %d, protobuf-c %d", what, name, rank, prank);
        return;
    }
    for (int i = 0; i < rank; i++) {
        const Onnx__TensorShapeProto__Dimension *d = sh->dim[i];
        struct ir_dim e = IR_DIM_UNKNOWN;
        if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_VALUE && d->dim_value >= 0)
            e.val = d->dim_value;
        else if (d->value_case == ONNX__TENSOR_SHAPE_PROTO__DIMENSION__VALUE_DIM_PARAM && d->dim_param[0])
            e.sym = d->dim_param;
        if (e.val != dims[i].val || !str_eq(e.sym, dims[i].sym))
            diff("%s '%s': dim %d is %lld/%s, protobuf-c %lld/%s", what, name, i, (long long)dims[i].val,
                 dims[i].sym ? dims[i].sym : "-", (long long)e.val, e.sym ? e.sym : "-");
    }
}

/* a declared type (graph input: the value's own type; graph output: the decl_* fields) */
static void cmp_type(const char *what, const char *name, const Onnx__TypeProto *t, int kind, int dtype,
                     int rank, const struct ir_dim *dims, int check_kind)
{
    int pk = TK_UNKNOWN;
    const Onnx__TypeProto__Tensor *tt = inner_tensor(t, &pk, 0);
    if (check_kind && pk != TK_UNKNOWN && pk != kind)
        diff("%s '%s': kind %d, protobuf-c %d", what, name, kind, pk);
    int pdt = tt && tt->has_elem_type && tt->elem_type >= 0 && tt->elem_type < DT_COUNT ? tt->elem_type : 0;
    if (tt && pdt != dtype) diff("%s '%s': dtype %d, protobuf-c %d", what, name, dtype, pdt);
    if (tt) cmp_dims(what, name, tt->shape, rank, dims);
}

/* ---- tensors ---- */

static int varints(const uint8_t *p, size_t n, uint64_t *out, size_t cap, size_t *cnt)
{
    size_t k = 0, i = 0;
    while (i < n) {
        uint64_t x = 0;
        int sh = 0;
        for (;;) {
            if (i >= n || sh > 63) return 0;
            uint8_t b = p[i++];
            x |= (uint64_t)(b & 0x7f) << sh;
            sh += 7;
            if (!(b & 0x80)) break;
        }
        if (k < cap) out[k] = x;
        k++;
    }
    *cnt = k;
    return 1;
}

static void cmp_tensor(const char *name, const Onnx__TensorProto *t, const struct ir_value *v)
{
    n_inits++;
    int pdt = t->has_data_type && t->data_type >= 0 && t->data_type < DT_COUNT ? t->data_type : 0;
    if (v->dtype != pdt) diff("tensor '%s': dtype %d, protobuf-c %d", name, v->dtype, pdt);
    if (v->rank != (int)t->n_dims) {
        diff("tensor '%s': rank %d, protobuf-c %zu", name, v->rank, t->n_dims);
    } else {
        for (int i = 0; i < v->rank; i++)
            if (v->dims[i].val != t->dims[i])
                diff("tensor '%s': dim %d is %lld, protobuf-c %lld", name, i, (long long)v->dims[i].val,
                     (long long)t->dims[i]);
    }
    int external = t->has_data_location && t->data_location == ONNX__TENSOR_PROTO__DATA_LOCATION__EXTERNAL;
    if (external) {
        const char *loc = NULL;
        unsigned long long off = 0, len = 0;
        int has_len = 0;
        for (size_t i = 0; i < t->n_external_data; i++) {
            const Onnx__StringStringEntryProto *e = t->external_data[i];
            if (!strcmp(e->key, "location")) loc = e->value;
            if (!strcmp(e->key, "offset")) off = strtoull(e->value, NULL, 10);
            if (!strcmp(e->key, "length")) len = strtoull(e->value, NULL, 10), has_len = 1;
        }
        if (v->init->enc != DE_EXTERNAL || !str_eq(loc, v->init->ext_location) ||
            off != v->init->ext_offset || has_len != v->init->ext_has_length ||
            (has_len && len != v->init->ext_length))
            diff("tensor '%s': external data differs (%s %llu %llu vs protobuf-c %s %llu %llu)", name,
                 v->init->ext_location ? v->init->ext_location : "-", (unsigned long long)v->init->ext_offset,
                 (unsigned long long)v->init->ext_length, loc ? loc : "-", off, len);
        return;
    }
    const void *want = NULL;
    size_t want_len = 0;
    if (t->has_raw_data) {
        want = t->raw_data.data;
        want_len = t->raw_data.len;
        if (v->init->enc != DE_RAW)
            diff("tensor '%s': raw_data not seen as raw (enc %d)", name, v->init->enc);
    } else if (t->n_float_data && v->init->enc == DE_FIXED32) {
        want = t->float_data;
        want_len = t->n_float_data * sizeof(float);
    } else if (t->n_double_data && v->init->enc == DE_FIXED64) {
        want = t->double_data;
        want_len = t->n_double_data * sizeof(double);
    } else if ((t->n_int32_data || t->n_int64_data || t->n_uint64_data) && v->init->enc == DE_VARINT) {
        size_t n = t->n_int32_data + t->n_int64_data + t->n_uint64_data, cnt = 0;
        uint64_t *x = malloc((n ? n : 1) * sizeof *x);
        if (!x || !varints(v->init->data, v->init->data_len, x, n, &cnt) || cnt != n) {
            diff("tensor '%s': %zu varints, protobuf-c %zu", name, cnt, n);
        } else {
            for (size_t i = 0; i < n; i++) {
                uint64_t e = t->n_int32_data   ? (uint64_t)(int64_t)t->int32_data[i]
                             : t->n_int64_data ? (uint64_t)t->int64_data[i]
                                               : t->uint64_data[i];
                /* a negative int32 may be written as 10-byte (sign-extended) or 5-byte varint */
                if (x[i] != e && (uint32_t)x[i] != (uint32_t)e) {
                    diff("tensor '%s': element %zu is %llu, protobuf-c %llu", name, i,
                         (unsigned long long)x[i], (unsigned long long)e);
                    break;
                }
            }
            n_values += (long)n;
        }
        free(x);
        return;
    } else if (t->n_float_data || t->n_double_data || t->n_int32_data || t->n_int64_data ||
               t->n_uint64_data) {
        /* unpacked repeated numbers (decoded on demand from the TensorProto bytes) */
        if (v->init->enc != DE_REPEATED)
            diff("tensor '%s': typed data not found (enc %d)", name, v->init->enc);
        return;
    } else {
        return; /* no data, or strings */
    }
    if (v->init->data_len != want_len || (want_len && memcmp(v->init->data, want, want_len))) {
        diff("tensor '%s': data view of %zu bytes differs from protobuf-c's %zu bytes", name,
             v->init->data_len, want_len);
        return;
    }
    n_bytes_checked += (long)want_len;
}

/* ---- graphs ---- */

static void cmp_graph(const Onnx__GraphProto *pg, const struct ir_graph *g, int nodes_too);

static void cmp_attr(const char *node, const Onnx__AttributeProto *pa, const struct ir_attr *a)
{
    n_attrs++;
    if (!str_eq(pa->name, a->name)) {
        diff("node '%s': attribute '%s', protobuf-c '%s'", node, a->name, pa->name);
        return;
    }
    if (pa->has_type && (int)pa->type != a->type) {
        diff("node '%s' attribute '%s': type %d, protobuf-c %d", node, a->name, a->type, (int)pa->type);
        return;
    }
    switch (a->type) {
    case AT_FLOAT:
        if (a->f != (double)pa->f && !(isnan(a->f) && isnan(pa->f)))
            diff("node '%s' attribute '%s': %g, protobuf-c %g", node, a->name, a->f, (double)pa->f);
        break;
    case AT_INT:
        if (a->i != pa->i)
            diff("node '%s' attribute '%s': %lld, protobuf-c %lld", node, a->name, (long long)a->i,
                 (long long)pa->i);
        break;
    case AT_STRING:
        if ((size_t)a->slen != pa->s.len || (a->slen && memcmp(a->s, pa->s.data, pa->s.len)))
            diff("node '%s' attribute '%s': string differs", node, a->name);
        break;
    case AT_INTS:
        if (a->n != (int64_t)pa->n_ints)
            diff("node '%s' attribute '%s': %lld ints, protobuf-c %zu", node, a->name, (long long)a->n,
                 pa->n_ints);
        else
            for (size_t i = 0; i < pa->n_ints; i++)
                if (a->ints[i] != pa->ints[i]) {
                    diff("node '%s' attribute '%s': ints[%zu] differs", node, a->name, i);
                    break;
                }
        break;
    case AT_FLOATS:
        if (a->n != (int64_t)pa->n_floats)
            diff("node '%s' attribute '%s': %lld floats, protobuf-c %zu", node, a->name, (long long)a->n,
                 pa->n_floats);
        else
            for (size_t i = 0; i < pa->n_floats; i++)
                if (a->floats[i] != (double)pa->floats[i] && !(isnan(a->floats[i]) && isnan(pa->floats[i]))) {
                    diff("node '%s' attribute '%s': floats[%zu] differs", node, a->name, i);
                    break;
                }
        break;
    case AT_STRINGS:
        if (a->n != (int64_t)pa->n_strings)
            diff("node '%s' attribute '%s': %lld strings, protobuf-c %zu", node, a->name, (long long)a->n,
                 pa->n_strings);
        else
            for (size_t i = 0; i < pa->n_strings; i++)
                if (memchr(pa->strings[i].data, 0, pa->strings[i].len) == NULL &&
                    (strlen(a->strings[i]) != pa->strings[i].len ||
                     memcmp(a->strings[i], pa->strings[i].data, pa->strings[i].len))) {
                    diff("node '%s' attribute '%s': strings[%zu] differs", node, a->name, i);
                    break;
                }
        break;
    case AT_TENSOR:
        if (!pa->t || !a->t)
            diff("node '%s' attribute '%s': tensor missing", node, a->name);
        else
            cmp_tensor(a->name, pa->t, a->t);
        break;
    case AT_GRAPH:
        if (!pa->g || !a->g)
            diff("node '%s' attribute '%s': graph missing", node, a->name);
        else
            cmp_graph(pa->g, a->g, 1);
        break;
    case AT_GRAPHS:
        if (a->n != (int64_t)pa->n_graphs)
            diff("node '%s' attribute '%s': %lld graphs, protobuf-c %zu", node, a->name, (long long)a->n,
                 pa->n_graphs);
        else
            for (size_t i = 0; i < pa->n_graphs; i++) cmp_graph(pa->graphs[i], a->graphs[i], 1);
        break;
    default: break;
    }
}

static void cmp_node(const Onnx__NodeProto *pn, const struct ir_node *nd)
{
    n_nodes++;
    const char *nm = nd->name;
    if (!str_eq(pn->op_type, nd->op_type) || !str_eq(dom(pn->domain), nd->domain) || !str_eq(pn->name, nm)) {
        diff("node '%s' (%s, domain '%s'), protobuf-c '%s' (%s, domain '%s')", nm, nd->op_type, nd->domain,
             pn->name ? pn->name : "", pn->op_type, dom(pn->domain));
        return;
    }
    if (nd->n_in != (int)pn->n_input || nd->n_out != (int)pn->n_output) {
        diff("node '%s': %d inputs / %d outputs, protobuf-c %zu / %zu", nm, nd->n_in, nd->n_out, pn->n_input,
             pn->n_output);
        return;
    }
    for (int i = 0; i < nd->n_in; i++)
        if (!str_eq(nd->in[i] ? nd->in[i]->name : "", pn->input[i]))
            diff("node '%s': input %d is '%s', protobuf-c '%s'", nm, i, nd->in[i] ? nd->in[i]->name : "",
                 pn->input[i]);
    for (int i = 0; i < nd->n_out; i++)
        if (!str_eq(nd->out[i] ? nd->out[i]->name : "", pn->output[i]))
            diff("node '%s': output %d is '%s', protobuf-c '%s'", nm, i, nd->out[i] ? nd->out[i]->name : "",
                 pn->output[i]);
    if (nd->n_attr != (int)pn->n_attribute) {
        diff("node '%s': %d attributes, protobuf-c %zu", nm, nd->n_attr, pn->n_attribute);
        return;
    }
    for (int i = 0; i < nd->n_attr; i++) cmp_attr(nm, pn->attribute[i], &nd->attrs[i]);
}

static void cmp_graph(const Onnx__GraphProto *pg, const struct ir_graph *g, int nodes_too)
{
    if (!str_eq(pg->name, g->name)) diff("graph '%s', protobuf-c '%s'", g->name, pg->name);
    if (g->n_inits != (int)pg->n_initializer) {
        diff("graph '%s': %d initializers, protobuf-c %zu", g->name, g->n_inits, pg->n_initializer);
    } else {
        for (int i = 0; i < g->n_inits; i++) {
            const struct ir_value *v = g->inits[i];
            if (!str_eq(v->name, pg->initializer[i]->name))
                diff("initializer %d is '%s', protobuf-c '%s'", i, v->name, pg->initializer[i]->name);
            else
                cmp_tensor(v->name, pg->initializer[i], v);
        }
    }
    if (g->n_inputs != (int)pg->n_input) {
        diff("graph '%s': %d inputs, protobuf-c %zu", g->name, g->n_inputs, pg->n_input);
    } else {
        for (int i = 0; i < g->n_inputs; i++) {
            const struct ir_value *v = g->inputs[i];
            const Onnx__ValueInfoProto *pi = pg->input[i];
            if (!str_eq(v->name, pi->name))
                diff("graph input %d is '%s', protobuf-c '%s'", i, v->name, pi->name);
            else if (!(v->flags & IR_V_INIT)) /* an input with an initializer takes the initializer's type */
                cmp_type("graph input", v->name, pi->type, v->type_kind, v->dtype, v->rank, v->dims, 1);
        }
    }
    if (g->n_outputs != (int)pg->n_output) {
        diff("graph '%s': %d outputs, protobuf-c %zu", g->name, g->n_outputs, pg->n_output);
    } else {
        for (int i = 0; i < g->n_outputs; i++) {
            const struct ir_value *v = g->outputs[i];
            const Onnx__ValueInfoProto *po = pg->output[i];
            if (!str_eq(v->name, po->name)) {
                diff("graph output %d is '%s', protobuf-c '%s'", i, v->name, po->name);
                continue;
            }
            /* a produced output keeps its declaration in decl_*, unless a value_info of the same name follows */
            int later_vi = 0;
            for (size_t k = 0; k < pg->n_value_info; k++)
                if (str_eq(pg->value_info[k]->name, po->name)) later_vi = 1;
            if (v->producer && !later_vi && po->type)
                cmp_type("graph output", v->name, po->type, v->type_kind, ir_decl_dtype(v), ir_decl_rank(v),
                         ir_decl_dims(v), 0);
        }
    }
    if (!nodes_too) return;
    if (g->n_nodes != (int)pg->n_node) {
        diff("graph '%s': %d nodes, protobuf-c %zu", g->name, g->n_nodes, pg->n_node);
        return;
    }
    for (int i = 0; i < g->n_nodes; i++) cmp_node(pg->node[i], g->nodes[i]);
}

static void cmp_model(const Onnx__ModelProto *pm, const struct ir_model *m)
{
    if (m->ir_version != pm->ir_version)
        diff("ir_version %lld, protobuf-c %lld", (long long)m->ir_version, (long long)pm->ir_version);
    if (!str_eq(m->producer, pm->producer_name))
        diff("producer '%s', protobuf-c '%s'", m->producer ? m->producer : "", pm->producer_name);
    if (m->n_opsets != (int)pm->n_opset_import) {
        diff("%d opsets, protobuf-c %zu", m->n_opsets, pm->n_opset_import);
    } else {
        for (int i = 0; i < m->n_opsets; i++)
            if (!str_eq(dom(m->opsets[i].domain), dom(pm->opset_import[i]->domain)) ||
                m->opsets[i].version != pm->opset_import[i]->version)
                diff("opset %d: %s %lld, protobuf-c %s %lld", i, m->opsets[i].domain,
                     (long long)m->opsets[i].version, pm->opset_import[i]->domain,
                     (long long)pm->opset_import[i]->version);
    }
    if (m->n_functions != (int)pm->n_functions)
        diff("%d functions, protobuf-c %zu", m->n_functions, pm->n_functions);
    if (!pm->graph || !m->graph) {
        diff("graph missing");
        return;
    }
    cmp_graph(pm->graph, m->graph, pm->n_functions == 0);
}

/* ---- files ---- */

struct counts {
    int files, same, differ, both_refused, nnperf_refused, pbc_refused_nnperf_loaded;
};

static void check_file(const char *path, int mixed_set, struct counts *c)
{
    cur_file = path;
    n_diff = 0;
    c->files++;
    size_t len;
    unsigned char *buf = tf_read_file(path, &len);
    if (!buf) {
        diff("cannot read");
        c->differ++;
        return;
    }
    Onnx__ModelProto *pm = onnx__model_proto__unpack(NULL, len, buf);
    char err[512];
    struct nnperf_model *nm = NULL;
    enum nnperf_status st = nnperf_model_load(path, NULL, &nm, err, sizeof err);
    if (!pm) {
        if (st == NNPERF_OK) {
            /* protobuf-c rejects it: nnperf must not accept it either */
            diff("protobuf-c cannot decode it, nnperf loaded it");
            c->pbc_refused_nnperf_loaded++;
            c->differ++;
        } else {
            c->both_refused++;
        }
    } else if (st != NNPERF_OK) {
        /* a refusal for a reason of meaning (cycle, dangling input, escaping external path, limits) is allowed in
         * the mixed set; a valid model must load */
        if (!mixed_set) {
            diff("nnperf refused it: %s", err);
            c->differ++;
        }
        c->nnperf_refused++;
    } else {
        cmp_model(pm, (const struct ir_model *)nm);
        if (n_diff)
            c->differ++;
        else
            c->same++;
    }
    if (pm) onnx__model_proto__free_unpacked(pm, NULL);
    nnperf_model_free(nm);
    free(buf);
}

static int walk(const char *dir, int mixed_set, struct counts *c)
{
    size_t n;
    char **names = tf_list_dir(dir, &n);
    if (!names) return 0;
    for (size_t i = 0; i < n; i++) {
        char path[4096];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        struct stat st;
        if (!stat(path, &st)) {
            size_t l = strlen(names[i]);
            if (S_ISDIR(st.st_mode))
                walk(path, mixed_set, c);
            else if (mixed_set || (l > 5 && !strcmp(names[i] + l - 5, ".onnx")))
                check_file(path, mixed_set, c);
        }
    }
    tf_free_names(names, n);
    return 1;
}

int main(int argc, char **argv)
{
    struct counts valid = {0}, bad = {0};
    int mixed = 0, missing = 0;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--")) {
            mixed = 1;
            continue;
        }
        if (!walk(argv[i], mixed, mixed ? &bad : &valid)) {
            printf("pb_oracle: %s not found; skipped\n", argv[i]);
            missing++;
        }
    }
    printf("pb_oracle: valid models: %d files, %d identical to protobuf-c's decode, %d differ\n", valid.files,
           valid.same, valid.differ);
    printf("pb_oracle: compared %ld nodes, %ld attributes, %ld tensors (%ld bytes of data views, %ld varint "
           "values)\n",
           n_nodes, n_attrs, n_inits, n_bytes_checked, n_values);
    printf("pb_oracle: mixed set: %d files: %d rejected by both, %d decoded by protobuf-c and refused by "
           "nnperf (semantic checks), %d identical, %d differ (%d decoded by nnperf only)\n",
           bad.files, bad.both_refused, bad.nnperf_refused, bad.same, bad.differ,
           bad.pbc_refused_nnperf_loaded);
    if (valid.files == 0) return 77; /* nothing to compare: skipped */
    return valid.differ || bad.differ ? 1 : 0;
}
