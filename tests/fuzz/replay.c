/* replay.c - the replay test of a libFuzzer harness, without libFuzzer: linked with one tests/fuzz/fuzz_*.c, it feeds
 * every regular file of the directories given on the command line (the harness's saved crashes, its seed corpus and
 * its extra seed directories) through LLVMFuzzerTestOneInput, after LLVMFuzzerInitialize when the harness has one.
 * A crash, a sanitizer report (when built with NNPERF_SANITIZE) or a hang fails the test; a directory that does not
 * exist is skipped (no crash saved yet).
 * usage: fuzz_replay_<name> DIR...  */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/testfiles.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
/* optional in a harness: a weak reference is NULL when the harness does not define it */
int LLVMFuzzerInitialize(int *argc, char ***argv) __attribute__((weak));

static int replay_file(const char *path)
{
    size_t len;
    uint8_t *buf = tf_read_file(path, &len); /* exact size: ASan sees a read one past the end of the input */
    if (!buf) {
        fprintf(stderr, "fuzz_replay: cannot read %s\n", path);
        return 1;
    }
    LLVMFuzzerTestOneInput(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int n = 0, bad = 0;
    if (LLVMFuzzerInitialize) LLVMFuzzerInitialize(&argc, &argv);
    for (int i = 1; i < argc; i++) {
        size_t nn;
        char **names = tf_list_dir(argv[i], &nn);
        if (!names) continue; /* e.g. no crashes saved yet */
        for (size_t k = 0; k < nn; k++) {
            char path[4096];
            struct stat sb;
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
            /* lstat: a symbolic link in a seed folder is not followed (nothing outside the folders is read) */
            if (lstat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
                bad += replay_file(path);
                n++;
            }
        }
        tf_free_names(names, nn);
    }
    printf("%s: %d inputs replayed, %d unreadable\n", argv[0], n, bad);
    return bad ? 1 : 0;
}
