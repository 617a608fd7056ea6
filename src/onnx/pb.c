/* pb.c - protobuf wire-format reader (see pb.h). */
#include "pb.h"

int pb_varint(struct pb *r, uint64_t *v)
{
    if (r->p >= r->end) return 0;
    uint64_t x = 0;
    for (int shift = 0; shift < 70; shift += 7) {
        if (r->p >= r->end) return -1;
        uint8_t b = *r->p++;
        if (shift == 63 && (b & 0x7e)) return -1; /* more than 64 bits */
        x |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *v = x;
            return 1;
        }
    }
    return -1;
}

int pb_next(struct pb *r, struct pb_field *f, const char **why)
{
    if (r->p >= r->end) return 0;
    uint64_t key;
    if (pb_varint(r, &key) != 1) {
        *why = "truncated or overlong field key";
        return -1;
    }
    f->num = (uint32_t)(key >> 3);
    f->wire = (int)(key & 7);
    f->data = NULL;
    f->len = 0;
    f->u = 0;
    if (f->num == 0 || (key >> 3) > 0x1fffffff) {
        *why = "invalid field number";
        return -1;
    }
    switch (f->wire) {
    case PB_VARINT:
        if (pb_varint(r, &f->u) != 1) {
            *why = "truncated varint";
            return -1;
        }
        return 1;
    case PB_I64:
        if (r->end - r->p < 8) {
            *why = "truncated 64-bit field";
            return -1;
        }
        f->u = 0;
        for (int i = 7; i >= 0; i--) f->u = (f->u << 8) | r->p[i];
        f->data = r->p;
        f->len = 8;
        r->p += 8;
        return 1;
    case PB_I32:
        if (r->end - r->p < 4) {
            *why = "truncated 32-bit field";
            return -1;
        }
        f->u = (uint64_t)r->p[0] | ((uint64_t)r->p[1] << 8) | ((uint64_t)r->p[2] << 16) | ((uint64_t)r->p[3] << 24);
        f->data = r->p;
        f->len = 4;
        r->p += 4;
        return 1;
    case PB_LEN: {
        uint64_t n;
        if (pb_varint(r, &n) != 1) {
            *why = "truncated length";
            return -1;
        }
        if (n > (uint64_t)(r->end - r->p)) {
            *why = "length-delimited field runs past the end of its message";
            return -1;
        }
        f->data = r->p;
        f->len = (size_t)n;
        r->p += n;
        return 1;
    }
    default: *why = "unsupported wire type (groups are not used by ONNX)"; return -1;
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
