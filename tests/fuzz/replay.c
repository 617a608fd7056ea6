/* replay.c - regression test for the ONNX reader fuzzer without libFuzzer: feeds every file of the directories
 * given on the command line (saved crash inputs, the bad-input corpus, the seed corpus) through fuzz_onnx_one.
 * A crash, a sanitizer report (when built with NNPERF_SANITIZE) or a hang fails the test.
 * usage: fuzz_replay DIR...  */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "fuzz_onnx.h"

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        fprintf(stderr, "fuzz_replay: cannot open %s\n", path);
        return 1;
    }
    size_t cap = 1 << 16, len = 0;
    uint8_t *buf = malloc(cap);
    size_t got;
    while (buf && (got = fread(buf + len, 1, cap - len, f)) > 0) {
        len += got;
        if (len == cap) {
            uint8_t *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    fclose(f);
    if (!buf) {
        fprintf(stderr, "fuzz_replay: out of memory reading %s\n", path);
        return 1;
    }
    /* an exact-size copy, so that ASan sees a read one past the end of the input */
    uint8_t *exact = malloc(len ? len : 1);
    if (!exact) {
        free(buf);
        return 1;
    }
    memcpy(exact, buf, len);
    free(buf);
    fuzz_onnx_one(exact, len);
    free(exact);
    return 0;
}

static int cmp(const void *a, const void *b)
{
    return strcmp(*(const char *const *)a, *(const char *const *)b);
}

int main(int argc, char **argv)
{
    int n = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        DIR *d = opendir(argv[i]);
        if (!d) continue; /* e.g. no crashes saved yet */
        char **names = NULL;
        size_t nn = 0, cap = 0;
        struct dirent *e;
        while ((e = readdir(d))) {
            if (e->d_name[0] == '.') continue;
            if (nn == cap) {
                cap = cap ? cap * 2 : 64;
                char **nv = realloc(names, cap * sizeof *nv);
                if (!nv) break;
                names = nv;
            }
            names[nn++] = strdup(e->d_name);
        }
        closedir(d);
        if (nn) qsort(names, nn, sizeof *names, cmp);
        for (size_t k = 0; k < nn; k++) {
            char path[4096];
            struct stat sb;
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
            if (names[k] && stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
                bad += replay_file(path);
                n++;
            }
            free(names[k]);
        }
        free(names);
    }
    printf("fuzz_replay: %d inputs replayed, %d unreadable\n", n, bad);
    return bad ? 1 : 0;
}
