/* predict.h - the prediction pipeline: an analysed graph mapped onto a platform.
 *
 * The pipeline state (struct nnperf_prediction) is owned by one prediction. nnperf_predict (pipeline.c) fills its
 * inputs (a copy of the platform, the options, and per-node work copied from the analysis with the what-if applied:
 * whatif.c), then runs an explicit, ordered table of stages, each a function over the state that reads what earlier
 * stages wrote and adds its own:
 *
 *     lower -> fuse | work -> align -> memory model -> compute model -> schedule -> throughput -> power -> timeline
 *
 * The stages before the bar depend on the analysis, the platform, the dtypes and the what-if, never on the batch:
 * nnperf_predict_batch makes a prediction for another batch by sharing what they made (struct pr_layer's first
 * fields, node_in, the lowered graph) and running only the stages after the bar (align, which does not depend on
 * the batch either, shares the first prediction's aligned outputs).
 *
 * Memory models (how activations and weights reach the compute units) and compute models (how long a layer's work
 * takes) are enums with a table of implementations each (memory.c, compute.c): a new model is one function and one
 * row. The model and its analysis are never modified, so one analysis can be predicted on many platforms. */
#ifndef NNPERF_PREDICT_H
#define NNPERF_PREDICT_H

#include "../analysis/analysis.h"
#include "../core/ptrmap.h"
#include "../hw/hw.h"
#include "whatif.h"

#include <stddef.h>
#include <string.h>

enum pr_bound { PB_COMPUTE, PB_MEMORY, PB_OVERHEAD, PB_UNKNOWN };

/* ---- inputs: copies the stages read (a what-if transforms these, never the analysis) ---- */

/* A node's work and weights (pr_node_work). */
struct pr_node_work {
    double mac_ops, vec_ops; /* per frame: 2 x MACs, other FLOPs */
    double params;           /* weight elements the node reads (an embedding Gather: only its rows) */
    double packed_bytes; /* weights read at their stored size, whatever the dtype: packed sub-byte codes */
};

/* Per node of the top graph (indexed by ir_node.index): a class and a type in a byte each and one-bit flags (one
 * record per node: 4 bytes; its work is pr_node_work's). */
struct pr_node_in {
    signed char klass; /* operator class (enum op_class; a grouped conv is OC_CONV_GROUPED) */
    signed char dtype; /* enum hw_dtype it computes at (lower.c: the graph's quantized type); -1 = p->dtype */
    unsigned dropped : 1;  /* folded away (a what-if): no work, no bytes, treated as a view */
    unsigned unpadded : 1; /* the layer it is the last node of is not padded by the alignment (a what-if) */
    unsigned gone : 1;     /* lowered away (lower.c): no layer; its consumers read its first input instead */
    unsigned
        float_path : 1; /* the graph leaves it float and the platform has no float peak: the fallback unit */
    unsigned recounted : 1; /* lowering: its work was counted by a rule (an exported MoE block: lower_moe.c),
                              * known even where the analysis could not count it */
    unsigned
        kv_append : 1; /* lowering (lower_decoder.c): a Concat appending new tokens to a KV cache input in
                              * place (present = past + new): it neither reads the past nor stores it again */
};
_Static_assert(OC_COUNT <= 127 && HW_NDT <= 127, "pr_node_in keeps a class and a dtype in a byte each");

/* A value whose size or placement a what-if changes. */
struct pr_value_in {
    const struct ir_value *v;
    int64_t channels;   /* > 0: its channel axis becomes this (alignment of its producer) */
    double bytes_scale; /* its bytes scale by this */
    int pinned;         /* kept on chip beside the plan */
};

/* A forced fused layer (a what-if): node indices in execution order. */
struct pr_group_in {
    const int *nodes;
    int n;
};

/* ---- results ---- */

/* A tensor passed between layers (an activation), after view aliasing. */
struct pr_tensor {
    const struct ir_value *v;
    int storage;  /* index of the tensor whose memory this one shares (views alias), else itself */
    int producer; /* layer index, -1 = graph input */
    int last_use; /* last consuming layer, or n_layers for graph outputs */
    signed char
        dtype; /* enum hw_dtype of its elements (its producer's; a graph input: its first reader's), -1: the
                        * prediction's; its bytes per element are pr_elem_bytes_at's for it */
    unsigned char in_sram;   /* 1 when it lives on chip for its whole life */
    unsigned char spilled;   /* 1 when stored to DDR and read back */
    unsigned char layer_out; /* 1: its producer's output (pr_layer_out), which the layer's alignment pads */
    double bytes;            /* per run, at the prediction dtype, after alignment */
    double unit_bytes;       /* of one execution of the graph (before the batch, alignment and what-ifs) */
};

/* The fields of a layer that are zero on most layers (a long chain on an accelerator has none of them), in a record
 * of their own, made in the prediction's arena for the layers that have any (pr_lx_make); pr_lx reads a layer's
 * (zeros when it has none). */
struct pr_layer_x {
    /* made by lowering and fusion (nnperf_predict_batch copies them) */
    double packed_bytes; /* weight bytes read at their stored size (packed codes) */
    double
        work_scale; /* > 0: its arithmetic scales by this (a causal fused attention skips the masked part) */
    /* made by the per-batch stages */
    double spill_store_bytes, spill_load_bytes; /* DDR traffic per run of tensors spilled and read back */
    double transfer_bytes, quant_elems;         /* fallback boundary crossing */
    double link_bytes;     /* over the host link (USB, PCIe): inputs, outputs, streamed weights */
    double t_transfer;     /* seconds per run */
    double df_pe, df_simd; /* a dataflow engine's folding derived from the fabric (compute.c); 0 = none */
};

struct pr_layer {
    /* ---- made by lowering and fusion (the batch changes none of them: nnperf_predict_batch copies them) ---- */
    const char *name;
    /* in execution order; nodes[0] names the layer, main is the costliest; the last one's first output is the
     * layer's (pr_layer_out) */
    struct ir_node **nodes;
    const struct ir_node *main;
    double params; /* weight elements read (packed bytes and a work scale: pr_lx's) */
    int n_nodes;
    /* small fields in bytes (a long chain holds one record per two or three nodes) */
    signed char klass; /* operator class of the main node */
    signed char dtype; /* enum hw_dtype it computes at: its main node's (pr_node_in.dtype), else p->dtype */
    unsigned char
        attention; /* a fused attention kernel (MatMul -> Softmax -> MatMul): its class is OC_ATTENTION */
    unsigned char fallback; /* runs on the fallback unit */
    unsigned char cost_known;
    unsigned char
        product; /* its output derives from a product of two activations (pr_align: attention scores) */
    /* ---- made by the per-batch stages, from bound on (zero before them) ---- */
    signed char bound; /* enum pr_bound */
    int group;         /* tiled memory model: the depth-first group (layers on chip together) */
    /* work per run (frames_per_run frames) */
    double mac_ops, vec_ops; /* effective: 2 x MACs, other FLOPs */
    /* the aligned output (pr_align): its rank, its factor (aligned / original output elements, >= 1: the aligned
     * work is pr_mac_aligned's and pr_vec_aligned's) and its dims, read with pr_out_rank, pr_align_factor and
     * pr_aligned_dims; NULL when the output's shape is unknown (factor 1). In the arena of the prediction that
     * made them (a prediction for another batch shares its base's), layers with equal ones share one. */
    const int64_t *aligned;
    struct pr_layer_x *x; /* the fields zero on most layers, or NULL when all are (pr_lx) */
    /* DDR traffic per run, bytes (spills: pr_lx's) */
    double w_bytes, load_bytes, store_bytes, sram_bytes;
    /* times, seconds per run (the transfer's: pr_lx's) */
    double t_compute, t_memory, t_overhead, t_total;
    double start, end;
};
/* an activation: a value computed at run time (not a weight, not a constant) */
static inline int pr_is_act(const struct ir_value *v)
{
    return v && !(v->flags & IR_V_INIT) && !v->is_const;
}
/* The size of the part of struct pr_layer that lowering and fusion make. */
#define PR_LAYER_SHARED offsetof(struct pr_layer, bound)
/* A layer's fields that are zero on most layers (a record of zeros when it has none). */
extern const struct pr_layer_x pr_lx_none;
static inline const struct pr_layer_x *pr_lx(const struct pr_layer *L)
{
    return L->x ? L->x : &pr_lx_none;
}
/* L's record of them, made (zeroed) when it has none; out of memory: a scratch record, and p->lx_nomem is set (the
 * stage that asked then fails) */
struct pr_layer_x *pr_lx_make(struct nnperf_prediction *p, struct pr_layer *L);
/* adds b to a field of L's record (made when b is not zero) */
#define PR_LX_ADD(p, L, field, b)                                                                            \
    do {                                                                                                     \
        double pr_lx_b_ = (b);                                                                               \
        if (pr_lx_b_ != 0 || (L)->x) pr_lx_make((p), (L))->field += pr_lx_b_;                                \
    } while (0)
/* the layer's (first) output: its last node's */
static inline const struct ir_value *pr_layer_out(const struct pr_layer *L)
{
    const struct ir_node *last = L->n_nodes > 0 ? L->nodes[L->n_nodes - 1] : NULL;
    return last && last->n_out ? last->out[0] : NULL;
}
/* the aligned output's rank (0 when unknown), factor (1 when unknown) and dims (NULL when unknown) */
static inline int pr_out_rank(const struct pr_layer *L)
{
    return L->aligned ? (int)L->aligned[0] : 0;
}
static inline double pr_align_factor(const struct pr_layer *L)
{
    double f = 1.0;
    if (L->aligned) memcpy(&f, &L->aligned[1], sizeof f);
    return f;
}
static inline const int64_t *pr_aligned_dims(const struct pr_layer *L)
{
    return L->aligned ? L->aligned + 2 : NULL;
}

struct pr_interval {
    double util, load_bw, store_bw; /* utilization in [0,1]; bytes/s */
};

/* the consumer index (pr_cons_build, below) */
struct pr_cons {
    const struct ir_value *v;
    int node;
};
struct pr_cons_ix {
    struct pr_cons *c;
    int n;
    const struct ir_graph *g;
    int *first; /* by value number (its position, else n_values + its number in other): first entry */
    struct ptrmap other; /* values read without a position in g (an outer scope's) -> 0, 1, ... */
};

/* ---- the pipeline state ---- */

struct nnperf_prediction {
    struct arena ar;
    const struct an_state *an;
    const struct ir_graph *g; /* the analysed top graph; after the lowering stage, its lowered copy */
    /* inputs */
    const struct hw_desc *hw; /* the platform: hw_own, or the prediction's this one derives from (base) */
    struct hw_desc
        *hw_own;     /* a copy of the platform (a what-if may let it run more operators); NULL: derived */
    int dtype;       /* enum hw_dtype: --dtype or the default; a quantized graph's own type after lower.c */
    int dtype_given; /* the options (or the what-if) set dtype */
    int graph_dtype; /* -1, or the quantized type the graph's own layers compute at (lower.c) */
    int batch;       /* frames per run */
    int graph_batch; /* frames one execution of the analysed graph computes (its inputs' batch) */
    double runs;     /* executions of the graph per run: batch / graph_batch */
    int batch_given; /* the options or the what-if set batch */
    int causal;      /* attention is causal (a decoder) */
    double w_elem, a_elem, kv_elem; /* bytes per weight, activation, KV element; 0 = the dtype's */
    int memory_model;               /* enum nnperf_memory_model */
    int compute_model;              /* enum pr_compute_model */
    const char *family;  /* fuse.c: NNPERF_FAMILY_TRANSFORMER or NNPERF_FAMILY_CNN (the summary's family) */
    double interval_s;   /* the timeline's (widened when it would have too many intervals) */
    double interval_opt; /* as the options gave it */
    int whatif_batch;    /* the what-if's batch (0: none), which replaces any other */
    int no_timeline;     /* the options' no_timeline: pr_timeline computes avg_util only */
    int streams; /* application threads each running one run after another (0: as many as keep every unit busy) */
    /* Sharing (nnperf_predict_batch): a prediction for another batch derives from this one and shares what the
     * structure stages made (the platform copy, the lowered graph, node_in, val_in, groups, layer_of, the layers'
     * node lists and names, the first n_warn_shared warnings), holding a reference on base until it is freed. */
    struct nnperf_prediction *base; /* the prediction derived from, or NULL */
    int refs;                       /* 1 + the predictions derived from this one and not yet freed */
    int n_warn_shared;              /* warnings made before the per-batch stages */
    struct pr_plan_shape
        *plan_shape;            /* memory.c: the whole-tensor plan's tensors and reads, whatever the batch */
    struct pr_node_in *node_in; /* [g->n_nodes] */
    /* [g->n_nodes] once a what-if or a lowering rule changes a node's work (pr_node_work_own), else NULL: each node's
     * work is then what the analysis counted (pr_node_work), without a record per node (the long chains' peak; a
     * view of the lowering reads as its counts then, but forms no layer: lower.c) */
    struct pr_node_work *node_work;
    struct pr_value_in *val_in; /* values of the graph the stages read (lower.c maps the what-if's to them) */
    int n_val_in;
    int n_val_unmapped; /* the what-if's values the lowered graph holds no tensor of (warned, not applied) */
    /* the lowered graph's consumer index when the lowering made it on its way (lower_shared), for fusion to take;
     * c NULL: none */
    struct pr_cons_ix cons;
    struct pr_group_in *groups;
    int n_groups;
    /* results */
    struct pr_layer *layers;
    int n_layers;
    int *layer_of;      /* node index -> layer index (-1: folded) */
    signed char *op_ok; /* fuse.c, by registry operator: whether the platform runs it, -1 not asked yet */
    struct pr_tensor *tensors;
    int n_tensors;
    struct pr_interval *iv;
    int n_iv;
    struct pr_layer_x lx_scratch; /* pr_lx_make's record when out of memory */
    int lx_nomem;                 /* pr_lx_make ran out of memory */
    /* totals per run */
    double latency, mac_ops, vec_ops, w_bytes, load_bytes, store_bytes, spill_bytes;
    double avg_util;
    double throughput_fps; /* frames/s with every core busy, or with the options' streams (runrate.c) */
    double pipe_s; /* a dataflow accelerator: the slowest layer's time per frame (schedule.c); else 0 */
    int throughput_limit;  /* enum pr_tp_limit: what capped it */
    double energy_per_run; /* J; NaN when the platform describes no power */
    int fallback_layers, spilled_tensors, unknown_layers;
    const char **warn;
    int n_warn, cap_warn;
    struct diag d;
};

/* The most intervals a timeline has (its interval is widened beyond): a plot has no use for more, and a tiny
 * --interval must not make a report of tens of megabytes. */
#define PR_MAX_INTERVALS 10000
void pr_warn(struct nnperf_prediction *p, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- stages (in pipeline order; pipeline.c holds the table) ---- */
enum nnperf_status
pr_lower(struct nnperf_prediction *p); /* lower.c: the graph as a deployment compiler runs it */
enum nnperf_status pr_fuse(struct nnperf_prediction *p);
/* the per-batch stages, from here on (nnperf_predict_batch runs only these): */
enum nnperf_status pr_work(struct nnperf_prediction *p); /* fuse.c: each layer's work per run (batch) */
enum nnperf_status pr_align(struct nnperf_prediction *p);
/* the platform's alignment rule for layer L: the first whose classes hold L's and, when the rule is for products
 * only (compute.alignment[].products), whose output derives from a product of two activations; NULL when none */
const struct hw_align *pr_align_rule(const struct hw_desc *hw, const struct pr_layer *L);
enum nnperf_status pr_memory(struct nnperf_prediction *p);     /* dispatches on p->memory_model */
enum nnperf_status pr_compute(struct nnperf_prediction *p);    /* dispatches on p->compute_model */
enum nnperf_status pr_schedule(struct nnperf_prediction *p);   /* the memory model's schedule */
enum nnperf_status pr_throughput(struct nnperf_prediction *p); /* runrate.c: every core busy, or N streams */
enum nnperf_status pr_power(struct nnperf_prediction *p);      /* runrate.c: energy of a run */
enum nnperf_status pr_timeline(struct nnperf_prediction *p);
enum pr_tp_limit { PR_TP_CORES, PR_TP_DDR, PR_TP_LINK, PR_TP_HOST, PR_TP_STREAMS };
extern const char *const pr_tp_limit_names[];
/* schedule.c: accelerator calls per run (compute.frames_per_call: a batch on an accelerator that takes fewer frames
 * a call is several calls, each paying overhead.per_run_s and loading the weights) */
double pr_calls(const struct nnperf_prediction *p);
/* the host stages' time per frame (schedule.c): overhead.host_per_frame_s, plus overhead.host_per_input_element_s
 * times the elements of the graph's inputs per frame */
double pr_host_frame_s(const struct nnperf_prediction *p);

/* ---- memory models (memory.c) ---- */
/* Whether graph output present extends graph input past along one axis (a KV cache): same rank and dtype, every
 * dim known, one larger, the others equal. */
int pr_extends(const struct ir_value *past, const struct ir_value *present);
enum pr_schedule_kind {
    PR_SCHED_SEQUENTIAL, /* layers one after another */
    PR_SCHED_OVERLAPPED, /* the whole model is one roofline point: latency = max(sum compute, sum traffic) */
    PR_SCHED_GROUPED, /* one after another; layers of a depth-first group are active over the group's span */
};
struct pr_memory_model {
    const char *name; /* as in --memory-model */
    enum nnperf_status (*plan)(struct nnperf_prediction *p);
    int schedule; /* enum pr_schedule_kind */
};
extern const struct pr_memory_model pr_memory_models[];
extern const int pr_n_memory_models;

/* ---- compute models (compute.c) ---- */
enum pr_compute_model {
    PR_COMPUTE_ROOFLINE = 0, /* per layer: max(ops / (peak x efficiency), bytes / bandwidth) + overhead */
    PR_COMPUTE_ARRAY = 1, /* MAC array lanes, vector unit, strided input (the platform describes the array) */
    PR_COMPUTE_KERNELS =
        2, /* a CPU's kernels: MACs + per-element costs (the platform gives compute.kernel_costs) */
    PR_COMPUTE_DATAFLOW = 3, /* an engine per conv/matmul layer, folded PE x SIMD (compute.dataflow) */
};
/* The terms of a layer in the kernel-cost model, before the platform's coefficients: seconds of MACs at the peak
 * (split by the efficiency that applies), element counts (per run) and the weight stream's time. */
struct pr_kterms {
    double mac_s, dw_mac_s,
        narrow_mac_s;  /* MAC ops / peak: other MAC layers, depthwise, narrow-input convs */
    double outputs;    /* output elements of a MAC layer */
    double pass_elems; /* elements of the non-Relu activations fused into a MAC layer */
    double elements;   /* elements read and written by a layer without MACs */
    double weight_s;   /* weight bytes / DDR bandwidth (MAC layers) */
    int overhead;      /* 1: the layer pays the per-layer overhead */
};
void pr_kernel_terms(const struct nnperf_prediction *p, const struct pr_layer *L, struct pr_kterms *t);
/* The array model's MAC array utilization of layer L from its shape (1 = full lanes), and in *t_strided the time
 * its strided input takes to be re-laid out (0: none) */
double pr_array_util(const struct nnperf_prediction *p, const struct pr_layer *L, double *t_strided);
/* compute.array.fc_tile: the weight elements a fully connected layer L stores beyond its own (its input and output
 * padded to whole tiles); *expand is set to 1 when its input is padded (a copy stage of its own), else 0 */
double pr_fc_pad(const struct nnperf_prediction *p, const struct pr_layer *L, int *expand);
/* the kernels a prediction launches: its layers with a fixed cost, each with those compute.op_kernels gives its
 * nodes beyond one */
double pr_kernel_count(const struct nnperf_prediction *p);
/* a node's attribute by name, or NULL; whether a value's rank and every dim are known (compute.c) */
const struct ir_attr *pr_attr(const struct ir_node *nd, const char *name);
int pr_dims_known(const struct ir_value *v);
/* The compute model a platform selects (kernel costs, array lanes, else the roofline). */
int pr_compute_model_of(const struct hw_desc *hw, int dtype);
struct pr_compute_model_row {
    const char *name;
    void (*layer_time)(struct nnperf_prediction *p, struct pr_layer *L);
};
extern const struct pr_compute_model_row pr_compute_models[];
extern const int pr_n_compute_models;

/* ---- inputs (whatif.c) ---- */
/* Fills p->node_in / val_in / groups from the analysis and applies the what-if w (may be NULL). */
enum nnperf_status pr_inputs(struct nnperf_prediction *p, const struct nnperf_whatif *w);
/* a layer's work per run after the alignment padding (align.c): its MACs' and its other work's */
double pr_mac_aligned(const struct pr_layer *L);
double pr_vec_aligned(const struct pr_layer *L);
/* node k's work and weights: p->node_work[k], or what the analysis counted */
struct pr_node_work pr_node_work(const struct nnperf_prediction *p, int k);
/* its mac_ops and vec_ops alone (the batch stages read them for every node of every batch) */
double pr_node_mac(const struct nnperf_prediction *p, int k);
double pr_node_vec(const struct nnperf_prediction *p, int k);
/* gives every node a p->node_work record (what the analysis counted), for a stage that changes them */
enum nnperf_status pr_node_work_own(struct nnperf_prediction *p);
/* a weight, or a value computed from weights or dims only (ir_value.is_const 1 or 2): what a compiler folds */
static inline int pr_const_like(const struct ir_value *v)
{
    return v && (v->is_const || (v->flags & IR_V_INIT));
}

/* The node of the prediction's graph that makes v (NULL: none): v->producer, or the lowering's copy of it. The
 * lowered graph may share the analysis's records but for the nodes its rewiring changed (lower.c), whose values
 * still name the analysis's node as their producer: what a stage reads of a producer beyond its index comes from
 * here. */
static inline const struct ir_node *pr_producer(const struct nnperf_prediction *p, const struct ir_value *v)
{
    const struct ir_node *n = v ? v->producer : NULL;
    if (!n || n->index < 0 || n->index >= p->g->n_nodes) return n;
    const struct ir_node *m = p->g->nodes[n->index];
    return m != n && m->id == n->id && m->graph == n->graph ? m : n;
}
/* The index in the prediction's graph of the node that makes v (pr_producer's), or -1: none does, or it is not one of
 * the graph's nodes. */
static inline int pr_producer_index(const struct nnperf_prediction *p, const struct ir_value *v)
{
    const struct ir_node *n = pr_producer(p, v);
    return n && n->index >= 0 && n->index < p->g->n_nodes && p->g->nodes[n->index] == n ? n->index : -1;
}
/* The what-if override of value v, or NULL. */
const struct pr_value_in *pr_value(const struct nnperf_prediction *p, const struct ir_value *v);

/* ---- helpers ---- */
/* The consumers of every value of the top graph: one (value, node index) pair per input slot, grouped by value,
 * each value's readers in node order (fuse.c; built in linear time, a counting sort on the values' positions,
 * ir_value_pos). pr_cons_build returns 0 when out of memory; the caller calls pr_cons_free either way. pr_cons_find:
 * the first entry of v, or -1; PR_CONS_EACH walks v's entries. */
int pr_cons_build(const struct ir_graph *g, struct pr_cons_ix *x);
/* The same from the inputs' value positions already known: num[j] is the position in g->values of the j-th input
 * of g's nodes in order (NULL inputs left out; every input has one), n_num of them. 0 when out of memory. */
int pr_cons_build_from(const struct ir_graph *g, struct pr_cons_ix *x, const int *num, int n_num);
void pr_cons_free(struct pr_cons_ix *x);
int pr_cons_find(const struct pr_cons_ix *x, const struct ir_value *v);
#define PR_CONS_EACH(x, val, i)                                                                              \
    for (int i = pr_cons_find((x), (val)); i >= 0 && i < (x)->n && (x)->c[i].v == (val); i++)
/* The roofline of one workload: attainable ops/s = min(peak, bandwidth x intensity) (docs/sources.md [ROOFLINE]).
 * Returns 0 when peak or bandwidth is 0. */
double pr_attainable(double ops, double bytes, double peak, double bandwidth);
/* Bytes per element of a storage dtype name (int4 0.5, int8 and fp8 1, fp16 and bf16 2, fp32 4); 0 = unknown. */
double pr_dtype_bytes(const char *name);
/* Bytes per element at the prediction dtype (int4 weights: 0.5), or the options' weight / activation dtype. */
double pr_elem_bytes(const struct nnperf_prediction *p, int is_weight);
/* The same at dtype dt (a layer's own: pr_layer.dtype). */
double pr_elem_bytes_at(const struct nnperf_prediction *p, int dt, int is_weight);
/* A layer's time without transfer and overhead, for a compute time t_compute: max(compute, memory) when the platform
 * overlaps memory and compute, else compute + activation traffic, overlapped with the weight stream. */
double pr_body(const struct nnperf_prediction *p, const struct pr_layer *L, double t_compute);
/* Which memory bounds L's memory time (the slowest of DDR, on-chip SRAM and the host link; a fallback layer's is
 * its unit's DDR), with the bytes it moves there and that memory's bandwidth (bytes/s, 0 when not described). */
enum pr_memory { PM_DDR, PM_SRAM, PM_LINK };
enum pr_memory pr_memory_bound(const struct nnperf_prediction *p, const struct pr_layer *L, double *bytes,
                               double *bw);
/* Power (docs/prediction.md): whether the platform describes it, and a layer's dynamic energy per run in joules:
 * aligned ops x op_j[dtype] + DDR and link bytes x ddr_j + on-chip bytes x sram_j. */
int pr_has_power(const struct hw_desc *hw);
double pr_layer_energy(const struct nnperf_prediction *p, const struct pr_layer *L);
/* Peak ops/s of one inference at the prediction dtype (peak_ops x cores_per_inference / cores). */
double pr_peak(const struct nnperf_prediction *p);
/* The operator class a node's work is predicted with: its registry class, a grouped or depthwise Conv its own. */
int pr_node_class(const struct ir_node *nd);
/* GlobalAveragePool, GlobalMaxPool or GlobalLpPool: a reduction over the whole map */
int pr_global_pool(const struct ir_node *nd);
/* Effective DDR bandwidth (bandwidth x efficiency), bytes/s. */
double pr_ddr_bw(const struct nnperf_prediction *p);
/* The cores one inference runs on: compute.cores_per_inference, or all the cores where it is 0 or more. */
int pr_inference_cores(const struct hw_desc *hw);
/* The DDR bandwidth one inference's layers reach: pr_ddr_bw, at most its cores (threads) x memory.core_bandwidth. */
double pr_layer_ddr_bw(const struct nnperf_prediction *p);

#endif
