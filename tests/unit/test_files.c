/* test_files.c - the library's own file rules (issue 19): a model path that is a FIFO, a directory or a device is
 * refused before a byte is read (a FIFO must not block the load). */
#define _XOPEN_SOURCE 700
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "nnperf.h"
#include "tinytest.h"

static char work[] = "/tmp/nnperf-files-XXXXXX";

static void path_in(char *buf, size_t n, const char *name)
{
    snprintf(buf, n, "%s/%s", work, name);
}

/* a FIFO, a directory and a character device as the model: NNPERF_E_IO naming what the file is, at once */
static void test_load_refuses_non_regular(void)
{
    char fifo[256], err[512];
    path_in(fifo, sizeof fifo, "m.onnx");
    CHECK(mkfifo(fifo, 0600) == 0);
    struct nnperf_model *m = (struct nnperf_model *)1;
    alarm(20); /* before the fix the open waited for a writer for ever: end the test instead */
    CHECK(nnperf_model_load(fifo, NULL, &m, err, sizeof err) == NNPERF_E_IO);
    alarm(0);
    CHECK(m == NULL);
    CHECK(strstr(err, "m.onnx: cannot read: not a regular file (a FIFO)") != NULL);
    unlink(fifo);
    CHECK(nnperf_model_load(work, NULL, &m, err, sizeof err) == NNPERF_E_IO);
    CHECK(strstr(err, "not a regular file (a directory)") != NULL);
    struct stat st;
    if (stat("/dev/null", &st) == 0 && S_ISCHR(st.st_mode)) {
        CHECK(nnperf_model_load("/dev/null", NULL, &m, err, sizeof err) == NNPERF_E_IO);
        CHECK_STR(err, "/dev/null: cannot read: not a regular file (a character device)");
    }
}

int main(void)
{
    if (!mkdtemp(work)) {
        perror("mkdtemp");
        return 1;
    }
    test_load_refuses_non_regular();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", work);
    return tt_done();
}
