/* onnx_build.c - tiny ONNX models built in memory for tests (onnx_build.h). Field numbers: onnx/onnx.proto
 * (ModelProto, GraphProto, NodeProto, ValueInfoProto, TypeProto). */
#include "onnx_build.h"

size_t ob_begin(struct pbw *w)
{
    pbw_uint(w, 1, 8);           /* ir_version */
    size_t op = pbw_begin(w, 8); /* opset_import */
    pbw_str(w, 1, "");
    pbw_uint(w, 2, 13);
    pbw_end(w, op);
    size_t g = pbw_begin(w, 7);
    pbw_str(w, 2, "g");
    return g;
}

static void node(struct pbw *w, const char *op, const char *name, const char *const *in, int n_in,
                 const char *const *out, int n_out, const char *attr, int64_t value)
{
    size_t n = pbw_begin(w, 1);
    for (int i = 0; i < n_in; i++) pbw_str(w, 1, in[i]);
    for (int i = 0; i < n_out; i++) pbw_str(w, 2, out[i]);
    if (name) pbw_str(w, 3, name);
    pbw_str(w, 4, op);
    if (attr) { /* AttributeProto: name 1, i 3, type 20 (INT = 2) */
        size_t a = pbw_begin(w, 5);
        pbw_str(w, 1, attr);
        pbw_uint(w, 3, (uint64_t)value);
        pbw_uint(w, 20, 2);
        pbw_end(w, a);
    }
    pbw_end(w, n);
}

void ob_node(struct pbw *w, const char *op, const char *name, const char *const *in, int n_in,
             const char *const *out, int n_out)
{
    node(w, op, name, in, n_in, out, n_out, NULL, 0);
}

void ob_node_attr_int(struct pbw *w, const char *op, const char *name, const char *const *in, int n_in,
                      const char *const *out, int n_out, const char *attr, int64_t value)
{
    node(w, op, name, in, n_in, out, n_out, attr, value);
}

void ob_value_ex(struct pbw *w, int output, const char *name, int elem, const char *const *syms,
                 const int64_t *dims, int rank)
{
    pbw_value_info(w, output ? 12 : 11, name, elem, rank, syms, dims);
}

void ob_value(struct pbw *w, int output, const char *name, const int64_t *dims, int rank)
{
    ob_value_ex(w, output, name, 1, NULL, dims, rank);
}

void ob_end(struct pbw *w, size_t graph)
{
    pbw_end(w, graph);
}
