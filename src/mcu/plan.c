/* plan.c - plans a layer program on a MAX78000 / MAX78002: pass-through layers with write_gap for residual
 * operands, processor masks, kernel-memory placement, bias placement, data-memory offsets from tensor lifetimes,
 * the cycle estimate, and the public nnperf_map() entry that runs the validator (validate.c) on its own output and
 * turns every problem into a message with what would make the model fit.
 *
 * Rules (../shared/reference/max7800x.md): C <= 64 channels use C processors; more run in ceil(C/64) passes of
 * C/passes processors rounded up to a multiple of 4. HWC data: 4 channels per 32-bit word, output size per
 * instance H x W x passes x 4 bytes. Kernels: one 72-bit word holds one 3x3 8-bit kernel, fewer bits pack more
 * (izer/kernels.py: words = ceil((kernels x kernel elements x bits + padding) / 72)); a layer's kernels start at
 * the same word offset on all its input processors (first fit, offsets rounded to 4 words like izer). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcu.h"

int mcu_procs_per_pass(int channels, int *passes)
{
    if (channels <= 0) {
        if (passes) *passes = 1;
        return 0;
    }
    int np = (channels + 63) / 64;
    if (passes) *passes = np;
    if (np == 1) return channels;
    int per = (channels + np - 1) / np;
    return (per + 3) / 4 * 4;
}

int mcu_kern_len(const struct mcu_layer *l, int weight_bits)
{
    if (l->op == MCU_OP_NONE || l->weights <= 0) return 0;
    int64_t kc, ksize;
    if (l->op == MCU_OP_LINEAR) {
        /* flattened: every input processor holds out x (H x W) 1x1 weights (izer/kernels.py, flatten) */
        kc = (int64_t)l->out_ch * (l->flatten ? (int64_t)l->pooled_h * l->pooled_w : 1) *
             (l->flatten ? 1 : l->passes);
        ksize = 1;
    } else {
        int dw = l->groups > 1;
        kc = dw ? l->passes : (int64_t)l->out_ch * l->passes;
        ksize = (int64_t)l->kh * l->kw; /* Conv1d: kw = 1, the taps pack like 1x1 kernels do */
    }
    int64_t q = 8 / weight_bits; /* kernels per byte lane */
    int64_t res = (kc % q) * ksize * (q - 1);
    int64_t words = (kc * ksize * weight_bits + res + 71) / 72;
    return words > 1000000 ? 1000000 : (int)words;
}

int64_t mcu_data_bytes(const struct mcu_layer *l, int channels, int h, int w, int wide)
{
    (void)l;
    int passes;
    mcu_procs_per_pass(channels, &passes);
    int64_t b = (int64_t)h * w * passes * 4;
    return wide ? b * 4 : b;
}

/* ---- pass-through layers for element-wise operands ---- */

static int consumers_of(const struct mcu_plan *p, int q, int *only)
{
    int n = 0;
    for (int i = 0; i < p->n_layers; i++)
        for (int k = 0; k < p->layers[i].n_in; k++)
            if (p->layers[i].in_seq[k] == q) n++, *only = i;
    return n;
}

/* An element-wise layer reads its operands interleaved (write_gap): an operand that another layer also reads, or
 * the model input, is first copied by a pass-through layer (ai8x-synthesis: "passthrough" + write_gap). */
static enum nnperf_status insert_passthroughs(struct mcu_plan *p, struct diag *d)
{
    int n = p->n_layers;
    int *need = calloc((size_t)n * MCU_MAX_OPERANDS, sizeof *need);
    int *map = calloc((size_t)n + 1, sizeof *map);
    struct mcu_layer *out = ar_calloc(&p->ar, (size_t)p->cap_layers, sizeof *out);
    if (!need || !map || !out) {
        free(need), free(map);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    int copies = 0;
    for (int e = 0; e < n; e++) {
        const struct mcu_layer *l = &p->layers[e];
        if (l->elt == MCU_ELT_NONE || l->n_in < 2) continue;
        for (int k = 0; k < l->n_in; k++) {
            int q = l->in_seq[k], only = -1;
            int dup = 0;
            for (int j = 0; j < l->n_in; j++) dup += l->in_seq[j] == q;
            if (q < 0 || dup > 1 || consumers_of(p, q, &only) != 1 || p->layers[q].is_output) {
                need[e * MCU_MAX_OPERANDS + k] = 1;
                copies++;
            }
        }
    }
    if (n + copies > p->cap_layers) {
        free(need), free(map);
        return diag_set(d, NNPERF_E_LIMIT, "more than %d accelerator layers", p->cap_layers);
    }
    /* order: copies of the input first, then each layer followed by the copies of its output */
    int m = 0;
    int *copy_idx = calloc((size_t)n * MCU_MAX_OPERANDS, sizeof *copy_idx);
    if (!copy_idx) {
        free(need), free(map);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    for (int src = -1; src < n; src++) {
        if (src >= 0) {
            map[src] = m;
            out[m++] = p->layers[src];
        }
        for (int e = 0; e < n; e++)
            for (int k = 0; k < p->layers[e].n_in; k++) {
                if (!need[e * MCU_MAX_OPERANDS + k] || p->layers[e].in_seq[k] != src) continue;
                struct mcu_layer *c = &out[m];
                const struct mcu_layer *el = &p->layers[e];
                memset(c, 0, sizeof *c);
                c->name = ar_printf(&p->ar, "passthrough of %s for '%s'", src < 0 ? "the input" : "a layer",
                                    el->name);
                c->nodes = "";
                c->op = MCU_OP_NONE;
                c->passthrough = 1;
                c->kh = c->kw = c->stride = c->groups = c->dilation = 1;
                c->pool_first = 1;
                c->n_in = 1;
                c->in_seq[0] = src; /* remapped below */
                c->in_ch = c->out_ch = el->in_ch;
                c->in_h = c->pooled_h = c->out_h = el->in_h;
                c->in_w = c->pooled_w = c->out_w = el->in_w;
                c->bias_group = -1;
                c->output_width = 8;
                mcu_procs_per_pass(c->in_ch, &c->passes);
                copy_idx[e * MCU_MAX_OPERANDS + k] = m++;
                p->passthroughs++;
            }
    }
    for (int i = 0; i < m; i++) {
        struct mcu_layer *l = &out[i];
        for (int k = 0; k < l->n_in; k++)
            if (l->in_seq[k] >= 0) l->in_seq[k] = map[l->in_seq[k]];
    }
    for (int e = 0; e < n; e++)
        for (int k = 0; k < p->layers[e].n_in; k++)
            if (need[e * MCU_MAX_OPERANDS + k]) out[map[e]].in_seq[k] = copy_idx[e * MCU_MAX_OPERANDS + k];
    p->layers = out;
    p->n_layers = m;
    free(need), free(map), free(copy_idx);
    return NNPERF_OK;
}

/* ---- processors ---- */

static uint64_t window(int start, int n)
{
    if (n <= 0) return 0;
    uint64_t m = n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
    return m << start;
}

static int max_next(const int *next, uint64_t mask)
{
    int o = 0;
    for (int q = 0; q < 64; q++)
        if ((mask >> q & 1) && next[q] > o) o = next[q];
    return (o + 3) / 4 * 4;
}

void mcu_place_kernels(struct mcu_plan *p)
{
    int next[MCU_MAX_PROC] = {0};
    for (int i = 0; i < p->n_layers; i++) {
        struct mcu_layer *l = &p->layers[i];
        l->kern_len = mcu_kern_len(l, p->weight_bits);
        l->kern_offset = 0;
        if (!l->kern_len) continue;
        l->kern_offset = max_next(next, l->in_mask);
        for (int q = 0; q < 64; q++)
            if (l->in_mask >> q & 1) next[q] = l->kern_offset + l->kern_len;
    }
}

/* location (processors) of each layer's output; index q + 1 so the model input (-1) is slot 0 */
struct locs {
    uint64_t *loc;
};

static void set_loc(struct mcu_plan *p, struct locs *L, int q, uint64_t mask)
{
    if (L->loc[q + 1]) return;
    L->loc[q + 1] = mask;
    /* an operand of an element-wise layer: its co-operands live on the same processors */
    int only = -1;
    if (q >= 0 && consumers_of(p, q, &only) == 1 && p->layers[only].elt != MCU_ELT_NONE)
        for (int k = 0; k < p->layers[only].n_in; k++) set_loc(p, L, p->layers[only].in_seq[k], mask);
}

static void choose_processors(struct mcu_plan *p, uint64_t *loc)
{
    struct locs L = {loc};
    int next[MCU_MAX_PROC] = {0};
    for (int i = 0; i < p->n_layers; i++) {
        struct mcu_layer *l = &p->layers[i];
        int concat = l->n_in > 1 && l->elt == MCU_ELT_NONE;
        int n = l->chw ? l->in_ch : mcu_procs_per_pass(l->in_ch, NULL);
        if (n > 64) n = 64;
        uint64_t decided = concat ? 0 : loc[l->in_seq[0] + 1];
        int klen = mcu_kern_len(l, p->weight_bits);
        if (decided) {
            l->in_mask = decided;
        } else {
            /* the window whose kernels can start lowest; ties: the lowest processors */
            int best = -1, best_off = 0;
            for (int s = 0; s + n <= 64; s += 4) {
                uint64_t w = window(s, n);
                int off = klen ? max_next(next, w) : 0;
                if (best < 0 || off < best_off) best = s, best_off = off;
                if (!klen) break;
            }
            if (best < 0) best = 0;
            l->in_mask = window(best, n);
            if (concat) {
                int at = best;
                for (int k = 0; k < l->n_in; k++) {
                    int q = l->in_seq[k];
                    int c = q >= 0 ? p->layers[q].out_ch : l->in_ch;
                    set_loc(p, &L, q, window(at, c));
                    at += c;
                }
            } else
                for (int k = 0; k < l->n_in; k++) set_loc(p, &L, l->in_seq[k], l->in_mask);
        }
        if (klen) {
            int off = max_next(next, l->in_mask);
            for (int q = 0; q < 64; q++)
                if (l->in_mask >> q & 1) next[q] = off + klen;
        }
        if (l->passthrough) set_loc(p, &L, i, l->in_mask);
    }
    for (int i = 0; i < p->n_layers; i++) {
        struct mcu_layer *l = &p->layers[i];
        l->out_mask = loc[i + 1] ? loc[i + 1] : window(0, mcu_procs_per_pass(l->out_ch, NULL));
    }
}

/* ---- bias ---- */

static void place_bias(struct mcu_plan *p)
{
    int used[64] = {0};
    int groups = p->dev->bias_groups > 64 ? 64 : p->dev->bias_groups;
    for (int i = 0; i < p->n_layers; i++) {
        struct mcu_layer *l = &p->layers[i];
        l->bias_group = -1;
        l->bias_offset = 0;
        if (l->op == MCU_OP_NONE || !l->bias) continue;
        int need = l->out_ch, g = -1;
        for (int k = 0; k < groups && g < 0; k++)
            if (used[k] + need <= p->dev->bias_group_bytes) g = k;
        if (g < 0) { /* does not fit: the emptiest group (the validator reports it) */
            g = 0;
            for (int k = 1; k < groups; k++)
                if (used[k] < used[g]) g = k;
        }
        l->bias_group = g;
        l->bias_offset = used[g];
        used[g] += need;
    }
}

/* ---- data memory ---- */

struct block {
    int start, end; /* live from layer start to layer end (inclusive) */
    unsigned inst;  /* data-memory instances (bit i = instance i) */
    int64_t size;   /* bytes per instance */
    int64_t offset;
};

static int64_t out_size(const struct mcu_plan *p, const struct mcu_layer *l)
{
    (void)p;
    return mcu_data_bytes(l, l->out_ch, l->out_h, l->out_w, l->output_width == 32);
}

static int64_t input_size(const struct mcu_layer *first)
{
    if (first->chw) return ((int64_t)first->in_h * first->in_w + 3) / 4 * 4 * first->in_ch;
    return mcu_data_bytes(first, first->in_ch, first->in_h, first->in_w, 0);
}

static void place_block(struct block *b, int nb, int me)
{
    int64_t cand[1 + 2 * MCU_MAX_LAYERS];
    int nc = 0;
    cand[nc++] = 0;
    for (int j = 0; j < nb; j++)
        if (j != me && b[j].offset >= 0 && nc < (int)(sizeof cand / sizeof cand[0]))
            cand[nc++] = (b[j].offset + b[j].size + 3) / 4 * 4;
    int64_t best = -1;
    for (int c = 0; c < nc; c++) {
        int64_t o = cand[c];
        if (best >= 0 && o >= best) continue;
        int ok = 1;
        for (int j = 0; j < nb && ok; j++) {
            if (j == me || b[j].offset < 0) continue;
            if (b[j].start > b[me].end || b[me].start > b[j].end || !(b[j].inst & b[me].inst)) continue;
            if (o < b[j].offset + b[j].size && b[j].offset < o + b[me].size) ok = 0;
        }
        if (ok) best = o;
    }
    b[me].offset = best < 0 ? 0 : best;
}

static enum nnperf_status place_data(struct mcu_plan *p, struct diag *d)
{
    int n = p->n_layers;
    /* block index per layer output (group blocks shared by element-wise / concatenation operands) and slot */
    int *blk = malloc(((size_t)n + 1) * sizeof *blk);
    int *slot = calloc((size_t)n + 1, sizeof *slot);
    struct block *b = calloc((size_t)n + 2, sizeof *b);
    if (!blk || !slot || !b) {
        free(blk), free(slot), free(b);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    int nb = 0;
    for (int i = 0; i <= n; i++) blk[i] = -1;
    /* the model input */
    int first = -1;
    for (int i = 0; i < n && first < 0; i++)
        for (int k = 0; k < p->layers[i].n_in; k++)
            if (p->layers[i].in_seq[k] == -1) first = i;
    if (first >= 0) {
        const struct mcu_layer *f = &p->layers[first];
        b[nb] = (struct block){0, mcu_last_reader(p, -1), mcu_instances(f->in_mask), input_size(f), -1};
        blk[0] = nb++;
    }
    /* groups: operands of element-wise and concatenation layers */
    for (int e = 0; e < n; e++) {
        struct mcu_layer *l = &p->layers[e];
        if (l->n_in < 2) continue;
        int start = e;
        unsigned inst = 0;
        int64_t sz = 0;
        for (int k = 0; k < l->n_in; k++) {
            int q = l->in_seq[k];
            if (q < 0 || blk[q + 1] >= 0) continue;
            if (q < start) start = q;
            inst |= mcu_instances(p->layers[q].out_mask);
            int64_t s = out_size(p, &p->layers[q]);
            if (s > sz) sz = s;
        }
        if (!inst) continue;
        b[nb] = (struct block){start, e, inst, l->elt != MCU_ELT_NONE ? sz * l->n_in : sz, -1};
        for (int k = 0; k < l->n_in; k++) {
            int q = l->in_seq[k];
            if (q < 0 || blk[q + 1] >= 0) continue;
            blk[q + 1] = nb;
            slot[q + 1] = l->elt != MCU_ELT_NONE ? k : 0;
            p->layers[q].write_gap = l->elt != MCU_ELT_NONE ? l->n_in - 1 : 0;
        }
        nb++;
    }
    for (int i = 0; i < n; i++) {
        if (blk[i + 1] >= 0) continue;
        struct mcu_layer *l = &p->layers[i];
        b[nb] = (struct block){i, mcu_last_reader(p, i), mcu_instances(l->out_mask), out_size(p, l), -1};
        blk[i + 1] = nb++;
    }
    /* first fit in order of birth, bigger first */
    int *order = malloc((size_t)nb * sizeof *order);
    if (!order) {
        free(blk), free(slot), free(b);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    for (int i = 0; i < nb; i++) order[i] = i;
    for (int i = 1; i < nb; i++)
        for (int j = i; j > 0; j--) {
            struct block *x = &b[order[j - 1]], *y = &b[order[j]];
            if (x->start > y->start || (x->start == y->start && x->size < y->size)) {
                int t = order[j - 1];
                order[j - 1] = order[j];
                order[j] = t;
            } else
                break;
        }
    for (int i = 0; i < nb; i++) place_block(b, nb, order[i]);
    for (int i = 0; i < n; i++) {
        struct mcu_layer *l = &p->layers[i];
        const struct block *ob = &b[blk[i + 1]];
        l->out_offset = ob->offset + 4 * slot[i + 1];
        l->out_bytes = out_size(p, l);
        int q = l->in_seq[0];
        const struct block *ib = blk[q + 1] >= 0 ? &b[blk[q + 1]] : NULL;
        l->in_offset = ib ? ib->offset : 0;
        l->in_bytes = q >= 0 ? out_size(p, &p->layers[q]) : input_size(l);
    }
    for (int i = 0; i < nb; i++)
        for (int k = 0; k < 16; k++)
            if (b[i].inst >> k & 1) {
                int64_t end = b[i].offset + b[i].size;
                if (end > p->data_peak[k]) p->data_peak[k] = end;
            }
    free(blk), free(slot), free(b), free(order);
    return NNPERF_OK;
}

/* ---- cycles ----
 * After izer/latency.py (ai8x-synthesis, MAX78000): a frame equation over input rows, padded columns, pooling,
 * passes and element-wise operands, with one read, one TRAM write and one write state per step. Not modelled:
 * streaming, the MAX78002 pre-read term of layers that pool after the element-wise operation, loading the input
 * and reading the output (docs/map.md). */
uint64_t mcu_layer_cycles(const struct mcu_layer *l)
{
    const int64_t rd = 1, tram = 1, wrt = 1;
    int64_t mp = l->passes, ne = l->n_in > 1 && l->elt != MCU_ELT_NONE ? l->n_in : 1;
    int64_t pool_area = l->pool ? (int64_t)l->pool_kh * l->pool_kw : 1;
    int64_t prow = l->pooled_h, pcol = l->pooled_w, orow, ocol = l->out_w;
    int64_t kr = l->kh, kc = l->kw, rpad = l->pad, cpad = l->kw > 1 ? l->pad : 0;
    int64_t oc = l->out_ch;
    (void)orow;
    if (l->op == MCU_OP_LINEAR) kr = kc = 1, rpad = cpad = 0, ocol = 1, oc = l->out_ch;
    if (l->op == MCU_OP_CONV1D) kc = 1, cpad = 0;
    int flatten_adj = l->flatten ? 1 : 0;
    int meq_one = oc == 1 && mp == 1;
    int64_t in_pad, in_dat, mult;
    if (l->pool_first || !l->pool) {
        in_pad = mp * ne * (rd + tram);
        in_dat = mp * ne * (pool_area * rd + tram);
        mult = 1;
    } else {
        in_pad = mp * (rd + tram);
        in_dat = mp * (ne * rd * pool_area + tram);
        mult = mp;
    }
    if (l->op == MCU_OP_NONE) {
        /* pass-through: every pooled pixel read, then written per pass */
        int64_t pass_out = (l->out_ch + l->passes - 1) / l->passes;
        return (uint64_t)(prow * pcol * (in_dat + mp * pass_out));
    }
    int64_t col = 2 * cpad * (in_pad + wrt);
    int64_t first_pad_row = col + mult * pcol * (in_pad + wrt);
    int64_t row_no_conv = col + mult * pcol * (in_dat + wrt);
    int64_t left = cpad * (in_pad + wrt);
    int64_t right = in_pad * cpad;
    int64_t head = kc - 1 - cpad;
    if (head < 0) head = 0;
    int64_t row_conv = left + mult * head * (in_dat + wrt) + mult * (ocol - cpad) * in_dat + right;
    int64_t bottom = left + mult * head * (in_pad + wrt) + mult * (ocol - cpad) * in_pad + right;
    int64_t out_dat = mp * ocol * oc + oc * meq_one;
    int64_t body = prow - (kr - 1 - rpad);
    if (body < 0) body = 0;
    int64_t hr = kr - 1 - rpad;
    if (hr < 0) hr = 0;
    int64_t total = flatten_adj + rpad * first_pad_row + hr * row_no_conv + (row_conv + out_dat) * body +
                    rpad * (bottom + out_dat);
    return total < 0 ? 0 : (uint64_t)total;
}

/* ---- messages with advice ---- */

static const char *res_name(int r)
{
    switch (r) {
    case MCU_R_OPERATOR: return "operator";
    case MCU_R_PROCESSORS: return "processors";
    case MCU_R_CHANNELS: return "channels";
    case MCU_R_DATA: return "data memory";
    case MCU_R_OVERLAP: return "data memory";
    case MCU_R_PLACEMENT: return "data placement";
    case MCU_R_KERNEL: return "kernel memory";
    case MCU_R_BIAS: return "bias memory";
    case MCU_R_LAYERS: return "layers";
    }
    return "?";
}

static void fit_word(char *buf, size_t n, int v)
{
    snprintf(buf, n, "%s", v < 0 ? "" : v ? " (it fits with that)" : " (not enough alone)");
}

static void add_problem_with_advice(struct mcu_plan *p, const struct mcu_msg *m, unsigned *advised)
{
    const struct mcu_device *dev = p->dev;
    char f4[40], f2[40], advice[400] = "";
    fit_word(f4, sizeof f4, p->would_fit_4bit);
    fit_word(f2, sizeof f2, p->would_fit_max78002);
    int is78000 = !strcmp(dev->name, "max78000");
    switch (m->res) {
    case MCU_R_KERNEL:
        snprintf(advice, sizeof advice,
                 "to fit: fewer channels in this layer (its weights grow with input x output "
                 "channels)%s%s%s%s",
                 p->weight_bits > 4 ? ", 4-bit weights (--weight-bits 4)" : "", p->weight_bits > 4 ? f4 : "",
                 is78000 ? ", or the MAX78002 (2,340 KiB of weights)" : "", is78000 ? f2 : "");
        break;
    case MCU_R_BIAS:
        snprintf(advice, sizeof advice, "to fit: fewer output channels or layers without bias%s%s",
                 is78000 ? ", or the MAX78002 (8 KiB of bias memory)" : "", is78000 ? f2 : "");
        break;
    case MCU_R_DATA:
    case MCU_R_OVERLAP:
        snprintf(
            advice, sizeof advice,
            "to fit: fewer channels or smaller feature maps (H x W x passes x 4 bytes per instance), "
            "streaming (FIFO) mode for the first layers (W x H x ceil(C/64) < 2^21, at most 8 layers)%s%s",
            is78000 ? ", or the MAX78002 (80 KiB per instance)" : "", is78000 ? f2 : "");
        break;
    case MCU_R_LAYERS:
        snprintf(
            advice, sizeof advice,
            "to fit: fewer layers (pooling, element-wise operations and activations in front of or after a "
            "convolution do not count)%s%s",
            is78000 ? ", or the MAX78002 (128 layers)" : "", is78000 ? f2 : "");
        break;
    default: break;
    }
    if (advice[0] && (*advised >> m->res & 1u)) snprintf(advice, sizeof advice, "to fit: as above");
    *advised |= 1u << m->res;
    const char *pre = m->res == MCU_R_KERNEL || m->res == MCU_R_PROCESSORS || m->res == MCU_R_CHANNELS
                          ? ""
                          : res_name(m->res);
    if (m->layer >= 0 && m->layer < p->n_layers)
        mcu_msg_add(p->problems, m->res, m->layer, "layer %d ('%s'): %s%s%s%s%s", m->layer,
                    p->layers[m->layer].name, pre, pre[0] ? ": " : "", m->text, advice[0] ? "; " : "",
                    advice);
    else
        mcu_msg_add(p->problems, m->res, m->layer, "%s%s%s%s%s", pre, pre[0] ? ": " : "", m->text,
                    advice[0] ? "; " : "", advice);
}

/* ---- the whole plan ---- */

static void plan_free(struct mcu_plan *p)
{
    if (!p) return;
    free(p->problems);
    free(p->notes);
    ar_free(&p->ar);
    free(p);
}

static enum nnperf_status plan_once(const struct ir_model *m, const struct mcu_device *dev, int bits,
                                    int advise, struct mcu_plan **out, struct diag *d)
{
    struct mcu_plan *p = calloc(1, sizeof *p);
    if (!p) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    ar_init(&p->ar, 0);
    p->problems = calloc(1, sizeof *p->problems);
    p->notes = calloc(1, sizeof *p->notes);
    struct mcu_msgs *found = calloc(1, sizeof *found);
    uint64_t *loc = NULL;
    enum nnperf_status st = NNPERF_OK;
    if (!p->problems || !p->notes || !found) {
        st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
        goto fail;
    }
    p->dev = dev;
    p->weight_bits = bits;
    p->model = m->path;
    p->would_fit_4bit = p->would_fit_max78002 = -1;
    st = mcu_build_program(p, m, d);
    if (st) goto fail;
    {
        st = insert_passthroughs(p, d);
        if (st) goto fail;
        loc = calloc((size_t)p->n_layers + 1, sizeof *loc);
        if (!loc) {
            st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
            goto fail;
        }
        choose_processors(p, loc);
        mcu_place_kernels(p);
        place_bias(p);
        st = place_data(p, d);
        if (st) goto fail;
        for (int i = 0; i < p->n_layers; i++) {
            struct mcu_layer *l = &p->layers[i];
            l->cycles = mcu_layer_cycles(l);
            p->cycles += l->cycles;
            p->weight_bytes += (l->weights * bits + 7) / 8;
            p->kern_words_used += (int64_t)l->kern_len * mcu_popcount(l->in_mask);
            if (l->bias_group >= 0) p->bias_bytes += l->out_ch;
        }
        p->latency_s = (double)p->cycles / dev->clock_hz;
        mcu_validate(p, found);
    }
    p->fits = p->problems->n == 0 && found->n == 0;
    if (!p->fits && advise) {
        /* would 4-bit weights or the MAX78002 make it fit? (the same model planned again) */
        struct diag d2 = {0};
        struct mcu_plan *q = NULL;
        if (bits > 4 && plan_once(m, dev, 4, 0, &q, &d2) == NNPERF_OK) p->would_fit_4bit = q->fits;
        plan_free(q);
        q = NULL;
        const struct mcu_device *big = mcu_device_find("max78002");
        if (big != dev && plan_once(m, big, bits, 0, &q, &d2) == NNPERF_OK) p->would_fit_max78002 = q->fits;
        plan_free(q);
    }
    unsigned advised = 0;
    for (int i = 0; i < found->n; i++) add_problem_with_advice(p, &found->m[i], &advised);
    if (p->problems->n && p->problems->m[0].res == MCU_R_OPERATOR && advise && p->would_fit_max78002 == 1)
        mcu_msg_add(p->problems, MCU_R_OPERATOR, -1,
                    "the MAX78002 supports every operator of this model and it "
                    "fits there: nnperf map %s --target max78002",
                    m->path);
    free(found);
    free(loc);
    *out = p;
    return NNPERF_OK;
fail:
    free(found);
    free(loc);
    plan_free(p);
    return st;
}

/* ---- public API ---- */

struct nnperf_mcu_plan {
    struct mcu_plan *p;
};

enum nnperf_status nnperf_map(const struct nnperf_analysis *a, const char *target, int weight_bits,
                              struct nnperf_mcu_plan **out, char *err, size_t errlen)
{
    struct diag d = {0};
    if (out) *out = NULL;
    if (!a || !out) {
        if (err && errlen) snprintf(err, errlen, "nnperf_map: no analysis or no output handle");
        return NNPERF_E_USAGE;
    }
    const struct mcu_device *dev = mcu_device_find(target);
    if (!dev) {
        if (err && errlen)
            snprintf(err, errlen, "unknown target '%s' (max78000 or max78002)", target ? target : "");
        return NNPERF_E_USAGE;
    }
    if (weight_bits != 8 && weight_bits != 4 && weight_bits != 2 && weight_bits != 1) {
        if (err && errlen) snprintf(err, errlen, "weight bits %d: expected 8, 4, 2 or 1", weight_bits);
        return NNPERF_E_USAGE;
    }
    struct mcu_plan *p = NULL;
    enum nnperf_status st = plan_once(a->st.m, dev, weight_bits, 1, &p, &d);
    if (st) {
        if (err && errlen) snprintf(err, errlen, "%s", d.msg[0] ? d.msg : nnperf_status_name(st));
        return st;
    }
    struct nnperf_mcu_plan *h = malloc(sizeof *h);
    if (!h) {
        plan_free(p);
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    h->p = p;
    *out = h;
    return NNPERF_OK;
}

int nnperf_mcu_plan_fits(const struct nnperf_mcu_plan *h)
{
    return h && h->p->fits;
}

int nnperf_mcu_plan_problem_count(const struct nnperf_mcu_plan *h)
{
    return h ? h->p->problems->n : 0;
}

const char *nnperf_mcu_plan_problem(const struct nnperf_mcu_plan *h, int i)
{
    if (!h || i < 0 || i >= h->p->problems->n) return NULL;
    return h->p->problems->m[i].text;
}

enum nnperf_status nnperf_mcu_plan_render(const struct nnperf_mcu_plan *h, const char *format, char **out,
                                          size_t *len, char *err, size_t errlen)
{
    if (!h || !out || !format) {
        if (err && errlen) snprintf(err, errlen, "nnperf_mcu_plan_render: missing argument");
        return NNPERF_E_USAGE;
    }
    struct strbuf sb;
    sb_init(&sb, 64u << 20);
    enum nnperf_status st = mcu_render(h->p, format, &sb);
    if (st == NNPERF_E_USAGE) {
        sb_free(&sb);
        if (err && errlen) snprintf(err, errlen, "unknown format '%s' (table, json or yaml)", format);
        return st;
    }
    if (st || sb.overflow) {
        sb_free(&sb);
        if (err && errlen) snprintf(err, errlen, "out of memory");
        return NNPERF_E_NOMEM;
    }
    if (!sb.p) sb_puts(&sb, "");
    *out = sb.p;
    if (len) *len = sb.len;
    return NNPERF_OK;
}

void nnperf_mcu_plan_free(struct nnperf_mcu_plan *h)
{
    if (!h) return;
    plan_free(h->p);
    free(h);
}

struct mcu_plan *mcu_plan_of(struct nnperf_mcu_plan *h)
{
    return h ? h->p : NULL;
}
