/* fields.c - the wire-level helpers the ModelProto reader (load.c, types.c, attr.c, tensor.c, function.c,
 * graph.c) shares: errors naming the message, field and byte offset, the wire-type check of known fields, strings
 * copied into the model arena, growable arena arrays. */
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "load.h"

/* p's array at capacity nc (> p->n) */
static int pv_resize(struct arena *ar, struct pvec *p, int nc)
{
    void **nv = ar_calloc(ar, (size_t)nc, sizeof(void *));
    if (!nv) return 0;
    if (p->n) memcpy(nv, p->v, (size_t)p->n * sizeof(void *));
    p->v = nv;
    p->cap = nc;
    return 1;
}

int ox_pv_push(struct arena *ar, struct pvec *p, void *x)
{
    if (p->n == p->cap && !pv_resize(ar, p, p->cap ? p->cap * 2 : 8)) return 0;
    p->v[p->n++] = x;
    return 1;
}

int ox_pv_reserve(struct arena *ar, struct pvec *p, size_t more)
{
    if (more > (size_t)(INT_MAX / 2 - p->n)) return 1; /* nothing reserved: grown as entries come */
    return p->n + (int)more <= p->cap || pv_resize(ar, p, p->n + (int)more);
}

enum nnperf_status ox_nomem(struct ld *L)
{
    return diag_set(L->d, NNPERF_E_NOMEM, "out of memory while reading the model");
}

/* Byte offset of p in the model file, or -1 when p is in another buffer (ox_parse_tensor). */
static long long file_offset(const struct ld *L, const uint8_t *p)
{
    const uint8_t *b = L->m->buf;
    if (!b || p < b || p > b + L->m->len) return -1;
    return (long long)(p - b);
}

enum nnperf_status ox_malformed(struct ld *L, const char *what, const char *why, const uint8_t *at)
{
    long long off = file_offset(L, at);
    if (off < 0) return diag_set(L->d, NNPERF_E_PARSE, "malformed %s: %s", what, why);
    return diag_set(L->d, NNPERF_E_PARSE, "malformed %s at byte %lld: %s", what, off, why);
}

/* The error for a field pb_next refused; names the field when it is known in tab (may be NULL). */
enum nnperf_status ox_bad_field(struct ld *L, const char *what, const char *why, const uint8_t *at,
                                const struct pb_field *f, const struct fspec *tab, uint32_t n)
{
    if (why != pb_why_past_end) return ox_malformed(L, what, why, at);
    const char *fname = tab && f->num < n && tab[f->num].name ? tab[f->num].name : "?";
    char why2[160];
    snprintf(why2, sizeof why2, "field '%s' (%u) claims %llu bytes, the message has %zu left", fname, f->num,
             (unsigned long long)f->u, f->len);
    return ox_malformed(L, what, why2, at);
}

int ox_wire_error(struct ld *L, const char *what, const struct fspec *spec, const struct pb_field *f,
                  const uint8_t *at)
{
    int want = 0;
    while (!(spec->wires & (1u << want))) want++;
    char why[160];
    snprintf(why, sizeof why, "field '%s' (%u) has wire type %d, expected %d", spec->name, f->num, f->wire,
             want);
    ox_malformed(L, what, why, at);
    return 0;
}

#define OX_STR_CHUNK 4096
#define OX_STR_SHORT 256

const char *ox_str(struct ld *L, const struct pb_field *f)
{
    if (!L->pack_strings || f->len >= OX_STR_SHORT) return ar_strndup(L->ar, (const char *)f->data, f->len);
    size_t n = f->len + 1;
    if (n > L->str_left) {
        L->str_left = 0;
        if (!(L->str_next = ar_alloc(L->ar, OX_STR_CHUNK))) return NULL;
        L->str_left = OX_STR_CHUNK;
    }
    char *s = L->str_next;
    if (f->len) memcpy(s, f->data, f->len);
    s[f->len] = 0;
    L->str_next += n;
    L->str_left -= n;
    return s;
}

const char *ox_str_shared(struct ld *L, const struct pb_field *f)
{
    /* the entry last found for this length, first and last byte; then the others */
    unsigned h = f->len ? ((unsigned)f->len * 31u + f->data[0] * 7u + f->data[f->len - 1]) % OX_SHARED : 0;
    int at = L->shared_at[h] - 1;
    if (at >= 0 && L->shared[at].len == f->len && !memcmp(L->shared[at].s, f->data, f->len))
        return L->shared[at].s;
    for (int i = 0; i < L->n_shared; i++)
        if (L->shared[i].len == f->len && !memcmp(L->shared[i].s, f->data, f->len)) {
            L->shared_at[h] = (unsigned char)(i + 1);
            return L->shared[i].s;
        }
    const char *s = ox_str(L, f);
    if (s && L->n_shared < OX_SHARED) {
        L->shared[L->n_shared].s = s;
        L->shared[L->n_shared++].len = f->len;
        L->shared_at[h] = (unsigned char)L->n_shared;
    }
    return s;
}
