/* onnx.h - ONNX ModelProto -> IR. Field numbers are those of onnx/onnx.proto (ONNX 1.16, IR version 10). */
#ifndef NNPERF_ONNX_H
#define NNPERF_ONNX_H

#include "../ir/ir.h"

/* The operator registry as the loader sees it, passed in by the layer that knows it (onnx/ sits below ops/). find:
 * registry index of (domain, name), -1 when absent; the loader sets each node's op from it and inlines a model-local
 * function only when the registry does not have its operator. newest_opset: the newest ai.onnx opset the registry
 * knows (a model importing a newer one is refused). */
struct ox_registry {
    int (*find)(const char *domain, const char *name);
    int64_t newest_opset;
};

/* Parses buf (which must outlive the model) into m, which has its arena, path and dir set. */
enum nnperf_status ox_load_model(struct ir_model *m, const struct ox_registry *reg, struct diag *d);
/* nnperf_model_load and nnperf_model_load_buffer with the registry given. */
enum nnperf_status ox_model_load(const char *path, const struct nnperf_load_options *opts,
                                 const struct ox_registry *reg, struct nnperf_model **out, char *err,
                                 size_t errlen);
enum nnperf_status ox_model_load_buffer(const void *buf, size_t len, const char *name, const char *dir,
                                        const struct nnperf_load_options *opts, const struct ox_registry *reg,
                                        struct nnperf_model **out, char *err, size_t errlen);
/* The bytes of the ModelProto for nnperf_annotate: the caller's buffer, or the model file read again (*owned: the
 * malloc'd copy to free) when it is still the file loaded (device, inode, size, modification and change times);
 * NNPERF_E_IO "the file changed since the model was loaded" otherwise. */
enum nnperf_status ox_model_bytes(const struct ir_model *m, const uint8_t **buf, size_t *len, uint8_t **owned,
                                  struct diag *d);
/* Adds path (copied into the model's arena) to m->files; 0 when out of memory. */
int ox_note_file(struct ir_model *m, const char *path);
/* Parses one standalone TensorProto (e.g. a test's input_0.pb) into v: dtype, dims and a data view into buf. */
enum nnperf_status ox_parse_tensor(struct ir_model *m, const uint8_t *buf, size_t len, struct ir_value *v,
                                   struct diag *d);
/* Decodes the values of an initializer or constant value with at most NNPERF_MAX_CONST_ELEMS elements into
 * v->iv / v->fv, allocated in ar (reading external data from m's folder if needed; m is not written). Returns OK and leaves them NULL when the value is too big or
 * of a type that is not propagated (strings). */
enum nnperf_status ox_decode_values(const struct ir_model *m, struct arena *ar, struct ir_value *v,
                                    struct diag *d);

#endif
