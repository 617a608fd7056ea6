/* ptrmap.c - see ptrmap.h: making, growing and freeing the table. */
#include "ptrmap.h"

#include <stdlib.h>

/* m's slots become n empty ones (n a power of two, at least 2); 0 when out of memory, m unchanged */
static int set_slots(struct ptrmap *m, size_t n)
{
    struct pm_slot *s = calloc(n, sizeof *s);
    if (!s) return 0;
    m->slot = s;
    m->mask = n - 1;
    m->limit = n / 2;
    m->shift = 64;
    while (((size_t)1 << (64 - m->shift)) < n) m->shift--;
    return 1;
}

int pm_init(struct ptrmap *m, size_t hint)
{
    size_t n = 16;
    while (n < 2 * hint && n < SIZE_MAX / (4 * sizeof *m->slot)) n *= 2;
    m->slot = NULL;
    m->mask = m->n = m->limit = 0; /* a failed init is full: pm_put goes to pm_put_grow, which says so */
    m->shift = 63;
    return set_slots(m, n);
}

int *pm_put_grow(struct ptrmap *m, const void *k)
{
    if (!m->slot) return NULL;
    struct pm_slot *s = pm_slot_of(m, k);
    if (s->key) return &s->val; /* present: nothing to add */
    struct ptrmap old = *m;
    if (old.mask + 1 > SIZE_MAX / (4 * sizeof *old.slot) || !set_slots(m, 2 * (old.mask + 1))) return NULL;
    for (size_t i = 0; i <= old.mask; i++)
        if (old.slot[i].key) *pm_slot_of(m, old.slot[i].key) = old.slot[i];
    free(old.slot);
    return pm_put(m, k);
}

void pm_free(struct ptrmap *m)
{
    free(m->slot);
    m->slot = NULL;
    m->mask = m->n = m->limit = 0;
}
