/* testfiles.h - file helpers shared by the test programs that walk test-data folders (conformance, fuzz_replay,
 * pb_oracle). */
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

#endif
