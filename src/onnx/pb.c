/* pb.c - protobuf wire-format reader (see pb.h). */
#include "pb.h"

const char pb_why_past_end[] = "length-delimited field runs past the end of its message";

/* pb_varint's body, inlined into pb_next_any for a field's key and length: most are one byte */
static inline int varint(struct pb *r, uint64_t *v)
{
    if (r->p >= r->end) return 0;
    if (*r->p < 0x80) {
        *v = *r->p++;
        return 1;
    }
    uint64_t x = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (r->p >= r->end) return -1;
        uint8_t b = *r->p++;
        if (shift == 63 && (b & 0xfe)) return -2; /* more than 64 bits (or an 11th byte follows) */
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return -2;
}

int pb_varint(struct pb *r, uint64_t *v)
{
    return varint(r, v);
}

static const char *varint_why(int rc, const char *truncated)
{
    return rc == -2 ? "varint longer than 64 bits" : truncated;
}

static int fail(struct pb *r, const char **why, const char *msg)
{
    *why = msg;
    r->p = r->field; /* messages point at the start of the bad field */
    return -1;
}

int pb_next_any(struct pb *r, struct pb_field *f, const char **why)
{
    if (r->p >= r->end) return 0;
    r->field = r->p;
    uint64_t key;
    int rc = varint(r, &key);
    f->num = 0;
    f->wire = -1;
    if (rc != 1) return fail(r, why, varint_why(rc, "truncated field key"));
    f->num = (uint32_t)(key >> 3);
    f->wire = (int)(key & 7);
    f->data = NULL;
    f->len = 0;
    f->u = 0;
    if (f->num == 0 || (key >> 3) > 0x1fffffff) return fail(r, why, "invalid field number");
    switch (f->wire) {
    case PB_VARINT:
        if ((rc = varint(r, &f->u)) != 1) return fail(r, why, varint_why(rc, "truncated varint"));
        return 1;
    case PB_I64:
        if (r->end - r->p < 8) return fail(r, why, "truncated 64-bit field");
        f->u = 0;
        for (int i = 7; i >= 0; i--) f->u = (f->u << 8) | r->p[i];
        f->data = r->p;
        f->len = 8;
        r->p += 8;
        return 1;
    case PB_I32:
        if (r->end - r->p < 4) return fail(r, why, "truncated 32-bit field");
        f->u = (uint64_t)r->p[0] | ((uint64_t)r->p[1] << 8) | ((uint64_t)r->p[2] << 16) |
               ((uint64_t)r->p[3] << 24);
        f->data = r->p;
        f->len = 4;
        r->p += 4;
        return 1;
    case PB_LEN: {
        uint64_t n;
        if ((rc = varint(r, &n)) != 1) return fail(r, why, varint_why(rc, "truncated length"));
        if (n > (uint64_t)(r->end - r->p)) {
            f->u = n;
            f->len = (size_t)(r->end - r->p);
            return fail(r, why, pb_why_past_end);
        }
        f->data = r->p;
        f->len = (size_t)n;
        r->p += n;
        return 1;
    }
    default: return fail(r, why, "unsupported wire type (groups are not used by ONNX)");
    }
}

int64_t pb_count_varints(const uint8_t *p, size_t n)
{
    int64_t c = 0;
    for (size_t i = 0; i < n; i++)
        if (!(p[i] & 0x80)) c++;
    if (n && (p[n - 1] & 0x80)) return -1;
    return c;
}
