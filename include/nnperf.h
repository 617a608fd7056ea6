/* nnperf.h - public API of libnnperf: load an ONNX model, infer every tensor's shape and type, count per-node
 * MACs, FLOPs, parameters and bytes, and write the result as a table, JSON or CSV.
 *
 * Usage:
 *     char err[512];
 *     struct nnperf_model *m;
 *     if (nnperf_model_load("resnet50.onnx", NULL, &m, err, sizeof err) != NNPERF_OK) { puts(err); return 2; }
 *     struct nnperf_analysis *a;
 *     if (nnperf_analyze(m, NULL, &a, err, sizeof err) != NNPERF_OK) { puts(err); nnperf_model_free(m); return 2; }
 *     char *json; size_t len;
 *     nnperf_analysis_render(a, NNPERF_FORMAT_JSON, &json, &len, err, sizeof err);
 *     fwrite(json, 1, len, stdout);
 *     free(json);
 *     nnperf_analysis_free(a);
 *     nnperf_model_free(m);
 *
 * Ownership: every handle is freed by its own _free function; an analysis borrows its model, so free the analysis
 * first. Strings returned by accessors live as long as the handle they came from. The library never prints and
 * never exits; every fallible function returns a status and writes a one-line message into err (may be NULL).
 */
#ifndef NNPERF_H
#define NNPERF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NNPERF_VERSION "0.1.0"
#define NNPERF_JSON_SCHEMA_VERSION 1

/* Named input limits: inputs past them are refused with NNPERF_E_LIMIT, never a crash. */
#define NNPERF_MAX_RANK 16
#define NNPERF_MAX_NODES 4000000
#define NNPERF_MAX_SUBGRAPH_DEPTH 32
#define NNPERF_MAX_ATTR_ELEMS (1 << 24)
#define NNPERF_MAX_CONST_ELEMS 4096 /* tensors up to this many elements have their values propagated */

enum nnperf_status {
    NNPERF_OK = 0,
    NNPERF_E_IO,          /* a file could not be opened, mapped or read */
    NNPERF_E_PARSE,       /* malformed protobuf or ONNX structure */
    NNPERF_E_INVALID,     /* well-formed but contradictory: shapes, attributes, graph structure */
    NNPERF_E_LIMIT,       /* a named limit was exceeded */
    NNPERF_E_NOMEM,       /* out of memory */
    NNPERF_E_USAGE,       /* bad argument from the caller */
    NNPERF_E_UNSUPPORTED, /* valid input this version cannot handle */
};

const char *nnperf_status_name(enum nnperf_status st);
const char *nnperf_version(void);

struct nnperf_model;
struct nnperf_analysis;

/* Load-time flags. */
#define NNPERF_LOAD_DROP_VALUE_INFO 1u /* ignore value_info and declared output shapes (infer everything) */

struct nnperf_load_options {
    unsigned flags;
};

/* Maps the file read-only and builds the graph; weights stay in the mapping, referenced by offset. External data is
 * resolved relative to the model's directory (a path escaping it is refused when it is needed). opts may be NULL. */
enum nnperf_status nnperf_model_load(const char *path, const struct nnperf_load_options *opts,
                                     struct nnperf_model **out, char *err, size_t errlen);
/* Same over a caller-owned buffer that must outlive the model. name is used in messages; dir (may be NULL) is the
 * base for external data. */
enum nnperf_status nnperf_model_load_buffer(const void *buf, size_t len, const char *name, const char *dir,
                                            const struct nnperf_load_options *opts, struct nnperf_model **out,
                                            char *err, size_t errlen);
void nnperf_model_free(struct nnperf_model *m);

/* Analysis options: input shape overrides ("input=1x3x224x224", "x=batchx3x224x224") and symbol bindings
 * ("batch=8"). Strings are parsed by nnperf_analyze. */
struct nnperf_analyze_options {
    const char *const *input_shapes;
    int n_input_shapes;
    const char *const *dim_bindings;
    int n_dim_bindings;
};

enum nnperf_status nnperf_analyze(struct nnperf_model *m, const struct nnperf_analyze_options *opts,
                                  struct nnperf_analysis **out, char *err, size_t errlen);
void nnperf_analysis_free(struct nnperf_analysis *a);

struct nnperf_summary {
    uint64_t macs, flops, params, weight_bytes, activation_bytes;
    uint64_t conv_gemm_matmul_macs; /* MACs of Conv/ConvTranspose/Gemm/MatMul only: torchvision's "_ops" */
    int nodes, unknown_nodes;       /* unknown_nodes: nodes whose cost could not be counted */
    int unknown_tensors;            /* tensors without fully concrete dims */
    int warnings;
};
void nnperf_analysis_summary(const struct nnperf_analysis *a, struct nnperf_summary *s);
/* The i-th warning message (0 <= i < summary.warnings), or NULL. */
const char *nnperf_analysis_warning(const struct nnperf_analysis *a, int i);

enum nnperf_format { NNPERF_FORMAT_TABLE, NNPERF_FORMAT_JSON, NNPERF_FORMAT_CSV };

/* Renders the analysis; *out is malloc'd (caller frees), NUL-terminated, *len its length. */
enum nnperf_status nnperf_analysis_render(const struct nnperf_analysis *a, enum nnperf_format fmt, char **out,
                                          size_t *len, char *err, size_t errlen);

/* Operator registry, for `nnperf ops`: the i-th operator (0 <= i < nnperf_op_count()). */
int nnperf_op_count(void);
void nnperf_op_info(int i, const char **domain, const char **name, int *since, int *until, const char **klass);

#ifdef __cplusplus
}
#endif
#endif
