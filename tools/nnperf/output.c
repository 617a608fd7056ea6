/* output.c - the one output writer of the CLI. A file named by -o is written completely or not at all and never
 * replaces what it must not: the data goes to a new temporary next to the target (O_CREAT|O_EXCL|O_NOFOLLOW, a
 * random name, so no planted file or symlink is followed), every write is checked, the file is fsync'd and closed,
 * then renamed over the target, keeping the mode of the file it replaces; on any failure the temporary is removed.
 * A target that is not a regular file (a device such as /dev/null, a FIFO, a directory) or that is one of the
 * command's input files is refused before anything is written. Standard output is checked too: a failed write or
 * final flush is an error with its cause. */
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

#include "cli.h"

static int write_stdout(const char *data, size_t len)
{
    if (len && fwrite(data, 1, len, stdout) != len) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        return 2;
    }
    if (fflush(stdout) != 0) {
        cli_error("cannot write to standard output: %s", strerror(errno));
        return 2;
    }
    return 0;
}

int cli_finish_stdout(void)
{
    int bad = ferror(stdout);
    errno = 0;
    if (fflush(stdout) != 0 || bad) {
        int e = errno;
        cli_error("cannot write to standard output: %s", e ? strerror(e) : "a write failed");
        return 2;
    }
    return 0;
}

struct same_file {
    dev_t dev;
    ino_t ino;
    const char *hit;
};

static int is_same(void *ctx, const char *path)
{
    struct same_file *s = ctx;
    struct stat st;
    if (stat(path, &st) == 0 && st.st_dev == s->dev && st.st_ino == s->ino) {
        s->hit = path;
        return 1;
    }
    return 0;
}

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
    snprintf(out, n, "%016llx", (unsigned long long)r);
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

int cli_write_file(const struct cli_args *a, const char *path, const char *data, size_t len)
{
    if (!path || !strcmp(path, "-")) return write_stdout(data, len);
    if (!path[0]) {
        cli_error("cannot write '': an empty file name");
        return 2;
    }
    /* the target: a symlink is followed to the file it names, which is replaced (the link stays) */
    char *target = NULL;
    struct stat st;
    int exists = 0;
    if (lstat(path, &st) == 0) {
        if (S_ISLNK(st.st_mode)) {
            target = realpath(path, NULL);
            if (!target || stat(target, &st) != 0) {
                cli_error("cannot write '%s': a symbolic link to a file that cannot be reached: %s", path,
                          strerror(errno));
                free(target);
                return 2;
            }
        }
        exists = 1;
    } else if (errno != ENOENT) {
        cli_error("cannot write '%s': %s", path, strerror(errno));
        return 2;
    }
    if (!target) target = strdup(path);
    if (!target) {
        cli_error("cannot write '%s': out of memory", path);
        return 2;
    }
    if (exists && !S_ISREG(st.st_mode)) {
        cli_error("cannot write '%s': not a regular file (%s); nnperf writes only regular files", path,
                  S_ISDIR(st.st_mode)    ? "a directory"
                  : S_ISCHR(st.st_mode)  ? "a character device"
                  : S_ISBLK(st.st_mode)  ? "a block device"
                  : S_ISFIFO(st.st_mode) ? "a FIFO"
                                         : "a socket");
        free(target);
        return 2;
    }
    if (exists && a) {
        struct same_file s = {st.st_dev, st.st_ino, NULL};
        if (cli_input_files(a, is_same, &s)) {
            cli_error("cannot write '%s': it is an input of this command ('%s'); choose another output file",
                      path, s.hit);
            free(target);
            return 2;
        }
    }
    /* the temporary: ".NAME.RANDOM.tmp" in the target's folder, so the rename stays in one file system */
    const char *slash = strrchr(target, '/');
    size_t dl = slash ? (size_t)(slash - target) + 1 : 0;
    const char *base = target + dl;
    size_t tl = strlen(target) + 40;
    char *tmp = malloc(tl);
    if (!tmp) {
        cli_error("cannot write '%s': out of memory", path);
        free(target);
        return 2;
    }
    int fd = -1;
    mode_t mode = exists ? (st.st_mode & 0777) : 0666;
    for (int tries = 0; tries < 16 && fd < 0; tries++) {
        char rnd[24];
        random_suffix(rnd, sizeof rnd);
        snprintf(tmp, tl, "%.*s.%.*s.%s.tmp", (int)dl, target, (int)(strlen(base) > 200 ? 200 : strlen(base)),
                 base, rnd);
        fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode);
        if (fd < 0 && errno != EEXIST) break;
    }
    if (fd < 0) {
        int e = errno;
        char dir[4200];
        snprintf(dir, sizeof dir, "%.*s", dl > 1 ? (int)dl - 1 : (int)dl, dl ? target : ".");
        cli_error("cannot write '%s': cannot create a file in '%s': %s", path, dir, strerror(e));
        free(tmp);
        free(target);
        return 2;
    }
    const char *step = "write";
    int ok = write_all(fd, data, len) == 0;
    if (ok && exists && fchmod(fd, mode) != 0)
        step = "keep the mode of", ok = 0; /* the umask may have cut it */
    if (ok && fsync(fd) != 0) step = "sync", ok = 0;
    int e = errno;
    if (close(fd) != 0 && ok) step = "close", ok = 0, e = errno;
    if (ok && rename(tmp, target) != 0) step = "rename the temporary onto", ok = 0, e = errno;
    if (!ok) {
        unlink(tmp);
        cli_error("cannot write '%s': cannot %s it: %s", path, step, strerror(e));
    }
    free(tmp);
    free(target);
    return ok ? 0 : 2;
}

int cli_write_output(const struct cli_args *a, const char *data, size_t len)
{
    return cli_write_file(a, a ? cli_str(a, OPT_OUTPUT) : NULL, data, len);
}
