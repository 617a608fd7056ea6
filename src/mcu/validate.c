/* validate.c - checks a MAX7800x plan (ours, or one written by hand as in an ai8x-synthesis YAML) against every
 * device rule, independently of how the planner chose it: processors per pass (C <= 64: C processors, else
 * C / passes rounded up to a multiple of 4), channels per processor (<= 16 passes), data-memory instance bounds,
 * operands where their consumer reads them, live tensors not overlapping, kernel memory per processor, bias
 * memory, and the layer count. Rules: ../shared/reference/max7800x.md; numbers: device.c.
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

int mcu_last_reader(const struct mcu_plan *p, int q)
{
    int last = -1;
    for (int i = 0; i < p->n_layers; i++)
        for (int k = 0; k < p->layers[i].n_in; k++)
            if (p->layers[i].in_seq[k] == q) last = i;
    if (q >= 0 && (p->layers[q].is_output || last < 0)) last = p->n_layers;
    return last;
}

static void commas(char *b, size_t n, long long v)
{
    char t[32];
    snprintf(t, sizeof t, "%lld", v < 0 ? 0 : v);
    size_t len = strlen(t), o = 0;
    for (size_t i = 0; i < len && o + 2 < n; i++) {
        b[o++] = t[i];
        if ((len - i - 1) % 3 == 0 && i + 1 < len) b[o++] = ',';
    }
    b[o] = 0;
}

static void who(char *buf, size_t n, int layer)
{
    if (layer < 0)
        snprintf(buf, n, "the model input");
    else
        snprintf(buf, n, "layer %d's output", layer);
}

int mcu_validate(const struct mcu_plan *p, struct mcu_msgs *out)
{
    const struct mcu_device *dev = p->dev;
    int before = out->n;
    int n = p->n_layers;
    if (n > dev->max_layers)
        mcu_msg_add(out, MCU_R_LAYERS, -1,
                    "%d layers (%d of them pass-through copies for element-wise operands), "
                    "the %s has %d",
                    n, p->passthroughs, dev->display, dev->max_layers);

    /* processors and channels */
    for (int i = 0; i < n; i++) {
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

    /* operands where the consumer reads them */
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

    /* data memory: bounds and live overlaps */
    struct region *r = calloc((size_t)n + 1, sizeof *r);
    int nr = 0;
    if (r) {
        int first = -1;
        for (int i = 0; i < n && first < 0; i++)
            for (int k = 0; k < p->layers[i].n_in; k++)
                if (p->layers[i].in_seq[k] == -1) first = i;
        if (first >= 0) {
            const struct mcu_layer *f = &p->layers[first];
            int64_t sz = f->chw ? ((int64_t)f->in_h * f->in_w + 3) / 4 * 4 * f->in_ch
                                : mcu_data_bytes(f, f->in_ch, f->in_h, f->in_w, 0);
            r[nr++] = (struct region){-1,           0, mcu_last_reader(p, -1), 0, mcu_instances(f->in_mask),
                                      f->in_offset, sz};
        }
        for (int i = 0; i < n; i++) {
            const struct mcu_layer *l = &p->layers[i];
            int64_t sz = mcu_data_bytes(l, l->out_ch, l->out_h, l->out_w, l->output_width == 32);
            r[nr++] = (struct region){
                i, i, mcu_last_reader(p, i), l->write_gap, mcu_instances(l->out_mask), l->out_offset, sz};
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

    /* kernel memory: capacity and overlaps per processor */
    for (int i = 0; i < n; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (!l->kern_len) continue;
        int reported = 0;
        for (int q = 0; q < 64 && !reported; q++) {
            if (!(l->in_mask >> q & 1)) continue;
            int cap = mcu_kern_words(dev, q);
            if (l->kern_offset < 0 || l->kern_offset + l->kern_len > cap) {
                char wb[32], cb[32];
                commas(wb, sizeof wb, (long long)p->weight_bytes);
                commas(cb, sizeof cb, (long long)mcu_kern_bytes_total(dev));
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

    /* bias memory */
    int64_t total_bias = 0;
    for (int i = 0; i < n; i++) {
        const struct mcu_layer *l = &p->layers[i];
        if (l->bias_group < 0) continue;
        total_bias += l->out_ch;
        if (l->bias_group >= dev->bias_groups || l->bias_offset < 0 ||
            l->bias_offset + l->out_ch > dev->bias_group_bytes) {
            mcu_msg_add(
                out, MCU_R_BIAS, i,
                "%d bias bytes at group %d offset %d do not fit (%d groups of %d bytes); the model needs "
                "%lld bytes in all",
                l->out_ch, l->bias_group, l->bias_offset, dev->bias_groups, dev->bias_group_bytes,
                (long long)p->bias_bytes);
            continue;
        }
        for (int j = 0; j < i; j++) {
            const struct mcu_layer *o = &p->layers[j];
            if (o->bias_group != l->bias_group) continue;
            if (l->bias_offset < o->bias_offset + o->out_ch && o->bias_offset < l->bias_offset + l->out_ch) {
                mcu_msg_add(out, MCU_R_BIAS, i, "bias bytes %d-%d of group %d overlap layer %d's",
                            l->bias_offset, l->bias_offset + l->out_ch - 1, l->bias_group, j);
                break;
            }
        }
    }
    (void)total_bias;
    return out->n - before;
}
