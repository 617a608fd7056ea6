/* pb.h - a protobuf wire-format reader over a byte range. It never copies: length-delimited fields come back as
 * (pointer, length) views into the input. Every read is bounds-checked; a malformed field is an error, never a
 * read past the end. Wire format: https://protobuf.dev/programming-guides/encoding/ */
#ifndef NNPERF_PB_H
#define NNPERF_PB_H

#include <stddef.h>
#include <stdint.h>

enum pb_wire { PB_VARINT = 0, PB_I64 = 1, PB_LEN = 2, PB_SGROUP = 3, PB_EGROUP = 4, PB_I32 = 5 };

struct pb {
    const uint8_t *p, *end, *start;
    const uint8_t *field; /* start of the field pb_next read last (or failed on), for messages */
};

/* One field: number, wire type and its value (varint/fixed as u64, length-delimited as a view). */
struct pb_field {
    uint32_t num;
    int wire;
    uint64_t u;
    const uint8_t *data;
    size_t len;
};

static inline struct pb pb_make(const uint8_t *p, size_t n)
{
    struct pb r = {p, p + n, p, p};
    return r;
}

/* pb_next for any field (its fast path below takes the common ones). */
int pb_next_any(struct pb *r, struct pb_field *f, const char **why);

/* Reads the next field. Returns 1 on success, 0 at the end, -1 on malformed input (*why says what; r->p is left at
 * the start of the bad field, r->field too). A length-delimited field that runs past the end sets *why to
 * pb_why_past_end, f->num and f->wire, f->u to the length it claims and f->len to the bytes that are left.
 * Inline for most fields of a model (numbers 1-15, a varint or a length under 2^14 that fits): a one-byte key and
 * a value of one or two bytes; everything else, and every error, goes through pb_next_any. */
static inline int pb_next(struct pb *r, struct pb_field *f, const char **why)
{
    const uint8_t *p = r->p;
    if (p >= r->end) return 0;
    size_t left = (size_t)(r->end - p), k = 2, x = left >= 2 ? p[1] : 0x80;
    if (x >= 0x80 && left >= 3 && p[2] < 0x80) x = (x & 0x7f) | (size_t)p[2] << 7, k = 3;
    unsigned wire = p[0] & 7u;
    if (p[0] >= 8 && p[0] < 0x80 && (x < 0x80 || k == 3) &&
        (wire == PB_VARINT || (wire == PB_LEN && x <= left - k))) {
        r->field = p;
        f->num = p[0] >> 3;
        f->wire = (int)wire;
        f->u = wire == PB_VARINT ? x : 0;
        f->data = wire == PB_LEN ? p + k : NULL;
        f->len = wire == PB_LEN ? x : 0;
        r->p = p + k + f->len;
        return 1;
    }
    return pb_next_any(r, f, why);
}
extern const char pb_why_past_end[];
/* Reads a varint from a packed run. Returns 1, 0 at end, -1 truncated, -2 longer than 64 bits. */
int pb_varint(struct pb *r, uint64_t *v);
/* Number of varints in a packed run, or -1 when malformed. */
int64_t pb_count_varints(const uint8_t *p, size_t n);
/* Offset of the reader in the original buffer (for messages). */
static inline size_t pb_offset(const struct pb *r)
{
    return (size_t)(r->p - r->start);
}

#endif
