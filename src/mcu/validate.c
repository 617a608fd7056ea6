/* validate.c - checks a MAX7800x plan (ours, or one written by hand as in an ai8x-synthesis YAML) against every
 * device rule, independently of how the planner chose it. One function per rule, run from one table (rules[]):
 * the layer count, processors per pass (C <= 64: C processors, else C / passes rounded up to a multiple of 4) and
 * channels (<= 16 passes), operands where their consumer reads them, data-memory instance bounds and live tensors
 * not overlapping, kernel memory per processor, bias memory, and the rules the vendor's loader enforces on one
 * layer's operation (padding smaller than the kernel, flatten without pooling, element-wise passes, pooling
 * pass-through passes, padded multi-pass Conv1d, element-wise with a biased convolution, streaming). Sources:
 * [AI8X-SYNTHESIS] in docs/sources.md; numbers and per-device switches: device.c.
 *
 * Each problem is one message: the layer, what is wrong, what is needed and what is available. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "mcu.h"

int mcu_popcount(uint64_t m)
{
    int n = 0;
    for (; m; m &= m - 1) n++;
    return n;
}

unsigned mcu_instances(uint64_t mask)
{
    unsigned r = 0;
    for (int i = 0; i < 16; i++)
        if (mask >> (4 * i) & 0xf) r |= 1u << i;
    return r;
}

static int first_inst(unsigned s)
{
    for (int i = 0; i < 16; i++)
        if (s >> i & 1) return i;
    return -1;
}

/* a region of data memory: written by layer 'layer' (-1: the model input), live [start, end] */
struct region {
    int layer, start, end, gap;
    unsigned inst;
    int64_t off, size; /* size: bytes of the tensor; footprint with gap = size x (gap + 1) */
};

/* bytes from off to the last byte written: with write_gap g every 4-byte word is followed by g words of others */
static int64_t footprint(const struct region *r)
{
    if (!r->gap || r->size < 4) return r->size;
    return r->size * (r->gap + 1) - 4 * r->gap;
}

static void who(char *buf, size_t n, int layer)
{
    if (layer < 0)
        snprintf(buf, n, "the model input");
    else
        snprintf(buf, n, "layer %d's output", layer);
}

static void rule_layers(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    if (p->n_layers > dev->max_layers)
        mcu_msg_add(out, MCU_R_LAYERS, -1,
                    "%d layers (%d of them pass-through copies for element-wise operands), "
                    "the %s has %d",
                    p->n_layers, p->passthroughs, dev->display, dev->max_layers);
}

static void rule_processors(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        int passes, need = mcu_procs_per_pass(l->in_ch, &passes);
        if (l->chw) need = l->in_ch;
        int have = mcu_popcount(l->in_mask);
        if (l->in_ch > dev->max_channels || passes > 16)
            mcu_msg_add(out, MCU_R_CHANNELS, i,
                        "%d input channels: %d passes of 64, at most %d channels (16 passes)", l->in_ch,
                        passes, dev->max_channels);
        else if (have != need)
            mcu_msg_add(
                out, MCU_R_PROCESSORS, i,
                "input processor mask 0x%016llx enables %d processors; %d input channels need %d (%d pass%s "
                "of %d, rounded up to a multiple of 4 when more than 64)",
                (unsigned long long)l->in_mask, have, l->in_ch, need, passes, passes > 1 ? "es" : "", need);
        int opasses, oneed = mcu_procs_per_pass(l->out_ch, &opasses);
        int ohave = mcu_popcount(l->out_mask);
        if (l->out_ch > dev->max_channels || opasses > 16)
            mcu_msg_add(out, MCU_R_CHANNELS, i, "%d output channels: at most %d", l->out_ch,
                        dev->max_channels);
        else if (ohave != oneed)
            mcu_msg_add(out, MCU_R_PROCESSORS, i,
                        "output processor mask 0x%016llx enables %d processors; %d output channels need %d",
                        (unsigned long long)l->out_mask, ohave, l->out_ch, oneed);
    }
}

static void rule_operands(const struct mcu_plan *p, struct mcu_msgs *out)
{
    int n = p->n_layers;
    int64_t input_off = -1;
    for (int i = 0; i < n; i++) {
        const struct mcu_layer *l = &p->layers[i];
        int elt = l->n_in > 1 && l->elt != MCU_ELT_NONE, concat = l->n_in > 1 && !elt;
        uint64_t seen = 0;
        for (int k = 0; k < l->n_in; k++) {
            int q = l->in_seq[k];
            if (q >= i || q < -1) {
                mcu_msg_add(out, MCU_R_PLACEMENT, i,
                            "input sequence %d names layer %d, which does not run before it", k, q);
                continue;
            }
            if (q == -1) {
                if (input_off < 0)
                    input_off = l->in_offset;
                else if (input_off != l->in_offset)
                    mcu_msg_add(out, MCU_R_PLACEMENT, i,
                                "reads the model input at 0x%04llx, another layer at 0x%04llx",
                                (unsigned long long)l->in_offset, (unsigned long long)input_off);
                continue;
            }
            const struct mcu_layer *s = &p->layers[q];
            int64_t want = l->in_offset + (elt ? 4 * k : 0);
            if (s->out_offset != want)
                mcu_msg_add(out, MCU_R_PLACEMENT, i,
                            "reads operand %d (layer %d) at 0x%04llx but layer %d writes it at 0x%04llx", k,
                            q, (unsigned long long)want, q, (unsigned long long)s->out_offset);
            if (elt && s->write_gap != l->n_in - 1)
                mcu_msg_add(out, MCU_R_PLACEMENT, i,
                            "element-wise operand layer %d has write_gap %d, %d operands need write_gap %d",
                            q, s->write_gap, l->n_in, l->n_in - 1);
            if (!concat && s->out_mask != l->in_mask)
                mcu_msg_add(out, MCU_R_PLACEMENT, i,
                            "reads processors 0x%016llx but layer %d writes processors 0x%016llx",
                            (unsigned long long)l->in_mask, q, (unsigned long long)s->out_mask);
            if (concat) {
                if ((s->out_mask & ~l->in_mask) || (s->out_mask & seen))
                    mcu_msg_add(
                        out, MCU_R_PLACEMENT, i,
                        "concatenated operand layer %d on processors 0x%016llx is outside 0x%016llx or "
                        "shared with another operand",
                        q, (unsigned long long)s->out_mask, (unsigned long long)l->in_mask);
                seen |= s->out_mask;
            }
        }
    }
}

static void rule_data(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    int n = p->n_layers;
    struct region *r = calloc((size_t)n + 1, sizeof *r);
    int nr = 0;
    if (r) {
        int first = -1;
        for (int i = 0; i < n && first < 0; i++)
            for (int k = 0; k < p->layers[i].n_in; k++)
                if (p->layers[i].in_seq[k] == -1) first = i;
        int st, en;
        if (first >= 0) {
            const struct mcu_layer *f = &p->layers[first];
            mcu_lifetime(p, -1, &st, &en);
            r[nr++] = (struct region){
                -1, st, en, 0, mcu_instances(f->in_mask), f->in_offset, mcu_tensor_bytes(p, -1)};
        }
        for (int i = 0; i < n; i++) {
            const struct mcu_layer *l = &p->layers[i];
            mcu_lifetime(p, i, &st, &en);
            r[nr++] = (struct region){
                i, st, en, l->write_gap, mcu_instances(l->out_mask), l->out_offset, mcu_tensor_bytes(p, i)};
        }
        for (int a = 0; a < nr; a++) {
            const struct region *x = &r[a];
            int64_t foot = footprint(x);
            char wa[48];
            who(wa, sizeof wa, x->layer);
            if (x->off < 0 || x->off + foot > dev->instance_bytes)
                mcu_msg_add(
                    out, MCU_R_DATA, x->layer < 0 ? 0 : x->layer,
                    "%s needs 0x%04llx-0x%04llx (%lld bytes per instance%s) but a data-memory instance has "
                    "%lld bytes",
                    wa, (unsigned long long)x->off, (unsigned long long)(x->off + foot - 1), (long long)foot,
                    x->gap ? ", with write_gap" : "", (long long)dev->instance_bytes);
        }
        for (int a = 0; a < nr; a++)
            for (int b = a + 1; b < nr; b++) {
                const struct region *x = &r[a], *y = &r[b];
                if (x->start > y->end || y->start > x->end) continue;
                unsigned common = x->inst & y->inst;
                if (!common) continue;
                int64_t fx = footprint(x), fy = footprint(y);
                if (!(x->off < y->off + fy && y->off < x->off + fx)) continue;
                if (x->gap && x->gap == y->gap) {
                    int64_t dlt = x->off > y->off ? x->off - y->off : y->off - x->off;
                    if (dlt % 4 == 0 && dlt % (4 * (x->gap + 1)) != 0) continue; /* interleaved operands */
                }
                char wx[48], wy[48];
                who(wx, sizeof wx, x->layer);
                who(wy, sizeof wy, y->layer);
                int at = x->start > y->start ? x->start : y->start;
                mcu_msg_add(
                    out, MCU_R_OVERLAP, y->layer < 0 ? 0 : y->layer,
                    "%s at 0x%04llx-0x%04llx overlaps %s at 0x%04llx-0x%04llx in data-memory instance %d "
                    "while both are live (layer %d)",
                    wy, (unsigned long long)y->off, (unsigned long long)(y->off + fy - 1), wx,
                    (unsigned long long)x->off, (unsigned long long)(x->off + fx - 1), first_inst(common),
                    at);
            }
        free(r);
    }
}

static void rule_kernels(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    int n = p->n_layers;
    for (int i = 0; i < n; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (!l->kern_len) continue;
        int reported = 0;
        for (int q = 0; q < 64 && !reported; q++) {
            if (!(l->in_mask >> q & 1)) continue;
            int cap = mcu_kern_words(dev, q);
            if (l->kern_offset < 0 || l->kern_offset + l->kern_len > cap) {
                char wb[32], cb[32];
                mcu_commas(wb, sizeof wb, (long long)p->weight_bytes);
                mcu_commas(cb, sizeof cb, (long long)mcu_kern_bytes_total(dev));
                mcu_msg_add(
                    out, MCU_R_KERNEL, i,
                    "kernel memory exhausted at processor %d: needs words %d-%d (%d words of 72 bits), the "
                    "processor has %d; all weights take %s bytes, the %s has %s",
                    q, l->kern_offset, l->kern_offset + l->kern_len - 1, l->kern_len, cap, wb, dev->display,
                    cb);
                reported = 1;
            }
            for (int j = 0; j < i && !reported; j++) {
                const struct mcu_layer *o = &p->layers[j];
                if (!o->kern_len || !(o->in_mask >> q & 1)) continue;
                if (l->kern_offset < o->kern_offset + o->kern_len &&
                    o->kern_offset < l->kern_offset + l->kern_len) {
                    mcu_msg_add(
                        out, MCU_R_KERNEL, i,
                        "kernels at words %d-%d of processor %d overlap layer %d's kernels (words %d-%d)",
                        l->kern_offset, l->kern_offset + l->kern_len - 1, q, j, o->kern_offset,
                        o->kern_offset + o->kern_len - 1);
                    reported = 1;
                }
            }
        }
    }
}

static void rule_bias(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    int n = p->n_layers;
    for (int i = 0; i < n; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->bias_group < 0) continue;
        if (l->bias_group >= dev->bias_groups || l->bias_offset < 0 ||
            l->bias_offset + mcu_bias_len(p, l) > dev->bias_group_bytes) {
            mcu_msg_add(
                out, MCU_R_BIAS, i,
                "%d bias bytes at group %d offset %d do not fit (%d groups of %d bytes); the model needs "
                "%lld bytes in all",
                mcu_bias_len(p, l), l->bias_group, l->bias_offset, dev->bias_groups, dev->bias_group_bytes,
                (long long)p->bias_bytes);
            continue;
        }
        for (int j = 0; j < i; j++) {
            const struct mcu_layer *o = &p->layers[j];
            if (o->bias_group != l->bias_group) continue;
            if (l->bias_offset < o->bias_offset + mcu_bias_len(p, o) &&
                o->bias_offset < l->bias_offset + mcu_bias_len(p, l)) {
                mcu_msg_add(out, MCU_R_BIAS, i, "bias bytes %d-%d of group %d overlap layer %d's",
                            l->bias_offset, l->bias_offset + mcu_bias_len(p, l) - 1, l->bias_group, j);
                break;
            }
        }
    }
}

/* ---- rules about one layer's operation (the vendor's loader refuses these plans) ---- */

static int pools(const struct mcu_layer *l)
{
    return l->pool && (l->pool_kh > 1 || l->pool_kw > 1 || l->pool_stride > 1);
}

/* padding must be smaller than the kernel (a 1x1 convolution cannot pad) */
static void rule_pad_kernel(const struct mcu_plan *p, struct mcu_msgs *out)
{
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->op == MCU_OP_NONE && l->pad)
            mcu_msg_add(out, MCU_R_RULE, i,
                        "padding %d in a pass-through layer (padding needs a convolution)", l->pad);
        if (l->op == MCU_OP_NONE || l->op == MCU_OP_LINEAR || l->op == MCU_OP_CONVT2D) continue;
        int kw = l->op == MCU_OP_CONV1D ? l->kh : l->kw;
        if (l->pad >= l->kh || l->pad >= kw)
            mcu_msg_add(out, MCU_R_RULE, i,
                        "padding %d is not smaller than the %dx%d kernel (padding < kernel)", l->pad, l->kh,
                        l->op == MCU_OP_CONV1D ? 1 : l->kw);
    }
}

/* a pass-through layer (no convolution) neither activates nor pads */
static void rule_passthrough(const struct mcu_plan *p, struct mcu_msgs *out)
{
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->op == MCU_OP_NONE && l->act != MCU_ACT_NONE)
            mcu_msg_add(
                out, MCU_R_RULE, i,
                "%s in a pass-through layer (no convolution): only a convolution's output is activated",
                l->act == MCU_ACT_RELU ? "ReLU" : "Abs");
    }
}

/* flatten: never with pooling, never in a pass-through layer */
static void rule_flatten(const struct mcu_plan *p, struct mcu_msgs *out)
{
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (!l->flatten) continue;
        if (pools(l))
            mcu_msg_add(
                out, MCU_R_RULE, i,
                "flatten with %dx%d pooling in front: flatten cannot pool (pool in a layer before it)",
                l->pool_kh, l->pool_kw);
        if (l->op == MCU_OP_NONE) mcu_msg_add(out, MCU_R_RULE, i, "flatten in a pass-through layer");
        if (l->streaming) mcu_msg_add(out, MCU_R_RULE, i, "flatten in a streaming layer");
    }
}

/* Conv1d: no element-wise operation; on the MAX78002 no padding when it reads more than 64 channels */
static void rule_conv1d(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->op != MCU_OP_CONV1D) continue;
        if (l->elt && l->n_in > 1)
            mcu_msg_add(out, MCU_R_RULE, i,
                        "element-wise %s fused with a Conv1d (run it in a layer of its own)",
                        mcu_elt_name(l->elt));
        if (!dev->multipass_padded_conv1d && l->pad > 0 && l->passes > 1)
            mcu_msg_add(
                out, MCU_R_RULE, i,
                "padded Conv1d (padding %d) reading %d channels in %d passes: the %s pads a Conv1d only "
                "when it reads at most 64 channels (padding 0, or fewer channels)",
                l->pad, l->in_ch, l->passes, dev->display);
    }
}

/* MAX78000: element-wise operations over several passes are emulated; beyond 2 passes x 2 operands the layer
 * can neither pool nor convolve */
static void rule_eltwise_passes(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    for (int i = 0; i < p->n_layers && dev->eltwise_mp_emulated; i++) {
        const struct mcu_layer *l = &p->layers[i];
        int ne = l->elt && l->n_in > 1 ? l->n_in : 1;
        if (ne < 2 || l->passes < 2 || ne * l->passes == ne + l->passes) continue;
        if (l->op != MCU_OP_NONE || pools(l))
            mcu_msg_add(
                out, MCU_R_RULE, i,
                "element-wise %s of %d operands over %d passes (%d channels) fused with %s: on the %s an "
                "element-wise operation beyond 2 passes x 2 operands runs in a pass-through layer of its "
                "own, without pooling",
                mcu_elt_name(l->elt), ne, l->passes, l->in_ch,
                l->op != MCU_OP_NONE ? mcu_op_name(l->op) : "pooling", dev->display);
    }
}

/* MAX78000: a pooling pass-through layer reads one pass (<= 64 channels) unless its output is 1x1 */
static void rule_pool_passes(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->op != MCU_OP_NONE || !pools(l) || l->passes <= dev->max_pool_passes) continue;
        if (l->pooled_h == 1 && l->pooled_w == 1) continue;
        mcu_msg_add(
            out, MCU_R_RULE, i,
            "pooling %d channels (%d passes) without a convolution to %dx%d: on the %s a pooling "
            "pass-through reads at most %d pass%s (64 channels) unless its output is 1x1 (pool in front of "
            "a convolution instead)",
            l->in_ch, l->passes, l->pooled_h, l->pooled_w, dev->display, dev->max_pool_passes,
            dev->max_pool_passes > 1 ? "es" : "");
    }
}

/* MAX78002: an element-wise operation and a convolution with bias go in separate layers */
static void rule_eltwise_bias(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    for (int i = 0; i < p->n_layers && !dev->eltwise_conv_bias; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->elt && l->n_in > 1 && l->op != MCU_OP_NONE && l->bias_group >= 0)
            mcu_msg_add(
                out, MCU_R_RULE, i,
                "element-wise %s fused with a %s that has a bias: the %s runs them in separate layers",
                mcu_elt_name(l->elt), mcu_op_name(l->op), dev->display);
    }
}

/* streaming (FIFO) mode: the first layers only, in a chain; the FIFO feeds at most 16 channels on processors 0-3,
 * 16-19, 32-35, 48-51; frames below 2^21 pixels x passes; on the MAX78000 the last streaming layer pads */
static void rule_streaming(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    int last = -1;
    for (int i = 0; i < p->n_layers; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (!l->streaming) continue;
        if (i != last + 1 || i >= dev->max_stream_layers)
            mcu_msg_add(out, MCU_R_STREAMING, i,
                        "streams, but streaming layers are the first %d at most and follow each other",
                        dev->max_stream_layers);
        last = i;
        if ((int64_t)l->in_h * l->in_w * l->passes >= dev->frame_size_max)
            mcu_msg_add(out, MCU_R_STREAMING, i,
                        "streams a %dx%d input in %d passes: at most %lld pixels x passes", l->in_h, l->in_w,
                        l->passes, (long long)dev->frame_size_max);
        if (i == 0 && (l->in_ch > (l->chw ? 4 : 16) ||
                       (l->in_mask & ~(l->chw ? 0x0001000100010001ull : 0x000f000f000f000full))))
            mcu_msg_add(out, MCU_R_STREAMING, i,
                        "the FIFO feeds at most %d channels on processors %s; the input has %d on 0x%016llx",
                        l->chw ? 4 : 16, l->chw ? "0, 16, 32, 48" : "0-3, 16-19, 32-35, 48-51", l->in_ch,
                        (unsigned long long)l->in_mask);
    }
    if (last >= 0 && !dev->stream_nonpad_final && p->layers[last].pad == 0)
        mcu_msg_add(out, MCU_R_STREAMING, last,
                    "the last streaming layer has padding 0: the %s needs padding there", dev->display);
}

/* every rule, in the order its problems are reported; a new rule is one function and one row (docs/map.md lists
 * them) */
static const struct {
    const char *name;
    void (*check)(const struct mcu_plan *p, struct mcu_msgs *out);
} rules[] = {
    {"layer count", rule_layers},
    {"processors and channels", rule_processors},
    {"operands where their reader reads them", rule_operands},
    {"data memory", rule_data},
    {"kernel memory", rule_kernels},
    {"bias memory", rule_bias},
    {"padding smaller than the kernel", rule_pad_kernel},
    {"pass-through layers", rule_passthrough},
    {"flatten", rule_flatten},
    {"Conv1d", rule_conv1d},
    {"element-wise passes", rule_eltwise_passes},
    {"pooling pass-through passes", rule_pool_passes},
    {"element-wise with a biased convolution", rule_eltwise_bias},
    {"streaming", rule_streaming},
};

int mcu_validate(const struct mcu_plan *p, struct mcu_msgs *out)
{
    int before = out->n;
    for (size_t i = 0; i < sizeof rules / sizeof rules[0]; i++) rules[i].check(p, out);
    return out->n - before;
}
