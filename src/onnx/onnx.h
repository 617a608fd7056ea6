/* onnx.h - ONNX ModelProto -> IR. Field numbers are those of onnx/onnx.proto (ONNX 1.16, IR version 10). */
#ifndef NNPERF_ONNX_H
#define NNPERF_ONNX_H

#include "../ir/ir.h"

/* Parses buf (which must outlive the model) into m, which has its arena, path and dir set. */
enum nnperf_status ox_load_model(struct ir_model *m, struct diag *d);
/* Parses one standalone TensorProto (e.g. a test's input_0.pb) into v: dtype, dims and a data view into buf. */
enum nnperf_status ox_parse_tensor(struct ir_model *m, const uint8_t *buf, size_t len, struct ir_value *v,
                                   struct diag *d);
/* Decodes the values of an initializer or constant value with at most NNPERF_MAX_CONST_ELEMS elements into
 * v->iv / v->fv (reading external data if needed). Returns OK and leaves them NULL when the value is too big or
 * of a type that is not propagated (strings). */
enum nnperf_status ox_decode_values(struct ir_model *m, struct ir_value *v, struct diag *d);

#endif
