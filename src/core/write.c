/* write.c - the one file writer of the library and the CLI (nnperf_write_file). A file is written completely or not
 * at all and never replaces what it must not: the data goes to a new hidden temporary next to the target
 * (".NAME.RANDOM.tmp", O_CREAT|O_EXCL|O_NOFOLLOW: no planted file or link is followed), every write is checked, the
 * file is fsync'd and closed, then renamed over the target; on any failure the temporary is removed. A new file gets
 * the mode the umask leaves of 0666, a replaced one keeps its mode. A target that is not a regular file (a device
 * such as /dev/null, a FIFO, a directory, a link to one of them or to nothing) or that is one of the inputs (the
 * same file, through any name or link; a missing input, such as a weight-stripped model's external data, by its
 * resolved name) is refused before anything is written. The caller may be told the temporary's name while it
 * exists (opts->temporary), so that its signal handler can remove it: the library itself keeps no state. */
#define _XOPEN_SOURCE 700 /* realpath */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "core.h"

/* a random 16-hex-digit suffix: getrandom, else time and address bits (the name is still created O_EXCL) */
static void random_suffix(char *out, size_t n)
{
    uint64_t r = 0;
    if (getrandom(&r, sizeof r, GRND_NONBLOCK) != (ssize_t)sizeof r) {
        struct timespec ts;
        clock_gettime(CLOCK_MONOTONIC, &ts);
        r = ((uint64_t)ts.tv_nsec << 20) ^ (uint64_t)ts.tv_sec ^ (uint64_t)(uintptr_t)&ts ^
            (uint64_t)getpid();
    }
    c_snprintf(out, n, "%016llx", (unsigned long long)r);
}

static int write_all(int fd, const char *data, size_t len)
{
    while (len) {
        ssize_t w = write(fd, data, len > ((size_t)1 << 30) ? ((size_t)1 << 30) : len);
        if (w < 0) {
            if (errno == EINTR) continue;
            return -1;
        }
        data += w;
        len -= (size_t)w;
    }
    return 0;
}

/* The name a path that may not exist resolves to: its folder resolved (realpath) and its last component; NULL
 * when the folder cannot be resolved. Malloc'd. */
static char *resolve_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    const char *base = slash ? slash + 1 : path;
    char *dir = NULL;
    if (!slash)
        dir = realpath(".", NULL);
    else if (slash == path)
        dir = realpath("/", NULL);
    else {
        char *d = strndup(path, (size_t)(slash - path));
        if (!d) return NULL;
        dir = realpath(d, NULL);
        free(d);
    }
    if (!dir) return NULL;
    size_t n = strlen(dir) + strlen(base) + 2;
    char *r = malloc(n);
    if (r) c_snprintf(r, n, "%s%s%s", dir, strcmp(dir, "/") ? "/" : "", base);
    free(dir);
    return r;
}

/* The input the target is, or NULL: the same file (device and inode) as an input that exists, or, for an input that
 * does not exist, the same resolved name as the target (tname, NULL when the target exists). */
static const char *input_hit(const struct nnperf_write_options *o, int exists, const struct stat *st,
                             const char *tname)
{
    if (!o) return NULL;
    for (int i = 0; i < o->n_inputs; i++) {
        const char *in = o->inputs[i];
        struct stat is;
        if (!in || !in[0]) continue;
        if (stat(in, &is) == 0) {
            if (exists && is.st_dev == st->st_dev && is.st_ino == st->st_ino) return in;
        } else if (!exists && tname && errno == ENOENT) {
            char *r = resolve_name(in);
            int same = r && !strcmp(r, tname);
            free(r);
            if (same) return in;
        }
    }
    return NULL;
}

static void tell(const struct nnperf_write_options *o, const char *tmp)
{
    if (o && o->temporary) o->temporary(o->ctx, tmp);
}

/* nnperf_write_file with its error in d. */
static enum nnperf_status core_write_file(const char *path, const void *data, size_t len,
                                          const struct nnperf_write_options *o, struct diag *d)
{
    if (!path || (!data && len)) return diag_set(d, NNPERF_E_USAGE, "no file name or no data to write");
    if (!path[0]) return diag_set(d, NNPERF_E_USAGE, "cannot write '': an empty file name");
    /* the target: a symlink is followed to the file it names, which is replaced (the link stays) */
    char *target = NULL;
    struct stat st;
    int exists = 0;
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            target = realpath(path, NULL);
            if (!target || stat(target, &st) != 0) {
                diag_set(d, NNPERF_E_IO,
                         "cannot write '%s': a symbolic link to a file that cannot be reached: %s", path,
                         strerror(errno));
                free(target);
                return d->status;
            }
        }
        exists = 1;
    } else if (errno != ENOENT) {
        return diag_set(d, NNPERF_E_IO, "cannot write '%s': %s", path, strerror(errno));
    }
    if (exists && !S_ISREG(st.st_mode)) {
        free(target);
        return diag_set(d, NNPERF_E_IO,
                        "cannot write '%s': not a regular file (%s); nnperf writes only regular files", path,
                        core_file_kind(st.st_mode));
    }
    if (!target) target = strdup(path);
    char *tname = target && !exists ? resolve_name(target) : NULL;
    const char *hit = target ? input_hit(o, exists, &st, tname) : NULL;
    free(tname);
    if (!target) return diag_set(d, NNPERF_E_NOMEM, "cannot write '%s': out of memory", path);
    if (hit) {
        diag_set(d, NNPERF_E_USAGE,
                 "cannot write '%s': it is an input of this command ('%s'); choose another output file", path,
                 hit);
        free(target);
        return d->status;
    }
    /* the temporary: ".NAME.RANDOM.tmp" in the target's folder, so the rename stays in one file system */
    const char *slash = strrchr(target, '/');
    size_t dl = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dl;
    size_t tl = strlen(target) + 40;
    char *tmp = malloc(tl);
    if (!tmp) {
        free(target);
        return diag_set(d, NNPERF_E_NOMEM, "cannot write '%s': out of memory", path);
    }
    int fd = -1;
    mode_t mode = exists ? (st.st_mode & 0777) : 0666; /* a new file: 0666 less the umask (open applies it) */
    for (int tries = 0; tries < 16 && fd < 0; tries++) {
        char rnd[24];
        random_suffix(rnd, sizeof rnd);
        c_snprintf(tmp, tl, "%.*s.%.*s.%s.tmp", (int)dl, target,
                   (int)(strlen(base) > 200 ? 200 : strlen(base)), base, rnd);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        int e = errno;
        diag_set(d, NNPERF_E_IO, "cannot write '%s': cannot create a file in '%.*s': %s", path,
                 dl > 1 ? (int)dl - 1 : (int)dl, dl ? target : ".", strerror(e));
        free(tmp);
        free(target);
        return d->status;
    }
    tell(o, tmp); /* from here until it is renamed or removed, a signal handler may unlink it */
    const char *step = "write";
    int ok = write_all(fd, data, len) == 0;
    if (ok && exists && fchmod(fd, mode) != 0)
        step = "keep the mode of", ok = 0; /* the umask may have cut it */
    if (ok && fsync(fd) != 0) step = "sync", ok = 0;
    int e = errno;
    if (close(fd) != 0 && ok) step = "close", ok = 0, e = errno;
    if (ok && rename(tmp, target) != 0) step = "rename the temporary onto", ok = 0, e = errno;
    if (!ok) unlink(tmp);
    tell(o, NULL);
    if (!ok) diag_set(d, NNPERF_E_IO, "cannot write '%s': cannot %s it: %s", path, step, strerror(e));
    free(tmp);
    free(target);
    return ok ? NNPERF_OK : d->status;
}

enum nnperf_status nnperf_write_file(const char *path, const void *data, size_t len,
                                     const struct nnperf_write_options *opts, char *err, size_t errlen)
{
    struct diag d = {0};
    enum nnperf_status st = core_write_file(path, data, len, opts, &d);
    if (st && err && errlen) c_snprintf(err, errlen, "%s", d.msg);
    return st;
}
