/* plan.c - plans a layer program on a MAX78000 / MAX78002: pass-through layers with write_gap for residual
 * operands, processor masks, kernel-memory placement, bias placement, data-memory offsets from tensor lifetimes,
 * the cycle estimate, and the public nnperf_map() entry that runs the validator (validate.c) on its own output and
 * turns every problem into a message with what would make the model fit.
 *
 * Rules ([AI8X-SYNTHESIS] in docs/sources.md): C <= 64 channels use C processors; more run in ceil(C/64) passes
 * of C/passes processors rounded up to a multiple of 4. HWC data: 4 channels per 32-bit word, output size per
 * instance H x W x passes x 4 bytes. Kernel words, kernel placement, tensor sizes and cycles: cost.c. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcu.h"

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

/* FIFO input processors of a streaming first layer: 4 channels per quadrant on processors 0-3, 16-19, 32-35,
 * 48-51 (the vendor's loader restricts the FIFO to these). */
static uint64_t fifo_mask(int channels)
{
    uint64_t m = 0;
    for (int c = 0; c < channels && c < 16; c++) m |= (uint64_t)1 << (16 * (c / 4) + c % 4);
    return m;
}

/* kernel words of layer l if its output lands on a contiguous window (the consumer's choice is not made yet) */
static int kern_estimate(const struct mcu_layer *l)
{
    struct mcu_layer t = *l;
    t.out_mask = 0;
    return mcu_kern_len(&t);
}

/* tensors that must live on the same processors: element-wise operands, and a pass-through copy and its source
 * (index q + 1, so the network's input is 0) */
static int group_of(int *g, int x)
{
    while (g[x] != x) x = g[x] = g[g[x]];
    return x;
}

static void group_join(int *g, int a, int b)
{
    a = group_of(g, a), b = group_of(g, b);
    if (a != b) g[a > b ? a : b] = a < b ? a : b;
}

/* the window of n processors (start at a multiple of 4) whose busiest processor holds the fewest kernel words;
 * ties: the fewest words in all, then the lowest. Windows touching the data-memory instances in avoid are skipped
 * while another is left. */
static int least_loaded(const int64_t *load, int n, unsigned avoid)
{
    int best = 0, any = 0;
    for (int s = 0; s + n <= 64 && !any; s += 4) any = !(mcu_instances(window(s, n)) & avoid);
    if (!any) avoid = 0;
    int64_t best_max = -1, best_sum = 0;
    for (int s = 0; s + n <= 64; s += 4) {
        if (mcu_instances(window(s, n)) & avoid) continue;
        int64_t mx = 0, sum = 0;
        for (int q = s; q < s + n; q++) {
            if (load[q] > mx) mx = load[q];
            sum += load[q];
        }
        if (best_max < 0 || mx < best_max || (mx == best_max && sum < best_sum))
            best = s, best_max = mx, best_sum = sum;
    }
    return best;
}

/* Input processors of every layer. A layer reads its input where the producer wrote it, so each tensor (with the
 * tensors that must share its processors) gets one window, and every layer reading it puts its kernels there.
 * Kernel memory is the scarce resource, so windows are handed out as a bin packer would: the widest groups first
 * (64 processors: every processor), then by kernel words, each to the window whose busiest processor holds the
 * fewest words so far (ties: the lowest). A layer's input and output that cannot share a data-memory instance
 * (together larger than one) get windows on different instances where there is room. A streaming first layer
 * reads from the FIFO's processors; the tensors of a concatenation sit side by side inside their reader's window. */
static enum nnperf_status choose_processors(struct mcu_plan *p, uint64_t *loc, struct diag *d)
{
    int n = p->n_layers, nt = n + 1;
    int *g = malloc((size_t)nt * sizeof *g), *width = calloc((size_t)nt, sizeof *width);
    int *order = malloc((size_t)nt * sizeof *order);
    int64_t *words = calloc((size_t)nt, sizeof *words);
    if (!g || !width || !order || !words) {
        free(g), free(width), free(order), free(words);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    }
    for (int t = 0; t < nt; t++) g[t] = t;
    for (int i = 0; i < n; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->elt != MCU_ELT_NONE && l->n_in > 1)
            for (int k = 1; k < l->n_in; k++) group_join(g, l->in_seq[0] + 1, l->in_seq[k] + 1);
        /* a layer without a convolution writes where it reads (the loader wants a pass-through's output processors
         * to be its input processors) */
        if (l->op == MCU_OP_NONE && l->n_in >= 1 && l->out_ch == l->in_ch)
            group_join(g, i + 1, l->in_seq[0] + 1);
    }
    int64_t load[64] = {0};
    for (int i = 0; i < n; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->n_in > 1 && l->elt == MCU_ELT_NONE) continue; /* concatenation: below */
        int t = group_of(g, l->in_seq[0] + 1);
        int w = l->chw ? l->in_ch : mcu_procs_per_pass(l->in_ch, NULL);
        if (w > 64) w = 64;
        if (w > width[t]) width[t] = w;
        words[t] += kern_estimate(l);
        if (i == 0 && l->streaming) loc[t] = fifo_mask(l->in_ch);
    }
    int no = 0;
    for (int t = 0; t < nt; t++)
        if (group_of(g, t) == t && width[t] && !loc[t]) order[no++] = t;
    for (int a = 1; a < no; a++) /* widest first, then most kernel words, then network order */
        for (int b = a; b > 0; b--) {
            int x = order[b - 1], y = order[b];
            if (width[x] > width[y] || (width[x] == width[y] && words[x] >= words[y])) break;
            order[b - 1] = y, order[b] = x;
        }
    for (int t = 0; t < nt; t++)
        if (loc[t])
            for (int q = 0; q < 64; q++) load[q] += (loc[t] >> q & 1) ? words[t] : 0;
    for (int k = 0; k < no; k++) {
        int t = order[k];
        unsigned avoid = 0;
        for (int i = 0; i < n; i++) { /* tensors of the same layer too large to share an instance */
            const struct mcu_layer *l = &p->layers[i];
            int a = group_of(g, l->in_seq[0] + 1), b = group_of(g, i + 1),
                other = a == t   ? b
                        : b == t ? a
                                 : -1;
            if (other < 0 || other == t || !loc[other]) continue;
            if (mcu_tensor_bytes(p, l->in_seq[0]) + mcu_tensor_bytes(p, i) > p->dev->instance_bytes)
                avoid |= mcu_instances(loc[other]);
        }
        int s = width[t] >= 64 ? 0 : least_loaded(load, width[t], avoid);
        loc[t] = window(s, width[t]);
        for (int q = s; q < s + width[t]; q++) load[q] += words[t];
    }
    for (int t = 0; t < nt; t++) loc[t] = loc[group_of(g, t)];
    /* concatenations, in network order: operands side by side in the reader's window */
    for (int i = 0; i < n; i++) {
        struct mcu_layer *l = &p->layers[i];
        if (!(l->n_in > 1 && l->elt == MCU_ELT_NONE)) {
            l->in_mask = loc[l->in_seq[0] + 1];
            continue;
        }
        int w = mcu_procs_per_pass(l->in_ch, NULL);
        if (w > 64) w = 64;
        int s = least_loaded(load, w, 0), at = s;
        l->in_mask = window(s, w);
        int klen = kern_estimate(l);
        for (int q = s; q < s + w; q++) load[q] += klen;
        for (int k = 0; k < l->n_in; k++) {
            int q = l->in_seq[k];
            int c = q >= 0 ? p->layers[q].out_ch : l->in_ch;
            if (!loc[q + 1]) loc[q + 1] = window(at, c);
            at += c;
        }
    }
    for (int i = 0; i < n; i++) {
        struct mcu_layer *l = &p->layers[i];
        l->out_mask = loc[i + 1] ? loc[i + 1] : window(0, mcu_procs_per_pass(l->out_ch, NULL));
    }
    free(g), free(width), free(order), free(words);
    return NNPERF_OK;
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
        int need = mcu_bias_len(p, l), g = -1;
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
        int st, en;
        mcu_lifetime(p, -1, &st, &en);
        b[nb] = (struct block){st, en, mcu_instances(f->in_mask), mcu_tensor_bytes(p, -1), -1};
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
            int64_t s = mcu_tensor_bytes(p, q);
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
        int st, en;
        mcu_lifetime(p, i, &st, &en);
        b[nb] = (struct block){st, en, mcu_instances(l->out_mask), mcu_tensor_bytes(p, i), -1};
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
        l->out_bytes = mcu_tensor_bytes(p, i);
        int q = l->in_seq[0];
        const struct block *ib = blk[q + 1] >= 0 ? &b[blk[q + 1]] : NULL;
        l->in_offset = ib ? ib->offset : 0;
        l->in_bytes = mcu_tensor_bytes(p, q);
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
    case MCU_R_RULE: return "device rule";
    case MCU_R_STREAMING: return "streaming";
    }
    return "?";
}

static void fit_word(char *buf, size_t n, int v)
{
    snprintf(buf, n, "%s", v < 0 ? "" : v ? " (it fits with that)" : " (not enough alone)");
}

static void add_problem_with_advice(struct mcu_plan *p, const struct mcu_msg *m, unsigned *advised)
{
    char f4[40], f2[40], advice[400] = "", big[120] = "";
    fit_word(f4, sizeof f4, p->would_fit_4bit);
    fit_word(f2, sizeof f2, p->would_fit_larger);
    /* the larger device of the family, with what it has more of (its own numbers) */
    const struct mcu_device *l = mcu_device_find(p->dev->larger);
    char kib[32];
    if (l) mcu_commas(kib, sizeof kib, (long long)(mcu_kern_bytes_total(l) / 1024));
    if (l) switch (m->res) {
        case MCU_R_KERNEL:
            snprintf(big, sizeof big, ", or the %s (%s KiB of weights)%s", l->display, kib, f2);
            break;
        case MCU_R_BIAS:
            snprintf(big, sizeof big, ", or the %s (%d KiB of bias memory)%s", l->display,
                     l->bias_groups * l->bias_group_bytes / 1024, f2);
            break;
        case MCU_R_DATA:
        case MCU_R_OVERLAP:
            snprintf(big, sizeof big, ", or the %s (%lld KiB per instance)%s", l->display,
                     (long long)(l->instance_bytes / 1024), f2);
            break;
        case MCU_R_LAYERS:
            snprintf(big, sizeof big, ", or the %s (%d layers)%s", l->display, l->max_layers, f2);
            break;
        default: break;
        }
    switch (m->res) {
    case MCU_R_KERNEL:
        snprintf(advice, sizeof advice,
                 "to fit: fewer channels in this layer (its weights grow with input x output channels)%s%s%s",
                 p->weight_bits > 4 ? ", 4-bit weights (--weight-bits 4)" : "", p->weight_bits > 4 ? f4 : "",
                 big);
        break;
    case MCU_R_BIAS:
        snprintf(advice, sizeof advice, "to fit: fewer output channels or layers without bias%s", big);
        break;
    case MCU_R_DATA:
    case MCU_R_OVERLAP:
        snprintf(
            advice, sizeof advice,
            "to fit: fewer channels or smaller feature maps (H x W x passes x 4 bytes per instance), "
            "streaming (FIFO) mode for the first layers (W x H x ceil(C/64) < 2^21, at most %d layers)%s",
            p->dev->max_stream_layers, big);
        break;
    case MCU_R_LAYERS:
        snprintf(
            advice, sizeof advice,
            "to fit: fewer layers (pooling, element-wise operations and activations in front of or after a "
            "convolution do not count)%s",
            big);
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
    free(p->warnings);
    ar_free(&p->ar);
    free(p);
}

/* does layer name (an ONNX node) match a weight-bits rule: equal, or "/NAME/" inside it */
static int bits_match(const char *node, const char *name)
{
    if (!strcmp(node, name)) return 1;
    size_t n = strlen(name);
    for (const char *s = strchr(node, '/'); s; s = strchr(s + 1, '/'))
        if (!strncmp(s + 1, name, n) && s[1 + n] == '/') return 1;
    return 0;
}

/* Weight bits per layer: a rule of the weight-bits file naming the layer, else the bits of a quantized weight in
 * the graph, else the file's default, else --weight-bits; 8 for a layer without weights. */
static void assign_bits(struct mcu_plan *p)
{
    const struct mcu_bits *b = p->bits;
    int def = b && b->default_bits ? b->default_bits : p->weight_bits, from_graph = 0;
    for (int i = 0; i < p->n_layers; i++) {
        struct mcu_layer *l = &p->layers[i];
        /* a layer without weights (a pass-through) has no bits of its own: 8, whatever the default */
        l->weight_bits = l->graph_bits ? l->graph_bits : l->weights > 0 ? def : 8;
        from_graph += l->graph_bits != 0;
        for (int k = 0; b && l->weights > 0 && k < b->n; k++)
            if (bits_match(l->name, b->r[k].name)) {
                l->weight_bits = b->r[k].bits;
                if (b->used) b->used[k] = 1;
                break;
            }
    }
    if (from_graph)
        mcu_msg_add(p->notes, MCU_R_OPERATOR, -1,
                    "weight bits of %d layer%s from the graph's quantized weights (DequantizeLinear, or the "
                    "rounding of ai8x-training's QAT export)",
                    from_graph, from_graph == 1 ? "" : "s");
}

/* Streaming (FIFO) mode: when the input of one of the first layers does not fit a data-memory instance, layers 0
 * to that one stream (at most max_stream_layers, a simple chain from the network's input); each keeps only the
 * rows it needs of its input in a circular buffer. */
static void choose_streaming(struct mcu_plan *p)
{
    const struct mcu_device *dev = p->dev;
    int last = -1;
    for (int i = 0; i < p->n_layers && i < dev->max_stream_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->n_in != 1 || l->in_seq[0] != i - 1 || (i > 0 && p->layers[i - 1].is_output)) break;
        if (mcu_tensor_bytes(p, i - 1) > dev->instance_bytes) last = i;
    }
    if (last < 0) return;
    for (int i = 0; i <= last; i++) p->layers[i].streaming = 1;
    p->streaming_layers = last + 1;
    const struct mcu_layer *f = &p->layers[0];
    mcu_msg_add(
        p->notes, MCU_R_STREAMING, -1,
        "streaming (FIFO) mode required: layers 0-%d stream, the input %dx%dx%d does not fit a "
        "data-memory instance whole (%lld bytes, an instance has %lld); the application feeds the input "
        "through the FIFO (ai8xize --fifo)",
        last, f->in_ch, f->in_h, f->in_w, (long long)mcu_data_bytes(f, f->in_ch, f->in_h, f->in_w, 0),
        (long long)dev->instance_bytes);
}

static enum nnperf_status plan_once(const struct an_state *an, const struct mcu_device *dev, int bits,
                                    const struct mcu_bits *wbits, int advise, double clock_hz,
                                    struct mcu_plan **out, struct diag *d)
{
    struct mcu_plan *p = calloc(1, sizeof *p);
    if (!p) return diag_set(d, NNPERF_E_NOMEM, "out of memory");
    ar_init(&p->ar, 0);
    p->problems = calloc(1, sizeof *p->problems);
    p->notes = calloc(1, sizeof *p->notes);
    p->warnings = calloc(1, sizeof *p->warnings);
    struct mcu_msgs *found = calloc(1, sizeof *found);
    uint64_t *loc = NULL;
    enum nnperf_status st = NNPERF_OK;
    if (!p->problems || !p->notes || !p->warnings || !found) {
        st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
        goto fail;
    }
    p->dev = dev;
    p->weight_bits = bits;
    p->bits = wbits;
    p->model = an->m->path;
    p->would_fit_4bit = p->would_fit_larger = -1;
    p->clock_hz = clock_hz > 0 ? clock_hz : dev->clock_hz;
    st = mcu_build_program(p, an_graph(an), an->m, d);
    if (st) goto fail;
    {
        st = insert_passthroughs(p, d);
        if (st) goto fail;
        assign_bits(p);
        choose_streaming(p);
        loc = calloc((size_t)p->n_layers + 1, sizeof *loc);
        if (!loc) {
            st = diag_set(d, NNPERF_E_NOMEM, "out of memory");
            goto fail;
        }
        st = choose_processors(p, loc, d);
        if (st) goto fail;
        mcu_place_kernels(p);
        place_bias(p);
        st = place_data(p, d);
        if (st) goto fail;
        p->cycles = 1; /* the vendor's estimate counts one start-up cycle */
        for (int i = 0; i < p->n_layers; i++) {
            struct mcu_layer *l = &p->layers[i];
            l->cycles = mcu_layer_cycles(p, l);
            p->cycles += l->cycles;
            p->weight_bytes += (l->weights * l->weight_bits + 7) / 8;
            p->kern_words_used += (int64_t)l->kern_len * mcu_popcount(l->in_mask);
            if (l->bias_group >= 0) p->bias_bytes += mcu_bias_len(p, l);
            if (l->streaming && l->bias_group >= 0 && !dev->stream_bias)
                mcu_msg_add(
                    p->warnings, MCU_R_STREAMING, i,
                    "layer %d ('%s'): combining streaming and a bias, which the %s may not run correctly "
                    "(ai8xize warns: \"Combining streaming and a bias. THIS COMBINATION MIGHT NOT FUNCTION "
                    "CORRECTLY!!!\"); a streaming layer without a bias avoids it",
                    i, l->name, dev->display);
        }
        p->latency_s = (double)p->cycles / p->clock_hz;
        mcu_validate(p, found);
    }
    p->fits = p->problems->n == 0 && found->n == 0;
    if (!p->fits && advise) {
        /* would 4-bit weights or the MAX78002 make it fit? (the same model planned again) */
        struct diag d2 = {0};
        struct mcu_plan *q = NULL;
        if (bits > 4 && plan_once(an, dev, 4, NULL, 0, clock_hz, &q, &d2) == NNPERF_OK)
            p->would_fit_4bit = q->fits;
        plan_free(q);
        q = NULL;
        const struct mcu_device *big = mcu_device_find(dev->larger);
        if (big && big != dev && plan_once(an, big, bits, wbits, 0, 0, &q, &d2) == NNPERF_OK)
            p->would_fit_larger = q->fits;
        plan_free(q);
    }
    unsigned advised = 0;
    for (int i = 0; i < found->n; i++) add_problem_with_advice(p, &found->m[i], &advised);
    const struct mcu_device *big = mcu_device_find(dev->larger);
    if (big && p->problems->n && p->problems->m[0].res == MCU_R_OPERATOR && advise &&
        p->would_fit_larger == 1)
        mcu_msg_add(
            p->problems, MCU_R_OPERATOR, -1,
            "the %s supports every operator of this model and it fits there: nnperf map %s --target %s",
            big->display, an->m->path, big->name);
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
    struct mcu_bits *bits; /* the plan points into it */
};

enum nnperf_status nnperf_map_ex(const struct nnperf_analysis *a, const struct nnperf_map_options *o,
                                 struct nnperf_mcu_plan **out, char *err, size_t errlen)
{
    struct diag d = {0};
    if (out) *out = NULL;
    if (!a || !out || !o) {
        if (err && errlen) snprintf(err, errlen, "nnperf_map: no analysis, options or output handle");
        return NNPERF_E_USAGE;
    }
    const char *target = o->target ? o->target : nnperf_mcu_target_name(0);
    int weight_bits = o->weight_bits ? o->weight_bits : 8;
    const struct mcu_device *dev = mcu_device_find(target);
    if (!dev) {
        if (err && errlen) {
            size_t k = (size_t)snprintf(err, errlen, "unknown target '%s' (", target);
            for (int i = 0; i < nnperf_mcu_target_count() && k < errlen; i++)
                k += (size_t)snprintf(err + k, errlen - k, "%s%s",
                                      i ? i + 1 == nnperf_mcu_target_count() ? " or " : ", " : "",
                                      nnperf_mcu_target_name(i));
            if (k < errlen) snprintf(err + k, errlen - k, ")");
        }
        return NNPERF_E_USAGE;
    }
    if (!(o->clock_hz >= 0 && o->clock_hz <= 1e10)) {
        if (err && errlen)
            c_snprintf(err, errlen, "CNN clock %g Hz: expected 0 (the device's) to 10 GHz", o->clock_hz);
        return NNPERF_E_USAGE;
    }
    if (weight_bits != 8 && weight_bits != 4 && weight_bits != 2 && weight_bits != 1) {
        if (err && errlen) snprintf(err, errlen, "weight bits %d: expected 8, 4, 2 or 1", weight_bits);
        return NNPERF_E_USAGE;
    }
    struct nnperf_mcu_plan *h = calloc(1, sizeof *h);
    enum nnperf_status st = NNPERF_OK;
    if (!h) {
        st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
        goto fail;
    }
    if (o->weight_bits_file) {
        h->bits = calloc(1, sizeof *h->bits);
        if (!h->bits) {
            st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
            goto fail;
        }
        st = mcu_bits_read(o->weight_bits_file, h->bits, &d);
        if (st) goto fail;
        h->bits->used = calloc((size_t)h->bits->n + 1, sizeof *h->bits->used);
        if (!h->bits->used) {
            st = diag_set(&d, NNPERF_E_NOMEM, "out of memory");
            goto fail;
        }
    }
    st = plan_once(&a->st, dev, weight_bits, h->bits, 1, o->clock_hz, &h->p, &d);
    if (st) goto fail;
    for (int k = 0; h->bits && k < h->bits->n; k++)
        if (!h->bits->used[k]) {
            st = diag_set(&d, NNPERF_E_USAGE, "%s:%d: key '%s' names no layer with weights of %s",
                          h->bits->path, h->bits->r[k].line, h->bits->r[k].name, a->st.m->path);
            goto fail;
        }
    *out = h;
    return NNPERF_OK;
fail:
    if (err && errlen) snprintf(err, errlen, "%s", d.msg[0] ? d.msg : nnperf_status_name(st));
    nnperf_mcu_plan_free(h);
    return st;
}

enum nnperf_status nnperf_map(const struct nnperf_analysis *a, const char *target, int weight_bits,
                              struct nnperf_mcu_plan **out, char *err, size_t errlen)
{
    struct nnperf_map_options o = {target ? target : "", weight_bits, NULL, 0};
    return nnperf_map_ex(a, &o, out, err, errlen);
}

int nnperf_mcu_plan_fits(const struct nnperf_mcu_plan *h)
{
    return h && h->p->fits;
}

int nnperf_mcu_plan_problem_count(const struct nnperf_mcu_plan *h)
{
    return h ? h->p->problems->n : 0;
}

int nnperf_mcu_plan_warning_count(const struct nnperf_mcu_plan *h)
{
    return h ? h->p->warnings->n : 0;
}

const char *nnperf_mcu_plan_warning(const struct nnperf_mcu_plan *h, int i)
{
    if (!h || i < 0 || i >= h->p->warnings->n) return NULL;
    return h->p->warnings->m[i].text;
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
    mcu_bits_free(h->bits);
    free(h->bits);
    free(h);
}

struct mcu_plan *mcu_plan_of(struct nnperf_mcu_plan *h)
{
    return h ? h->p : NULL;
}
