/* replay.c - regression test for the ONNX reader fuzzer without libFuzzer: feeds every file of the directories
 * given on the command line (saved crash inputs, the bad-input corpus, the seed corpus) through fuzz_onnx_one.
 * A crash, a sanitizer report (when built with NNPERF_SANITIZE) or a hang fails the test.
 * usage: fuzz_replay DIR...  */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/testfiles.h"
#include "fuzz_onnx.h"

static int replay_file(const char *path)
{
    size_t len;
    uint8_t *buf = tf_read_file(path, &len); /* exact size: ASan sees a read one past the end of the input */
    if (!buf) {
        fprintf(stderr, "fuzz_replay: cannot read %s\n", path);
        return 1;
    }
    fuzz_onnx_one(buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int n = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        size_t nn;
        char **names = tf_list_dir(argv[i], &nn);
        if (!names) continue; /* e.g. no crashes saved yet */
        for (size_t k = 0; k < nn; k++) {
            char path[4096];
            struct stat sb;
            snprintf(path, sizeof path, "%s/%s", argv[i], names[k]);
            if (stat(path, &sb) == 0 && S_ISREG(sb.st_mode)) {
                bad += replay_file(path);
                n++;
            }
        }
        tf_free_names(names, nn);
    }
    printf("fuzz_replay: %d inputs replayed, %d unreadable\n", n, bad);
    return bad ? 1 : 0;
}
