/* core.h - the small utilities every module uses: an arena allocator, the diagnostic that keeps the first
 * error with its context, overflow-checked integer arithmetic and a capped string buffer.
 *
 * The library's rule on state: no mutable global state. No writable file-scope or function-static variable (thread-
 * local ones included): no caches, counters, or comparator context in globals. All state lives in the objects the
 * caller holds (model, analysis, prediction, platform, ...) and is passed down as arguments or context structs; a sort
 * takes its context as an argument (report/view.c's merge sort) or compares only its elements. Constant tables are
 * fine. So distinct objects may be used from distinct threads, and a loaded model, never written after loading, may
 * be analysed from several threads at once. tests/lint/no_globals.sh checks the object files. */
#ifndef NNPERF_CORE_H
#define NNPERF_CORE_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include "nnperf.h"

/* ---- numbers in text: the same whatever locale the host program set (a comma-decimal LC_NUMERIC included) ----
 * Every number the library prints or parses goes through these (or through sb_printf, ar_printf, diag_set, which use
 * them), never through the C library's locale-dependent snprintf("%g")/strtod: JSON, CSV, YAML and tables always
 * have a '.' decimal point. Thread-safe (the C locale is selected per thread, per call). Checked by
 * tests/lint/locale_free.py. */
int c_vsnprintf(char *buf, size_t n, const char *fmt, va_list ap);
int c_snprintf(char *buf, size_t n, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
double c_strtod(const char *s, char **end); /* strtod in the C locale */

/* ---- arena: bump allocator over a list of blocks; everything is released at once ---- */
struct ar_block;
struct arena {
    struct ar_block *head; /* the block allocations come from; older ones after it */
    unsigned char *next;   /* head's bump pointer */
    size_t ready;          /* bytes from next on that are made ready (zeroed, core.c's ar_ready) */
    size_t used_total;     /* bytes handed out, for the size cap */
    size_t cap;            /* 0 = no cap; a request past it fails with NNPERF_E_LIMIT */
};

void ar_init(struct arena *a, size_t cap);
/* ar_alloc when the head block has no ready room for n bytes, or the arena has a cap (a new block, more of it made
 * ready, the cap's check) */
void *ar_alloc_more(struct arena *a, size_t n);
/* Zeroed memory aligned to 8 bytes, or NULL when out of memory or over the cap. Inline for what the head block has
 * ready (a loaded model makes about 80,000 allocations). */
static inline void *ar_alloc(struct arena *a, size_t n)
{
    size_t r = (n + 7u) & ~(size_t)7u; /* 0 for n = 0 and for an n that wraps: both go to ar_alloc_more */
    if (r - 1 >= a->ready || a->cap) return ar_alloc_more(a, n);
    void *p = a->next;
    a->next += r;
    a->ready -= r;
    a->used_total += r;
    return p;
}
/* n elements of size sz, checked for overflow. */
static inline void *ar_calloc(struct arena *a, size_t n, size_t sz)
{
    return sz && n > SIZE_MAX / sz ? NULL : ar_alloc(a, n * sz);
}
char *ar_strndup(struct arena *a, const char *s, size_t n);
char *ar_strdup(struct arena *a, const char *s);
char *ar_printf(struct arena *a, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* The arena is about to hand out at least about n bytes more (a caller's estimate from counts it has): when that is
 * a megabyte or more, they come from a block of transparent huge pages of n bytes rounded to whole pages (core.c's
 * ar_block_huge; past it the arena grows as before). An estimate too high costs at most the untouched rest of one
 * huge page. */
void ar_expect(struct arena *a, size_t n);
void ar_free(struct arena *a);
/* A digest (FNV-1a) of every byte handed out so far: equal before and after an operation that must not write into
 * the arena's objects (tests check that an analysis leaves its model untouched). */
uint64_t ar_digest(const struct arena *a);
/* Appends a formatted message (copied into the arena) to the growable list *v of *n entries (capacity *cap),
 * holding at most max: returns 1 when added, -1 when the list is full, 0 when out of memory. */
int ar_append_msg(struct arena *a, const char ***v, int *n, int *cap, int max, const char *fmt, va_list ap);

/* ---- diagnostics: the first error wins, later ones are dropped ---- */
struct diag {
    enum nnperf_status status;
    char msg[512];
};

/* Records the error unless one is already recorded; returns the status to propagate (the first one). */
enum nnperf_status diag_set(struct diag *d, enum nnperf_status st, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* Prefixes the recorded message with context ("file.onnx: "), used while unwinding. */
void diag_prefix(struct diag *d, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* ---- checked arithmetic: return 0 and leave *r untouched on overflow ---- */
int ck_mul_i64(int64_t a, int64_t b, int64_t *r);
int ck_add_i64(int64_t a, int64_t b, int64_t *r);
/* Saturating forms for cost totals: a count that overflows uint64 is reported as UINT64_MAX. */
uint64_t ck_sat_add(uint64_t a, uint64_t b);
uint64_t ck_sat_mul(uint64_t a, uint64_t b);

/* ---- string buffer with a size cap; an append past the cap sets 'overflow' and is dropped ---- */
struct strbuf {
    char *p;
    size_t len, alloc, cap;
    size_t
        ready; /* the appends' fast paths write below p + ready (<= alloc): a big buffer's pages prefaulted */
    int overflow; /* 1 after an append was refused (cap) or allocation failed */
};

/* Reads a whole regular file (a FIFO, device or directory is refused before reading) of at most cap bytes into a
 * malloc'd, NUL-terminated buffer (*out, *len without the NUL). Errors name the file and the cause (strerror):
 * NNPERF_E_IO, NNPERF_E_LIMIT (larger than cap), NNPERF_E_NOMEM. */
enum nnperf_status core_read_file(const char *path, size_t cap, char **out, size_t *len, struct diag *d);
/* Opens path for reading, refusing anything but a regular file (O_NONBLOCK: a FIFO never blocks the open); fills
 * *st. Returns the descriptor, or -1 with NNPERF_E_IO in d naming the file and the cause. */
struct stat;
int core_open_regular(const char *path, struct stat *st, struct diag *d);
/* What a file that is not a regular one is, for messages: "a directory", "a FIFO", "a character device", ... (the
 * st_mode of stat). */
const char *core_file_kind(unsigned mode);

void sb_init(struct strbuf *s, size_t cap);
void sb_putn(struct strbuf *s, const char *p, size_t n);
void sb_puts(struct strbuf *s, const char *p);
void sb_putc_slow(struct strbuf *s, char c);
/* one byte; inline while it fits the buffer and the cap (reports write millions of them), else sb_putc_slow */
static inline void sb_putc(struct strbuf *s, char c)
{
    if (!s->overflow && s->len + 2 <= s->ready && (!s->cap || s->len < s->cap)) {
        s->p[s->len++] = c;
        s->p[s->len] = 0;
        return;
    }
    sb_putc_slow(s, c);
}
#define SB_SLACK 64 /* bytes past a reservation and its NUL that may be written over (sb_reserve) */
char *sb_reserve_slow(struct strbuf *s, size_t n)
#if defined(__GNUC__)
    __attribute__((cold)) /* the fast path keeps its registers */
#endif
    ;
/* Room for n more bytes and the NUL after them (grown as needed): where to write them, then sb_wrote(s, n); or NULL,
 * with overflow set, when the cap or memory refuses (so reserve exactly what will be written: a reservation past the
 * cap is an append past it). SB_SLACK bytes after the NUL may be written too and are dropped (a fixed-size copy of a
 * short piece, with no call). Writers that know a piece's length write it with one check instead of one per byte. */
static inline char *sb_reserve(struct strbuf *s, size_t n)
{
    if (!s->overflow && n < SIZE_MAX / 2 && s->ready - s->len > n + SB_SLACK &&
        (!s->cap || s->cap - s->len >= n))
        return s->p + s->len; /* (n + SB_SLACK cannot wrap) */
    return sb_reserve_slow(s, n);
}
/* counts the n bytes written at sb_reserve's pointer and ends the text after them */
static inline void sb_wrote(struct strbuf *s, size_t n)
{
    s->len += n;
    s->p[s->len] = 0;
}
void sb_uint(struct strbuf *s, unsigned long long x); /* decimal digits, as "%llu" writes them */
void sb_int(struct strbuf *s, long long x);           /* as "%lld" */
/* The decimal digits of x, as "%llu" writes them, at o (room for 20; no NUL); returns how many. */
size_t core_digits(char *o, unsigned long long x);
/* x as "%lld" writes it, at o (room for 20; no NUL); returns its length. */
size_t core_idigits(char *o, long long x);
void sb_printf(struct strbuf *s, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* A double as exact text for machine-readable outputs (JSON, CSV): integers below 2^53 without a fraction ("0", never
 * "-0"), others with the fewest significant digits (15 to 17) that read back as the same double; "null" when not
 * finite. The library never sets a locale, so the decimal point is '.'. Returns the text's length (n >= 32 holds
 * any). */
size_t core_exact(char *b, size_t n, double x);
/* The length of the UTF-8 character at p (1 to 4; *cp, may be NULL, its code point), or 0 at the NUL and at a byte
 * that starts none (overlong, surrogate, past U+10FFFF, cut short). */
int core_utf8_len(const char *p, unsigned *cp);
/* Text for people (terminal tables, CSV, messages, YAML comments): the length of the printable UTF-8 character at p
 * (1 to 4), or 0 when the byte at p starts none: a control character (C0 including tab and line breaks, DEL, C1
 * U+0080-U+009F), the line and paragraph separators U+2028/U+2029, a byte that is not UTF-8 (overlong, surrogate,
 * past U+10FFFF, cut short) or U+FFFE/U+FFFF. */
int core_text_char(const char *p);
/* 1 when every character of p is printable (core_text_char), so that sb_put_text would copy it unchanged */
int core_text_plain(const char *p);
/* Appends p with every byte of what core_text_char refuses written as \xNN (ESC as \x1b, a line break as \x0a), so
 * that a name from a model can neither move the cursor, change the terminal nor start a line of its own; bytes in
 * keep (may be NULL) are written as they are. A backslash is left as it is. */
void sb_put_text(struct strbuf *s, const char *p, const char *keep);
/* Copies the n bytes at p to o and returns 1 when none of them is one a JSON string escapes (a control character,
 * '"' or '\\'); returns 0 when one is (o then partly written). A word at a time (16 bytes with SSE2, else 8). */
int core_json_copy(char *o, const char *p, size_t n);
/* Appends a JSON string literal (quotes and escapes included). */
void sb_json_str(struct strbuf *s, const char *p);
/* Appends p as a JSON object's key: its string literal and ':'. */
void sb_json_key(struct strbuf *s, const char *p);
void sb_free(struct strbuf *s);

#endif
