/* memory.c - stage 3, the memory model: where each activation and weight lives and what crosses DDR. One function
 * per model and one row in src/hw/memory_models.def, which makes pr_memory_models (indexed by enum
 * nnperf_memory_model):
 *
 * "planned": tensors are the values passed between layers (views such as Reshape share their input's storage).
 * Walking the layers in order, a new output stays in on-chip SRAM while it fits with everything still alive; when it
 * does not, the live tensor whose last use is farthest away (a long shortcut, typically) is spilled: written to DDR
 * and read back by its later consumers (Belady's rule on last use). A tensor larger than the SRAM goes to DDR
 * directly. Graph inputs are loaded from DDR and graph outputs stored to it. Weights are loaded once per run, so their
 * DDR bytes per frame fall as 1/frames_per_run. Layers on the fallback unit exchange their inputs and outputs through
 * DDR and pay the transfer and (de)quantization at the boundary.
 *
 * "weights-only" (QuTiBench's assumption, docs/sources.md [QUTIBENCH]): only weights move, once per frame;
 * activations stay on chip; the schedule treats the whole model as one roofline point.
 *
 * Cost: O((layers + tensors) log tensors): tensors are created in layer order (each layer's outputs are one
 * range), the spill victim comes from a heap ordered by last use, and residents are freed from per-layer buckets. */
#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "predict.h"

/* The tensor of a value (tensor_of), without a hash of every tensor: a layer's output is looked for among the
 * outputs of its producer's layer (first_out, layer_of), a graph input in a hash (m) of the graph inputs and of the
 * outputs of layers with more than PR_FIND_SCAN of them. That needs every tensor's value to name, as its producer,
 * a node of the graph that layer_of places in the layer that lists it (and a graph input no producer): when the
 * records do not say so, m holds every tensor (by_layer 0). */
#define PR_FIND_SCAN 8
struct tfind {
    const struct pr_tensor *tensors;
    const int *first_out;
    struct ptrmap m; /* value -> its first tensor */
    int by_layer;
};

static int tensor_of(const struct nnperf_prediction *p, const struct tfind *f, const struct ir_value *v)
{
    const struct ir_node *pn = v->producer;
    if (!f->by_layer || !pn) return pm_get(&f->m, v);
    if (pn->index < 0 || pn->index >= p->g->n_nodes || p->g->nodes[pn->index] != pn) return -1;
    int l = p->layer_of[pn->index];
    if (l < 0) return -1;
    int a = f->first_out[l], b = f->first_out[l + 1];
    if (b - a > PR_FIND_SCAN) return pm_get(&f->m, v);
    for (int t = a; t < b; t++)
        if (f->tensors[t].v == v) return t;
    return -1;
}

/* Bytes per element of a storage type: a dtype (int4 ... fp32, the fp8 encodings), a weight format named as the
 * ecosystems name it (llama.cpp's GGUF types by their bits per weight [LLAMACPP-QUANT]; intN:gG, N-bit codes with a
 * fp16 scale and an N-bit zero point per group of G weights, AWQ/GPTQ's asymmetric group quantization), or a
 * number of bits per weight ("4.85"). 0 when unknown. */
double pr_dtype_bytes(const char *name)
{
    static const struct {
        const char *name;
        double bits;
    } t[] = {
        {"int4", 4},
        {"int8", 8},
        {"fp8", 8},
        {"fp8_e4m3", 8},
        {"fp8_e5m2", 8},
        {"e4m3", 8},
        {"e5m2", 8},
        {"fp16", 16},
        {"bf16", 16},
        {"fp32", 32},
        /* GGUF: legacy blocks of 32 (DERIVED from the block: Q4_0 = 16 bytes of codes + a fp16 scale = 18
              * bytes per 32 weights) and k-quant mixes (Llama 2 7B's measured bits per weight) */
        {"q4_0", 4.5},
        {"q4_1", 5.0},
        {"q5_0", 5.5},
        {"q5_1", 6.0},
        {"q8_0", 8.5},
        {"q2_k", 3.35},
        {"q3_k_s", 3.50},
        {"q3_k_m", 3.91},
        {"q3_k_l", 4.27},
        {"q4_k_s", 4.58},
        {"q4_k_m", 4.84},
        {"q5_k_s", 5.52},
        {"q5_k_m", 5.68},
        {"q6_k", 6.56}};
    if (!name) return 0;
    char low[32];
    size_t n = strlen(name);
    if (!n || n >= sizeof low) return 0;
    for (size_t i = 0; i <= n; i++) low[i] = (char)tolower((unsigned char)name[i]);
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (!strcmp(t[i].name, low)) return t[i].bits / 8;
    const char *q = !strncmp(low, "int", 3) ? low + 3 : !strncmp(low, "uint", 4) ? low + 4 : NULL;
    char *end;
    if (q && isdigit((unsigned char)*q)) {
        long bits = strtol(q, &end, 10), group = 0;
        if (end[0] == ':' && end[1] == 'g' && isdigit((unsigned char)end[2]))
            group = strtol(end + 2, &end, 10);
        if (!*end && bits >= 2 && bits <= 8 && group >= 8 && group <= 1 << 20)
            return ((double)bits + (16.0 + (double)bits) / (double)group) / 8;
    }
    double b = c_strtod(low, &end);
    if (end != low && !*end && b >= 1 && b <= 32) return b / 8;
    return 0;
}

double pr_elem_bytes(const struct nnperf_prediction *p, int is_weight)
{
    return pr_elem_bytes_at(p, p->dtype, is_weight);
}

double pr_elem_bytes_at(const struct nnperf_prediction *p, int dt, int is_weight)
{
    if (is_weight && p->w_elem > 0) return p->w_elem;
    if (!is_weight && p->a_elem > 0) return p->a_elem;
    /* int4 packs weights two per byte; activations of an int4 model stay int8 (common NPU practice, documented) */
    switch (dt) {
    case HW_INT4: return is_weight ? 0.5 : 1.0;
    case HW_INT8:
    case HW_FP8: return 1.0;
    case HW_FP16:
    case HW_BF16: return 2.0;
    default: return 4.0;
    }
}

const struct pr_layer_x pr_lx_none;

struct pr_layer_x *pr_lx_make(struct nnperf_prediction *p, struct pr_layer *L)
{
    if (!L->x) L->x = ar_alloc(&p->ar, sizeof *L->x);
    if (L->x) return L->x;
    p->lx_nomem = 1;
    return &p->lx_scratch;
}

/* bytes per element of a plan's tensor */
static double tensor_elem(const struct nnperf_prediction *p, const struct pr_tensor *T)
{
    return pr_elem_bytes_at(p, T->dtype >= 0 ? T->dtype : p->dtype, 0);
}

/* weights per layer: the weight elements its nodes read, once per run (weights-only, or a platform that runs a batch
 * frame by frame (compute.frame_serial): once per frame; an accelerator taking compute.frames_per_call frames a
 * call: once per call). With a
 * dedicated weight memory (memory.weight_sram_bytes), the weights of the layers that fit, in execution order, stay
 * there across inferences (loaded with the model, as the Edge TPU compiler caches parameters); the rest stream every
 * run, over the host link when the platform has one, else from DDR. */
static void weight_bytes(struct nnperf_prediction *p, double per_run)
{
    double room = p->hw->weight_sram_bytes;
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        int expand;
        /* compute.array.fc_tile: a fully connected layer's weights stored padded to whole tiles */
        double b = (L->params + pr_fc_pad(p, L, &expand)) * pr_elem_bytes_at(p, L->dtype, 1) +
                   pr_lx(L)->packed_bytes;
        L->w_bytes = 0;
        if (L->x) L->x->link_bytes = 0;
        if (room > 0 && b <= room && !L->fallback) {
            room -= b;
            continue;
        }
        if (p->hw->weight_sram_bytes > 0) room = 0; /* once one layer does not fit, the rest stream */
        if (p->hw->link_bw > 0 && !L->fallback)
            PR_LX_ADD(p, L, link_bytes, b * per_run);
        else
            L->w_bytes = b * per_run;
    }
}

static enum nnperf_status plan_weights_only(struct nnperf_prediction *p)
{
    weight_bytes(p, p->batch);
    return NNPERF_OK;
}

/* a layer of views only (no bytes move); a node a what-if folds away counts as a view, and so does a broadcast
 * (Expand): runtimes hand its consumer the input with zero strides instead of materialising the copies (the
 * grouped-query K/V repeat of eager exports), so its consumers read the input's bytes */
static int is_view_layer(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    for (int i = 0; i < L->n_nodes; i++)
        if ((L->nodes[i]->op < 0 ||
             (op_table[L->nodes[i]->op].klass != OC_VIEW && L->nodes[i]->op != OPID_EXPAND)) &&
            !p->node_in[L->nodes[i]->index].dropped)
            return 0;
    return 1;
}

int pr_extends(const struct ir_value *past, const struct ir_value *present)
{
    if (!past || !present || past->rank < 1 || past->rank != present->rank || past->dtype != present->dtype)
        return 0;
    int grow = 0, same = 0;
    for (int d = 0; d < present->rank; d++) {
        int64_t a = past->dims[d].val, b = present->dims[d].val;
        if (a < 0 || b < 0) return 0;
        same += a == b;
        grow += b > a;
    }
    return same == present->rank - 1 && grow == 1;
}

/* A KV cache append: graph output o extends graph input v (a past) along one axis, same dtype and other dims
 * (present = Concat(past, new), or an attention operator's present). Runtimes append in place: the step writes
 * only the new part. Returns v, or NULL. */
static const struct ir_value *appended_input(const struct pr_layer *L, const struct ir_value *o)
{
    if (!(o->flags & IR_V_OUTPUT)) return NULL;
    for (int i = 0; i < L->n_nodes; i++)
        for (int k = 0; k < L->nodes[i]->n_in; k++) {
            const struct ir_value *v = L->nodes[i]->in[k];
            if (v && (v->flags & IR_V_INPUT) && !(v->flags & IR_V_INIT) && pr_extends(v, o)) return v;
        }
    return NULL;
}

/* a layer whose only readers of the graph input v are KV cache appends (lowering: kv_append) never reads the past:
 * the consumers of the present read it whole */
static int skips_read(const struct nnperf_prediction *p, const struct pr_layer *L, const struct ir_value *v)
{
    if (!(v->flags & IR_V_INPUT)) return 0;
    int readers = 0;
    for (int i = 0; i < L->n_nodes; i++)
        for (int k = 0; k < L->nodes[i]->n_in; k++)
            if (L->nodes[i]->in[k] == v) {
                if (!p->node_in[L->nodes[i]->index].kv_append) return 0;
                readers++;
            }
    return readers > 0;
}

/* The tensors a layer reads (layer_reads): out[] the list, seen[] per tensor the call that last listed it, so a
 * duplicate is found in constant time (a node with a million inputs is listed in linear time) */
struct read_set {
    int *out, *seen;
    int cap, call;
};

/* tensors a layer reads: inputs of its nodes not produced inside it (activations only), into rs->out */
static int layer_reads(const struct nnperf_prediction *p, int l, const struct tfind *f, struct read_set *rs)
{
    const struct pr_layer *L = &p->layers[l];
    int n = 0, call = ++rs->call;
    for (int i = 0; i < L->n_nodes; i++)
        for (int k = 0; k < L->nodes[i]->n_in; k++) {
            const struct ir_value *v = L->nodes[i]->in[k];
            if (!v) continue;
            int t = tensor_of(p, f, v);
            if (t < 0 || p->tensors[t].producer == l || rs->seen[t] == call) continue;
            rs->seen[t] = call;
            if (n < rs->cap) rs->out[n++] = t;
        }
    return n;
}

static int root(const struct nnperf_prediction *p, int t)
{
    while (p->tensors[t].storage != t) t = p->tensors[t].storage;
    return t;
}

/* ---- the planned model's working set ---- */

/* how a tensor is on chip (plan.resident): not, whole, pinned by a what-if (occupying nothing), or as the line
 * buffer of a depth-first group (two rows) */
enum { PR_OFF_CHIP, PR_WHOLE, PR_PINNED, PR_LINES };

struct plan {
    struct nnperf_prediction *p;
    char *resident, *in_ddr;
    int *heap,
        n_heap; /* spill candidates: residents by last use (largest first), then index (smallest first) */
    int *bucket_head, *bucket_next; /* residents by the layer after which they are freed */
    double used;
};

static int heap_before(const struct plan *s, int a, int b)
{
    int la = s->p->tensors[a].last_use, lb = s->p->tensors[b].last_use;
    return la != lb ? la > lb : a < b;
}

static void heap_push(struct plan *s, int t)
{
    int i = s->n_heap++;
    s->heap[i] = t;
    while (i > 0 && heap_before(s, s->heap[i], s->heap[(i - 1) / 2])) {
        int par = (i - 1) / 2, x = s->heap[i];
        s->heap[i] = s->heap[par];
        s->heap[par] = x;
        i = par;
    }
}

static void heap_pop(struct plan *s)
{
    s->heap[0] = s->heap[--s->n_heap];
    for (int i = 0;;) {
        int a = 2 * i + 1, b = a + 1, m = i;
        if (a < s->n_heap && heap_before(s, s->heap[a], s->heap[m])) m = a;
        if (b < s->n_heap && heap_before(s, s->heap[b], s->heap[m])) m = b;
        if (m == i) break;
        int x = s->heap[i];
        s->heap[i] = s->heap[m];
        s->heap[m] = x;
        i = m;
    }
}

/* the resident spill candidate with the farthest last use, or -1 (entries no longer resident are dropped) */
static int heap_top(struct plan *s)
{
    while (s->n_heap > 0 && !s->resident[s->heap[0]]) heap_pop(s);
    return s->n_heap > 0 ? s->heap[0] : -1;
}

static double row_bytes(const struct pr_tensor *T);

/* bytes a resident occupies */
static double foot(const struct plan *s, int t)
{
    const struct pr_tensor *T = &s->p->tensors[t];
    return s->resident[t] == PR_WHOLE ? T->bytes : s->resident[t] == PR_LINES ? 2 * row_bytes(T) : 0;
}

/* t stays on chip from layer on, as `how` says (PR_PINNED and PR_LINES are never spill victims) */
static void make_resident(struct plan *s, int t, int layer, int how)
{
    struct pr_tensor *T = &s->p->tensors[t];
    s->resident[t] = (char)how;
    T->in_sram = 1;
    s->used += foot(s, t);
    if (how == PR_WHOLE) heap_push(s, t);
    int at = T->last_use > layer ? T->last_use : layer;
    if (at >= s->p->n_layers) return; /* lives to the end of the run */
    s->bucket_next[t] = s->bucket_head[at];
    s->bucket_head[at] = t;
}

/* ---- depth-first tiling (memory model "tiled") ----
 * Layers that work on spatial neighbourhoods (convolutions, pools, element-wise, activations, Concat, Resize on
 * NCHW tensors) run depth-first: the image is cut into horizontal tiles and a group of consecutive layers processes
 * one tile after another, each layer keeping only a few rows of its input (a line buffer: kernel height + stride
 * rows, two for a pointwise layer); a tensor read a few layers later (a shortcut) keeps the rows the layers in
 * between consume. A group grows while its line buffers and its weights fit the SRAM; the tensors passed between
 * groups (or to a layer that needs whole tensors: Gemm, Softmax, Transpose, ...) are planned as whole tensors. */

static int streamable(const struct nnperf_prediction *p, const struct pr_layer *L)
{
    const struct ir_value *out = pr_layer_out(L);
    if (L->fallback || !out || out->rank != 4) return 0;
    switch (L->klass) {
    case OC_POOL: /* a global pool needs the whole map before anything can read its result */
        return !pr_global_pool(L->main);
    case OC_CONV:
    case OC_CONV_GROUPED:
    case OC_CONV_DEPTHWISE:
    case OC_ELTWISE:
    case OC_ACT:
    case OC_RESIZE: return 1;
    case OC_NORM: return L->main->op == OPID_BATCH_NORMALIZATION;
    case OC_DATA: return L->main->op == OPID_CONCAT || L->main->op == OPID_PAD;
    default: (void)p; return 0;
    }
}

/* rows a layer keeps of each input: its window's height plus its vertical stride (at least two: double buffering) */
static double window_rows(const struct pr_layer *L)
{
    double kh = 1, sh = 1;
    const struct ir_node *nd = L->main;
    for (int a = 0; a < nd->n_attr; a++) {
        const struct ir_attr *at = &nd->attrs[a];
        if (!strcmp(at->name, "kernel_shape") && at->n >= 1) kh = (double)at->ints[0];
        if (!strcmp(at->name, "strides") && at->n >= 1) sh = (double)at->ints[0];
    }
    if (nd->op == OPID_CONV && nd->n_in > 1 && nd->in[1] && nd->in[1]->rank == 4 &&
        nd->in[1]->dims[2].val > 0)
        kh = (double)nd->in[1]->dims[2].val;
    return kh + sh > 2 ? kh + sh : 2;
}

/* bytes of one row (N x C x W elements) of a tensor: its bytes over its height; whole tensors below rank 4 */
static double row_bytes(const struct pr_tensor *T)
{
    const struct ir_value *v = T->v;
    if (v->rank == 4 && v->dims[2].val > 0) return T->bytes / (double)v->dims[2].val;
    return T->bytes;
}

/* Assigns L->group for every layer (greedy, in execution order); layer l reads reads[read_at[l]] ..
 * reads[read_at[l + 1]] */
static void make_groups(struct nnperf_prediction *p, const int *read_at, const int *all_reads)
{
    double sram = p->hw->sram_bytes, ws = 0, delay = 0; /* delay: rows consumed since the group began */
    int group = -1, open = 0, first = 0;
    for (int l = 0; l < p->n_layers; l++) {
        struct pr_layer *L = &p->layers[l];
        if (!streamable(p, L)) {
            L->group = ++group;
            open = 0;
            continue;
        }
        double rows = window_rows(L), need = L->w_bytes;
        int nr = read_at[l + 1] - read_at[l];
        const int *reads = all_reads + read_at[l];
        for (int j = 0; j < nr; j++) {
            const struct pr_tensor *T = &p->tensors[root(p, reads[j])];
            double r = rows;
            /* a tensor made earlier in this group and read here: a shortcut keeps the rows consumed since */
            if (open && T->producer >= first && T->producer < l - 1) r += delay;
            need += r * row_bytes(T);
        }
        if (!open || ws + need > sram) {
            L->group = ++group;
            open = 1;
            first = l;
            ws = need;
            delay = rows - 1;
        } else {
            L->group = group;
            ws += need;
            delay += rows - 1;
        }
    }
}

/* a tensor all of whose readers are in its producer's depth-first group (tiled) */
static int inside_group(const struct nnperf_prediction *p, const struct pr_tensor *T, const int *last_group)
{
    return T->producer >= 0 && !(T->v->flags & IR_V_OUTPUT) && p->layers[T->producer].group >= 0 &&
           last_group[T - p->tensors] == p->layers[T->producer].group;
}

/* whether v is a KV cache tensor: a graph input that a graph output extends along one axis (a past), or such an
 * output (a present) */
static int is_kv(const struct ir_graph *g, const struct ir_value *v)
{
    int in = (v->flags & IR_V_INPUT) != 0, out = (v->flags & IR_V_OUTPUT) != 0;
    if (!(in ^ out) || v->rank < 1 || (v->flags & IR_V_INIT)) return 0;
    struct ir_value *const *other = in ? g->outputs : g->inputs;
    int n = in ? g->n_outputs : g->n_inputs;
    for (int i = 0; i < n; i++) {
        const struct ir_value *o = other[i];
        if (o && !(o->flags & IR_V_INIT) && (in ? pr_extends(v, o) : pr_extends(o, v))) return 1;
    }
    return 0;
}

/* ---- whole tensors in SRAM or DDR ("planned"; "tiled" adds depth-first groups) ---- */

/* What a whole-tensor plan's tensors are, whatever the batch: the tensors (graph inputs, then each layer's outputs:
 * first_out[l] .. first_out[l + 1]) with their storage, producer, last use, element type and unit_bytes, and the
 * tensors each layer reads (reads[read_at[l]] .. reads[read_at[l + 1]]). Built once per prediction, or once for
 * all the predictions derived from one (nnperf_predict_batch), in that one's arena. */
struct pr_plan_shape {
    struct pr_tensor *tensors;
    int nt;
    int *first_out;
    int *read_at, *reads;
};

/* A whole-tensor plan in the making: the shape, each tensor's readers' group (last_group, tiled: -2 mixed) and the
 * SRAM (s). */
struct whole {
    struct nnperf_prediction *p;
    const struct ir_graph *g;
    int tiled, nt;
    const struct pr_plan_shape *sh;
    struct plan s;
    int *last_group;
};

/* the tensors layer l reads, *n of them */
static const int *reads_of(const struct whole *w, int l, int *n)
{
    *n = w->sh->read_at[l + 1] - w->sh->read_at[l];
    return w->sh->reads + w->sh->read_at[l];
}

/* tensors: graph inputs, then every layer output that leaves its layer, in layer order; f: their finder (its
 * ptrmap made here: 0 when out of memory; pm_free it either way) */
static int collect_tensors(const struct nnperf_prediction *p, struct pr_plan_shape *sh, struct tfind *f)
{
    const struct ir_graph *g = p->g;
    int nt = 0, hashed = 0;
    *f = (struct tfind){sh->tensors, sh->first_out, {0}, p->layer_of != NULL};
    for (int i = 0; i < g->n_inputs; i++) {
        const struct ir_value *v = g->inputs[i];
        if (v->flags & IR_V_INIT) continue;
        if (v->producer) f->by_layer = 0;
        sh->tensors[nt] = (struct pr_tensor){v, nt, -1, -1, -1, 0, 0, 0, 0, 0};
        nt++;
    }
    hashed = nt;
    for (int l = 0; l < p->n_layers; l++) {
        const struct pr_layer *L = &p->layers[l];
        const struct ir_value *out = pr_layer_out(L);
        sh->first_out[l] = nt;
        for (int i = 0; i < L->n_nodes; i++) {
            const struct ir_node *nd = L->nodes[i];
            int placed = nd->index >= 0 && nd->index < g->n_nodes && g->nodes[nd->index] == nd &&
                         f->by_layer && p->layer_of[nd->index] == l;
            for (int k = 0; k < nd->n_out; k++) {
                const struct ir_value *v = nd->out[k];
                if (!v || (!v->n_consumers && !(v->flags & IR_V_OUTPUT))) continue;
                if (!placed || v->producer != nd) f->by_layer = 0;
                sh->tensors[nt] = (struct pr_tensor){v, nt, l, -1, -1, 0, 0, v == out, 0, 0};
                nt++;
            }
        }
        if (nt - sh->first_out[l] > PR_FIND_SCAN) hashed += nt - sh->first_out[l];
    }
    sh->first_out[p->n_layers] = nt;
    sh->nt = nt;
    if (!f->by_layer) hashed = nt;
    if (!pm_init(&f->m, (size_t)hashed)) return 0;
    for (int t = 0; t < nt; t++) {
        int l = sh->tensors[t].producer;
        if (f->by_layer && l >= 0 && sh->first_out[l + 1] - sh->first_out[l] <= PR_FIND_SCAN) continue;
        int *at = pm_put(&f->m, sh->tensors[t].v);
        if (!at) return 0;
        if (*at < 0) *at = t; /* the first tensor of a value is the one found */
    }
    return 1;
}

static int shape_root(const struct pr_plan_shape *sh, int t)
{
    while (sh->tensors[t].storage != t) t = sh->tensors[t].storage;
    return t;
}

/* element types, unit bytes, views (a view layer's outputs share its input's storage: root) and last uses */
static void shape_tensors(const struct nnperf_prediction *p, struct pr_plan_shape *sh)
{
    int nt = sh->nt;
    /* a graph input is stored at the type of its first reader */
    for (int l = p->n_layers - 1; l >= 0; l--)
        for (int j = sh->read_at[l]; j < sh->read_at[l + 1]; j++)
            if (sh->tensors[sh->reads[j]].producer < 0)
                sh->tensors[sh->reads[j]].dtype = (signed char)p->layers[l].dtype;
    for (int t = 0; t < nt; t++) {
        struct pr_tensor *T = &sh->tensors[t];
        if (T->producer >= 0) T->dtype = (signed char)p->layers[T->producer].dtype;
        double teb = p->kv_elem > 0 && is_kv(p->g, T->v) ? p->kv_elem : tensor_elem(p, T);
        int64_t n;
        T->unit_bytes = ir_numel(T->v, &n) ? (double)n * teb : 0;
        if (T->v->flags & IR_V_OUTPUT) T->last_use = p->n_layers;
    }
    for (int l = 0; l < p->n_layers; l++) {
        const int *reads = sh->reads + sh->read_at[l];
        int nr = sh->read_at[l + 1] - sh->read_at[l];
        for (int j = 0; j < nr; j++)
            if (sh->tensors[reads[j]].last_use < l) sh->tensors[reads[j]].last_use = l;
        if (is_view_layer(p, &p->layers[l]) && nr == 1)
            for (int t = sh->first_out[l]; t < sh->first_out[l + 1]; t++)
                sh->tensors[t].storage = shape_root(sh, reads[0]);
    }
    /* a root lives until the last use of any alias */
    for (int t = 0; t < nt; t++) {
        int r = shape_root(sh, t);
        if (sh->tensors[t].last_use > sh->tensors[r].last_use)
            sh->tensors[r].last_use = sh->tensors[t].last_use;
    }
}

/* the plan's shape, built into arena ar */
static struct pr_plan_shape *build_shape(struct nnperf_prediction *p, struct arena *ar)
{
    int cap = p->g->n_inputs;
    for (int l = 0; l < p->n_layers; l++)
        for (int i = 0; i < p->layers[l].n_nodes; i++) cap += p->layers[l].nodes[i]->n_out;
    size_t ncap = (size_t)(cap ? cap : 1);
    struct pr_plan_shape *sh = ar_alloc(ar, sizeof *sh);
    struct tfind f = {NULL, NULL, {0}, 0};
    struct read_set rs = {malloc(ncap * sizeof(int)), calloc(ncap, sizeof(int)), (int)ncap, 0};
    if (sh) {
        sh->tensors = ar_calloc(ar, ncap, sizeof *sh->tensors);
        sh->first_out = ar_calloc(ar, (size_t)p->n_layers + 1, sizeof *sh->first_out);
        sh->read_at = ar_calloc(ar, (size_t)p->n_layers + 1, sizeof *sh->read_at);
    }
    int ok =
        sh && rs.out && rs.seen && sh->tensors && sh->first_out && sh->read_at && collect_tensors(p, sh, &f);
    if (ok) {
        p->tensors = sh->tensors; /* layer_reads reads the producers */
        for (int l = 0; l < p->n_layers; l++)
            sh->read_at[l + 1] = sh->read_at[l] + layer_reads(p, l, &f, &rs);
        sh->reads =
            ar_calloc(ar, (size_t)(sh->read_at[p->n_layers] ? sh->read_at[p->n_layers] : 1), sizeof(int));
        ok = sh->reads != NULL;
        for (int l = 0; ok && l < p->n_layers; l++) {
            int nr = layer_reads(p, l, &f, &rs);
            memcpy(sh->reads + sh->read_at[l], rs.out, (size_t)nr * sizeof(int));
        }
        if (ok) shape_tensors(p, sh);
    }
    pm_free(&f.m), free(rs.out), free(rs.seen);
    return ok ? sh : NULL;
}

static enum nnperf_status whole_alloc(struct whole *w)
{
    struct nnperf_prediction *p = w->p;
    /* a prediction derived from another for another batch shares the other's shape (made on first use) */
    struct nnperf_prediction *b = p->base;
    const struct pr_plan_shape *sh = b && b->plan_shape ? b->plan_shape : build_shape(p, b ? &b->ar : &p->ar);
    if (!sh) return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    if (b)
        b->plan_shape = (struct pr_plan_shape *)sh;
    else
        p->plan_shape = (struct pr_plan_shape *)sh;
    w->sh = sh;
    w->nt = sh->nt;
    size_t ncap = (size_t)(sh->nt ? sh->nt : 1);
    p->tensors = b ? ar_calloc(&p->ar, ncap, sizeof *p->tensors) : sh->tensors;
    if (b && p->tensors) memcpy(p->tensors, sh->tensors, (size_t)sh->nt * sizeof *p->tensors);
    w->s = (struct plan){p,
                         calloc(ncap, 1),
                         calloc(ncap, 1),
                         malloc(ncap * sizeof(int)),
                         0,
                         malloc(((size_t)p->n_layers + 1) * sizeof(int)),
                         malloc(ncap * sizeof(int)),
                         0};
    w->last_group = malloc(ncap * sizeof *w->last_group);
    if (!p->tensors || !w->s.resident || !w->s.in_ddr || !w->s.heap || !w->s.bucket_head ||
        !w->s.bucket_next || !w->last_group)
        return diag_set(&p->d, NNPERF_E_NOMEM, "out of memory");
    return NNPERF_OK;
}

static void whole_free(struct whole *w)
{
    free(w->s.resident), free(w->s.in_ddr), free(w->s.heap), free(w->s.bucket_head);
    free(w->s.bucket_next), free(w->last_group);
}

/* the batch's bytes of every tensor (unit bytes x graph executions per run, the alignment of its producer, a
 * what-if's channel change); nothing placed yet */
static void size_tensors(struct whole *w)
{
    struct nnperf_prediction *p = w->p;
    p->n_tensors = w->nt;
    for (int t = 0; t < w->nt; t++) {
        struct pr_tensor *T = &p->tensors[t];
        T->bytes = T->unit_bytes * p->runs;
        if (T->layer_out) T->bytes *= pr_align_factor(&p->layers[T->producer]);
        const struct pr_value_in *vi = pr_value(p, T->v); /* a what-if's channel change */
        if (vi) T->bytes *= vi->bytes_scale;
        T->in_sram = T->spilled = 0;
    }
}

/* tiled: the depth-first groups and the group of each tensor's readers (-2 mixed); planned: no groups */
static void group_tensors(struct whole *w)
{
    struct nnperf_prediction *p = w->p;
    for (int l = 0; l < p->n_layers; l++) p->layers[l].group = w->tiled ? 0 : -1;
    for (int t = 0; t < w->nt; t++) w->last_group[t] = -1;
    if (!w->tiled) return;
    make_groups(p, w->sh->read_at, w->sh->reads);
    for (int l = 0; l < p->n_layers; l++) {
        int nr;
        const int *reads = reads_of(w, l, &nr);
        for (int j = 0; j < nr; j++) {
            int r = root(p, reads[j]);
            int gl = p->layers[l].group;
            w->last_group[r] = w->last_group[r] == -1 || w->last_group[r] == gl ? gl : -2;
        }
    }
}

/* How many times layer L reads the KV cache input v from DDR: query heads / KV heads when the platform's decode
 * attention reads a KV head once per query head sharing it (compute.kv_per_query_head) and L is a decode step's
 * GroupQueryAttention (one new token) reading v as its past key or value; else once. */
static double kv_reads(const struct nnperf_prediction *p, const struct pr_layer *L, const struct ir_value *v)
{
    if (!p->hw->kv_per_query_head) return 1;
    for (int i = 0; i < L->n_nodes; i++) {
        const struct ir_node *nd = L->nodes[i];
        if (nd->op != OPID_MS_GROUP_QUERY_ATTENTION || nd->n_in < 5 || (nd->in[3] != v && nd->in[4] != v) ||
            !nd->in[0] || nd->in[0]->rank != 3 || nd->in[0]->dims[1].val != 1)
            continue;
        int64_t heads = 0, kv_heads = 0;
        for (int a = 0; a < nd->n_attr; a++) {
            if (!strcmp(nd->attrs[a].name, "num_heads")) heads = nd->attrs[a].i;
            if (!strcmp(nd->attrs[a].name, "kv_num_heads")) kv_heads = nd->attrs[a].i;
        }
        if (heads > kv_heads && kv_heads > 0) return (double)heads / (double)kv_heads;
    }
    return 1;
}

/* where layer l reads each tensor from: the fallback unit through DDR, SRAM, a spill, the host link or DDR */
static void place_reads(struct whole *w, int l)
{
    struct nnperf_prediction *p = w->p;
    struct pr_layer *L = &p->layers[l];
    int nr;
    const int *reads = reads_of(w, l, &nr);
    if (is_view_layer(p, L)) return;
    for (int j = 0; j < nr; j++) {
        int r = root(p, reads[j]);
        struct pr_tensor *T = &p->tensors[r];
        if (skips_read(p, L, T->v)) continue;
        if (L->fallback) {
            /* the CPU reads it from DDR; if it was on chip, the accelerator writes it out first */
            if (!w->s.in_ddr[r]) {
                L->store_bytes += T->bytes;
                w->s.in_ddr[r] = 1;
            }
            PR_LX_ADD(p, L, transfer_bytes, T->bytes);
            PR_LX_ADD(p, L, quant_elems, T->bytes / tensor_elem(p, T));
        } else if (w->s.resident[r]) {
            L->sram_bytes += T->bytes; /* on chip: whole, or row by row inside a depth-first group */
        } else if (T->spilled) {
            PR_LX_ADD(p, L, spill_load_bytes, T->bytes);
        } else if (T->producer < 0 && p->hw->link_bw > 0) {
            PR_LX_ADD(p, L, link_bytes, T->bytes); /* a graph input arrives over the host link */
        } else {
            L->load_bytes += T->bytes * kv_reads(p, L, T->v);
        }
    }
}

/* where layer l's output tensor t goes: the fallback unit's DDR, a graph output's store, SRAM (spilling the
 * residents whose last use is farther, Belady) or DDR */
static void place_output(struct whole *w, int l, int t)
{
    struct nnperf_prediction *p = w->p;
    struct pr_layer *L = &p->layers[l];
    struct plan *s = &w->s;
    struct pr_tensor *T = &p->tensors[t];
    double sram = p->hw->sram_bytes;
    if (root(p, t) != t) return;
    if (L->fallback) {
        PR_LX_ADD(p, L, transfer_bytes, T->bytes);
        PR_LX_ADD(p, L, quant_elems, T->bytes / tensor_elem(p, T));
        s->in_ddr[t] = 1;
        return;
    }
    L->sram_bytes += T->bytes;
    if (T->v->flags & IR_V_OUTPUT) {
        const struct ir_value *past = appended_input(L, T->v);
        int64_t n;
        double peb = p->kv_elem > 0 && past && is_kv(w->g, past) ? p->kv_elem : tensor_elem(p, T);
        double old = past && ir_numel(past, &n) ? (double)n * peb * p->runs : 0;
        double out = T->bytes - (old < T->bytes ? old : 0);
        if (p->hw->link_bw > 0)
            PR_LX_ADD(p, L, link_bytes, out); /* a graph output leaves over the host link */
        else
            L->store_bytes += out;
        s->in_ddr[t] = 1;
        if (past) return; /* a KV cache lives in DDR: the attention that reads it loads it whole */
    }
    if (!T->v->n_consumers) return; /* a graph output nothing else reads */
    if (T->last_use < 0) return;    /* read only inside its fused layer: never leaves the array */
    const struct pr_value_in *vi = pr_value(p, T->v);
    if (vi && vi->pinned) {
        /* a what-if: kept on chip beside the plan, as if its shortcut were short enough (its bytes do not count
         * against the SRAM: the upper bound of shortening it) */
        make_resident(s, t, l, PR_PINNED);
        return;
    }
    if (w->tiled && inside_group(p, T, w->last_group)) {
        /* depth-first: only its line buffer is on chip at a time; it never leaves the chip */
        make_resident(s, t, l, PR_LINES);
        return;
    }
    if (T->bytes > sram) {
        if (!s->in_ddr[t]) L->store_bytes += T->bytes;
        s->in_ddr[t] = 1;
        return;
    }
    /* make room: spill residents whose last use is farther than this tensor's */
    while (s->used + T->bytes > sram) {
        int far = heap_top(s);
        if (far < 0 || p->tensors[far].last_use <= T->last_use) break;
        heap_pop(s);
        s->resident[far] = PR_OFF_CHIP;
        s->used -= p->tensors[far].bytes;
        if (!s->in_ddr[far]) {
            PR_LX_ADD(p, L, spill_store_bytes, p->tensors[far].bytes);
            s->in_ddr[far] = 1;
        }
        p->tensors[far].spilled = 1;
        p->spilled_tensors++;
    }
    if (s->used + T->bytes <= sram) {
        make_resident(s, t, l, PR_WHOLE);
    } else if (!s->in_ddr[t]) {
        L->store_bytes += T->bytes;
        s->in_ddr[t] = 1;
    }
}

/* after layer l: free the residents whose last use it was */
static void free_dead(struct whole *w, int l)
{
    struct plan *s = &w->s;
    for (int r = s->bucket_head[l]; r >= 0; r = s->bucket_next[r])
        if (s->resident[r]) {
            s->used -= foot(s, r);
            s->resident[r] = PR_OFF_CHIP;
        }
    if (s->used < 0) s->used = 0;
}

static enum nnperf_status plan_whole(struct nnperf_prediction *p, int tiled)
{
    /* frame by frame: each frame reads the weights again; each accelerator call too */
    weight_bytes(p, p->hw->frame_serial ? p->runs : pr_calls(p));
    struct whole w = {p, p->g, tiled, 0, NULL, {0}, NULL};
    enum nnperf_status st = whole_alloc(&w);
    if (st == NNPERF_OK) {
        size_tensors(&w);
        group_tensors(&w);
        /* walk the layers with the SRAM as a set of resident roots; graph inputs arrive in DDR */
        for (int l = 0; l <= p->n_layers; l++) w.s.bucket_head[l] = -1;
        for (int t = 0; t < w.nt; t++)
            if (p->tensors[t].producer < 0) w.s.in_ddr[t] = 1;
        for (int l = 0; l < p->n_layers; l++) {
            place_reads(&w, l);
            for (int t = w.sh->first_out[l]; t < w.sh->first_out[l + 1]; t++) place_output(&w, l, t);
            free_dead(&w, l);
        }
        for (int t = 0; t < w.nt; t++)
            if (p->tensors[t].spilled) p->tensors[t].in_sram = 0;
    }
    whole_free(&w);
    return st;
}

static enum nnperf_status plan_planned(struct nnperf_prediction *p)
{
    return plan_whole(p, 0);
}

static enum nnperf_status plan_tiled(struct nnperf_prediction *p)
{
    return plan_whole(p, 1);
}

const struct pr_memory_model pr_memory_models[] = {
#define MEMORY_MODEL(id, name, plan, schedule) [NNPERF_MEMORY_##id] = {name, plan, schedule},
#include "../hw/memory_models.def"
#undef MEMORY_MODEL
};
const int pr_n_memory_models = (int)(sizeof pr_memory_models / sizeof pr_memory_models[0]);

enum nnperf_status pr_memory(struct nnperf_prediction *p)
{
    return pr_memory_models[p->memory_model].plan(p);
}
