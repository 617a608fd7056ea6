/* testfiles.c - see testfiles.h. */
#include "testfiles.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned char *tf_read_file(const char *path, size_t *len)
{
    *len = 0;
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    size_t cap = 1 << 16, n = 0, got;
    unsigned char *buf = malloc(cap);
    while (buf && (got = fread(buf + n, 1, cap - n, f)) > 0) {
        n += got;
        if (n == cap) {
            unsigned char *nb = realloc(buf, cap * 2);
            if (!nb) {
                free(buf);
                buf = NULL;
                break;
            }
            buf = nb;
            cap *= 2;
        }
    }
    int failed = ferror(f);
    fclose(f);
    if (!buf || failed) {
        free(buf);
        return NULL;
    }
    unsigned char *exact = malloc(n ? n : 1);
    if (exact) memcpy(exact, buf, n);
    free(buf);
    if (exact) *len = n;
    return exact;
}

static int cmp_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

char **tf_list_dir(const char *dir, size_t *n)
{
    *n = 0;
    DIR *d = opendir(dir);
    if (!d) return NULL;
    char **names = NULL;
    size_t cap = 0;
    struct dirent *e;
    while ((e = readdir(d))) {
        if (e->d_name[0] == '.') continue;
        if (*n == cap) {
            size_t nc = cap ? cap * 2 : 64;
            char **nv = realloc(names, nc * sizeof *nv);
            if (!nv) break;
            names = nv;
            cap = nc;
        }
        char *s = strdup(e->d_name);
        if (!s) break;
        names[(*n)++] = s;
    }
    closedir(d);
    if (!names) names = malloc(sizeof *names); /* an empty folder is not an error */
    if (*n) qsort(names, *n, sizeof *names, cmp_name);
    return names;
}

void tf_free_names(char **names, size_t n)
{
    for (size_t i = 0; names && i < n; i++) free(names[i]);
    free(names);
}

int tf_write_tmp(char *tmpl, const char *text)
{
    int fd = mkstemp(tmpl);
    if (fd < 0) return 0;
    size_t n = strlen(text);
    int ok = write(fd, text, n) == (ssize_t)n;
    return close(fd) == 0 && ok;
}
