/* ptrmap.h - a map from pointers to ints (open addressing, grown as keys are added): the position of a record among
 * others found in O(1), where sorting the pointers and searching them took O(n log n). Slots are probed linearly
 * from a Fibonacci hash of the pointer (the top bits of the key times 2^64 / the golden ratio); the table doubles
 * before it is half full, so a probe ends after a few steps. The lookups are inline: the passes that use the map
 * call them once per node input. */
#ifndef NNPERF_PTRMAP_H
#define NNPERF_PTRMAP_H

#include <stddef.h>
#include <stdint.h>

struct pm_slot {
    const void *key; /* NULL: empty */
    int val;
};
struct ptrmap {
    struct pm_slot *slot;
    size_t mask;  /* slots - 1 (a power of two) */
    size_t n;     /* keys */
    size_t limit; /* the keys it holds before it doubles: half the slots */
    int shift;    /* 64 - log2(slots) */
};

/* An empty map sized for about hint keys (more may be put); 0 when out of memory (pm_free is still safe). */
int pm_init(struct ptrmap *m, size_t hint);
void pm_free(struct ptrmap *m);
/* pm_put when the map is full: doubles it first (NULL when out of memory) */
int *pm_put_grow(struct ptrmap *m, const void *k);

static inline struct pm_slot *pm_slot_of(const struct ptrmap *m, const void *k)
{
    size_t i = (size_t)(((uint64_t)(uintptr_t)k * UINT64_C(0x9e3779b97f4a7c15)) >> m->shift);
    while (m->slot[i].key && m->slot[i].key != k) i = (i + 1) & m->mask;
    return &m->slot[i];
}

/* The value of key k, else -1. */
static inline int pm_get(const struct ptrmap *m, const void *k)
{
    if (!m->slot) return -1;
    const struct pm_slot *s = pm_slot_of(m, k);
    return s->key ? s->val : -1;
}

/* The value of key k (not NULL), -1 when k was absent and is now added: the caller writes its value there. NULL
 * when out of memory. */
static inline int *pm_put(struct ptrmap *m, const void *k)
{
    if (m->n >= m->limit) return pm_put_grow(m, k);
    struct pm_slot *s = pm_slot_of(m, k);
    if (!s->key) {
        s->key = k;
        s->val = -1;
        m->n++;
    }
    return &s->val;
}

#endif
