/* pbw.c - protobuf wire-format writer (see pbw.h). */
#include "pbw.h"

#include <stdlib.h>
#include <string.h>

#include "nnperf.h"

void pbw_init(struct pbw *w, size_t cap)
{
    memset(w, 0, sizeof *w);
    w->cap = cap;
}

void pbw_free(struct pbw *w)
{
    free(w->p);
    memset(w, 0, sizeof *w);
}

/* room for n more bytes: 1, or 0 with w->err set */
static int reserve(struct pbw *w, size_t n)
{
    if (w->err) return 0;
    if (n > w->cap || w->len > w->cap - n) {
        w->err = NNPERF_E_LIMIT;
        return 0;
    }
    if (w->len + n <= w->alloc) return 1;
    size_t na = w->alloc ? w->alloc : 4096;
    while (na < w->len + n) na = na > SIZE_MAX / 2 ? w->len + n : na * 2;
    if (na > w->cap) na = w->cap;
    uint8_t *np = realloc(w->p, na);
    if (!np) {
        w->err = NNPERF_E_NOMEM;
        return 0;
    }
    w->p = np;
    w->alloc = na;
    return 1;
}

void pbw_bytes(struct pbw *w, const void *p, size_t n)
{
    if (!n || !reserve(w, n)) return;
    memcpy(w->p + w->len, p, n);
    w->len += n;
}

int pbw_varint_size(uint64_t v)
{
    int k = 1;
    while (v >= 0x80) v >>= 7, k++;
    return k;
}

static size_t put_varint(uint8_t *b, uint64_t v)
{
    size_t k = 0;
    while (v >= 0x80) {
        b[k++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[k++] = (uint8_t)v;
    return k;
}

static void pbw_varint(struct pbw *w, uint64_t v)
{
    uint8_t b[10];
    pbw_bytes(w, b, put_varint(b, v));
}

void pbw_tag(struct pbw *w, uint32_t num, int wire)
{
    pbw_varint(w, ((uint64_t)num << 3) | (uint64_t)(wire & 7));
}

void pbw_uint(struct pbw *w, uint32_t num, uint64_t v)
{
    pbw_tag(w, num, PB_VARINT);
    pbw_varint(w, v);
}

void pbw_len(struct pbw *w, uint32_t num, const void *p, size_t n)
{
    pbw_tag(w, num, PB_LEN);
    pbw_varint(w, n);
    pbw_bytes(w, p, n);
}

void pbw_str(struct pbw *w, uint32_t num, const char *s)
{
    pbw_len(w, num, s, strlen(s));
}

/* The length goes in front of the message once it is known: one byte is kept for it (most nested messages are
 * shorter than 128 bytes) and the message is moved up when its length needs more. */
size_t pbw_begin(struct pbw *w, uint32_t num)
{
    pbw_tag(w, num, PB_LEN);
    size_t mark = w->len;
    uint8_t zero = 0;
    pbw_bytes(w, &zero, 1);
    return mark;
}

void pbw_end(struct pbw *w, size_t mark)
{
    if (w->err || mark >= w->len) return;
    size_t n = w->len - mark - 1;
    int k = pbw_varint_size(n);
    if (k > 1) {
        if (!reserve(w, (size_t)k - 1)) return;
        memmove(w->p + mark + k, w->p + mark + 1, n);
        w->len += (size_t)k - 1;
    }
    put_varint(w->p + mark, n);
}

void pbw_copy(struct pbw *w, const struct pb *r)
{
    pbw_bytes(w, r->field, (size_t)(r->p - r->field));
}

void pbw_value_info(struct pbw *w, uint32_t num, const char *name, int elem, int rank,
                    const char *const *syms, const int64_t *dims)
{
    size_t v = pbw_begin(w, num);
    pbw_str(w, 1, name);
    size_t t = pbw_begin(w, 2), tt = pbw_begin(w, 1); /* TypeProto.tensor_type */
    pbw_uint(w, 1, (uint64_t)elem);
    size_t s = pbw_begin(w, 2); /* TensorShapeProto */
    for (int d = 0; d < rank; d++) {
        size_t dm = pbw_begin(w, 1);
        if (syms && syms[d])
            pbw_str(w, 2, syms[d]);
        else
            pbw_uint(w, 1, (uint64_t)dims[d]);
        pbw_end(w, dm);
    }
    pbw_end(w, s);
    pbw_end(w, tt);
    pbw_end(w, t);
    pbw_end(w, v);
}
