/* onnx_build.h - tiny ONNX models built in memory for tests (pbw.h's protobuf writer): a model of float32 graph
 * inputs, nodes and graph outputs, with any names (control characters, quotes) and any number of node inputs. */
#ifndef NNPERF_ONNX_BUILD_H
#define NNPERF_ONNX_BUILD_H

#include <stddef.h>
#include <stdint.h>

#include "onnx/pbw.h"

/* Starts a model (IR 8, default opset 13) and its graph; returns the graph's mark for ob_end. */
size_t ob_begin(struct pbw *w);
/* A node: op type, name, inputs and outputs (names). */
void ob_node(struct pbw *w, const char *op, const char *name, const char *const *in, int n_in,
             const char *const *out, int n_out);
/* A graph input (output = 0) or output (output = 1): float32 of the given dims. */
void ob_value(struct pbw *w, int output, const char *name, const int64_t *dims, int rank);
/* The same with an element type (onnx TensorProto.DataType: 1 FLOAT, 7 INT64) and per dim a symbol (syms[d] not
 * NULL: dim_param) or a value; syms may be NULL. */
void ob_value_ex(struct pbw *w, int output, const char *name, int elem, const char *const *syms,
                 const int64_t *dims, int rank);
/* A node with one int attribute (e.g. Cast's "to"). */
void ob_node_attr_int(struct pbw *w, const char *op, const char *name, const char *const *in, int n_in,
                      const char *const *out, int n_out, const char *attr, int64_t value);
/* Ends the graph: w->p, w->len hold the model (w->err set when it failed). */
void ob_end(struct pbw *w, size_t graph);

#endif
