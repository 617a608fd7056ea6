/* cost.c - what a MAX7800x layer costs, as the vendor's network loader counts it: kernel words per processor and
 * their placement, the bytes a tensor takes in a data-memory instance (whole, or the circular buffer of a streaming
 * reader), tensor lifetimes, and the cycle estimate. The planner (plan.c) and the validator (validate.c) both use
 * these, so a plan is sized and checked by one set of rules.
 *
 * Sources ([AI8X-SYNTHESIS] in docs/sources.md): the loader's kernel packing and placement (izer/kernels.py),
 * its data-memory checks and streaming buffers (izer/backend/max7800x.py) and its latency model (izer/latency.py). */
#include <stdlib.h>

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

static int lowest_bit(uint64_t m)
{
    for (int i = 0; i < 64; i++)
        if (m >> i & 1) return i;
    return 0;
}

static int highest_bit(uint64_t m)
{
    for (int i = 63; i >= 0; i--)
        if (m >> i & 1) return i;
    return 0;
}

static uint64_t low_window(int n)
{
    return n <= 0 ? 0 : n >= 64 ? ~(uint64_t)0 : (((uint64_t)1 << n) - 1);
}

/* kernels (72-bit words hold one 3x3 8-bit kernel) a layer programs on each input processor: output processors
 * spanned (from the first to the last, plus the unused processors in front of the first of its memory instance
 * when the output takes several passes) x output passes x input passes; a flattened linear layer holds one 1x1
 * kernel per output and input pixel. Returns the kernel count; *ksize the kernel elements; *programmed the kernels
 * the layer's registers count (the unused processors in front of the first output processor of its memory
 * instance included), which the cycle model uses. */
static int64_t kernel_count(const struct mcu_layer *l, int64_t *ksize, int64_t *programmed)
{
    int opasses;
    int per = mcu_procs_per_pass(l->out_ch, &opasses);
    uint64_t om = l->out_mask ? l->out_mask : low_window(per);
    int first = lowest_bit(om), start_col = first % 4;
    int64_t span = highest_bit(om) - first + 1 + (opasses > 1 ? start_col : 0);
    int64_t kc, in_exp = l->flatten ? 1 : l->passes;
    if (l->groups > 1) {
        kc = l->passes; /* depthwise: one kernel per channel */
        *programmed = kc + start_col * l->passes;
    } else {
        kc = span * opasses * in_exp;
        *programmed = kc + start_col * opasses * in_exp;
    }
    *ksize = l->op == MCU_OP_LINEAR ? 1 : (int64_t)l->kh * l->kw; /* Conv1d: kw = 1 */
    if (l->op == MCU_OP_LINEAR && l->flatten) { /* every input pixel of every pass holds a 1x1 kernel */
        int64_t hw = (int64_t)l->pooled_h * l->pooled_w * l->passes;
        int64_t unused = ((int64_t)opasses * mcu_popcount(om) - l->out_ch) * hw;
        kc = kc * hw - unused;
        *programmed = *programmed * hw - unused;
    }
    return kc;
}

int mcu_kern_len(const struct mcu_layer *l)
{
    if (l->op == MCU_OP_NONE || l->weights <= 0) return 0;
    int bits = l->weight_bits > 0 && l->weight_bits <= 8 ? l->weight_bits : 8;
    int64_t ksize, programmed, kc = kernel_count(l, &ksize, &programmed);
    int64_t q = 8 / bits; /* kernels per byte lane */
    int opasses, per = mcu_procs_per_pass(l->out_ch, &opasses);
    if (l->op == MCU_OP_LINEAR && l->flatten && opasses > 1 && l->groups == 1) {
        /* a flattened layer's output passes each start on a new word (the loader writes them one after the
         * other; the NAS CIFAR-100 fc: 52 + 48 outputs x 8 pixel-passes take 47 + 43 words) */
        int64_t hw = (int64_t)l->pooled_h * l->pooled_w * l->passes, words = 0;
        for (int k = 0; k < opasses; k++) {
            int64_t outs = k < opasses - 1 ? per : l->out_ch - (int64_t)per * (opasses - 1);
            int64_t n = outs * hw;
            words += (n * bits + (n % q) * (q - 1) + 71) / 72;
        }
        return words > 1000000 ? 1000000 : (int)words;
    }
    int64_t res = (kc % q) * ksize * (q - 1);
    int64_t words = (kc * ksize * bits + res + 71) / 72;
    return words > 1000000 ? 1000000 : (int)words;
}

/* ---- kernel placement ---- */

struct kslot {
    uint64_t mask;
    int off, len;
};

/* first offset (a multiple of 4) at which len words are free on every processor of mask */
static int fit_offset(const struct kslot *s, int n, uint64_t mask, int len)
{
    int off = 0, again = 1;
    while (again) {
        again = 0;
        for (int j = 0; j < n; j++) {
            if (!(s[j].mask & mask) || !s[j].len) continue;
            if (off < s[j].off + s[j].len && s[j].off < off + len) {
                off = (s[j].off + s[j].len + 3) / 4 * 4;
                again = 1;
            }
        }
    }
    return off;
}

void mcu_place_kernels(struct mcu_plan *p)
{
    struct kslot *s = calloc((size_t)p->n_layers + 1, sizeof *s);
    int ns = 0;
    for (int i = 0; i < p->n_layers; i++) {
        struct mcu_layer *l = &p->layers[i];
        l->kern_len = mcu_kern_len(l);
        l->kern_offset = 0;
    }
    for (int pass = 0; pass < 2 && s; pass++)
        for (int i = 0; i < p->n_layers; i++) {
            struct mcu_layer *l = &p->layers[i];
            if (!l->kern_len || (l->in_mask == ~(uint64_t)0) != (pass == 0)) continue;
            l->kern_offset = fit_offset(s, ns, l->in_mask, l->kern_len);
            s[ns++] = (struct kslot){l->in_mask, l->kern_offset, l->kern_len};
        }
    free(s);
}

/* ---- data memory ---- */

int64_t mcu_data_bytes(const struct mcu_layer *l, int channels, int h, int w, int wide)
{
    (void)l;
    int passes;
    mcu_procs_per_pass(channels, &passes);
    int64_t b = (int64_t)h * w * passes * 4;
    return wide ? b * 4 : b;
}

/* The circular buffer a streaming layer reads its input from (the loader's rollover, MAX78000 formula; used for
 * the MAX78002 too, an assumption): in 32-bit words, the rows its pooling and the producer's kernel need. */
static int64_t stream_buffer(const struct mcu_plan *p, int ll)
{
    const struct mcu_layer *l = &p->layers[ll];
    int64_t pkh = l->pool ? l->pool_kh : 1, pkw = l->pool ? l->pool_kw : 1,
            pst = l->pool ? l->pool_stride : 1;
    int64_t start;
    if (ll == 0)
        start = ((pkh - 1) * l->in_w + pkw) * pkh;
    else {
        const struct mcu_layer *q = &p->layers[ll - 1];
        int64_t qkw = q->op == MCU_OP_CONV1D ? 1 : q->kw, qpad = qkw > 1 ? q->pad : 0;
        start = (q->pooled_w + 2 * qpad) * (q->kh - 1 + pkh - 1) + qkw - 1 + pkw;
    }
    int64_t step = l->stride > pst ? l->stride : pst;
    if (pkw > step) step = pkw;
    int64_t val = start + (pkh - 1) * l->in_w + step;
    if (ll == 0 && l->chw) val = 12;
    if (l->passes > 1) val = (val + l->passes - 1) / l->passes * l->passes;
    /* the loader compares streaming buffer ranges with their ends included: one word more keeps a neighbour clear */
    return val * 4 + 4;
}

int64_t mcu_tensor_bytes(const struct mcu_plan *p, int q)
{
    if (q + 1 < p->n_layers && p->layers[q + 1].streaming && p->layers[q + 1].in_seq[0] == q)
        return stream_buffer(p, q + 1);
    if (q < 0) {
        const struct mcu_layer *f = NULL;
        for (int i = 0; i < p->n_layers && !f; i++)
            for (int k = 0; k < p->layers[i].n_in; k++)
                if (p->layers[i].in_seq[k] == -1) f = &p->layers[i];
        if (!f) return 0;
        if (f->chw) return ((int64_t)f->in_h * f->in_w + 3) / 4 * 4 * f->in_ch;
        return mcu_data_bytes(f, f->in_ch, f->in_h, f->in_w, 0);
    }
    const struct mcu_layer *l = &p->layers[q];
    int64_t b = mcu_data_bytes(l, l->out_ch, l->out_h, l->out_w, l->output_width == 32);
    /* the last streaming layer's output, checked against the streaming buffers like they are checked against each
     * other (ends included): one word more */
    return l->streaming ? b + 4 : b;
}

/* The last layer that reads layer q's output (q = -1: the network's input): n_layers when it is a network output or
 * nothing reads it (it must stay until the end). */
static int mcu_last_reader(const struct mcu_plan *p, int q)
{
    int last = -1;
    for (int i = 0; i < p->n_layers; i++)
        for (int k = 0; k < p->layers[i].n_in; k++)
            if (p->layers[i].in_seq[k] == q) last = i;
    if (q >= 0 && (p->layers[q].is_output || last < 0)) last = p->n_layers;
    return last;
}

void mcu_lifetime(const struct mcu_plan *p, int q, int *start, int *end)
{
    *start = q < 0 ? 0 : q;
    *end = mcu_last_reader(p, q);
    /* streaming layers run at once: their buffers and the last one's output are live from the start */
    if (p->streaming_layers > 0 && q < p->streaming_layers) {
        *start = 0;
        if (*end < p->streaming_layers - 1) *end = p->streaming_layers - 1;
    }
}

/* ---- cycles ----
 * The vendor's latency model (izer/latency.py): a frame equation over the pooled input rows and columns, padding,
 * pooling, passes and element-wise operands, one read, one TRAM write and one write state per step; what the
 * hardware runs, not what the ONNX graph says: a pass-through writes one time slot per 4 channels of its busiest
 * quadrant, a flattened linear layer runs 1x1 over the pre-flatten rows and columns, the output channels are the
 * kernels programmed per pass, a pooling pass-through with several output passes takes 2 x passes - 1, the
 * MAX78000 pre-reads kernels when it pools after an element-wise operation, and a streaming layer takes 1.5x. */
uint64_t mcu_layer_cycles(const struct mcu_plan *p, const struct mcu_layer *l)
{
    const int64_t rd = 1, tram = 1, wrt = 1;
    int64_t mp = l->passes, ne = l->n_in > 1 && l->elt != MCU_ELT_NONE ? l->n_in : 1;
    int64_t pkh = l->pool ? l->pool_kh : 1, pkw = l->pool ? l->pool_kw : 1;
    int64_t prow = l->pooled_h, pcol = l->pooled_w, ocol = l->out_w;
    int64_t kr = l->kh, kc = l->kw, rpad = l->pad, cpad = l->kw > 1 ? l->pad : 0;
    int64_t ksize_unused, kern = 0;
    if (l->op != MCU_OP_NONE) kernel_count(l, &ksize_unused, &kern);
    int64_t oc = l->passes ? kern / l->passes : kern;
    int opasses;
    mcu_procs_per_pass(l->out_ch, &opasses);
    int flatten_adj = 0;
    if (l->op == MCU_OP_LINEAR) {
        kr = kc = 1, rpad = cpad = 0;
        if (l->flatten) {
            int64_t hw = (int64_t)l->pooled_h * l->pooled_w;
            ocol = l->pooled_w;
            oc = kern / (l->passes * (hw ? hw : 1));
            flatten_adj = l->passes * hw - 1 >= 16;
        } else
            ocol = 1, prow = pcol = 1;
    }
    if (l->op == MCU_OP_CONV1D) kc = 1, cpad = 0;
    if (l->op == MCU_OP_NONE && opasses > 1 && l->pool && (pkh > 1 || pkw > 1)) mp = 2 * mp - 1;
    int64_t meq_one = oc == 1 && mp == 1;
    int pool_first = l->pool_first || !l->pool;
    int64_t in_pad, in_dat, mult, pre_read = 0;
    if (pool_first) {
        in_pad = mp * ne * (rd + tram);
        in_dat = mp * ne * (pkh * pkw * rd + tram);
        mult = 1;
    } else {
        if (p->dev->latency_pre_read && (mp > 1 || ne > 1))
            pre_read = ((prow + 2 * rpad - kc + 1) * cpad + (pcol + 2 * cpad - kr + 1) * rpad - rpad * cpad) *
                       l->kern_offset;
        in_pad = mp * (rd + tram);
        in_dat = mp * (ne * rd * pkh * pkw + tram);
        mult = mp;
    }
    int64_t total;
    if (l->op == MCU_OP_NONE) {
        /* time slots: the busiest quadrant's processors, 4 per slot (x4 for a 32-bit output) */
        int64_t slots = 0;
        for (int g = 0; g < 4; g++) {
            int n = mcu_popcount(l->in_mask >> (16 * g) & 0xffff);
            if (!n) continue;
            int64_t t = ((int64_t)n * l->output_width / 8 - 1) / 4 + 1;
            if (t > slots) slots = t;
        }
        if (!slots) slots = 1;
        total = prow * pcol * (in_dat + mp * slots);
    } else {
        int64_t col = 2 * cpad * (in_pad + wrt);
        int64_t first_pad_row = col + mult * pcol * (in_pad + wrt);
        int64_t row_no_conv = col + mult * pcol * (in_dat + wrt);
        int64_t left = cpad * (in_pad + wrt);
        int64_t right = in_pad * cpad;
        int64_t head = kc - 1 - cpad;
        int64_t row_conv = left + mult * head * (in_dat + wrt) + mult * (ocol - cpad) * in_dat + right;
        int64_t bottom = left + mult * head * (in_pad + wrt) + mult * (ocol - cpad) * in_pad + right;
        int64_t out_dat = mp * ocol * oc + oc * meq_one;
        int64_t hr = kr - 1 - rpad;
        total = flatten_adj + pre_read + rpad * first_pad_row + hr * row_no_conv +
                (row_conv + out_dat) * (prow - hr) + rpad * (bottom + out_dat);
    }
    if (l->streaming) total = (15 * total + 9) / 10;
    return total < 0 ? 0 : (uint64_t)total;
}

int mcu_bias_len(const struct mcu_plan *p, const struct mcu_layer *l)
{
    return l->out_ch + (l == &p->layers[0] && l->streaming && !p->dev->stream_bias);
}
