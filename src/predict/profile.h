/* profile.h - reads a measured profile: the JSON trace ONNX Runtime writes with enableProfiling ([ORT-PROFILING] in
 * docs/sources.md; bench/validate/measure.js), reduced to per-node kernel times and whole-run times, the
 * measurements calibration fits against.
 *
 * The file is a JSON array of Chrome-trace events (or an object whose "traceEvents" is that array):
 *   {"cat": "Node", "name": "<node>_kernel_time", "dur": 1148, "ts": 49682, "args": {"op_name": "Conv",
 *    "provider": "CPUExecutionProvider", ...}}                       one per node per run, times in microseconds
 *   {"cat": "Session", "name": "model_run", "dur": 31829, "ts": 49628}   one per run (InferenceSession::Run)
 * Other events (session_initialization, SequentialExecutor::Execute, older ORT's _fence_before/_fence_after) are
 * skipped. Node names are those of the graph ORT ran, after its optimisations (fused nodes get new names such as
 * "..._nchwc"), not necessarily those of the ONNX file. */
#ifndef NNPERF_PERF_PROFILE_H
#define NNPERF_PERF_PROFILE_H

#include "../core/core.h"

#define PERF_PROFILE_MAX_BYTES       (512u << 20) /* larger files are refused (NNPERF_E_LIMIT) */
#define PERF_PROFILE_MAX_EVENTS      (1 << 22)
#define PERF_PROFILE_MAX_NAME        4096       /* bytes of a node, op or provider name */
#define PERF_PROFILE_MAX_EVENT_BYTES (1u << 20) /* bytes of one event's JSON */

struct perf_profile_node {
    const char *name;     /* as ORT reports it, without the "_kernel_time" suffix */
    const char *op;       /* args.op_name ("" when absent) */
    const char *provider; /* args.provider ("" when absent) */
    double total_us;      /* kernel time summed over every execution in the file */
    double min_us;        /* fastest single execution */
    int count;            /* executions */
};

struct perf_profile {
    struct arena ar;                 /* owns nodes and strings */
    struct perf_profile_node *nodes; /* in order of first execution */
    int n_nodes;
    int runs;                 /* model_run events */
    double run_median_us;     /* median model_run duration */
    double run_min_us;        /* fastest model_run */
    double kernel_total_us;   /* all node kernel time in the file */
    double kernel_us_per_run; /* kernel_total_us / runs */
    double kernel_median_us;  /* median over runs of the kernel time inside each run (by timestamp) */
};

/* Loads an ORT profile from path into out (zeroed first; free it with perf_profile_free, also after an error).
 * The file is streamed: memory is proportional to the nodes, runs and kernel events kept, not to its size.
 * Errors name the file: NNPERF_E_IO (cannot read, not a regular file), NNPERF_E_LIMIT (over
 * PERF_PROFILE_MAX_BYTES, _EVENTS or _EVENT_BYTES),
 * NNPERF_E_PARSE (not JSON: line and column; not an array of events), NNPERF_E_INVALID (an event with a bad field,
 * named by index; no model_run event), NNPERF_E_NOMEM. */
enum nnperf_status perf_profile_load(const char *path, struct perf_profile *out, struct diag *d);
/* Same over a buffer (len bytes, need not be NUL-terminated); name is used in messages. */
enum nnperf_status perf_profile_load_buffer(const char *buf, size_t len, const char *name,
                                            struct perf_profile *out, struct diag *d);
/* The same, reading the buffer chunk bytes at a time (1 to 65536) as the file reader does: tests and the fuzz
 * harness use small chunks so that every event crosses reads. */
enum nnperf_status perf_profile_load_chunked(const char *buf, size_t len, const char *name, size_t chunk,
                                             struct perf_profile *out, struct diag *d);
void perf_profile_free(struct perf_profile *p);
/* The node with that name, or NULL. */
const struct perf_profile_node *perf_profile_find(const struct perf_profile *p, const char *name);

#endif
