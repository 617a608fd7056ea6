/* testfiles.h - file helpers shared by the test programs that walk test-data folders (conformance, fuzz_replay,
 * pb_oracle) and by unit tests that write temporary files (test_llm, test_calibrate_table). */
#ifndef NNPERF_TESTFILES_H
#define NNPERF_TESTFILES_H

#include <stddef.h>

/* The whole file in a buffer of exactly its size (so that ASan sees a read one past the end), *len its size;
 * NULL when it cannot be read. The caller frees it. */
unsigned char *tf_read_file(const char *path, size_t *len);

/* The names in dir, dot-files left out, sorted by strcmp; *n their number. NULL (and *n = 0) when dir cannot be
 * opened. Free with tf_free_names. */
char **tf_list_dir(const char *dir, size_t *n);
void tf_free_names(char **names, size_t n);

/* Writes text into a new temporary file named by tmpl (mkstemp: tmpl ends in XXXXXX and becomes the name); 1 on
 * success, 0 when the file cannot be made or written. */
int tf_write_tmp(char *tmpl, const char *text);

#endif
