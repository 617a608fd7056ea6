/* profile.c - reads an ONNX Runtime profile (the JSON trace of enableProfiling) into per-node kernel times and
 * whole-run times (struct perf_profile, see profile.h for the format). Parsed with jansson; every field is checked
 * and sizes are capped, so a malformed or hostile file gives an error naming the file and the event, never a crash. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

static enum nnperf_status build(json_t *events, const char *file, struct perf_profile *out, struct diag *d)
{
    size_t n = json_array_size(events);
    if (n > PERF_PROFILE_MAX_EVENTS)
        return diag_set(d, NNPERF_E_LIMIT, "'%s': %zu events, more than the limit of %d", file, n,
                        PERF_PROFILE_MAX_EVENTS);
    /* pass 1: check every event, count runs and kernel events */
    size_t n_runs = 0, n_kernels = 0;
    struct ev ev;
    enum nnperf_status st;
    for (size_t i = 0; i < n; i++) {
        if ((st = read_event(json_array_get(events, i), i, &ev, d, file))) return st;
        n_runs += ev.kind == EV_RUN;
        n_kernels += ev.kind == EV_KERNEL;
    }
    if (!n_runs)
        return diag_set(d, NNPERF_E_INVALID,
                        "'%s': no 'model_run' event: not an ONNX Runtime profile, or no run was profiled",
                        file);

    struct run_span *spans = malloc(n_runs * sizeof *spans);
    double *durs = malloc(n_runs * sizeof *durs), *ksum = calloc(n_runs, sizeof *ksum);
    size_t cap = 16;
    while (cap < 2 * n_kernels) cap *= 2;
    int *slots = malloc(cap * sizeof *slots);
    out->nodes = ar_calloc(&out->ar, n_kernels ? n_kernels : 1, sizeof *out->nodes);
    if (!spans || !durs || !ksum || !slots || !out->nodes) {
        st = diag_set(d, NNPERF_E_NOMEM, "'%s': out of memory for %zu events", file, n);
        goto done;
    }
    for (size_t k = 0; k < cap; k++) slots[k] = -1;

    /* pass 2: runs, and kernel time per node (hash table of names -> node index) */
    int r = 0;
    for (size_t i = 0; i < n; i++) {
        read_event(json_array_get(events, i), i, &ev, d, file); /* checked in pass 1 */
        if (ev.kind == EV_RUN) {
            spans[r].start = ev.ts, spans[r].end = ev.ts + ev.dur;
            durs[r++] = ev.dur;
            continue;
        }
        if (ev.kind != EV_KERNEL) continue;
        size_t h = (size_t)hash_name(ev.name, ev.name_len) & (cap - 1);
        while (slots[h] >= 0) {
            const char *nm = out->nodes[slots[h]].name;
            if (strlen(nm) == ev.name_len && !memcmp(nm, ev.name, ev.name_len)) break;
            h = (h + 1) & (cap - 1);
        }
        struct perf_profile_node *nd;
        if (slots[h] < 0) {
            nd = &out->nodes[out->n_nodes];
            nd->name = ar_strndup(&out->ar, ev.name, ev.name_len);
            nd->op = ar_strdup(&out->ar, ev.op);
            nd->provider = ar_strdup(&out->ar, ev.provider);
            if (!nd->name || !nd->op || !nd->provider) {
                st = diag_set(d, NNPERF_E_NOMEM, "'%s': out of memory", file);
                goto done;
            }
            nd->min_us = ev.dur;
            slots[h] = out->n_nodes++;
        } else
            nd = &out->nodes[slots[h]];
        nd->total_us += ev.dur;
        if (ev.dur < nd->min_us) nd->min_us = ev.dur;
        nd->count++;
        out->kernel_total_us += ev.dur;
    }
    out->runs = (int)n_runs;
    qsort(spans, n_runs, sizeof *spans, cmp_span);

    /* pass 3: kernel time inside each run, by timestamp */
    for (size_t i = 0; i < n; i++) {
        read_event(json_array_get(events, i), i, &ev, d, file);
        if (ev.kind != EV_KERNEL) continue;
        int k = find_run(spans, (int)n_runs, ev.ts);
        if (k >= 0) ksum[k] += ev.dur;
    }
    double rmin = durs[0];
    for (size_t i = 1; i < n_runs; i++)
        if (durs[i] < rmin) rmin = durs[i];
    out->run_min_us = rmin;
    out->run_median_us = median(durs, (int)n_runs);
    out->kernel_median_us = median(ksum, (int)n_runs);
    out->kernel_us_per_run = out->kernel_total_us / (double)n_runs;
    st = NNPERF_OK;
done:
    free(spans);
    free(durs);
    free(ksum);
    free(slots);
    return st;
}

enum nnperf_status perf_profile_load_buffer(const char *buf, size_t len, const char *name,
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
    json_error_t je;
    json_t *root = json_loadb(buf ? buf : "", len, JSON_REJECT_DUPLICATES, &je);
    if (!root)
        return diag_set(d, NNPERF_E_PARSE, "'%s': line %d, column %d: %s", name, je.line, je.column, je.text);
    json_t *events = root;
    if (json_is_object(root)) events = json_object_get(root, "traceEvents");
    enum nnperf_status st;
    if (!json_is_array(events))
        st = diag_set(d, NNPERF_E_PARSE,
                      "'%s': expected a JSON array of trace events (an ONNX Runtime profile)", name);
    else
        st = build(events, name, out, d);
    json_decref(root);
    return st;
}

enum nnperf_status perf_profile_load(const char *path, struct perf_profile *out, struct diag *d)
{
    if (!out) return diag_set(d, NNPERF_E_USAGE, "perf_profile_load: no output");
    memset(out, 0, sizeof *out);
    ar_init(&out->ar, 0);
    if (!path) return diag_set(d, NNPERF_E_USAGE, "perf_profile_load: no path");
    FILE *f = fopen(path, "rb");
    if (!f) return diag_set(d, NNPERF_E_IO, "'%s': cannot open", path);
    /* read with a cap instead of trusting the size the file claims */
    size_t alloc = 1u << 16, len = 0;
    char *buf = malloc(alloc);
    enum nnperf_status st = NNPERF_OK;
    while (buf) {
        if (len == alloc) {
            if (alloc > PERF_PROFILE_MAX_BYTES) {
                st = diag_set(d, NNPERF_E_LIMIT, "'%s': larger than the limit of %u bytes", path,
                              PERF_PROFILE_MAX_BYTES);
                break;
            }
            char *nb = realloc(buf, alloc * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb, alloc *= 2;
        }
        size_t got = fread(buf + len, 1, alloc - len, f);
        len += got;
        if (got == 0) {
            if (ferror(f)) st = diag_set(d, NNPERF_E_IO, "'%s': read error", path);
            break;
        }
    }
    fclose(f);
    if (!buf) return diag_set(d, NNPERF_E_NOMEM, "'%s': out of memory", path);
    if (st == NNPERF_OK) st = perf_profile_load_buffer(buf, len, path, out, d);
    free(buf);
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
