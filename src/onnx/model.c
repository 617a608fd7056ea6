/* model.c - loading a model: maps the file read-only (weights are never read unless a value is needed), parses it
 * into the IR, and frees it all with nnperf_model_free. The public nnperf_model_load is in analysis/ (it hands the
 * operator registry to the loader). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "onnx.h"

const char *nnperf_status_name(enum nnperf_status st)
{
    switch (st) {
    case NNPERF_OK: return "ok";
    case NNPERF_E_IO: return "i/o error";
    case NNPERF_E_PARSE: return "malformed model";
    case NNPERF_E_INVALID: return "invalid model";
    case NNPERF_E_LIMIT: return "limit exceeded";
    case NNPERF_E_NOMEM: return "out of memory";
    case NNPERF_E_USAGE: return "usage error";
    case NNPERF_E_UNSUPPORTED: return "unsupported";
    }
    return "unknown status";
}

const char *nnperf_version(void)
{
    return NNPERF_VERSION;
}

static int64_t ns_of(struct timespec t)
{
    return (int64_t)t.tv_sec * 1000000000 + t.tv_nsec;
}

static void put_err(char *err, size_t errlen, const char *fmt, const char *a, const char *b)
{
    if (err && errlen) snprintf(err, errlen, fmt, a, b);
}

int ox_note_file(struct ir_model *m, const char *path)
{
    if (m->n_files == m->cap_files) {
        int cap = m->cap_files ? m->cap_files * 2 : 4;
        const char **v = ar_calloc(&m->ar, (size_t)cap, sizeof *v);
        if (!v) return 0;
        if (m->n_files) memcpy(v, m->files, (size_t)m->n_files * sizeof *v);
        m->files = v;
        m->cap_files = cap;
    }
    const char *p = ar_strdup(&m->ar, path);
    if (!p) return 0;
    m->files[m->n_files++] = p;
    return 1;
}

int nnperf_model_file_count(const struct nnperf_model *model)
{
    return model ? ((const struct ir_model *)model)->n_files : 0;
}

const char *nnperf_model_file(const struct nnperf_model *model, int i)
{
    const struct ir_model *m = (const struct ir_model *)model;
    return m && i >= 0 && i < m->n_files ? m->files[i] : NULL;
}

static enum nnperf_status finish(struct ir_model *m, const struct nnperf_load_options *opts,
                                 const struct ox_registry *reg, struct nnperf_model **out, char *err,
                                 size_t errlen)
{
    struct diag d = {0};
    m->load_flags = opts ? opts->flags : 0;
    enum nnperf_status st = ox_load_model(m, reg, &d);
    if (st) {
        put_err(err, errlen, "%s: %s", m->path, d.msg);
        nnperf_model_free((struct nnperf_model *)m);
        return st;
    }
    if (m->mapped) { /* everything the model needs is in its arena now (tensor.c own_data) */
        munmap((void *)m->buf, m->len);
        m->buf = NULL;
        m->mapped = 0;
    }
    *out = (struct nnperf_model *)m;
    return NNPERF_OK;
}

/* 1 when st is the file the model was loaded from, unchanged: same device, inode, size, modification and change
 * times. */
static int same_file(const struct ir_model *m, const struct stat *st)
{
    return (uint64_t)st->st_dev == m->file_dev && (uint64_t)st->st_ino == m->file_ino &&
           (uint64_t)st->st_size == m->file_size && ns_of(st->st_mtim) == m->file_mtime_ns &&
           ns_of(st->st_ctim) == m->file_ctime_ns;
}

enum nnperf_status ox_model_bytes(const struct ir_model *m, const uint8_t **buf, size_t *len, uint8_t **owned,
                                  struct diag *d)
{
    *owned = NULL;
    if (!m->from_file) {
        *buf = m->buf;
        *len = m->len;
        return m->buf ? NNPERF_OK : diag_set(d, NNPERF_E_USAGE, "the model's bytes are not available");
    }
    const char *changed = "the file changed since the model was loaded; load it again";
    int fd = open(m->path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) return diag_set(d, NNPERF_E_IO, "cannot read the model file again: %s", strerror(errno));
    struct stat st;
    if (fstat(fd, &st) != 0 || !same_file(m, &st) || m->file_size > SIZE_MAX) {
        close(fd);
        return diag_set(d, NNPERF_E_IO, "%s", changed);
    }
    size_t n = (size_t)m->file_size, got = 0;
    uint8_t *b = malloc(n ? n : 1);
    if (!b) {
        close(fd);
        return diag_set(d, NNPERF_E_NOMEM, "out of memory reading the model file again");
    }
    while (got < n) {
        ssize_t r = read(fd, b + got, n - got);
        if (r < 0 && errno == EINTR) continue;
        if (r <= 0) break;
        got += (size_t)r;
    }
    /* rewritten while it was read: the times or size show it */
    int ok = got == n && fstat(fd, &st) == 0 && same_file(m, &st);
    close(fd);
    if (!ok) {
        free(b);
        return diag_set(d, NNPERF_E_IO, "%s", changed);
    }
    *buf = *owned = b;
    *len = n;
    return NNPERF_OK;
}

static struct ir_model *new_model(const char *name, const char *dir)
{
    struct ir_model *m = calloc(1, sizeof *m);
    if (!m) return NULL;
    ar_init(&m->ar, 0);
    m->path = ar_strdup(&m->ar, name ? name : "<buffer>");
    m->dir = ar_strdup(&m->ar, dir ? dir : ".");
    if (!m->path || !m->dir) {
        ar_free(&m->ar);
        free(m);
        return NULL;
    }
    return m;
}

enum nnperf_status ox_model_load(const char *path, const struct nnperf_load_options *opts,
                                 const struct ox_registry *reg, struct nnperf_model **out, char *err,
                                 size_t errlen)
{
    *out = NULL;
    if (!path) return NNPERF_E_USAGE;
    /* O_NONBLOCK: opening a FIFO does not wait for a writer (it would for ever, and Ctrl-C from Python cannot end
     * it); anything but a regular file is refused before a byte is read */
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
    if (fd < 0) {
        put_err(err, errlen, "%s: cannot open: %s", path, strerror(errno));
        return NNPERF_E_IO;
    }
    struct stat sb;
    if (fstat(fd, &sb) != 0) {
        put_err(err, errlen, "%s: cannot read: %s", path, strerror(errno));
        close(fd);
        return NNPERF_E_IO;
    }
    if (!S_ISREG(sb.st_mode)) {
        close(fd);
        put_err(err, errlen, "%s: cannot read: not a regular file (%s)", path, core_file_kind(sb.st_mode));
        return NNPERF_E_IO;
    }
    if (sb.st_size == 0) {
        close(fd);
        put_err(err, errlen, "%s: %s", path, "empty file, not an ONNX model");
        return NNPERF_E_PARSE;
    }
    void *p = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
    close(fd);
    if (p == MAP_FAILED) {
        put_err(err, errlen, "%s: cannot map: %s", path, strerror(errno));
        return NNPERF_E_IO;
    }
    /* external data is relative to the model's directory */
    char dir[4096];
    snprintf(dir, sizeof dir, "%s", path);
    char *slash = strrchr(dir, '/');
    if (slash)
        *slash = 0;
    else
        snprintf(dir, sizeof dir, ".");
    if (!dir[0]) snprintf(dir, sizeof dir, "/");
    struct ir_model *m = new_model(path, dir);
    if (!m) {
        munmap(p, (size_t)sb.st_size);
        put_err(err, errlen, "%s: %s", path, "out of memory");
        return NNPERF_E_NOMEM;
    }
    m->buf = p;
    m->len = (size_t)sb.st_size;
    m->mapped = 1;
    m->from_file = 1;
    m->file_dev = (uint64_t)sb.st_dev;
    m->file_ino = (uint64_t)sb.st_ino;
    m->file_size = (uint64_t)sb.st_size;
    m->file_mtime_ns = ns_of(sb.st_mtim);
    m->file_ctime_ns = ns_of(sb.st_ctim);
    if (!ox_note_file(m, path)) {
        nnperf_model_free((struct nnperf_model *)m);
        put_err(err, errlen, "%s: %s", path, "out of memory");
        return NNPERF_E_NOMEM;
    }
    return finish(m, opts, reg, out, err, errlen);
}

enum nnperf_status ox_model_load_buffer(const void *buf, size_t len, const char *name, const char *dir,
                                        const struct nnperf_load_options *opts, const struct ox_registry *reg,
                                        struct nnperf_model **out, char *err, size_t errlen)
{
    *out = NULL;
    struct ir_model *m = new_model(name, dir);
    if (!m) return NNPERF_E_NOMEM;
    m->buf = buf;
    m->len = len;
    return finish(m, opts, reg, out, err, errlen);
}

void nnperf_model_free(struct nnperf_model *model)
{
    struct ir_model *m = (struct ir_model *)model;
    if (!m) return;
    if (m->mapped == 1) munmap((void *)m->buf, m->len);
    if (m->mapped == 2)
        free((void *)m->buf); /* a buffer the model was given to own (nnperf_llm_config_load) */
    ar_free(&m->ar);
    free(m);
}
