/* core.c - arena, diagnostics, checked arithmetic and the capped string buffer (see core.h). */
#define _DEFAULT_SOURCE /* madvise's MADV_POPULATE_WRITE beside _POSIX_C_SOURCE */
#include "core.h"

#include <errno.h>
#include <fcntl.h>
#include <locale.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <math.h>
#include <stdio.h>
#if defined(__SSE2__)
#include <emmintrin.h>
#endif
#include <stdlib.h>

/* ---- numbers in text, whatever locale the host program set ----
 * The calling thread switches to the C locale (uselocale: per thread, so other threads and the host's own setting are
 * untouched) for the one conversion and back. For "C", glibc's newlocale returns its built-in C locale object (no
 * allocation; freelocale ignores it). Were it to fail (out of memory), the conversion runs in the current locale. */
int c_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap)
{
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    int r = vsnprintf(buf, n, fmt, ap);
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    return r;
}

int c_snprintf(char *buf, size_t n, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    int r = c_vsnprintf(buf, n, fmt, ap);
    va_end(ap);
    return r;
}

double c_strtod(const char *s, char **end)
{
    locale_t c = newlocale(LC_ALL_MASK, "C", (locale_t)0);
    locale_t old = c ? uselocale(c) : (locale_t)0;
    double v = strtod(s, end);
    if (c) {
        uselocale(old);
        freelocale(c);
    }
    return v;
}

struct ar_block {
    struct ar_block *next;
    size_t size;
    size_t used;   /* bytes handed out, once the block is no longer the arena's head (the head's: a->next) */
    size_t mapped; /* 0: from malloc or calloc; else the length of the block's own mapping (ar_block_huge) */
    _Alignas(8) unsigned char data[];
};

#define AR_MIN_BLOCK     ((size_t)64 * 1024)
#define AR_SMALL_BLOCK   ((size_t)128 * 1024)
#define AR_ZERO_STEP     ((size_t)4 * 1024)
#define AR_PREFAULT_STEP ((size_t)256 * 1024)
#define AR_HUGE          ((size_t)2 * 1024 * 1024) /* a transparent huge page on x86-64 and most arm64 kernels */
#define AR_HUGE_MAX      ((size_t)8 * 1024 * 1024) /* the most one ar_expect takes as huge pages (ar_block_huge) */

/* Whatever ar_alloc hands out is zero. A block below AR_SMALL_BLOCK comes from the heap, where calloc would have to
 * clear all of it (the memory a freed arena left), while a prediction derived from another (nnperf_predict_batch)
 * uses 30 of its 64 KiB: it comes from malloc and is cleared AR_ZERO_STEP bytes ahead of the bump pointer.
 * A bigger block comes from calloc, which maps fresh pages of its own, each faulted in on its first write: about a
 * microsecond a page, a quarter of swin_t's analysis. When the bump pointer passes the part already prefaulted, the
 * next AR_PREFAULT_STEP bytes are mapped in one call (MADV_POPULATE_WRITE, Linux 5.14; elsewhere or when refused,
 * the pages fault one by one as before). At most one step ahead of what is handed out: peak memory grows by less
 * than 256 KiB per big block (swin_t 0.4 MB, the 100k chain 1.3 MB). */
static void ar_prefault(unsigned char *from, unsigned char *to) /* the whole pages between (also sb_room's) */
{
#if defined(MADV_POPULATE_WRITE)
    uintptr_t page = 4096, lo = ((uintptr_t)from + page - 1) & ~(page - 1), hi = (uintptr_t)to & ~(page - 1);
    if (hi > lo) madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
#else
    (void)from;
    (void)to;
#endif
}

static void ar_ready(struct arena *a, struct ar_block *b,
                     size_t n) /* n bytes from a->next on, and a step more */
{
    size_t from = (size_t)(a->next - b->data), ready = from + a->ready, used = from + n;
    size_t step = b->size < AR_SMALL_BLOCK ? AR_ZERO_STEP : AR_PREFAULT_STEP;
    size_t end = used + step < b->size ? used + step : b->size;
    if (b->mapped) { /* not past the huge page that holds the last byte handed out: the next one only when needed */
        size_t off = (size_t)(b->data - (unsigned char *)b),
               page_end = (off + used + AR_HUGE - 1) & ~(AR_HUGE - 1);
        if (end > page_end - off) end = page_end - off > used ? page_end - off : used;
    }
    if (b->size < AR_SMALL_BLOCK)
        memset(b->data + ready, 0, end - ready);
    else
        ar_prefault(b->data + ready, b->data + end);
    a->ready = end - from;
}

/* A block of whole transparent huge pages (at least sz bytes of data) in a mapping of its own aligned to AR_HUGE, for
 * ar_expect: the kernel gets 2 MB of fresh memory in one fault instead of 512 (on the 2-vCPU VM of bench/RESULTS.md
 * 0.11 ms for 4 MB instead of 1.6-2.0 ms faulted or prefaulted by 4 KiB pages, and unmapping 16 us instead of
 * 0.3 ms). NULL where there are no huge pages to ask for, or the mapping fails: the arena grows as before. ar_ready
 * prefaults no further than the huge page that holds the last byte handed out, so an estimate too high costs at most
 * the rest of one huge page. At most AR_HUGE_MAX: past some tens of megabytes the same VM clears huge pages far
 * slower (the 1M chain's estimated 314 MB as huge pages: system time 0.28 -> 0.66-0.86 s, clear_page_erms in
 * folio_zero_user a third of its samples). */
static struct ar_block *ar_block_huge(size_t sz)
{
#if defined(MADV_HUGEPAGE) && defined(MAP_ANONYMOUS)
    if (sz > SIZE_MAX / 2) return NULL;
    size_t len = (sizeof(struct ar_block) + sz + AR_HUGE - 1) & ~(AR_HUGE - 1);
    unsigned char *base =
        mmap(NULL, len + AR_HUGE, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (base == MAP_FAILED) return NULL;
    unsigned char *at = (unsigned char *)(((uintptr_t)base + AR_HUGE - 1) & ~(uintptr_t)(AR_HUGE - 1));
    if (at > base) munmap(base, (size_t)(at - base));
    munmap(at + len, (size_t)(base + AR_HUGE - at)); /* the tail: at < base + AR_HUGE */
    if (madvise(at, len, MADV_HUGEPAGE) != 0) {
        munmap(at, len);
        return NULL;
    }
    struct ar_block *b = (struct ar_block *)(void *)at;
    b->mapped = len;
    b->size = len - sizeof *b;
    return b;
#else
    (void)sz;
    return NULL;
#endif
}

void ar_init(struct arena *a, size_t cap)
{
    a->head = NULL;
    a->next = NULL;
    a->ready = 0;
    a->used_total = 0;
    a->cap = cap;
}

/* bytes handed out from block b of a */
static size_t ar_used(const struct arena *a, const struct ar_block *b)
{
    return b == a->head ? (size_t)(a->next - b->data) : b->used;
}

/* b becomes the head block allocations come from */
static void ar_push(struct arena *a, struct ar_block *b)
{
    if (a->head) a->head->used = ar_used(a, a->head);
    b->used = 0;
    b->next = a->head;
    a->head = b;
    a->next = b->data;
    a->ready = 0;
}

void ar_expect(struct arena *a, size_t n)
{
    size_t pages = n / AR_HUGE + (n % AR_HUGE >= AR_HUGE / 2);
    if (pages > AR_HUGE_MAX / AR_HUGE) pages = AR_HUGE_MAX / AR_HUGE;
    if (!pages || a->cap || (a->head && a->head->size - ar_used(a, a->head) >= n)) return;
    struct ar_block *b = ar_block_huge(pages * AR_HUGE - sizeof *b);
    if (b) ar_push(a, b);
}

void *ar_alloc_more(struct arena *a, size_t n)
{
    if (n == 0) n = 1;
    if (n > SIZE_MAX / 2) return NULL;
    n = (n + 7u) & ~(size_t)7u; /* 8 bytes: the largest field of any record (pointers, int64, double) */
    if (a->cap && (a->used_total > a->cap || n > a->cap - a->used_total)) return NULL;
    struct ar_block *b = a->head;
    if (b && b->mapped && n >= AR_SMALL_BLOCK && b->size - ar_used(a, b) < n) {
        /* a big request past the room of a block of huge pages (ar_expect) gets a block of its own behind it, so
         * that the huge pages go on serving the small records */
        struct ar_block *nb = calloc(1, sizeof(*nb) + n);
        if (!nb) return NULL;
        ar_prefault(nb->data, nb->data + n);
        nb->size = nb->used = n;
        nb->mapped = 0;
        nb->next = b->next;
        b->next = nb;
        a->used_total += n;
        return nb->data;
    }
    if (!b || b->size - ar_used(a, b) < n) {
        size_t sz = n > AR_MIN_BLOCK ? n : AR_MIN_BLOCK;
        /* grow block size with the arena so a big graph needs few blocks */
        if (a->used_total / 8 > sz && a->used_total / 8 < (size_t)64 * 1024 * 1024) sz = a->used_total / 8;
        sz = (sz + 7u) & ~(size_t)7u;
        /* calloc: a big block comes zeroed from fresh pages (mmap) without a memset touching every page now, and
         * nothing handed out is ever reused; a small one is zeroed as it is handed out (ar_ready) */
        struct ar_block *nb = sz < AR_SMALL_BLOCK ? malloc(sizeof(*nb) + sz) : calloc(1, sizeof(*nb) + sz);
        if (!nb) return NULL;
        nb->size = sz;
        nb->mapped = 0;
        ar_push(a, nb);
        b = nb;
    }
    void *p = a->next;
    if (n > a->ready) ar_ready(a, b, n);
    a->next += n;
    a->ready -= n;
    a->used_total += n;
    return p;
}

char *ar_strndup(struct arena *a, const char *s, size_t n)
{
    char *p = ar_alloc(a, n + 1);
    if (!p) return NULL;
    if (n) memcpy(p, s, n);
    p[n] = 0;
    return p;
}

char *ar_strdup(struct arena *a, const char *s)
{
    return ar_strndup(a, s, strlen(s));
}

uint64_t ar_digest(const struct arena *a)
{
    uint64_t h = 1469598103934665603ull;
    for (const struct ar_block *b = a->head; b; b = b->next)
        for (size_t i = 0, n = ar_used(a, b); i < n; i++) h = (h ^ b->data[i]) * 1099511628211ull;
    return h;
}

char *ar_printf(struct arena *a, const char *fmt, ...)
{
    char tmp[512];
    va_list ap;
    va_start(ap, fmt);
    int n = c_vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return NULL;
    if ((size_t)n < sizeof tmp) return ar_strndup(a, tmp, (size_t)n);
    char *p = ar_alloc(a, (size_t)n + 1);
    if (!p) return NULL;
    va_start(ap, fmt);
    c_vsnprintf(p, (size_t)n + 1, fmt, ap);
    va_end(ap);
    return p;
}

int ar_append_msg(struct arena *a, const char ***v, int *n, int *cap, int max, const char *fmt, va_list ap)
{
    if (*n >= max) return -1;
    if (*n == *cap) {
        int nc = *cap ? *cap * 2 : 16;
        const char **nv = ar_calloc(a, (size_t)nc, sizeof *nv);
        if (!nv) return 0;
        if (*n) memcpy(nv, *v, (size_t)*n * sizeof *nv);
        *v = nv;
        *cap = nc;
    }
    char buf[600];
    c_vsnprintf(buf, sizeof buf, fmt, ap);
    const char *s = ar_strdup(a, buf);
    if (!s) return 0;
    (*v)[(*n)++] = s;
    return 1;
}

void ar_free(struct arena *a)
{
    struct ar_block *b = a->head;
    while (b) {
        struct ar_block *n = b->next;
        if (b->mapped)
            munmap(b, b->mapped);
        else
            free(b);
        b = n;
    }
    a->head = NULL;
    a->next = NULL;
    a->ready = 0;
    a->used_total = 0;
}

static enum nnperf_status diag_vset(struct diag *d, enum nnperf_status st, const char *fmt, va_list ap)
{
    if (!d) return st;
    if (d->status != NNPERF_OK) return d->status;
    d->status = st;
    c_vsnprintf(d->msg, sizeof d->msg, fmt, ap);
    return st;
}

enum nnperf_status diag_set(struct diag *d, enum nnperf_status st, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    enum nnperf_status r = diag_vset(d, st, fmt, ap);
    va_end(ap);
    return r;
}

void diag_prefix(struct diag *d, const char *fmt, ...)
{
    if (!d || d->status == NNPERF_OK) return;
    char pre[256], old[sizeof d->msg];
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(pre, sizeof pre, fmt, ap);
    va_end(ap);
    memcpy(old, d->msg, sizeof old);
    size_t pl = strlen(pre);
    if (pl >= sizeof d->msg) pl = sizeof d->msg - 1;
    memcpy(d->msg, pre, pl);
    size_t ol = strlen(old);
    if (ol > sizeof d->msg - 1 - pl) ol = sizeof d->msg - 1 - pl;
    memcpy(d->msg + pl, old, ol);
    d->msg[pl + ol] = 0;
}

int ck_mul_i64(int64_t a, int64_t b, int64_t *r)
{
    int64_t t;
    if (__builtin_mul_overflow(a, b, &t)) return 0;
    *r = t;
    return 1;
}

int ck_add_i64(int64_t a, int64_t b, int64_t *r)
{
    int64_t t;
    if (__builtin_add_overflow(a, b, &t)) return 0;
    *r = t;
    return 1;
}

static int ck_mul_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    uint64_t t;
    if (__builtin_mul_overflow(a, b, &t)) return 0;
    *r = t;
    return 1;
}

static int ck_add_u64(uint64_t a, uint64_t b, uint64_t *r)
{
    uint64_t t;
    if (__builtin_add_overflow(a, b, &t)) return 0;
    *r = t;
    return 1;
}

uint64_t ck_sat_add(uint64_t a, uint64_t b)
{
    uint64_t r;
    return ck_add_u64(a, b, &r) ? r : UINT64_MAX;
}

uint64_t ck_sat_mul(uint64_t a, uint64_t b)
{
    uint64_t r;
    return ck_mul_u64(a, b, &r) ? r : UINT64_MAX;
}

void sb_init(struct strbuf *s, size_t cap)
{
    s->p = NULL;
    s->len = s->alloc = s->ready = 0;
    s->cap = cap;
    s->overflow = 0;
}

#define SB_BIG           ((size_t)256 * 1024)
#define SB_PREFAULT_STEP ((size_t)256 * 1024)

/* grows the buffer to hold n more bytes, the NUL and slack bytes after it (memory only: the cap counts n); 0 (and
 * overflow set) when refused. A big buffer's fresh pages (realloc maps them and each faults in on its first write,
 * about as long as writing the page's JSON takes) are prefaulted SB_PREFAULT_STEP bytes ahead of what is written, in
 * one call as the arena does (ar_ready); ready marks how far. */
static int sb_room(struct strbuf *s, size_t n, size_t slack)
{
    if (s->overflow) return 0;
    if (n > SIZE_MAX / 4 - s->len - slack || (s->cap && s->len + n > s->cap)) {
        s->overflow = 1;
        return 0;
    }
    size_t need = s->len + n + 1 + slack;
    if (need > s->alloc) {
        size_t na = s->alloc ? s->alloc : 256;
        while (na < need) na *= 2;
        char *q = realloc(s->p, na);
        if (!q) {
            s->overflow = 1;
            return 0;
        }
        s->p = q;
        s->alloc = na;
    }
    if (need > s->ready) {
        size_t end =
            s->alloc < SB_BIG || s->alloc - need < SB_PREFAULT_STEP ? s->alloc : need + SB_PREFAULT_STEP;
        if (s->alloc >= SB_BIG) ar_prefault((unsigned char *)s->p + s->ready, (unsigned char *)s->p + end);
        s->ready = end;
    }
    return 1;
}

void sb_putn(struct strbuf *s, const char *p, size_t n)
{
    if (!sb_room(s, n, 0)) return;
    memcpy(s->p + s->len, p, n);
    s->len += n;
    s->p[s->len] = 0;
}

void sb_puts(struct strbuf *s, const char *p)
{
    sb_putn(s, p, strlen(p));
}

void sb_putc_slow(struct strbuf *s, char c)
{
    if (!sb_room(s, 1, 0)) return;
    s->p[s->len++] = c;
    s->p[s->len] = 0;
}

char *sb_reserve_slow(struct strbuf *s, size_t n)
{
    return sb_room(s, n, SB_SLACK) ? s->p + s->len : NULL;
}

/* 10^0 to 10^19, the powers of ten a 64-bit integer holds */
static const uint64_t p10[20] = {1ull,
                                 10ull,
                                 100ull,
                                 1000ull,
                                 10000ull,
                                 100000ull,
                                 1000000ull,
                                 10000000ull,
                                 100000000ull,
                                 1000000000ull,
                                 10000000000ull,
                                 100000000000ull,
                                 1000000000000ull,
                                 10000000000000ull,
                                 100000000000000ull,
                                 1000000000000000ull,
                                 10000000000000000ull,
                                 100000000000000000ull,
                                 1000000000000000000ull,
                                 10000000000000000000ull};

size_t core_digits(char *o, unsigned long long x)
{
    static const char pairs[] =
        "00010203040506070809101112131415161718192021222324252627282930313233343536373839"
        "40414243444546474849505152535455565758596061626364656667686970717273747576777879"
        "8081828384858687888990919293949596979899";
    /* floor(log10(x)) (0 for 0): (floor(log2(x)) + 1) * 1233 / 4096 (1233 / 4096 ~ log10(2)) is it or one more */
    unsigned long long x1 = x | 1;
    int t = (64 - __builtin_clzll(x1)) * 1233 >> 12;
    size_t n = (size_t)(t - (x1 < p10[t])) + 1;
    char *e = o + n;
    while (x >= 100) { /* two digits a step, from the right */
        unsigned d = (unsigned)(x % 100) * 2;
        x /= 100;
        *--e = pairs[d + 1];
        *--e = pairs[d];
    }
    if (x >= 10) {
        *--e = pairs[x * 2 + 1];
        *--e = pairs[x * 2];
    } else {
        *--e = (char)('0' + x);
    }
    return n;
}

size_t core_idigits(char *o, long long x)
{
    o[0] = '-';
    return (size_t)(x < 0) +
           core_digits(o + (x < 0), x < 0 ? 0ull - (unsigned long long)x : (unsigned long long)x);
}

/* the n bytes at b (room for SB_SLACK: copied at that fixed size) */
static void sb_put_short(struct strbuf *s, const char b[SB_SLACK], size_t n)
{
    char *o = sb_reserve(s, n);
    if (!o) return;
    memcpy(o, b, SB_SLACK);
    sb_wrote(s, n);
}

void sb_uint(struct strbuf *s, unsigned long long x)
{
    char b[SB_SLACK];
    sb_put_short(s, b, core_digits(b, x));
}

void sb_int(struct strbuf *s, long long x)
{
    char b[SB_SLACK];
    sb_put_short(s, b, core_idigits(b, x));
}

void sb_printf(struct strbuf *s, const char *fmt, ...)
{
    char tmp[1024];
    va_list ap;
    va_start(ap, fmt);
    int n = c_vsnprintf(tmp, sizeof tmp, fmt, ap);
    va_end(ap);
    if (n < 0) return;
    if ((size_t)n < sizeof tmp) {
        sb_putn(s, tmp, (size_t)n);
        return;
    }
    char *big = malloc((size_t)n + 1);
    if (!big) {
        s->overflow = 1;
        return;
    }
    va_start(ap, fmt);
    c_vsnprintf(big, (size_t)n + 1, fmt, ap);
    va_end(ap);
    sb_putn(s, big, (size_t)n);
    free(big);
}

/* The first of "%.15g", "%.16g", "%.17g" that reads back as x (the slow, general way: printf and strtod). */
static void exact_printf(char *b, size_t n, double x)
{
    for (int prec = 15; prec <= 17; prec++) {
        c_snprintf(b, n, "%.*g", prec, x);
        if (c_strtod(b, NULL) == x) return;
    }
}

#if defined(__SIZEOF_INT128__)
__extension__ typedef unsigned __int128 exact_u128;

/* exact_printf's text for a non-integer x with 1e-6 <= |x| < 2^53, in exact integer arithmetic (no printf, no
 * strtod); 0 for any other x (the caller then takes exact_printf). With x = m / 2^E (m the 53-bit significand) and
 * s chosen so that N = floor(x * 10^s) has 17 digits, M = m * 10^s = x * 10^s * 2^E is an exact integer below 2^127:
 * - printf's "%.Pg" is x rounded to P significant digits, ties to even (glibc rounds the exact binary value in the
 *   current rounding mode, to nearest): the 17-digit N with its remainder M mod 2^E, rounded at digit P;
 * - strtod reads a decimal D back as x when D lies within half a gap of x (a quarter below a power of two, where the
 *   gap below halves), a tie going to the even significand: |D * 10^s * 2^E - M| against 10^s / 2 (or / 4);
 * - the text is "%g"'s: style e when the rounded exponent is below -4 or at least P, trailing zeros dropped.
 * tests/unit/test_report.c compares it with exact_printf's way over random and edge-case doubles. */
static int exact_fast(char *b, size_t n, double x)
{
    uint64_t bits;
    memcpy(&bits, &x, sizeof bits);
    int bexp = (int)(bits >> 52 & 0x7ff);
    if (n < 32 || bexp == 0 || bexp == 0x7ff) return 0;
    uint64_t m = (bits & ((1ull << 52) - 1)) | 1ull << 52;
    int E = 1075 - bexp; /* x = m / 2^E */
    if (E <= 0 || E > 80) return 0;
    /* 10^X <= |x| < 10^(X+1): X is floor(log10(2) * k) or one more, where 2^k <= |x| < 2^(k+1) */
    int k = 52 - E;
    int X = k >= 0 ? (k * 78913) >> 18 : -((-k * 78913 + 262143) >> 18); /* floor(k * log10(2)), |k| < 1600 */
    if (X < -6 || X > 15) return 0;
    int s = 16 - X;
    exact_u128 pw = s <= 19 ? p10[s] : (exact_u128)p10[19] * p10[s - 19];
    exact_u128 M = (exact_u128)m * pw;
    uint64_t N = (uint64_t)(M >> E);
    if (N >= p10[17]) { /* X one more */
        X++;
        s--;
        pw = s <= 19 ? p10[s] : (exact_u128)p10[19] * p10[s - 19];
        M = (exact_u128)m * pw;
        N = (uint64_t)(M >> E);
    }
    if (N < p10[16] || N >= p10[17]) return 0; /* cannot happen; the general way then */
    exact_u128 T = (exact_u128)1 << E, r = M & (T - 1);
    int P;
    uint64_t q = 0;
    for (P = 15; P <= 17; P++) {
        uint64_t div = p10[17 - P];
        q = N / div;
        exact_u128 half2 = 2 * ((exact_u128)(N % div) * T + r), unit = (exact_u128)div * T;
        if (half2 > unit || (half2 == unit && (q & 1))) q++;
        exact_u128 Y = (exact_u128)(q * div) * T;
        exact_u128 d = Y >= M ? Y - M : M - Y;
        exact_u128 dk = d * (Y < M && m == 1ull << 52 ? 4 : 2);
        if (dk < pw || (dk == pw && !(m & 1))) break;
    }
    if (P > 17) return 0; /* 17 digits always read back: cannot happen */
    if (q == p10[P]) {    /* rounded up to the next power of ten */
        q = p10[P - 1];
        X++;
    }
    char dg[20];
    for (int i = P - 1; i >= 0; i--) {
        dg[i] = (char)('0' + q % 10);
        q /= 10;
    }
    int nd = P;
    while (nd > 1 && dg[nd - 1] == '0') nd--;
    char *o = b;
    if (bits >> 63) *o++ = '-';
    if (X < -4 || X >= P) {
        *o++ = dg[0];
        if (nd > 1) {
            *o++ = '.';
            for (int i = 1; i < nd; i++) *o++ = dg[i];
        }
        int e = X < 0 ? -X : X;
        *o++ = 'e';
        *o++ = X < 0 ? '-' : '+';
        *o++ = (char)('0' + e / 10);
        *o++ = (char)('0' + e % 10);
    } else if (X >= 0) {
        for (int i = 0; i <= X; i++) *o++ = dg[i];
        if (nd > X + 1) {
            *o++ = '.';
            for (int i = X + 1; i < nd; i++) *o++ = dg[i];
        }
    } else {
        *o++ = '0';
        *o++ = '.';
        for (int i = 0; i < -X - 1; i++) *o++ = '0';
        for (int i = 0; i < nd; i++) *o++ = dg[i];
    }
    *o = 0;
    return 1;
}
#else
static int exact_fast(char *b, size_t n, double x)
{
    (void)b, (void)n, (void)x;
    return 0;
}
#endif

size_t core_exact(char *b, size_t n, double x)
{
    if (!n) return 0;
    if (!isfinite(x)) {
        snprintf(b, n, "null");
    } else if (x == floor(x) && fabs(x) < 9007199254740992.0) {
        /* an integer: digits by hand (printf's floating-point path is the slow part of large reports); -0.0 is 0 */
        char t[24];
        size_t k = core_idigits(t, (long long)x);
        if (k > n - 1) k = n - 1;
        memcpy(b, t, k);
        b[k] = 0;
        return k;
    } else if (!exact_fast(b, n, x)) {
        exact_printf(b, n, x);
    }
    return strlen(b);
}

int core_utf8_len(const char *p, unsigned *cp)
{
    const unsigned char *u = (const unsigned char *)p;
    unsigned c = u[0];
    if (c < 0x80) {
        if (cp) *cp = c;
        return c ? 1 : 0;
    }
    if (c < 0xc2 || c > 0xf4) return 0;
    int n = c < 0xe0 ? 2 : c < 0xf0 ? 3 : 4;
    unsigned v = c & (0x7fu >> n);
    for (int i = 1; i < n; i++) { /* stops at the NUL: it is no continuation byte */
        if ((u[i] & 0xc0) != 0x80) return 0;
        v = v << 6 | (u[i] & 0x3fu);
    }
    if ((n == 3 && v < 0x800) || (n == 4 && (v < 0x10000 || v > 0x10ffff)) || (v >= 0xd800 && v <= 0xdfff))
        return 0;
    if (cp) *cp = v;
    return n;
}

int core_text_char(const char *p)
{
    unsigned cp;
    int n = core_utf8_len(p, &cp);
    /* U+2028 and U+2029 end a line for YAML (a comment would end there) and some terminals; the bidirectional
     * controls (U+061C, U+200E-200F, U+202A-202E, U+2066-2069) reorder what a terminal or editor shows, so a name
     * could make a line read as another (the "Trojan Source" attack) */
    if (!n || cp < 0x20 || (cp >= 0x7f && cp < 0xa0) || cp == 0x2028 || cp == 0x2029 || cp == 0xfffe ||
        cp == 0xffff || cp == 0x061c || cp == 0x200e || cp == 0x200f || (cp >= 0x202a && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069))
        return 0;
    return n;
}

/* past the printable ASCII bytes at p (' ' to '~', which core_text_char takes one at a time) */
static const char *skip_ascii(const char *p)
{
    while ((unsigned char)(*p - 0x20) < 0x5f) p++;
    return p;
}

int core_text_plain(const char *p)
{
    for (int n; *(p = skip_ascii(p)); p += n)
        if (!(n = core_text_char(p))) return 0;
    return 1;
}

void sb_put_text(struct strbuf *s, const char *p, const char *keep)
{
    const char *run = p; /* printable characters are appended in one go */
    while (*(p = skip_ascii(p))) {
        int n = core_text_char(p);
        if (n) {
            p += n;
            continue;
        }
        sb_putn(s, run, (size_t)(p - run));
        if (keep && strchr(keep, *p))
            sb_putc(s, *p);
        else
            sb_printf(s, "\\x%02x", (unsigned char)*p);
        run = ++p;
    }
    sb_putn(s, run, (size_t)(p - run));
}

/* 1 for the bytes a JSON string escapes: control characters, '"' and '\\' */
static const unsigned char json_esc[256] = {
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
    0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0,
    0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0,
};

/* nonzero when one of the 8 bytes of w is one a JSON string escapes: below 0x20, or '"' or '\\' (w XOR that byte
 * has a zero byte); (x - 0x01..01 * k) & ~x & 0x80..80 is nonzero exactly when a byte of x is below k, k <= 0x80 */
static inline uint64_t json_word_esc(uint64_t w)
{
    const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
    uint64_t q = w ^ (ones * '"'), b = w ^ (ones * '\\');
    return (((w - ones * 0x20) & ~w) | ((q - ones) & ~q) | ((b - ones) & ~b)) & high;
}

#if defined(__SSE2__)
/* nonzero when one of the 16 bytes of v is one a JSON string escapes: '"', '\\', or at most 0x1f (max(c, 0x1f) is
 * 0x1f) */
static inline int json_vec_esc(__m128i v)
{
    const __m128i c1f = _mm_set1_epi8(0x1f);
    __m128i e = _mm_or_si128(_mm_cmpeq_epi8(v, _mm_set1_epi8('"')), _mm_cmpeq_epi8(v, _mm_set1_epi8('\\')));
    return _mm_movemask_epi8(_mm_or_si128(e, _mm_cmpeq_epi8(_mm_max_epu8(v, c1f), c1f)));
}
#endif

/* The words overlap where n is not a multiple of their size: the last word ends at the last byte; 8 to 15 bytes (SSE2)
 * are two overlapping 8-byte words checked as one vector, 4 to 7 two overlapping 4-byte words checked as one word. */
int core_json_copy(char *o, const char *p, size_t n)
{
#if defined(__SSE2__)
    if (n >= 16) {
        __m128i v;
        for (size_t i = 0; i + 16 < n; i += 16) {
            v = _mm_loadu_si128((const __m128i *)(const void *)(p + i));
            if (json_vec_esc(v)) return 0;
            _mm_storeu_si128((__m128i *)(void *)(o + i), v);
        }
        v = _mm_loadu_si128((const __m128i *)(const void *)(p + n - 16));
        if (json_vec_esc(v)) return 0;
        _mm_storeu_si128((__m128i *)(void *)(o + n - 16), v);
        return 1;
    }
    if (n >= 8) {
        __m128i lo = _mm_loadl_epi64((const __m128i *)(const void *)p),
                hi = _mm_loadl_epi64((const __m128i *)(const void *)(p + n - 8));
        if (json_vec_esc(_mm_unpacklo_epi64(lo, hi))) return 0;
        _mm_storel_epi64((__m128i *)(void *)o, lo);
        _mm_storel_epi64((__m128i *)(void *)(o + n - 8), hi);
        return 1;
    }
#else
    if (n >= 8) {
        uint64_t w;
        for (size_t i = 0; i + 8 < n; i += 8) {
            memcpy(&w, p + i, 8);
            if (json_word_esc(w)) return 0;
            memcpy(o + i, &w, 8);
        }
        memcpy(&w, p + n - 8, 8);
        if (json_word_esc(w)) return 0;
        memcpy(o + n - 8, &w, 8);
        return 1;
    }
#endif
    if (n >= 4) {
        uint32_t lo, hi;
        memcpy(&lo, p, 4);
        memcpy(&hi, p + n - 4, 4);
        if (json_word_esc((uint64_t)hi << 32 | lo)) return 0;
        memcpy(o, &lo, 4);
        memcpy(o + n - 4, &hi, 4);
        return 1;
    }
    for (size_t i = 0; i < n; i++) {
        unsigned char c = (unsigned char)p[i];
        if (json_esc[c]) return 0;
        o[i] = (char)c;
    }
    return 1;
}

static void json_str_escaped(struct strbuf *s, const char *p);

/* the common case with one check of the room: p has nothing to escape: writes '"', its n bytes, '"' and tail (0:
 * none) and returns 1; else returns 0 with nothing appended (or overflow set: the cap or memory refused what is at
 * least as long as the escaped text) */
static int json_plain(struct strbuf *s, const char *p, size_t n, char tail)
{
    size_t need = n + 2 + (tail != 0);
    char *o = sb_reserve(s, need);
    if (!o) return 1;
    if (!core_json_copy(o + 1, p, n)) return 0;
    o[0] = '"';
    o[n + 1] = '"';
    if (tail) o[n + 2] = tail;
    sb_wrote(s, need);
    return 1;
}

void sb_json_str(struct strbuf *s, const char *p)
{
    if (!json_plain(s, p, strlen(p), 0)) json_str_escaped(s, p);
}

void sb_json_key(struct strbuf *s, const char *p)
{
    if (json_plain(s, p, strlen(p), ':')) return;
    json_str_escaped(s, p);
    sb_putc(s, ':');
}

static void json_str_escaped(struct strbuf *s, const char *p)
{
    const unsigned char *c = (const unsigned char *)p, *end = c + strlen(p);
    sb_putc(s, '"');
    const char *run = p; /* characters that need no escaping are appended in one go */
    for (;; c++) {
        if (c < end && !json_esc[*c]) continue;
        sb_putn(s, run, (size_t)((const char *)c - run));
        if (c == end) break;
        switch (*c) {
        case '"': sb_puts(s, "\\\""); break;
        case '\\': sb_puts(s, "\\\\"); break;
        case '\n': sb_puts(s, "\\n"); break;
        case '\r': sb_puts(s, "\\r"); break;
        case '\t': sb_puts(s, "\\t"); break;
        default: sb_printf(s, "\\u%04x", *c);
        }
        run = (const char *)c + 1;
    }
    sb_putc(s, '"');
}

void sb_free(struct strbuf *s)
{
    free(s->p);
    s->p = NULL;
    s->len = s->alloc = s->ready = 0;
}

int core_open_regular(const char *path, struct stat *st, struct diag *d)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0) {
        diag_set(d, NNPERF_E_IO, "'%s': cannot open: %s", path, strerror(errno));
        return -1;
    }
    if (fstat(fd, st) != 0) {
        diag_set(d, NNPERF_E_IO, "'%s': cannot read: %s", path, strerror(errno));
        close(fd);
        return -1;
    }
    if (!S_ISREG(st->st_mode)) {
        close(fd);
        diag_set(d, NNPERF_E_IO, "'%s': not a regular file (%s)", path, core_file_kind(st->st_mode));
        return -1;
    }
    return fd;
}

const char *core_file_kind(unsigned mode)
{
    mode_t m = (mode_t)mode;
    return S_ISDIR(m)    ? "a directory"
           : S_ISFIFO(m) ? "a FIFO"
           : S_ISCHR(m)  ? "a character device"
           : S_ISBLK(m)  ? "a block device"
           : S_ISSOCK(m) ? "a socket"
                         : "not a plain file";
}

enum nnperf_status core_read_file(const char *path, size_t cap, char **out, size_t *len, struct diag *d)
{
    *out = NULL;
    *len = 0;
    struct stat sbuf;
    int fd = core_open_regular(path, &sbuf, d);
    if (fd < 0) return d->status;
    if ((uint64_t)sbuf.st_size > cap) {
        close(fd);
        return diag_set(d, NNPERF_E_LIMIT, "'%s': larger than the limit of %zu bytes", path, cap);
    }
    size_t n = (size_t)sbuf.st_size, got = 0;
    char *buf = malloc(n + 1);
    if (!buf) {
        close(fd);
        return diag_set(d, NNPERF_E_NOMEM, "'%s': out of memory", path);
    }
    while (got < n) {
        ssize_t r = read(fd, buf + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    close(fd);
    if (got != n) {
        free(buf);
        return diag_set(d, NNPERF_E_IO, "'%s': short read", path);
    }
    buf[n] = 0;
    *out = buf;
    *len = n;
    return NNPERF_OK;
}

void nnperf_free(void *p)
{
    free(p);
}

/* ---- "did you mean" ---- */

/* Optimal string alignment distance (Levenshtein plus adjacent transpositions), capped: both strings are at most
 * 63 bytes here, longer ones are never suggested. */
static int edit_distance(const char *a, const char *b)
{
    size_t n = strlen(a), m = strlen(b);
    if (n > 63 || m > 63) return 1000;
    int d[64][64];
    for (size_t i = 0; i <= n; i++) d[i][0] = (int)i;
    for (size_t j = 0; j <= m; j++) d[0][j] = (int)j;
    for (size_t i = 1; i <= n; i++)
        for (size_t j = 1; j <= m; j++) {
            int cost = a[i - 1] != b[j - 1];
            int v = d[i - 1][j] + 1;
            if (d[i][j - 1] + 1 < v) v = d[i][j - 1] + 1;
            if (d[i - 1][j - 1] + cost < v) v = d[i - 1][j - 1] + cost;
            if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] && d[i - 2][j - 2] + 1 < v)
                v = d[i - 2][j - 2] + 1;
            d[i][j] = v;
        }
    return d[n][m];
}

const char *nnperf_suggest(const char *word, const char *const *cands, int n)
{
    if (!word || !cands) return NULL;
    int len = (int)strlen(word), limit = len / 3 > 1 ? len / 3 : 1, best = limit + 1;
    const char *pick = NULL;
    for (int i = 0; i < n; i++) {
        if (!cands[i] || !strcmp(cands[i], word)) continue;
        int d = edit_distance(word, cands[i]);
        if (d < best) best = d, pick = cands[i];
    }
    return pick;
}
