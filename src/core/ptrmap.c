/* ptrmap.c - see ptrmap.h. Slots are probed linearly from a multiplicative hash of the pointer; the table holds at
 * most half as many keys as slots, so a probe ends after a few steps. */
#include "ptrmap.h"

#include <stdint.h>
#include <stdlib.h>

int pm_init(struct ptrmap *m, size_t max_keys)
{
    size_t n = 16;
    while (n < 2 * max_keys && n < SIZE_MAX / 4) n *= 2;
    m->key = calloc(n, sizeof *m->key);
    m->val = malloc(n * sizeof *m->val);
    m->mask = n - 1;
    return m->key && m->val;
}

static size_t slot_of(const struct ptrmap *m, const void *k)
{
    uint64_t h = (uint64_t)(uintptr_t)k * UINT64_C(0x9e3779b97f4a7c15);
    size_t i = (size_t)(h >> 32) & m->mask;
    while (m->key[i] && m->key[i] != k) i = (i + 1) & m->mask;
    return i;
}

int pm_get(const struct ptrmap *m, const void *k)
{
    size_t i = slot_of(m, k);
    return m->key[i] ? m->val[i] : -1;
}

int *pm_put(struct ptrmap *m, const void *k)
{
    size_t i = slot_of(m, k);
    if (!m->key[i]) {
        m->key[i] = k;
        m->val[i] = -1;
    }
    return &m->val[i];
}

void pm_free(struct ptrmap *m)
{
    free(m->key);
    free(m->val);
    m->key = NULL;
    m->val = NULL;
}
