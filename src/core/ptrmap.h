/* ptrmap.h - a map from pointers to ints (open addressing, sized once for the most keys it will hold): the position
 * of a record among others found in O(1), where sorting the pointers and searching them took O(n log n). */
#ifndef NNPERF_PTRMAP_H
#define NNPERF_PTRMAP_H

#include <stddef.h>

struct ptrmap {
    const void **key; /* NULL: an empty slot */
    int *val;
    size_t mask; /* slots - 1 (a power of two at least twice the keys) */
};

/* An empty map for at most max_keys distinct keys; 0 when out of memory (pm_free is still safe). */
int pm_init(struct ptrmap *m, size_t max_keys);
/* The value of key k, else -1. */
int pm_get(const struct ptrmap *m, const void *k);
/* The value of key k (not NULL), -1 when k was absent and is now added: the caller writes its value there. */
int *pm_put(struct ptrmap *m, const void *k);
void pm_free(struct ptrmap *m);

#endif
