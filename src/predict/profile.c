/* profile.c - reads an ONNX Runtime profile (the JSON trace of enableProfiling) into per-node kernel times and
 * whole-run times (struct perf_profile, see profile.h for the format). Streamed: the file is read in chunks, each
 * event's bytes are found by a lexical scan and decoded alone with jansson, and only what the result needs is kept
 * (per node totals, run spans, each kernel's time and timestamp), so memory grows with the events kept, not with
 * the file. Every field is checked and sizes are capped, so a malformed or hostile file gives an error naming the
 * file and the event (or line and column), never a crash. */
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <jansson.h>

#include "profile.h"

#define KERNEL_SUFFIX "_kernel_time"
#define MAX_DUR_US    1e12 /* 11.6 days: any larger duration is corrupt */

enum ev_kind { EV_OTHER, EV_RUN, EV_KERNEL };

struct ev {
    enum ev_kind kind;
    const char *name; /* borrowed from the JSON tree */
    size_t name_len;  /* without the kernel suffix for EV_KERNEL */
    const char *op, *provider;
    double ts, dur;
};

static enum nnperf_status bad(struct diag *d, const char *file, size_t i, const char *what)
{
    return diag_set(d, NNPERF_E_INVALID, "'%s': event %zu: %s", file, i, what);
}

/* A time field: a finite number in [0, MAX_DUR_US]. */
static enum nnperf_status get_time(json_t *obj, const char *key, double *out, struct diag *d,
                                   const char *file, size_t i)
{
    json_t *v = json_object_get(obj, key);
    if (!v) return diag_set(d, NNPERF_E_INVALID, "'%s': event %zu: '%s' is missing", file, i, key);
    double x = json_is_number(v) ? json_number_value(v) : NAN;
    if (!isfinite(x) || x < 0 || x > MAX_DUR_US)
        return diag_set(d, NNPERF_E_INVALID,
                        "'%s': event %zu: '%s' is not a time in microseconds (0 to 1e12)", file, i, key);
    *out = x;
    return NNPERF_OK;
}

/* An optional string argument of args; "" when absent. */
static enum nnperf_status get_arg(json_t *args, const char *key, const char **out, struct diag *d,
                                  const char *file, size_t i)
{
    *out = "";
    json_t *v = args ? json_object_get(args, key) : NULL;
    if (!v) return NNPERF_OK;
    if (!json_is_string(v) || json_string_length(v) > PERF_PROFILE_MAX_NAME)
        return diag_set(d, NNPERF_E_INVALID, "'%s': event %zu: 'args.%s' is not a string of at most %d bytes",
                        file, i, key, PERF_PROFILE_MAX_NAME);
    *out = json_string_value(v);
    return NNPERF_OK;
}

/* Classifies and checks event i. */
static enum nnperf_status read_event(json_t *e, size_t i, struct ev *ev, struct diag *d, const char *file)
{
    memset(ev, 0, sizeof *ev);
    if (!json_is_object(e)) return bad(d, file, i, "not a JSON object");
    /* TensorRT's trtexec --exportProfile writes [{"count": N}, {"name": ..., "timeMs": ..., "averageMs": ...}, ...]
     * (docs/sources.md [TRT-PROFILE]) */
    if (json_object_get(e, "averageMs") || (!json_object_get(e, "name") && json_object_get(e, "count")))
        return diag_set(d, NNPERF_E_INVALID,
                        "'%s': not an ONNX Runtime profile: event %zu looks like a TensorRT profile (trtexec "
                        "--exportProfile); expected the JSON trace of ONNX Runtime's profiler "
                        "(SessionOptions.enable_profiling)",
                        file, i);
    json_t *jn = json_object_get(e, "name"), *jc = json_object_get(e, "cat");
    if (!json_is_string(jn)) return bad(d, file, i, "'name' is missing or not a string");
    if (jc && !json_is_string(jc)) return bad(d, file, i, "'cat' is not a string");
    size_t len = json_string_length(jn);
    if (len > PERF_PROFILE_MAX_NAME)
        return diag_set(d, NNPERF_E_LIMIT, "'%s': event %zu: name longer than %d bytes", file, i,
                        PERF_PROFILE_MAX_NAME);
    const char *name = json_string_value(jn), *cat = jc ? json_string_value(jc) : "";
    size_t sl = sizeof KERNEL_SUFFIX - 1;
    if (!strcmp(name, "model_run"))
        ev->kind = EV_RUN;
    else if (!strcmp(cat, "Node") && len > sl && !memcmp(name + len - sl, KERNEL_SUFFIX, sl))
        ev->kind = EV_KERNEL;
    else
        return NNPERF_OK;
    if (strlen(name) != len) return bad(d, file, i, "'name' contains a NUL character");
    ev->name = name;
    ev->name_len = ev->kind == EV_KERNEL ? len - sl : len;
    enum nnperf_status st;
    if ((st = get_time(e, "dur", &ev->dur, d, file, i)) || (st = get_time(e, "ts", &ev->ts, d, file, i)))
        return st;
    if (ev->kind == EV_KERNEL) {
        json_t *args = json_object_get(e, "args");
        if (args && !json_is_object(args)) return bad(d, file, i, "'args' is not an object");
        if ((st = get_arg(args, "op_name", &ev->op, d, file, i)) ||
            (st = get_arg(args, "provider", &ev->provider, d, file, i)))
            return st;
    }
    return NNPERF_OK;
}

static int cmp_double(const void *a, const void *b)
{
    double x = *(const double *)a, y = *(const double *)b;
    return x < y ? -1 : x > y;
}

static double median(double *v, int n)
{
    if (n <= 0) return 0;
    qsort(v, (size_t)n, sizeof *v, cmp_double);
    return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

static uint64_t hash_name(const char *s, size_t n)
{
    uint64_t h = 1469598103934665603u; /* FNV-1a */
    for (size_t i = 0; i < n; i++) h = (h ^ (unsigned char)s[i]) * 1099511628211u;
    return h;
}

struct run_span {
    double start, end;
};

static int cmp_span(const void *a, const void *b)
{
    return cmp_double(&((const struct run_span *)a)->start, &((const struct run_span *)b)->start);
}

/* Index of the run whose span holds ts, or -1. spans sorted by start. */
static int find_run(const struct run_span *s, int n, double ts)
{
    int lo = 0, hi = n - 1, best = -1;
    while (lo <= hi) {
        int mid = lo + (hi - lo) / 2;
        if (s[mid].start <= ts)
            best = mid, lo = mid + 1;
        else
            hi = mid - 1;
    }
    return best >= 0 && ts <= s[best].end ? best : -1;
}

/* ---- the source: a file read in chunks, or a buffer; only the unread part of one value is held ---- */

#define CHUNK     ((size_t)1 << 16)
#define MAX_DEPTH 64 /* nesting of one event's JSON */

struct src {
    FILE *f;         /* NULL: read from mem */
    const char *mem; /* the buffer form */
    size_t mem_len, mem_pos;
    char *buf; /* buf[pos, end): read, not yet consumed */
    size_t cap, pos, end;
    size_t total;  /* bytes read so far, for PERF_PROFILE_MAX_BYTES */
    size_t chunk;  /* bytes read at a time */
    int line, col; /* of buf[pos], from 1 */
    int eof;
    const char *name;
    struct diag *d;
};

/* Reads more of the source after buf[end]: 1 when bytes came, 0 at the end, -1 on an error (set). */
static int more(struct src *s)
{
    if (s->eof) return 0;
    if (s->pos) {
        memmove(s->buf, s->buf + s->pos, s->end - s->pos);
        s->end -= s->pos;
        s->pos = 0;
    }
    if (s->end == s->cap) { /* one value fills the buffer: grow it, up to the size of one event */
        if (s->cap > PERF_PROFILE_MAX_EVENT_BYTES) {
            diag_set(s->d, NNPERF_E_LIMIT, "'%s': line %d: an event larger than %u bytes", s->name, s->line,
                     PERF_PROFILE_MAX_EVENT_BYTES);
            return -1;
        }
        char *nb = realloc(s->buf, s->cap * 2);
        if (!nb) {
            diag_set(s->d, NNPERF_E_NOMEM, "'%s': out of memory", s->name);
            return -1;
        }
        s->buf = nb, s->cap *= 2;
    }
    size_t want = s->cap - s->end < s->chunk ? s->cap - s->end : s->chunk, got;
    if (s->f) {
        got = fread(s->buf + s->end, 1, want, s->f);
        if (!got && ferror(s->f)) {
            diag_set(s->d, NNPERF_E_IO, "'%s': read error: %s", s->name, strerror(errno));
            return -1;
        }
    } else {
        got = s->mem_len - s->mem_pos < want ? s->mem_len - s->mem_pos : want;
        if (got) memcpy(s->buf + s->end, s->mem + s->mem_pos, got);
        s->mem_pos += got;
    }
    if (!got) {
        s->eof = 1;
        return 0;
    }
    s->total += got;
    if (s->total > PERF_PROFILE_MAX_BYTES) {
        diag_set(s->d, NNPERF_E_LIMIT, "'%s': larger than the limit of %u bytes", s->name,
                 PERF_PROFILE_MAX_BYTES);
        return -1;
    }
    s->end += got;
    return 1;
}

/* consumes n bytes, keeping the line and column */
static void advance(struct src *s, size_t n)
{
    for (size_t k = 0; k < n; k++) {
        if (s->buf[s->pos + k] == '\n')
            s->line++, s->col = 1;
        else
            s->col++;
    }
    s->pos += n;
}

#define SRC_EOF (-1)
#define SRC_ERR (-2)

/* The next character that is not white space (not consumed), SRC_EOF or SRC_ERR. */
static int peek(struct src *s)
{
    for (;;) {
        while (s->pos < s->end) {
            char c = s->buf[s->pos];
            if (c != ' ' && c != '\t' && c != '\n' && c != '\r') return (unsigned char)c;
            advance(s, 1);
        }
        int r = more(s);
        if (r <= 0) return r < 0 ? SRC_ERR : SRC_EOF;
    }
}

static enum nnperf_status syntax(struct src *s, const char *what)
{
    return diag_set(s->d, NNPERF_E_PARSE, "'%s': line %d, column %d: %s", s->name, s->line, s->col, what);
}

/* Decodes the JSON value at buf[pos] (after peek) into *out and consumes it. Its end is found by a lexical scan
 * (strings, escapes, nesting), then jansson decodes those bytes alone: one event is in memory at a time. */
static enum nnperf_status next_value(struct src *s, json_t **out)
{
    *out = NULL;
    size_t i = 0;
    int depth = 0, in_str = 0, esc = 0, done = 0;
    while (!done) {
        if (s->pos + i == s->end) {
            int r = more(s);
            if (r < 0) return s->d->status;
            if (r == 0) break; /* the end: jansson says what is missing */
            continue;
        }
        char c = s->buf[s->pos + i];
        if (in_str) {
            if (esc)
                esc = 0;
            else if (c == '\\')
                esc = 1;
            else if (c == '"' && (in_str = 0, depth == 0))
                done = 1;
        } else if (c == '"')
            in_str = 1;
        else if (c == '{' || c == '[') {
            if (++depth > MAX_DEPTH) return syntax(s, "JSON nested too deeply");
        } else if (c == '}' || c == ']') {
            if (depth == 0) break; /* a number or literal ended by its container */
            if (--depth == 0) done = 1;
        } else if (depth == 0 && (c == ',' || c == ' ' || c == '\t' || c == '\n' || c == '\r'))
            break;
        i++;
        if (i > PERF_PROFILE_MAX_EVENT_BYTES)
            return diag_set(s->d, NNPERF_E_LIMIT, "'%s': line %d: an event larger than %u bytes", s->name,
                            s->line, PERF_PROFILE_MAX_EVENT_BYTES);
    }
    json_error_t je;
    *out = json_loadb(s->buf + s->pos, i, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY, &je);
    if (!*out)
        return diag_set(s->d, NNPERF_E_PARSE, "'%s': line %d, column %d: %s", s->name, s->line + je.line - 1,
                        je.line <= 1 ? s->col + je.column - 1 : je.column, je.text);
    advance(s, i);
    return NNPERF_OK;
}

/* ---- what is kept of the events: runs, kernel times, and per node totals ---- */

struct kernel_ev {
    double ts, dur;
};

struct acc {
    struct run_span *spans;
    double *durs;
    size_t n_runs, cap_runs;
    struct kernel_ev *kev;
    size_t n_kev, cap_kev;
    struct perf_profile_node *nodes;
    int n_nodes, cap_nodes;
    int *slots; /* open addressing: node index by name hash, -1 empty */
    size_t n_slots;
};

static int grow(void **p, size_t *cap, size_t n, size_t size)
{
    if (n < *cap) return 1;
    size_t nc = *cap ? *cap * 2 : 64;
    void *np = realloc(*p, nc * size);
    if (!np) return 0;
    *p = np, *cap = nc;
    return 1;
}

static void rehash(struct acc *a)
{
    for (size_t k = 0; k < a->n_slots; k++) a->slots[k] = -1;
    for (int i = 0; i < a->n_nodes; i++) {
        size_t h = (size_t)hash_name(a->nodes[i].name, strlen(a->nodes[i].name)) & (a->n_slots - 1);
        while (a->slots[h] >= 0) h = (h + 1) & (a->n_slots - 1);
        a->slots[h] = i;
    }
}

static enum nnperf_status add_event(struct acc *a, const struct ev *ev, struct perf_profile *out,
                                    struct src *s)
{
    if (ev->kind == EV_RUN) {
        size_t c = a->cap_runs;
        if (!grow((void **)&a->spans, &c, a->n_runs, sizeof *a->spans) ||
            !grow((void **)&a->durs, &a->cap_runs, a->n_runs, sizeof *a->durs))
            return diag_set(s->d, NNPERF_E_NOMEM, "'%s': out of memory", s->name);
        a->spans[a->n_runs] = (struct run_span){ev->ts, ev->ts + ev->dur};
        a->durs[a->n_runs++] = ev->dur;
        return NNPERF_OK;
    }
    if (ev->kind != EV_KERNEL) return NNPERF_OK;
    if (!grow((void **)&a->kev, &a->cap_kev, a->n_kev, sizeof *a->kev))
        return diag_set(s->d, NNPERF_E_NOMEM, "'%s': out of memory", s->name);
    a->kev[a->n_kev++] = (struct kernel_ev){ev->ts, ev->dur};
    if ((size_t)a->n_nodes * 2 >= a->n_slots) {
        size_t ns = a->n_slots ? a->n_slots * 2 : 64;
        int *sl = realloc(a->slots, ns * sizeof *sl);
        if (!sl) return diag_set(s->d, NNPERF_E_NOMEM, "'%s': out of memory", s->name);
        a->slots = sl, a->n_slots = ns;
        rehash(a);
    }
    size_t h = (size_t)hash_name(ev->name, ev->name_len) & (a->n_slots - 1);
    while (a->slots[h] >= 0) {
        const char *nm = a->nodes[a->slots[h]].name;
        if (strlen(nm) == ev->name_len && !memcmp(nm, ev->name, ev->name_len)) break;
        h = (h + 1) & (a->n_slots - 1);
    }
    struct perf_profile_node *nd;
    if (a->slots[h] < 0) {
        size_t c = (size_t)a->cap_nodes;
        if (!grow((void **)&a->nodes, &c, (size_t)a->n_nodes, sizeof *a->nodes))
            return diag_set(s->d, NNPERF_E_NOMEM, "'%s': out of memory", s->name);
        a->cap_nodes = (int)c;
        nd = &a->nodes[a->n_nodes];
        memset(nd, 0, sizeof *nd);
        nd->name = ar_strndup(&out->ar, ev->name, ev->name_len);
        nd->op = ar_strdup(&out->ar, ev->op);
        nd->provider = ar_strdup(&out->ar, ev->provider);
        if (!nd->name || !nd->op || !nd->provider)
            return diag_set(s->d, NNPERF_E_NOMEM, "'%s': out of memory", s->name);
        nd->min_us = ev->dur;
        a->slots[h] = a->n_nodes++;
    } else
        nd = &a->nodes[a->slots[h]];
    nd->total_us += ev->dur;
    if (ev->dur < nd->min_us) nd->min_us = ev->dur;
    nd->count++;
    out->kernel_total_us += ev->dur;
    return NNPERF_OK;
}

/* The events of the array whose '[' is next, one at a time. */
static enum nnperf_status read_events(struct src *s, struct acc *a, struct perf_profile *out)
{
    advance(s, 1);
    int c = peek(s);
    if (c == ']') {
        advance(s, 1);
        return NNPERF_OK;
    }
    for (size_t i = 0;; i++) {
        if (c == SRC_ERR) return s->d->status;
        if (c == SRC_EOF) return syntax(s, "the array of events is not closed");
        if (i == PERF_PROFILE_MAX_EVENTS)
            return diag_set(s->d, NNPERF_E_LIMIT, "'%s': more than the limit of %d events", s->name,
                            PERF_PROFILE_MAX_EVENTS);
        json_t *e;
        enum nnperf_status st = next_value(s, &e);
        struct ev ev;
        if (!st) st = read_event(e, i, &ev, s->d, s->name);
        if (!st) st = add_event(a, &ev, out, s);
        json_decref(e);
        if (st) return st;
        c = peek(s);
        if (c == ']') {
            advance(s, 1);
            return NNPERF_OK;
        }
        if (c >= 0 && c != ',') return syntax(s, "expected ',' or ']' after an event");
        if (c == ',') {
            advance(s, 1);
            c = peek(s);
        }
    }
}

/* A profile: an array of events, or an object whose "traceEvents" is one (other members are checked and dropped). */
static enum nnperf_status read_profile(struct src *s, struct acc *a, struct perf_profile *out)
{
    static const char not_events[] = "expected a JSON array of trace events (an ONNX Runtime profile)";
    int c = peek(s);
    if (c == SRC_ERR) return s->d->status;
    if (c == SRC_EOF)
        return syntax(s, "an empty file: expected a JSON array of trace events (an ONNX Runtime profile)");
    enum nnperf_status st;
    if (c == '[') {
        if ((st = read_events(s, a, out))) return st;
    } else if (c == '{') {
        advance(s, 1);
        int seen = 0;
        c = peek(s);
        while (c != '}') {
            json_t *k = NULL;
            if (c != '"') return c == SRC_ERR ? s->d->status : syntax(s, "expected a member name");
            if ((st = next_value(s, &k))) return st;
            int is_events = json_is_string(k) && !strcmp(json_string_value(k), "traceEvents");
            json_decref(k);
            if (peek(s) != ':') return syntax(s, "expected ':'");
            advance(s, 1);
            c = peek(s);
            if (is_events) {
                if (seen) return syntax(s, "'traceEvents' appears twice");
                if (c != '[') return syntax(s, "'traceEvents' is not an array");
                if ((st = read_events(s, a, out))) return st;
                seen = 1;
            } else {
                json_t *v;
                if (c < 0) return c == SRC_ERR ? s->d->status : syntax(s, "unexpected end of file");
                if ((st = next_value(s, &v))) return st;
                json_decref(v);
            }
            c = peek(s);
            if (c == ',') {
                advance(s, 1);
                c = peek(s);
                if (c == '}') return syntax(s, "expected a member name");
            } else if (c != '}')
                return c == SRC_ERR ? s->d->status : syntax(s, "expected ',' or '}'");
        }
        advance(s, 1);
        if (!seen) return diag_set(s->d, NNPERF_E_PARSE, "'%s': %s", s->name, not_events);
    } else {
        return diag_set(s->d, NNPERF_E_PARSE, "'%s': %s", s->name, not_events);
    }
    c = peek(s);
    if (c == SRC_ERR) return s->d->status;
    if (c != SRC_EOF) return syntax(s, "end of file expected");
    return NNPERF_OK;
}

/* The totals of out from what was kept. */
static enum nnperf_status finish(struct acc *a, struct perf_profile *out, struct src *s)
{
    if (!a->n_runs)
        return diag_set(s->d, NNPERF_E_INVALID,
                        "'%s': no 'model_run' event: not an ONNX Runtime profile, or no run was profiled",
                        s->name);
    out->nodes = ar_calloc(&out->ar, a->n_nodes ? (size_t)a->n_nodes : 1, sizeof *out->nodes);
    double *ksum = calloc(a->n_runs, sizeof *ksum);
    if (!out->nodes || !ksum) {
        free(ksum);
        return diag_set(s->d, NNPERF_E_NOMEM, "'%s': out of memory", s->name);
    }
    if (a->n_nodes) memcpy(out->nodes, a->nodes, (size_t)a->n_nodes * sizeof *out->nodes);
    out->n_nodes = a->n_nodes;
    out->runs = (int)a->n_runs;
    qsort(a->spans, a->n_runs, sizeof *a->spans, cmp_span);
    /* kernel time inside each run, by timestamp */
    for (size_t i = 0; i < a->n_kev; i++) {
        int k = find_run(a->spans, (int)a->n_runs, a->kev[i].ts);
        if (k >= 0) ksum[k] += a->kev[i].dur;
    }
    double rmin = a->durs[0];
    for (size_t i = 1; i < a->n_runs; i++)
        if (a->durs[i] < rmin) rmin = a->durs[i];
    out->run_min_us = rmin;
    out->run_median_us = median(a->durs, (int)a->n_runs);
    out->kernel_median_us = median(ksum, (int)a->n_runs);
    out->kernel_us_per_run = out->kernel_total_us / (double)a->n_runs;
    free(ksum);
    return NNPERF_OK;
}

static enum nnperf_status load(struct src *s, struct perf_profile *out)
{
    struct acc a;
    memset(&a, 0, sizeof a);
    if (!s->chunk || s->chunk > CHUNK) s->chunk = CHUNK;
    s->cap = s->chunk < 8 ? 16 : 2 * s->chunk;
    s->line = s->col = 1;
    s->buf = malloc(s->cap);
    enum nnperf_status st =
        s->buf ? read_profile(s, &a, out) : diag_set(s->d, NNPERF_E_NOMEM, "out of memory");
    if (!st) st = finish(&a, out, s);
    free(s->buf);
    free(a.spans), free(a.durs), free(a.kev), free(a.nodes), free(a.slots);
    return st;
}

enum nnperf_status perf_profile_load_buffer(const char *buf, size_t len, const char *name,
                                            struct perf_profile *out, struct diag *d)
{
    return perf_profile_load_chunked(buf, len, name, CHUNK, out, d);
}

enum nnperf_status perf_profile_load_chunked(const char *buf, size_t len, const char *name, size_t chunk,
                                             struct perf_profile *out, struct diag *d)
{
    if (!out) return diag_set(d, NNPERF_E_USAGE, "perf_profile_load: no output");
    memset(out, 0, sizeof *out);
    ar_init(&out->ar, 0);
    if (!name) name = "profile";
    if (!buf && len) return diag_set(d, NNPERF_E_USAGE, "perf_profile_load: no buffer");
    if (len > PERF_PROFILE_MAX_BYTES)
        return diag_set(d, NNPERF_E_LIMIT, "'%s': %zu bytes, more than the limit of %u", name, len,
                        PERF_PROFILE_MAX_BYTES);
    struct src s = {.mem = buf ? buf : "", .mem_len = len, .name = name, .d = d, .chunk = chunk};
    return load(&s, out);
}

enum nnperf_status perf_profile_load(const char *path, struct perf_profile *out, struct diag *d)
{
    if (!out) return diag_set(d, NNPERF_E_USAGE, "perf_profile_load: no output");
    memset(out, 0, sizeof *out);
    ar_init(&out->ar, 0);
    if (!path) return diag_set(d, NNPERF_E_USAGE, "perf_profile_load: no path");
    struct stat sb;
    int fd = core_open_regular(path, &sb, d);
    if (fd < 0) return d->status;
    FILE *f = fdopen(fd, "rb");
    if (!f) {
        close(fd);
        return diag_set(d, NNPERF_E_IO, "'%s': cannot open: %s", path, strerror(errno));
    }
    struct src s = {.f = f, .name = path, .d = d};
    enum nnperf_status st = load(&s, out);
    fclose(f);
    return st;
}

void perf_profile_free(struct perf_profile *p)
{
    if (!p) return;
    ar_free(&p->ar);
    p->nodes = NULL;
    p->n_nodes = 0;
}

const struct perf_profile_node *perf_profile_find(const struct perf_profile *p, const char *name)
{
    if (!p || !name) return NULL;
    for (int i = 0; i < p->n_nodes; i++)
        if (!strcmp(p->nodes[i].name, name)) return &p->nodes[i];
    return NULL;
}
