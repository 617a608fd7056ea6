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
 * first. Threads: the library has no mutable global state; distinct handles may be used from distinct threads, and
 * a model (read only once loaded) may be analysed from several threads at once. Strings returned by accessors live
 * as long as the handle they came from. The library never prints and never exits; every fallible function returns a
 * status and writes a one-line message into err (may be NULL).
 */
#ifndef NNPERF_H
#define NNPERF_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

#define NNPERF_VERSION             "0.1.0"
#define NNPERF_JSON_SCHEMA_VERSION 1

/* Named input limits: inputs past them are refused with NNPERF_E_LIMIT, never a crash. */
#define NNPERF_MAX_RANK           16
#define NNPERF_MAX_NODES          4000000
#define NNPERF_MAX_SUBGRAPH_DEPTH 32
#define NNPERF_MAX_ATTR_ELEMS     (1 << 24)
#define NNPERF_MAX_CONST_ELEMS    4096 /* tensors up to this many elements have their values propagated */

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
/* Frees a buffer the library returned to the caller (the *out of the render functions, nnperf_annotate, ...): the
 * same as free(), for callers that cannot reach the C library's free (a binding loaded with ctypes). NULL is a
 * no-op. */
void nnperf_free(void *p);

struct nnperf_model;
struct nnperf_analysis;

/* Load-time flags. */
#define NNPERF_LOAD_DROP_VALUE_INFO 1u /* ignore value_info and declared output shapes (infer everything) */
/* The model is analysed once: nnperf_analyze infers on the model's own graph records instead of a copy of them
 * (about a third less memory on a large graph); a second nnperf_analyze of the model fails (NNPERF_E_USAGE). */
#define NNPERF_LOAD_ANALYZE_ONCE 2u

struct nnperf_load_options {
    unsigned flags;
};

/* Maps the file read-only and builds the graph; weights stay in the mapping, referenced by offset. External data is
 * resolved relative to the model's directory: a location that is absolute, has a '..' component or leads out of the
 * directory through symbolic links, a file that is not regular, and data past the end of the file are refused
 * (NNPERF_E_INVALID); a missing file is an error only when a value from it is needed. An invalid model (opset_import,
 * tensor data that does not match its dims, unknown data or attribute types, functions defined twice) is refused
 * with a message naming the initializer, node or attribute. opts may be NULL. */
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

/* Infers every tensor's shape and counts every node of m under opts (may be NULL). The analysis owns all it infers;
 * m is never written after nnperf_model_load returns, so one model may be analysed any number of times (other input
 * shapes, other dims), the analyses living side by side, also from several threads at once; except a model loaded
 * with NNPERF_LOAD_ANALYZE_ONCE, whose one analysis writes its records. */
enum nnperf_status nnperf_analyze(const struct nnperf_model *m, const struct nnperf_analyze_options *opts,
                                  struct nnperf_analysis **out, char *err, size_t errlen);
void nnperf_analysis_free(struct nnperf_analysis *a);

struct nnperf_summary {
    uint64_t macs, flops, params, weight_bytes, activation_bytes;
    uint64_t conv_gemm_matmul_macs; /* MACs of Conv/ConvTranspose/Gemm/MatMul only: torchvision's "_ops" */
    int nodes, unknown_nodes;       /* unknown_nodes: nodes whose cost could not be counted */
    int unknown_tensors;            /* tensors without fully concrete dims */
    int warnings;
    int unbound_dims; /* symbolic dims of the inputs left unbound (nnperf_analysis_unbound_dim) */
};
void nnperf_analysis_summary(const struct nnperf_analysis *a, struct nnperf_summary *s);
/* The i-th warning message (0 <= i < summary.warnings), or NULL. */
const char *nnperf_analysis_warning(const struct nnperf_analysis *a, int i);
/* The i-th symbolic input dim left unbound (0 <= i < summary.unbound_dims), or NULL. Nodes whose cost depends on it
 * cannot be counted; sweep and compare refuse such an analysis. */
const char *nnperf_analysis_unbound_dim(const struct nnperf_analysis *a, int i);
/* NNPERF_OK when every symbolic input dim is bound; else NNPERF_E_USAGE and a message naming each unbound symbol,
 * the input and dim it sits in, and how to bind it. nnperf_predict refuses such an analysis with this message unless
 * nnperf_predict_options.allow_unbound is set. */
enum nnperf_status nnperf_analysis_check_bound(const struct nnperf_analysis *a, char *err, size_t errlen);
/* The kind of the i-th warning: "unknown-operator" (operators nnperf does not support), "unbound-dim" (symbolic
 * input dims left unbound) or "analysis" (anything else); NULL out of range. */
const char *nnperf_analysis_warning_kind(const struct nnperf_analysis *a, int i);
/* Frames one run of the analysed graph computes: the batch (dim 0) of the inputs whose shape or batch symbol the
 * options bound (an input of rank 2 or more whose model declaration leaves dim 0 a symbol, unknown or 1); 1 when
 * none was bound. nnperf_predict takes the frames per run from it (nnperf_predict_options.batch). */
int nnperf_analysis_batch(const struct nnperf_analysis *a);
/* "Did you mean": the candidate closest to word (edits and swaps of adjacent characters), within a third of its
 * length (at least one edit), or NULL. The library's messages use it for platform, input and dim names. */
const char *nnperf_suggest(const char *word, const char *const *cands, int n);

/* NNPERF_FORMAT_HTML: one self-contained page (inline CSS, SVG plots and a little script; nothing loaded from the
 * network), see nnperf_prediction_render and nnperf_compare_render. */
/* NNPERF_FORMAT_TRACE: a prediction's timeline as Chrome trace-event JSON (chrome://tracing, ui.perfetto.dev): a
 * thread per unit and lane (compute, DDR loads, DDR stores, other), an event per busy period of each layer. */
enum nnperf_format {
    NNPERF_FORMAT_TABLE,
    NNPERF_FORMAT_JSON,
    NNPERF_FORMAT_CSV,
    NNPERF_FORMAT_HTML,
    NNPERF_FORMAT_TRACE
};
/* The names of the formats ("table", "json", "csv", "html", "trace"), indexed by enum nnperf_format: the only list
 * of them (the CLI's --format choices, Python's FORMAT_* constants are checked against it). NULL out of range. */
int nnperf_format_count(void);
const char *nnperf_format_name(int fmt);

/* Renders the analysis; *out is malloc'd (caller frees), NUL-terminated, *len its length. */
enum nnperf_status nnperf_analysis_render(const struct nnperf_analysis *a, enum nnperf_format fmt, char **out,
                                          size_t *len, char *err, size_t errlen);

/* Operator registry, for `nnperf ops`: the i-th operator (0 <= i < nnperf_op_count()). */
int nnperf_op_count(void);
void nnperf_op_info(int i, const char **domain, const char **name, int *since, int *until,
                    const char **klass);

/* ---- the model written back with its inferred shapes (`nnperf annotate`) ----
 * Writes the model the analysis was made from as ONNX with what the analysis inferred: each graph (If/Loop/Scan
 * bodies too) gets one value_info entry per node output with its element type and shape (concrete dims as
 * dim_value, symbols by name as dim_param, unknown dims as a Dimension with neither), and its inputs and outputs get
 * their inferred types. Everything else is the original bytes: initializers (weights untouched; external data
 * references kept as they are, relative to the model's folder), nodes, functions, metadata, and the value_info
 * entries of values inference knows nothing about. Netron and onnx.checker read the result. *out is malloc'd (free
 * it with nnperf_free), *len its length. Errors: NNPERF_E_USAGE (NULL arguments), NNPERF_E_LIMIT (the result would
 * reach 2 GiB, the largest protobuf message), NNPERF_E_NOMEM, NNPERF_E_PARSE (the model's bytes changed since it
 * was loaded), NNPERF_E_IO (a model loaded from a file is read again here: "the file changed since the model was
 * loaded" when its size, times or inode differ). */
enum nnperf_status nnperf_annotate(const struct nnperf_analysis *a, void **out, size_t *len, char *err,
                                   size_t errlen);

/* ---- writing files: the rules of `nnperf -o`, for every writer ----
 * nnperf_write_file writes len bytes to path completely or not at all: a hidden temporary next to it
 * (".NAME.RANDOM.tmp", created exclusively, never through a planted link), fsync'd, then renamed over path; on a
 * failure the temporary is removed and an existing file is left as it was. A new file gets 0666 less the umask, a
 * replaced one keeps its mode; a symbolic link to a regular file is followed (the file it names is replaced, the
 * link stays). Refused before anything is written (NNPERF_E_IO): a path that is not a regular file (a FIFO, a
 * device such as /dev/null, a directory, a link to one or to nothing). Refused (NNPERF_E_USAGE): a path that is one
 * of opts->inputs (the same file under any name; an input that does not exist, such as the missing external data of
 * a weight-stripped model, by its resolved name). opts may be NULL. temporary (may be NULL) is called with the
 * temporary's name once it is created and with NULL once it is renamed or removed: a program's SIGINT/SIGTERM
 * handler can unlink it (the library keeps no global state; the CLI does this). */
struct nnperf_write_options {
    const char *const *inputs; /* files the output must not replace: the inputs of the command */
    int n_inputs;
    void (*temporary)(void *ctx, const char *tmp_path);
    void *ctx;
};
enum nnperf_status nnperf_write_file(const char *path, const void *data, size_t len,
                                     const struct nnperf_write_options *opts, char *err, size_t errlen);
/* The files a loaded model reads: the model file itself (as given to nnperf_model_load; none for a buffer) and each
 * distinct external-data file its tensors name (the model's folder joined with the location, whether or not it
 * exists). A writer must not replace any of them: i-th name, NULL out of range. */
int nnperf_model_file_count(const struct nnperf_model *m);
const char *nnperf_model_file(const struct nnperf_model *m, int i);
/* nnperf_annotate written to path with nnperf_write_file, refusing (besides opts->inputs) every file of the
 * analysis's model (nnperf_model_file): the annotated model never replaces the model or its weights. */
enum nnperf_status nnperf_annotate_write(const struct nnperf_analysis *a, const char *path,
                                         const struct nnperf_write_options *opts, char *err, size_t errlen);

/* ---- the annotated model with a prediction's costs (`nnperf annotate --costs --hw P`) ----
 * nnperf_annotate / nnperf_annotate_write with, when o->costs is set (a prediction of this analysis), each node of
 * the main graph's doc_string ending in a paragraph "nnperf: T ms per run on P (dtype, batch B), S% of the L ms
 * latency, BOUND-bound; layer i of n 'NAME' (OP, k nodes fused)" (Netron shows it on click; a folded node or one
 * the lowering merged says so instead; an earlier "nnperf: " paragraph is replaced) and metadata_props
 * nnperf.platform, .dtype, .batch, .latency_ms, .fps, .layers, .time_by_bound, .heaviest_layers, .version (earlier
 * nnperf.* keys dropped). o->dest (nnperf_annotate_opts; NULL or "-": unknown) or path is where the model will
 * be: when its folder is not the model's, external data locations are rewritten relative to it, and refused
 * (NNPERF_E_USAGE, with the reason) when a data file lies outside it, as ONNX reads external data only inside a
 * model's folder; missing data files (weight-stripped models) keep their location. nnperf_annotate_write does the
 * same for its path. o may be NULL. */
struct nnperf_annotate_options {
    const struct nnperf_prediction *costs; /* NULL: shapes only */
    const char *dest;                      /* nnperf_annotate_opts: the file the result is written to */
};
enum nnperf_status nnperf_annotate_opts(const struct nnperf_analysis *a,
                                        const struct nnperf_annotate_options *o, void **out, size_t *len,
                                        char *err, size_t errlen);
enum nnperf_status nnperf_annotate_write_opts(const struct nnperf_analysis *a,
                                              const struct nnperf_annotate_options *o, const char *path,
                                              const struct nnperf_write_options *opts, char *err,
                                              size_t errlen);

/* ---- predictions on a platform ----
 * A prediction maps an analysis onto a platform (nnperf_platform_load): fusion, alignment, memory plan, roofline,
 * schedule, timeline. It borrows the analysis and copies the platform; free it before the analysis. */
struct nnperf_platform;
struct nnperf_prediction;

enum nnperf_memory_model {
    NNPERF_MEMORY_DEFAULT = 0,      /* the platform's (memory.model; planned when it names none) */
    NNPERF_MEMORY_PLANNED = 1,      /* whole tensors in SRAM or DDR, planned from tensor lifetimes */
    NNPERF_MEMORY_WEIGHTS_ONLY = 2, /* QuTiBench: weights read once per frame, activations on chip */
    NNPERF_MEMORY_TILED = 3         /* depth-first tiling: chains of layers stay on chip across tiles */
};
/* The memory models' names, indexed by enum nnperf_memory_model (0, NNPERF_MEMORY_DEFAULT, is "default"): the
 * only list of them (src/hw/memory_models.def), which the platform key memory.model, --memory-model, Python's
 * MEMORY_MODELS and the JSON schema's memory_model equal. NULL out of range. */
int nnperf_memory_model_count(void);
const char *nnperf_memory_model_name(int m);
/* The compute models' names ("roofline", "array", "kernels", "dataflow"; nnperf_prediction_summary.compute_model). */
int nnperf_compute_model_count(void);
const char *nnperf_compute_model_name(int i);

struct nnperf_whatif; /* a design change (advice, below): opaque */

struct nnperf_predict_options {
    const char *dtype; /* "int4", "int8", "fp16", "bf16", "fp32"; NULL = the platform's default */
    int batch; /* frames per run; 0 = those of the analysis's inputs (nnperf_analysis_batch), or the platform's
                * frames_per_run when it is a multiple of them. Inputs bound at batch M run the graph batch / M
                * times per run: batch must be a multiple of M (M = 1: any batch) */
    int memory_model;  /* enum nnperf_memory_model */
    double interval_s; /* timeline interval; 0 = 0.5 ms (no_timeline, below: no series at all) */
    /* a design change to predict (from nnperf_advice_finding); NULL = the model as it is. It must come
     * from advice on the same analysis. */
    const struct nnperf_whatif *whatif;
    /* 1: attention is causal (a decoder, as `nnperf llm` predicts it): on a platform with fused attention the
     * masked half of the scores is skipped */
    int causal;
    /* storage types chosen apart from the compute dtype ("int4", "int8", "fp8", "fp16", "bf16", "fp32"; NULL = the
     * compute dtype's): weights (W4A16: "int4" with dtype "fp16"), activations, and the KV cache (graph inputs that
     * a graph output extends along one axis, and those outputs) */
    const char *weight_dtype, *activation_dtype, *kv_dtype;
    /* 1: predict an analysis with unbound symbolic input dims anyway (their nodes count as 0 s, with a warning);
     * 0: refuse it (nnperf_analysis_check_bound) */
    int allow_unbound;
    /* 1: no timeline series (nnperf_prediction_interval_count gives 0 intervals; the summary's avg_utilization is computed all
     * the same): for callers that read only the summary and the layers, such as sweeps and calibration's fits */
    int no_timeline;
    /* threads one inference runs on, on a platform whose cores are a CPU runtime's threads (compute.threaded: the
     * raspberry-pi-5 preset); 0 = all the cores of one inference. N threads run it at 1 + (parallel_speedup - 1) x
     * (N - 1) / (cores - 1) times one core's rate (N where parallel_speedup is 0), and the other cores run inferences
     * of their own (throughput_fps). NNPERF_E_USAGE: negative, more than the cores of one inference, or a platform
     * that is not compute.threaded */
    int threads;
    /* application threads, each running inferences one after another (hrt_model_exec --thread_num N, the DNNDK
     * samples' -t N); 0 = as many as keep every unit busy. With N, throughput_fps is at most N x frames_per_run per
     * (latency + (N - 1) x the run's host stage no two threads overlap, overhead.host_serial_s), throughput_limit
     * "application threads" where that binds (docs/prediction.md, section 5); the latency is unchanged.
     * NNPERF_E_USAGE: negative */
    int streams;
};

enum nnperf_status nnperf_predict(const struct nnperf_analysis *a, const struct nnperf_platform *p,
                                  const struct nnperf_predict_options *opts, struct nnperf_prediction **out,
                                  char *err, size_t errlen);
/* nnperf_predict with the analysis, platform (as it was when `like` was predicted) and options of the prediction
 * `like`, at another batch (as nnperf_predict_options.batch; 0 = the default). Lowering and fusion, which no batch
 * changes, are not run again: the new prediction shares them with `like` (either may be freed first; not for use
 * from two threads at once) and its results equal nnperf_predict's. A sweep over batches prices each in a fraction
 * of the time. Errors as nnperf_predict's for the batch. */
enum nnperf_status nnperf_predict_batch(const struct nnperf_prediction *like, int batch,
                                        struct nnperf_prediction **out, char *err, size_t errlen);
void nnperf_prediction_free(struct nnperf_prediction *p);

struct nnperf_prediction_summary {
    const char *platform, *dtype;
    const char *memory_model,
        *compute_model; /* "planned", "weights-only", "tiled"; "roofline", "array", "kernels", "dataflow" */
    int frames_per_run;
    int cores, cores_per_inference; /* the platform's cores; those one inference runs on */
    double latency_s, fps;          /* one inference (per run); fps = frames_per_run / latency */
    double
        throughput_fps; /* every core busy with its own inference and the host stages beside them, limited by
                            * the shared DDR, the host CPU and the link (throughput_limit); with streams N, at
                            * most what N application threads reach */
    double ops_per_frame, ops_per_run; /* 2 x MACs + other FLOPs, effective (before alignment) */
    double aligned_ops_per_frame;      /* after alignment padding */
    double ddr_bytes_per_frame, ddr_bytes_per_run, ddr_bytes_per_second;
    double loaded_bytes_per_frame, stored_bytes_per_frame, weight_bytes_per_frame, spill_bytes_per_frame;
    double avg_utilization; /* compute unit, 0..1 */
    int layers, fallback_layers, spilled_tensors, unknown_layers, warnings;
    /* power (the platform's power keys, docs/prediction.md): energy per frame (J), average power over a run (W),
     * fps / power; NaN when the platform describes no power */
    double energy_j_per_frame, power_w, fps_per_w;
    /* expected error (the platform's `validation` keys): median and 90th-percentile |predicted / measured - 1| over
     * the test rows of bench/fidelity/data the platform was never fitted to, and their number; 0 rows: not
     * validated (no rows, or values changed after loading with nnperf_platform_set / --set) */
    int expected_error_rows;
    double expected_error_median, expected_error_p90;
    /* what limits throughput_fps (docs/prediction.md, section 5): "accelerator cores" (every core busy, perfect
     * scaling), "shared DDR" (the inferences in flight share the DDR bandwidth), "host CPU" (the per-frame host
     * stages on the host cores), "host link", "application threads" (nnperf_predict_options.streams) */
    const char *throughput_limit;
    /* what the power figures hold (docs/prediction.md, Power): "static and dynamic" (the platform gives its idle
     * power, power.static_w, drawn over the whole run), "dynamic only" (no static power: power_w is low and
     * fps_per_w high at a low load, an upper bound for comparisons); NULL when the platform describes no power */
    const char *power_basis;
    int streams; /* nnperf_predict_options.streams: the application threads throughput_fps is for, 0 = saturated */
    /* the model's family (docs/prediction.md, "Expected error"): NNPERF_FAMILY_TRANSFORMER when its graph has
     * attention (a product of two activations, or a fused attention operator), a LayerNormalization or a GELU (the
     * operators or their exported patterns), else NNPERF_FAMILY_CNN */
    const char *family;
    /* the platform's test rows of that family (its validation.transformer_* or validation.cnn_* keys) and their
     * median and 90th-percentile |error| (NaN with no rows); -1 rows: the platform does not give its test rows by
     * family (its two families' rows do not add up to its test rows), or is not validated (expected_error_rows 0) */
    int family_test_rows;
    double family_median, family_p90;
};
#define NNPERF_FAMILY_TRANSFORMER "transformer-style"
#define NNPERF_FAMILY_CNN         "cnn"
void nnperf_prediction_summary(const struct nnperf_prediction *p, struct nnperf_prediction_summary *s);
const char *nnperf_prediction_warning(const struct nnperf_prediction *p, int i);
/* The platform values changed after loading (nnperf_platform_set, the CLI's --set), "key=value" as given: the
 * count, and the i-th (NULL out of range). Reports show them in the summary. */
int nnperf_prediction_override_count(const struct nnperf_prediction *p);
const char *nnperf_prediction_override(const struct nnperf_prediction *p, int i);
/* The platform keys the prediction used whose values are assumptions rather than published or fitted facts (the
 * platform's `assumptions:` list): the count, and the i-th key path (NULL out of range). Reports show them next to
 * the summary. */
int nnperf_prediction_assumption_count(const struct nnperf_prediction *p);
const char *nnperf_prediction_assumption(const struct nnperf_prediction *p, int i);

struct nnperf_layer_info {
    const char *name, *op, *klass, *bound; /* bound: "compute", "memory", "overhead", "unknown" */
    int nodes, fallback;
    double ops, aligned_ops; /* per run */
    double ddr_bytes, weight_bytes, load_bytes, store_bytes, spill_bytes;
    double t_compute, t_memory, t_total, start, end; /* seconds */
    double intensity;                                /* aligned ops / DDR byte (0 when no DDR traffic) */
    double attained;                                 /* aligned ops / t_total, ops/s */
    double energy_j;                                 /* per run; NaN when the platform describes no power */
    const char
        *dtype; /* the type it computes at ("int8", "fp16", ...): a quantized graph's own (QDQ, QOperator),
                        * else the prediction's */
};
int nnperf_prediction_layer_count(const struct nnperf_prediction *p);
void nnperf_prediction_layer(const struct nnperf_prediction *p, int i, struct nnperf_layer_info *li);
/* The number of layers whose nnperf_layer_info.bound is `bound` ("compute", "memory", "overhead", "unknown"): a
 * count without filling a nnperf_layer_info per layer (a sweep's memory-bound layers of each configuration). */
int nnperf_prediction_bound_layers(const struct nnperf_prediction *p, const char *bound);
/* The platform's ceilings at the prediction's dtype: peak ops/s and DDR bytes/s (for roofline plots). */
void nnperf_prediction_ceilings(const struct nnperf_prediction *p, double *peak_ops, double *ddr_bw);

/* ---- what reports read beyond the summary and the layers: setup, fused nodes, shapes, lanes, timeline ----
 * All strings live as long as the prediction. */
struct nnperf_prediction_setup {
    const char *memory_model;       /* "planned", "weights-only" or "tiled" */
    const char *schedule;           /* one or two sentences: how layers and their transfers are scheduled */
    const char *description;        /* the platform's description ("" when none) */
    const char *fallback;           /* the fallback unit's name, NULL when the platform has none */
    double peak_ops, ddr_bandwidth; /* the ceilings (nnperf_prediction_ceilings): ops/s, attainable bytes/s */
    double ddr_nominal, ddr_efficiency; /* DDR bytes/s as specified and the share of it reached */
    double sram_bytes;
    double interval_s; /* of the timeline series */
};
void nnperf_prediction_setup(const struct nnperf_prediction *p, struct nnperf_prediction_setup *s);
/* The analysis the prediction was made from. */
const struct nnperf_analysis *nnperf_prediction_analysis(const struct nnperf_prediction *p);

struct nnperf_layer_detail {
    int cost_known;   /* 0: an operator or shape could not be counted (its time counts as 0) */
    const char *unit; /* "accelerator" or "fallback" */
    double spill_load_bytes, spill_store_bytes, transfer_bytes; /* per run */
    double t_transfer, t_overhead; /* seconds per run: fallback boundary crossing, fixed per-layer cost */
    int rank;                      /* of the layer's (first) output; -1 unknown */
    int64_t dims[NNPERF_MAX_RANK]; /* -1: unknown dim */
    int64_t aligned_dims[NNPERF_MAX_RANK]; /* after the platform's alignment padding */
    /* the memory that bounds its memory time (the slowest): "ddr", "sram" (on-chip traffic) or "link" (the host
     * link: USB, PCIe; inputs, outputs and streamed weights), with the bytes it moves there per run and that
     * memory's bandwidth in bytes/s (0 when the platform does not describe it: unlimited); a fallback layer's is its
     * DDR. When none takes time, the first of ddr, sram, link that moves bytes (else "ddr" with 0 bytes). */
    const char *memory;
    double memory_bytes, memory_bandwidth;
};
void nnperf_prediction_layer_detail(const struct nnperf_prediction *p, int i, struct nnperf_layer_detail *d);

/* Why the run takes its time (the "why" block of every report and of `annotate --costs`): the layers' time by bound
 * (nnperf_layer_info.bound, or fallback for a layer on the fallback unit), the memory-bound part by the memory that
 * bounds it (nnperf_layer_detail.memory), and the three heaviest layers. total is the latency, or the summed layer
 * time when that is larger (layers that overlap); the run's time outside every layer (a per-run launch cost) counts
 * as overhead. */
enum {
    NNPERF_WHY_COMPUTE,
    NNPERF_WHY_MEMORY,
    NNPERF_WHY_OVERHEAD,
    NNPERF_WHY_FALLBACK,
    NNPERF_WHY_UNKNOWN,
    NNPERF_WHY_BOUNDS
};
struct nnperf_why {
    double t[NNPERF_WHY_BOUNDS]; /* seconds per run by bound */
    double memory_t[3];          /* of t[NNPERF_WHY_MEMORY], seconds per run: ddr, sram, link */
    double total;                /* seconds per run: the shares' denominator */
    double outside;              /* of t[NNPERF_WHY_OVERHEAD]: the run's time outside every layer */
    int top[3], n_top;           /* layer indices of the heaviest layers that take time, longest first */
};
void nnperf_prediction_why(const struct nnperf_prediction *p, struct nnperf_why *w);
/* The k-th ONNX node fused into layer i (0 <= k < nnperf_layer_info.nodes), in execution order, and its operator
 * (op may be NULL); NULL when out of range. A layer named "X+2" is node X with two more nodes fused into it. */
const char *nnperf_prediction_layer_node(const struct nnperf_prediction *p, int i, int k, const char **op);

/* When a unit's lanes are busy with a layer: compute, DDR loads, DDR stores, and other time (the fixed per-layer
 * overhead and fallback transfers) during which the unit does neither. */
enum nnperf_lane { NNPERF_LANE_COMPUTE, NNPERF_LANE_LOAD, NNPERF_LANE_STORE, NNPERF_LANE_OTHER };
struct nnperf_busy {
    int unit;          /* 0: the accelerator, 1: the fallback unit */
    int lane;          /* enum nnperf_lane */
    double start, end; /* seconds from the start of the run */
};
/* Writes at most cap busy periods of layer i into out and returns how many it has (at most 8). */
int nnperf_prediction_layer_busy(const struct nnperf_prediction *p, int i, struct nnperf_busy *out, int cap);

/* The timeline series (HBDK's temporal statistics): per interval of setup.interval_s seconds, the compute unit's
 * utilization (0..1) and the DDR load and store bandwidth (bytes/s). */
struct nnperf_interval {
    double start, end, utilization, load_bandwidth, store_bandwidth;
};
int nnperf_prediction_interval_count(const struct nnperf_prediction *p);
void nnperf_prediction_interval(const struct nnperf_prediction *p, int i, struct nnperf_interval *iv);

/* How reports meant for people are laid out (NULL = the defaults, all 0). JSON and CSV ignore it: they hold
 * everything. */
struct nnperf_render_options {
    int width; /* table: fit lines into this many columns, dropping the least useful columns first (time,
                         bound and share stay); 0 = no limit */
    int top;   /* table: only the N heaviest layers (by time; nodes by FLOPs without a platform); 0 = all */
    int summary_only; /* table: the summary without the per-layer or per-node table */
    int all; /* table: also the Constant nodes and the layers that do no work, folded out by default */
};

/* Renders analysis + prediction: table (HBDK-style summary, layer details, timeline), JSON (the analysis document
 * plus "platform", "layers", "timeline" and the summary's latency_ms, fps, ddr_bytes_per_frame), CSV (layers), HTML.
 * opts may be NULL. Schemas: docs/json-schema.md. */
enum nnperf_status nnperf_prediction_render(const struct nnperf_prediction *p, enum nnperf_format fmt,
                                            char **out, size_t *len, char *err, size_t errlen);
enum nnperf_status nnperf_prediction_render_opts(const struct nnperf_prediction *p, enum nnperf_format fmt,
                                                 const struct nnperf_render_options *opts, char **out,
                                                 size_t *len, char *err, size_t errlen);
enum nnperf_status nnperf_analysis_render_opts(const struct nnperf_analysis *a, enum nnperf_format fmt,
                                               const struct nnperf_render_options *opts, char **out,
                                               size_t *len, char *err, size_t errlen);

/* `nnperf roofline`: every layer's arithmetic intensity (ops per DDR byte) and attained ops/s against the
 * ceilings ([ROOFLINE] in docs/sources.md), as a table, JSON (schema "nnperf.roofline") or CSV. */
enum nnperf_status nnperf_roofline_render(const struct nnperf_prediction *p, enum nnperf_format fmt,
                                          const struct nnperf_render_options *opts, char **out, size_t *len,
                                          char *err, size_t errlen);

/* `nnperf sweep`: one row per configuration of one model (platform, dtype, batch, latency, FPS, DDR bytes ...), as a
 * table, JSON (schema "nnperf.sweep") or CSV. A sweep copies what it needs from each prediction added, so the
 * prediction may be freed right after nnperf_sweep_add. settings (may be NULL) names what the row changed beyond
 * platform, dtype and batch ("memory.sram_bytes=4MiB"). Errors: NNPERF_E_NOMEM, NNPERF_E_USAGE (NULL arguments,
 * a format other than table, json or csv), NNPERF_E_LIMIT. */
struct nnperf_sweep;
enum nnperf_status nnperf_sweep_new(const char *model, struct nnperf_sweep **out, char *err, size_t errlen);
enum nnperf_status nnperf_sweep_add(struct nnperf_sweep *sw, const struct nnperf_prediction *p,
                                    const char *settings, char *err, size_t errlen);
int nnperf_sweep_count(const struct nnperf_sweep *sw);
enum nnperf_status nnperf_sweep_render(const struct nnperf_sweep *sw, enum nnperf_format fmt,
                                       const struct nnperf_render_options *opts, char **out, size_t *len,
                                       char *err, size_t errlen);
void nnperf_sweep_free(struct nnperf_sweep *sw);

/* ---- HTML reports and SVG plots ----
 * nnperf_analysis_render and nnperf_prediction_render take NNPERF_FORMAT_HTML: a page with tabs (analysis: Summary,
 * Layer details; prediction: Summary, Layer details, Timeline, Roofline, Memory). Names are escaped everywhere. */

/* One plot of a prediction as a standalone SVG file: kind "roofline" (ceilings and every layer as a point, size =
 * time, colour = operator class), "timeline" (per unit, lanes for compute, DDR loads and DDR stores with each
 * layer's busy periods, the heaviest layers named in a legend; utilization and DDR bandwidth per interval with the
 * DDR ceiling) or "memory" (weights / activations / spill bytes per layer). *out is malloc'd (caller frees), NUL-terminated.
 * Errors: NNPERF_E_USAGE (unknown kind), NNPERF_E_LIMIT (too large or out of memory). */
enum nnperf_status nnperf_plot_svg(const struct nnperf_prediction *p, const char *kind, char **out,
                                   size_t *len, char *err, size_t errlen);

/* The data of a compare report, all borrowed from the caller. Matrices are row-major by model. */
struct nnperf_compare_cell {    /* one model on one platform */
    double fps, latency_ms;     /* per run; NAN when it could not be predicted */
    double ops_per_frame;       /* for the whole-model roofline: ops (2 x MACs + other FLOPs) per frame */
    double ddr_bytes_per_frame; /* DDR bytes per frame */
    double fps_per_w;           /* NAN when the platform describes no power */
    const char *error;          /* why it could not be predicted; NULL when it was */
    double
        throughput_fps; /* nnperf_prediction_summary's (every unit busy, or the data's streams); NAN: none */
};
struct nnperf_compare_family {
    const char *family; /* NNPERF_FAMILY_TRANSFORMER, NNPERF_FAMILY_CNN, or NULL */
    int test_rows;      /* as nnperf_prediction_summary's family_test_rows, family_median, family_p90 */
    double median, p90;
};
struct nnperf_compare_data {
    int n_models, n_platforms;
    const char *const *models; /* display names */
    const char *const *platforms;
    const char *const *dtypes; /* [platform]: the dtype each platform ran */
    const double *peak_ops;    /* [platform]: ceilings at that dtype, ops/s and DDR bytes/s; NULL = none */
    const double *ddr_bandwidth;
    const struct nnperf_compare_cell *cells; /* [model * n_platforms + platform] */
    const double *accuracy;                  /* [model], in percent (NAN: not given); NULL when none given */
    int n_batches;                           /* batch sweep for the latency-vs-throughput lines; 0 = none */
    const int *batches;
    const double *sweep_fps; /* [(model * n_platforms + platform) * n_batches + batch] */
    const double *sweep_latency_ms;
    /* the library's warnings about the models (their analyses' warnings, "MODEL: message"), for the JSON's
     * "warnings"; NULL or 0: none */
    const char *const *warnings;
    int n_warnings;
    /* [platform]: each platform's expected error (its validation keys: median and 90th-percentile |error| over its
     * test rows and their number; 0 rows: not validated), as nnperf_prediction_summary gives it; NULL = not given */
    const int *expected_error_rows;
    const double *expected_error_median, *expected_error_p90;
    /* [platform]: what its FPS per watt holds, nnperf_prediction_summary's power_basis ("static and dynamic",
     * "dynamic only"; NULL entries: no power described); NULL = not given */
    const char *const *power_basis;
    /* the sweep's DDR bytes and spilled bytes per frame (same index as sweep_fps; NULL = not given): where a line
     * bends back (throughput falls as the batch grows) the reports say why (docs/json-schema.md, nnperf.compare) */
    const double *sweep_ddr_bytes, *sweep_spill_bytes;
    /* the application threads the cells' throughput_fps is for (nnperf_predict_options.streams); 0: every unit busy.
     * With N >= 1 the table adds "throughput with N streams" */
    int streams;
    /* [platform]: where every model is of one family (nnperf_prediction_summary's family), that family and the
     * platform's band over its test rows of it, as the summary gives them: the reports then show the band a
     * prediction's report shows (docs/prediction.md, "Expected error"); a NULL family (the models differ) or NULL:
     * the band of all the rows */
    const struct nnperf_compare_family *family;
};
/* Renders the model x platform comparison: table (FPS and latency per model and platform, the dtype each ran),
 * JSON (schema "nnperf.compare"), CSV (one row per model and platform) or HTML (FPS heatmap with a log colour
 * scale, the tables, a whole-model roofline with every platform's ceilings and each model a point,
 * latency-vs-throughput lines per model, accuracy-vs-throughput pareto fronts). opts may be NULL. *out is
 * malloc'd. Errors: NNPERF_E_USAGE (inconsistent data), NNPERF_E_LIMIT. */
enum nnperf_status nnperf_compare_render(const struct nnperf_compare_data *d, enum nnperf_format fmt,
                                         const struct nnperf_render_options *opts, char **out, size_t *len,
                                         char *err, size_t errlen);

/* ---- platforms: built-in presets or YAML files (docs/platform-format.md) ----
 *     struct nnperf_platform *p;
 *     if (nnperf_platform_load("zcu102-dpu", &p, err, sizeof err) != NNPERF_OK) { puts(err); return 2; }
 */
struct nnperf_platform;

/* Loads a built-in preset by name (see nnperf_platform_preset_name) or else a YAML file at that path, and validates
 * it. Errors name file, line and key ("x.yaml:14: compute.efficiency.convv: unknown key (known: ...)"):
 * NNPERF_E_IO (unreadable file), NNPERF_E_PARSE (not YAML), NNPERF_E_INVALID (schema or range), NNPERF_E_LIMIT
 * (over 1 MiB, too deep), NNPERF_E_USAGE (neither a preset nor a file). The handle is freed by the caller. */
enum nnperf_status nnperf_platform_load(const char *name_or_path, struct nnperf_platform **out, char *err,
                                        size_t errlen);
void nnperf_platform_free(struct nnperf_platform *p);
/* Sets one key of a loaded platform from YAML text, checked through the platform key table as a file's key is
 * (unit, range, type), then the whole description again: nnperf_platform_set(p, "memory.sram_bytes", "16MiB", err,
 * sizeof err). key is a dotted path of docs/platform-format.md or a map key and its entry ("compute.peak_ops.int8",
 * "compute.efficiency.conv"); value may be a list or a mapping ("[Softmax, TopK]", "{conv: 0.5}": a mapping merges
 * into a section or map, a list replaces). The key stops being listed as an assumption. On error p is unchanged and
 * err says why ("--set memory.sram_bytes: must be 0 or between 1 and 1e15 bytes, got '1e-300'"): NNPERF_E_USAGE
 * (not a key), NNPERF_E_INVALID (the value), NNPERF_E_PARSE (not YAML), NNPERF_E_LIMIT. */
enum nnperf_status nnperf_platform_set(struct nnperf_platform *p, const char *key, const char *value,
                                       char *err, size_t errlen);
/* A copy of a platform (for sweeps over --set values): freed with nnperf_platform_free. NNPERF_E_NOMEM. */
enum nnperf_status nnperf_platform_copy(const struct nnperf_platform *p, struct nnperf_platform **out);
/* Built-in presets, sorted by name: the i-th name (0 <= i < count; NULL otherwise) and a preset's YAML text as
 * shipped, comments included (static storage, NUL-terminated; NULL when no preset has that name). */
/* The platform keys (docs/platform-format.md), for listing and suggestions: count and the i-th dotted path. */
int nnperf_platform_key_count(void);
const char *nnperf_platform_key_name(int i);
int nnperf_platform_preset_count(void);
const char *nnperf_platform_preset_name(int i);
const char *nnperf_platform_preset_yaml(const char *name, size_t *len);
/* The platform written as YAML (format version 1; loads back to the same description). *out is malloc'd, the
 * caller frees it. NNPERF_E_NOMEM on allocation failure. */
enum nnperf_status nnperf_platform_yaml(const struct nnperf_platform *p, char **out, size_t *len);

/* Summary figures of a platform; strings live as long as the handle. Peaks are ops/s (1 MAC = 2 ops), 0 when the
 * dtype is not supported; peak_fp32 is the larger of compute.peak_ops.fp32 and compute.tf32_ops (FP32 layers the
 * runtime runs as TF32 on tensor cores, TensorRT's default on Ampere and later); bandwidth in bytes/s; sram in
 * bytes. */
struct nnperf_platform_info {
    const char *name, *description, *source;
    double peak_int4, peak_int8, peak_fp16, peak_bf16, peak_fp32;
    const char *default_dtype; /* "int8", "fp16", ... */
    double ddr_bandwidth, sram_bytes;
    double ddr_bytes; /* device memory capacity, bytes; 0 = not given (memory.ddr_bytes) */
    int cores;
    int has_fallback;          /* a CPU runs the operators the accelerator lacks */
    const char *fallback_name; /* NULL without fallback */
};
void nnperf_platform_info(const struct nnperf_platform *p, struct nnperf_platform_info *info);
/* The keys of the platform whose values are assumptions rather than published facts (its `assumptions:` list), as
 * dotted key paths ("compute.efficiency.conv", docs/platform-format.md): their number, and the i-th one (NULL when
 * i is out of range). Strings live as long as the handle. */
int nnperf_platform_assumption_count(const struct nnperf_platform *p);
const char *nnperf_platform_assumption(const struct nnperf_platform *p, int i);
/* The value of one key as YAML text ("4194304", "[Conv, Relu]", "{default: 0.7, conv: 0.85}") into out (at most cap
 * bytes with the NUL). key is a dotted path of the key table, or a map key and its entry ("compute.peak_ops.int8").
 * Errors: NNPERF_E_USAGE (unknown key, a section, a missing argument), NNPERF_E_LIMIT (cap too small). */
enum nnperf_status nnperf_platform_get(const struct nnperf_platform *p, const char *key, char *out,
                                       size_t cap);

/* ---- host probe (`nnperf probe`) ----
 * Measures this machine on one thread for about budget_s seconds (<= 0: 10 s; clamped to [1, 30]): fp32 FMA peak,
 * a compiled int8 multiply-accumulate loop, element-wise throughput, L2 and DDR bandwidth (STREAM triad past the
 * last-level cache), and writes them as platform YAML named "host" (efficiency 1 everywhere: before calibration).
 * progress (may be NULL) is called with the fraction done (0..1) and the phase's name. *yaml_out is malloc'd (the
 * caller frees it), *len its length (len may be NULL). Errors: NNPERF_E_NOMEM (the bandwidth arrays, up to 3 GiB,
 * cannot be allocated), NNPERF_E_USAGE (yaml_out NULL). */
enum nnperf_status nnperf_probe_host(double budget_s,
                                     void (*progress)(void *arg, double fraction, const char *what),
                                     void *arg, char **yaml_out, size_t *len, char *err, size_t errlen);

/* ---- calibration against measurements (ONNX Runtime profiles, bench/validate/) ----
 * nnperf_calibrate fits the per-operator-class efficiencies and the per-layer overhead of a platform (a preset or
 * YAML file, typically from `nnperf probe`) to n (model, profile) pairs and returns the calibrated platform as YAML
 * (malloc'd) and a human-readable log of the fit (malloc'd, may be NULL). dtype NULL = fp32. */
enum nnperf_status nnperf_calibrate(const char *platform, const char *const *models,
                                    const char *const *profiles, int n, const char *dtype, char **yaml,
                                    size_t *yaml_len, char **log, char *err, size_t errlen);
/* Fits a platform's free parameters to a table of measured whole-model latencies or FPS (CSV with a header: model,
 * input, dtype, batch, latency_ms or fps, or the fidelity dataset's columns; paths relative to the table's folder,
 * else the current directory) by least squares on the log error, and predicts every row with a fit that left it
 * out. Rows with split "test" are never fitted, rows of another preset are skipped; a row more than 10x off the
 * others is left out and named in the log. fit: comma-separated numeric platform keys ("memory.ddr_efficiency",
 * "calibration.time_scale", ...) or "efficiency" (every class's efficiency scaled); NULL: chosen from the number of
 * measurements (docs/prediction.md, Calibration). *yaml (the platform's own text with the fitted values edited in,
 * its comments kept, and a calibration: record) and *log (the keys, bounds reached, per row: measured, before,
 * fitted, left out) are malloc'd. Errors: NNPERF_E_IO, NNPERF_E_PARSE (the table), NNPERF_E_USAGE (unknown key,
 * more parameters than measurements, no fit rows), those of loading and predicting the models. */
enum nnperf_status nnperf_calibrate_table(const char *platform, const char *table, const char *fit,
                                          char **yaml, size_t *yaml_len, char **log, char *err,
                                          size_t errlen);
/* The files nnperf_calibrate_table(platform, table, ...) reads besides the platform and the table: each fitted row's
 * model and the external-data files it names (nnperf_model_file). add(ctx, path) is called for each (a nonzero
 * return stops with NNPERF_E_NOMEM). A writer of the calibrated platform refuses them all (the CLI's -o). Errors:
 * those of reading the platform and the table. */
enum nnperf_status nnperf_calibrate_table_inputs(const char *platform, const char *table,
                                                 int (*add)(void *ctx, const char *path), void *ctx,
                                                 char *err, size_t errlen);
/* Compares a prediction with a measured profile: per layer (matched by name) and in total. Renders a table, JSON or
 * CSV into *out (malloc'd); *predicted_s and *measured_s get the whole-run times (measured: median model_run). */
enum nnperf_status nnperf_validate(const struct nnperf_prediction *p, const char *profile,
                                   enum nnperf_format fmt, char **out, size_t *len, double *predicted_s,
                                   double *measured_s, char *err, size_t errlen);
/* The measured time per run of each layer of p (matched by name as nnperf_validate does): layer_us[i] for
 * i < min(cap, layer count), microseconds; *unmatched_us the kernels no layer matched, *run_us the median whole run,
 * *runs the number of profiled runs (each may be NULL). Errors: those of reading the profile, naming the file. */
enum nnperf_status nnperf_profile_layer_times(const struct nnperf_prediction *p, const char *profile,
                                              double *layer_us, int cap, double *unmatched_us, double *run_us,
                                              int *runs, char *err, size_t errlen);
/* `nnperf validate --format trace`: one Chrome trace-event document with two processes, the prediction's timeline
 * (as NNPERF_FORMAT_TRACE) and the measured profile's layers laid end to end in execution order (each as long as
 * its measured time per run, then the kernels no layer matched), so both open side by side in ui.perfetto.dev.
 * *out is malloc'd. Errors: those of nnperf_profile_layer_times, NNPERF_E_NOMEM, NNPERF_E_LIMIT. */
enum nnperf_status nnperf_validate_trace(const struct nnperf_prediction *p, const char *profile, char **out,
                                         size_t *len, char *err, size_t errlen);
/* Whether a measured profile belongs to p's model: *kernels gets the number of distinct nodes the profile timed,
 * *matched how many of them name a node or value of the model (ONNX Runtime's fused and re-laid-out names
 * included, as nnperf_validate matches them). A profile of another model matches few (the CLI refuses below half).
 * Errors: those of reading the profile (NNPERF_E_IO, _PARSE, _INVALID, _LIMIT), naming the file. */
enum nnperf_status nnperf_profile_match(const struct nnperf_prediction *p, const char *profile, int *matched,
                                        int *kernels, char *err, size_t errlen);

/* ---- MAX78000 / MAX78002 CNN accelerator planner (`nnperf map`, docs/map.md) ----
 * Groups the analysed graph into accelerator layers and plans processors, data memory, kernel memory and bias
 * memory, with a cycle estimate. target: "max78000" or "max78002"; weight_bits: 8, 4, 2 or 1. A model that does not
 * fit still gives a plan (fits == 0) whose problems name the layer, the resource, what is needed and available and
 * what would make it fit. Errors: NNPERF_E_USAGE (unknown target or bits), NNPERF_E_UNSUPPORTED (shapes unknown),
 * NNPERF_E_LIMIT, NNPERF_E_NOMEM. The plan borrows nothing from the analysis; free it with nnperf_mcu_plan_free. */
struct nnperf_mcu_plan;
enum nnperf_status nnperf_map(const struct nnperf_analysis *a, const char *target, int weight_bits,
                              struct nnperf_mcu_plan **out, char *err, size_t errlen);
/* The same with per-layer weight bits: weight_bits_file (NULL: none) names "NAME: BITS" lines or an ai8x-training
 * QAT policy (docs/map.md); NAME is an ONNX node or a module between slashes of its name. Errors as nnperf_map,
 * and NNPERF_E_IO / NNPERF_E_PARSE (file, line and key named) or NNPERF_E_USAGE (a NAME that matches no layer). */
struct nnperf_map_options {
    const char *target;           /* "max78000" (NULL: this) or "max78002" */
    int weight_bits;              /* 8 (0: this), 4, 2 or 1: every layer the file does not name */
    const char *weight_bits_file; /* NULL or a path */
    double clock_hz; /* CNN clock of the latency (0: the device's, as the vendor's examples set it) */
};
enum nnperf_status nnperf_map_ex(const struct nnperf_analysis *a, const struct nnperf_map_options *o,
                                 struct nnperf_mcu_plan **out, char *err, size_t errlen);
int nnperf_mcu_plan_fits(const struct nnperf_mcu_plan *p);
int nnperf_mcu_plan_problem_count(const struct nnperf_mcu_plan *p);
const char *nnperf_mcu_plan_problem(const struct nnperf_mcu_plan *p, int i); /* NULL when out of range */
/* What the vendor's tool would warn about in a plan that fits (a streaming layer with a bias on the MAX78000). */
int nnperf_mcu_plan_warning_count(const struct nnperf_mcu_plan *p);
const char *nnperf_mcu_plan_warning(const struct nnperf_mcu_plan *p, int i); /* NULL when out of range */
/* format: "table", "json" or "yaml" (an ai8x-synthesis network description); *out is malloc'd, the caller frees. */
enum nnperf_status nnperf_mcu_plan_render(const struct nnperf_mcu_plan *p, const char *format, char **out,
                                          size_t *len, char *err, size_t errlen);
void nnperf_mcu_plan_free(struct nnperf_mcu_plan *p);
/* The devices nnperf_map plans for ("max78000", "max78002"); the first is the default target. NULL out of range. */
int nnperf_mcu_target_count(void);
const char *nnperf_mcu_target_name(int i);

/* ---- design advice (`nnperf advise`, docs/advise.md) ----
 * Checks a model on a platform against the rules of Horizon's efficient-model design advice (docs/sources.md):
 * CPU fallback, unfused patterns, alignment padding, memory-bound dense convs, spilled shortcuts, large weights,
 * data transforms, batching of small inputs, dtype. Every finding carries a what-if (a structured change to the
 * model) and its gain is predicted, not guessed: gain = latency per frame without - with the change, both from
 * nnperf_predict with opts->predict (set predict.whatif = finding.whatif to recompute it). The advice borrows the
 * analysis (free the advice first); its what-ifs are valid only with that analysis. */
struct nnperf_advice;

struct nnperf_advise_options {
    struct nnperf_predict_options predict; /* the configuration advised on (its whatif must be NULL) */
    double min_gain; /* smallest gain reported, fraction of latency per frame; 0 = 0.005 */
};

struct nnperf_finding {
    const char *rule;          /* rule id (nnperf_advice_rule_id, nnperf_advice_explain) */
    const char *const *layers; /* the layers it concerns (names as in the prediction) */
    int n_layers;
    const char *evidence;            /* what was found, with numbers */
    const char *change;              /* the suggested change (the one the what-if applies) */
    double gain_s, gain_fraction;    /* per frame: latency / frames without - with the change; / without */
    double latency_s, new_latency_s; /* per run, without and with the change */
    int frames, new_frames;          /* frames per run, without and with */
    double fps, new_fps;
    const struct nnperf_whatif
        *whatif; /* nnperf_predict_options.whatif that predicts the model with the change */
};

/* Runs the rules; findings are ordered by gain, largest first. opts may be NULL (defaults). *out is freed with
 * nnperf_advice_free. Errors: those of nnperf_predict (bad options, platform without the dtype), NNPERF_E_USAGE
 * (predict.whatif set), NNPERF_E_NOMEM. */
enum nnperf_status nnperf_advise(const struct nnperf_analysis *a, const struct nnperf_platform *p,
                                 const struct nnperf_advise_options *opts, struct nnperf_advice **out,
                                 char *err, size_t errlen);
int nnperf_advice_count(const struct nnperf_advice *adv);
/* The i-th finding (0 <= i < count); strings live as long as the advice. */
void nnperf_advice_finding(const struct nnperf_advice *adv, int i, struct nnperf_finding *f);
/* Table, JSON (schema "nnperf.advice") or HTML (a self-contained page); *out is malloc'd (caller frees).
 * Errors: NNPERF_E_USAGE (CSV), NNPERF_E_LIMIT (too large). */
enum nnperf_status nnperf_advice_render(const struct nnperf_advice *adv, enum nnperf_format fmt, char **out,
                                        size_t *len, char *err, size_t errlen);
void nnperf_advice_free(struct nnperf_advice *adv);
/* The rules: the i-th id (0 <= i < count, else NULL), and a rule's explanation for `advise --explain` (rationale,
 * what is checked, the what-if, the source; static storage; NULL for an unknown id). */
int nnperf_advice_rule_count(void);
const char *nnperf_advice_rule_id(int i);
const char *nnperf_advice_explain(const char *rule);
/* The advice rule whose check looks at layer i of a prediction (the cause it addresses: "fallback",
 * "padded-attention", "align-channels", "spilled-shortcut", "grouped-conv", "large-weights", "data-transform" or
 * "dtype"; the first that applies, in that order), NULL when none does (an overhead-bound layer's fixed cost is no
 * rule's) or i is out of range. No what-if is
 * predicted: whether the change pays off is `nnperf advise`'s answer. */
const char *nnperf_advice_rule_for_layer(const struct nnperf_prediction *p, int i);

/* ---- LLM inference: prefill and decode (`nnperf llm`, docs/llm.md) ----
 * Recognises a decoder-only model's conventions (input_ids, attention_mask, position_ids, past_key_values.N.key/value
 * -> present.N.key/value; HF Optimum and ONNX Runtime GenAI dim names: batch, sequence, past and total sequence
 * lengths, also as expressions such as "past_sequence_length + sequence_length"), binds the dims itself and predicts
 * for every (prompt N, batch B): the prefill (sequence N, past 0) and the decode steps (sequence 1, past N to
 * N+M-1, predicted at a few past lengths and summed over every step by linear interpolation), the KV cache and the
 * device memory. The model is analysed once per configuration and left as loaded; the result borrows nothing. */
struct nnperf_llm;

struct nnperf_llm_options {
    const int *prompts; /* prompt lengths N; NULL or n_prompts 0: {512} */
    int n_prompts;
    int generate;       /* output tokens M (decode steps); 0: 128 */
    const int *batches; /* sequences per run B; NULL or n_batches 0: {1} */
    int n_batches;
    /* dtypes ("int4", "int8", "fp8", "fp16", "bf16", "fp32"); NULL: the model's own for weights and KV cache, the
     * platform's default for compute */
    const char *weights, *kv, *compute;
    int decode_points;       /* past lengths predicted per generation (>= 2); 0: 5 */
    const char *const *dims; /* extra symbol bindings "NAME=N" for dims the conventions do not name */
    int n_dims;
    /* 1: a configuration whose memory is over the platform's (memory.ddr_bytes less memory.reserved_bytes) is
     * predicted with the weights that do not fit streamed from host memory over memory.host_bandwidth every
     * forward pass; 0: it is refused (NNPERF_E_USAGE naming what it needs and what the platform has) */
    int allow_offload;
    /* non-NULL: also simulate serving under a request load (nnperf_llm_serve_result, docs/llm.md "Serving") */
    const struct nnperf_serve_options *serve;
    /* tensor and pipeline parallelism over the platform's devices (interconnect.*; docs/llm.md, Parallelism); 0:
     * tp as the model was built (nnperf_llm_config_load_tp; 1 for an ONNX decoder), pp 1. tp > 1 needs a model
     * built for it; times then include the all-reduces (and pp - 1 sends) over the link, and sizes are per device */
    int tp, pp;
    /* speculative decoding (docs/llm.md, Speculative decoding): a draft model proposes spec_tokens tokens (0: 4) one
     * decode step at a time, the model verifies them in one step of spec_tokens + 1 positions, and each is accepted
     * with probability spec_accept: (1 - a^(k+1)) / (1 - a) tokens per verification on average (Leviathan et al.).
     * The draft is borrowed for the call; its weights and KV cache count in the memory. NULL: none */
    const struct nnperf_model *draft;
    int spec_tokens;
    double spec_accept;
    /* pipeline parallelism (pp > 1): the batch runs as this many micro-batches in flight through the stages
     * (GPipe; docs/llm.md, Parallelism), at most the batch; 0: as many as stages (pp), 1: the whole batch at once */
    int microbatches;
};

/* Serving simulation: continuous batching over a paged KV cache (the memory memory.kv_fraction leaves, in blocks),
 * chunked prefill, requests from a Poisson rate or a fixed concurrency with seeded lengths. 0 fields: defaults. */
enum { NNPERF_LENGTHS_FIXED, NNPERF_LENGTHS_UNIFORM, NNPERF_LENGTHS_EXPONENTIAL };
struct nnperf_serve_options {
    int requests;            /* 0: 1000 */
    double rate;             /* requests/s, Poisson arrivals; or 0 with concurrency */
    int concurrency;         /* requests in flight (a closed loop) */
    unsigned long long seed; /* of the arrivals and lengths */
    int prompt, output;      /* mean lengths; 0: the options' first prompt and generate */
    int lengths;             /* NNPERF_LENGTHS_*: fixed, uniform in [N/2, 3N/2), exponential */
    int block_size;          /* tokens per KV block; 0: 32 */
    int chunk;               /* tokens per step (decodes + prefill chunks); 0: 2048 */
    int max_batch;           /* sequences per step; 0: 256 */
    /* a trace of requests instead of drawn ones: CSV with a header naming arrival_s, prompt and output columns, or
     * JSON lines with those keys (docs/llm.md, Serving); its arrivals are the load (no rate or concurrency) */
    const char *trace;
    /* a latency target: also search the largest Poisson rate (or the trace's arrivals compressed) whose TTFT and
     * TPOT at slo_percentile (90 or 99; 0: 90) are at most these (0: no bound on it) */
    double slo_ttft_s, slo_tpot_s;
    int slo_percentile;
};
#define NNPERF_SERVE_SERIES 64
struct nnperf_serve_result {
    int requests, steps, preemptions;
    double duration_s, output_tokens_per_s, input_tokens_per_s, requests_per_s;
    double ttft_s[3], tpot_s[3], e2e_s[3]; /* p50, p90, p99 */
    double kv_blocks, kv_occupancy_mean, kv_occupancy_peak, mean_decode_batch;
    /* KV occupancy and running requests over the run: means over NNPERF_SERVE_SERIES equal spans of time ending at
     * series_t (s) */
    int n_series;
    double series_t[NNPERF_SERVE_SERIES], series_kv[NNPERF_SERVE_SERIES], series_running[NNPERF_SERVE_SERIES];
    /* with a latency target: the largest rate meeting it (requests/s; 0 none does) and TTFT and TPOT at the
     * target's percentile there */
    int slo_searched;
    double slo_rate, slo_ttft_s, slo_tpot_s;
};

/* One (prompt, batch) configuration. Times in seconds, sizes in bytes. */
struct nnperf_llm_row {
    int prompt, generate, batch;
    double ttft_s; /* prefill of N tokens (time to first token) */
    double tpot_first_s, tpot_last_s,
        tpot_mean_s;                       /* decode step at past N, at N+M-1, mean over the M steps */
    double decode_tokens_per_s;            /* B x M / decode time */
    double e2e_s;                          /* ttft + every decode step */
    double kv_cache_bytes;                 /* after N + M tokens, all B sequences */
    double kv_bytes_per_token;             /* per token of one sequence */
    double weight_bytes, activation_bytes; /* weights (shared initializers once); peak activations */
    double memory_bytes;                   /* weights + KV cache + peak activations */
    int fits;             /* memory_bytes <= the platform's memory.ddr_bytes less its reserve; -1 unknown */
    double offload_bytes; /* weights streamed from host memory every forward pass (allow_offload); else 0 */
    double ttft_comm_s, tpot_comm_s; /* of ttft_s and tpot_mean_s: the interconnect's part (tp, pp > 1) */
};

struct nnperf_llm_summary {
    const char *model, *platform, *weights, *kv, *compute; /* dtype names as used */
    int layers, kv_heads, head_dim;                        /* of the KV cache (0 when the model has none) */
    int has_kv_cache;    /* 0: no past inputs: each decode step re-runs the whole sequence */
    double device_bytes; /* memory.ddr_bytes of the platform; 0 unknown */
    int max_batch;       /* largest batch that fits at the first prompt + M tokens; -1 unknown */
    int max_context;     /* largest context (prompt + generated tokens) that fits at the first batch, at most
                            position_limit */
    int rows, warnings;
    double reserved_bytes; /* memory.reserved_bytes: held by the runtime and OS */
    double kv_fraction;    /* memory.kv_fraction: of the free memory, the KV cache's */
    int position_limit; /* the model's longest context (its rotary table or position embedding); 0 unknown */
    int tp, pp;         /* tensor and pipeline parallelism (sizes of rows are then per device) */
    int spec_tokens;    /* speculative decoding: draft tokens per verification (0: none) */
    double spec_accept, spec_tokens_per_step; /* acceptance rate; expected tokens per target step */
    /* how far to trust it: the median and 90th-percentile |error| of the platform's published LLM test rows
     * (llm_validation, bench/llm/published.csv) and their number; expected_error_rows 0 (the two NAN): not
     * validated for decoders, or the platform was changed with --set */
    int expected_error_rows;
    double expected_error_median, expected_error_p90;
};

/* Errors: NNPERF_E_USAGE (bad options, no input_ids, a dim it cannot bind: the message names the input and dim; a
 * prompt + generated tokens over the model's position limit; a configuration that does not fit the platform's
 * memory without allow_offload: the message gives both sizes), those of nnperf_analyze and nnperf_predict, NNPERF_E_NOMEM. opts may be NULL. */
enum nnperf_status nnperf_llm(struct nnperf_model *m, const struct nnperf_platform *p,
                              const struct nnperf_llm_options *opts, struct nnperf_llm **out, char *err,
                              size_t errlen);
void nnperf_llm_summary(const struct nnperf_llm *l, struct nnperf_llm_summary *s);
/* The i-th configuration (0 <= i < summary.rows), prompts outer, batches inner. */
void nnperf_llm_row(const struct nnperf_llm *l, int i, struct nnperf_llm_row *r);
const char *nnperf_llm_warning(const struct nnperf_llm *l, int i);
/* Table, JSON (schema "nnperf.llm": "summary" of the first configuration with ttft_ms, tpot_ms,
 * decode_tokens_per_s, e2e_ms, kv_cache_bytes, weight_bytes, memory_bytes, fits; "rows" for all), CSV (one row per
 * configuration) or HTML (tabs Summary, Prefill, Decode, Context: layer tables of the first configuration's
 * prefill and last decode step, KV cache and latency vs context plots). *out is malloc'd (caller frees). */
enum nnperf_status nnperf_llm_render(const struct nnperf_llm *l, enum nnperf_format fmt, char **out,
                                     size_t *len, char *err, size_t errlen);
void nnperf_llm_free(struct nnperf_llm *l);
/* The serving simulation's result; 0 when the options asked for none. */
int nnperf_llm_serve_result(const struct nnperf_llm *l, struct nnperf_serve_result *r);
/* A decoder-only model built from a Hugging Face config.json (docs/llm.md, "From a config"): model_type llama,
 * mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, gemma3 (its text_config), gemma3_text or
 * phi3; the model's own hidden size, layers, head counts (grouped-query), head_dim, FFN or experts, vocabulary,
 * max_position_embeddings (the rotary table) and tie_word_embeddings. The graph is written in ONNX Runtime GenAI's
 * layout (GroupQueryAttention with the rotary inside, fused RMSNorms, com.microsoft MoE), weight-free, fp16, and
 * loaded as a model: nnperf_llm (and nnperf_analyze) take it like an exported decoder. Free with
 * nnperf_model_free. Errors: NNPERF_E_IO (unreadable), NNPERF_E_PARSE (not JSON: file:line:column), NNPERF_E_INVALID
 * (a key missing or out of range, named), NNPERF_E_UNSUPPORTED (another model_type), NNPERF_E_LIMIT. */
enum nnperf_status nnperf_llm_config_load(const char *path, struct nnperf_model **out, char *err,
                                          size_t errlen);
/* The same decoder as one device of tensor parallelism tp runs it (docs/llm.md, Parallelism): attention and KV heads,
 * the FFN (and each expert's) and the vocabulary split across tp devices as Megatron-LM shards them (KV heads
 * replicated when there are fewer than tp), norms and router replicated. nnperf_llm with options tp (or 0) adds the
 * all-reduces over the platform's interconnect. Errors as nnperf_llm_config_load, and NNPERF_E_USAGE when tp is
 * out of 1..1024 or does not divide the heads. */
enum nnperf_status nnperf_llm_config_load_tp(const char *path, int tp, struct nnperf_model **out, char *err,
                                             size_t errlen);

#ifdef __cplusplus
}
#endif
#endif
