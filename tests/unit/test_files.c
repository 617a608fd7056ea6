/* test_files.c - the library's own file rules (issue 19): a model path that is a FIFO, a directory or a device is
 * refused before a byte is read (a FIFO must not block the load); the files a model reads (its external data too)
 * are listed; nnperf_write_file writes only regular files, never an input, with the umask's mode, through a
 * temporary the caller is told about; nnperf_annotate_write never replaces the model's weights. Models:
 * tests/data/hostile/make_models.py. */
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

static int read_all(const char *path, char *buf, size_t cap, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return 0;
    *n = fread(buf, 1, cap, f);
    fclose(f);
    return 1;
}

static int copy_file(const char *from, const char *to)
{
    static char buf[1 << 16];
    size_t n;
    if (!read_all(from, buf, sizeof buf, &n)) return 0;
    FILE *f = fopen(to, "wb");
    if (!f) return 0;
    int ok = fwrite(buf, 1, n, f) == n;
    return fclose(f) == 0 && ok;
}

struct temps {
    int calls, existed, last_null;
};

static void on_temp(void *ctx, const char *tmp)
{
    struct temps *t = ctx;
    t->calls++;
    t->last_null = tmp == NULL;
    struct stat st;
    if (tmp && lstat(tmp, &st) == 0 && S_ISREG(st.st_mode) && strstr(tmp, "/.out.bin.") &&
        strstr(tmp, ".tmp"))
        t->existed++;
}

static void test_write_file(void)
{
    char out[256], fifo[256], link[256], err[512];
    path_in(out, sizeof out, "out.bin");
    path_in(fifo, sizeof fifo, "w.fifo");
    path_in(link, sizeof link, "dangling");
    mode_t old = umask(022);
    struct temps t = {0, 0, 0};
    struct nnperf_write_options o = {NULL, 0, on_temp, &t};
    CHECK(nnperf_write_file(out, "abc", 3, &o, err, sizeof err) == NNPERF_OK);
    umask(old);
    struct stat st;
    CHECK(stat(out, &st) == 0 && (st.st_mode & 0777) == 0644 && st.st_size == 3);
    /* told twice: the temporary while it exists (a handler could unlink it), then NULL */
    CHECK(t.calls == 2 && t.existed == 1 && t.last_null);
    const char *inputs[] = {out};
    struct nnperf_write_options in = {inputs, 1, NULL, NULL};
    CHECK(nnperf_write_file(out, "x", 1, &in, err, sizeof err) == NNPERF_E_USAGE);
    CHECK(strstr(err, "it is an input of this command") != NULL);
    CHECK(stat(out, &st) == 0 && st.st_size == 3);
    CHECK(mkfifo(fifo, 0600) == 0);
    CHECK(nnperf_write_file(fifo, "x", 1, NULL, err, sizeof err) == NNPERF_E_IO);
    CHECK(strstr(err, "not a regular file (a FIFO)") != NULL);
    CHECK(lstat(fifo, &st) == 0 && S_ISFIFO(st.st_mode));
    CHECK(nnperf_write_file(work, "x", 1, NULL, err, sizeof err) == NNPERF_E_IO);
    CHECK(strstr(err, "not a regular file (a directory)") != NULL);
    CHECK(symlink("nowhere/x", link) == 0);
    CHECK(nnperf_write_file(link, "x", 1, NULL, err, sizeof err) == NNPERF_E_IO);
    CHECK(lstat(link, &st) == 0 && S_ISLNK(st.st_mode));
}

/* the model's files: itself and its external data; annotate_write refuses both and writes elsewhere */
static void test_model_files(void)
{
    char dir[256], model[256], weights[256], shapes[256], err[512];
    path_in(dir, sizeof dir, "ext");
    CHECK(mkdir(dir, 0755) == 0);
    path_in(model, sizeof model, "ext/model.onnx");
    path_in(weights, sizeof weights, "ext/weights.bin");
    path_in(shapes, sizeof shapes, "ext/shapes.onnx");
    CHECK(copy_file("tests/data/hostile/ext/model.onnx", model));
    CHECK(copy_file("tests/data/hostile/ext/weights.bin", weights));
    struct nnperf_model *m = NULL;
    struct nnperf_analysis *a = NULL;
    CHECK(nnperf_model_load(model, NULL, &m, err, sizeof err) == NNPERF_OK);
    if (!m) return;
    CHECK(nnperf_model_file_count(m) == 2);
    CHECK_STR(nnperf_model_file(m, 0), model);
    CHECK_STR(nnperf_model_file(m, 1), weights);
    CHECK(nnperf_model_file(m, 2) == NULL && nnperf_model_file(m, -1) == NULL);
    CHECK(nnperf_analyze(m, NULL, &a, err, sizeof err) == NNPERF_OK);
    if (a) {
        static char before[4096], after[4096];
        size_t nb = 0, na = 0;
        CHECK(read_all(weights, before, sizeof before, &nb) && nb == 1728);
        CHECK(nnperf_annotate_write(a, weights, NULL, err, sizeof err) == NNPERF_E_USAGE);
        CHECK(strstr(err, "it is an input of this command") != NULL);
        CHECK(read_all(weights, after, sizeof after, &na) && na == nb && !memcmp(before, after, nb));
        CHECK(nnperf_annotate_write(a, model, NULL, err, sizeof err) == NNPERF_E_USAGE);
        CHECK(nnperf_annotate_write(a, shapes, NULL, err, sizeof err) == NNPERF_OK);
        nnperf_analysis_free(a);
    }
    nnperf_model_free(m);
}

/* the file rewritten shorter under a loaded model: analyses read nothing of it (SIGBUS on d3502c4: the shape at
 * 16 KiB lay in a page the shrunken file no longer had), annotate refuses the changed file */
static void test_rewritten_under_model(void)
{
    char path[256], err[512];
    path_in(path, sizeof path, "late.onnx");
    CHECK(copy_file("tests/data/hostile/late_shape.onnx", path));
    struct nnperf_model *m = NULL;
    CHECK(nnperf_model_load(path, NULL, &m, err, sizeof err) == NNPERF_OK);
    if (!m) return;
    struct nnperf_analysis *a = NULL, *b = NULL;
    CHECK(nnperf_analyze(m, NULL, &a, err, sizeof err) == NNPERF_OK);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite("\x08\x08junk", 1, 6, f) == 6);
    if (f) fclose(f);
    CHECK(nnperf_analyze(m, NULL, &b, err, sizeof err) == NNPERF_OK);
    if (a && b) {
        char *ja = NULL, *jb = NULL;
        size_t la = 0, lb = 0;
        CHECK(nnperf_analysis_render(a, NNPERF_FORMAT_JSON, &ja, &la, err, sizeof err) == NNPERF_OK);
        CHECK(nnperf_analysis_render(b, NNPERF_FORMAT_JSON, &jb, &lb, err, sizeof err) == NNPERF_OK);
        CHECK(ja && jb && la == lb && !memcmp(ja, jb, la) && strstr(ja, "\"shape\":[1,24]"));
        free(ja);
        free(jb);
        void *out = NULL;
        size_t n = 0;
        CHECK(nnperf_annotate(b, &out, &n, err, sizeof err) == NNPERF_E_IO);
        CHECK(strstr(err, "the file changed since the model was loaded") != NULL);
        nnperf_free(out);
    }
    nnperf_analysis_free(a);
    nnperf_analysis_free(b);
    nnperf_model_free(m);
}

int main(void)
{
    if (!mkdtemp(work)) {
        perror("mkdtemp");
        return 1;
    }
    test_load_refuses_non_regular();
    test_write_file();
    test_model_files();
    test_rewritten_under_model();
    char cmd[128];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", work);
    if (system(cmd) != 0) fprintf(stderr, "cannot remove %s\n", work);
    return tt_done();
}
