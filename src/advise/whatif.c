/* whatif.c - building a what-if (a list of changes) and the queries the passes ask of it (see whatif.h). The
 * lists are short (a finding changes a few nodes), so every query is a linear scan. */
#include <string.h>

#include "whatif.h"

struct adv_change *adv_wi_add(struct arena *ar, struct nnperf_whatif *w, int kind)
{
    if (w->n == w->cap) {
        int nc = w->cap ? w->cap * 2 : 8;
        struct adv_change *c = ar_calloc(ar, (size_t)nc, sizeof *c);
        if (!c) return NULL;
        if (w->n) memcpy(c, w->c, (size_t)w->n * sizeof *c);
        w->c = c;
        w->cap = nc;
    }
    struct adv_change *c = &w->c[w->n++];
    memset(c, 0, sizeof *c);
    c->kind = kind;
    c->node = -1;
    c->mac = c->vec = c->params = c->factor = 1.0;
    return c;
}

int adv_wi_supports(const struct nnperf_whatif *w, const char *op_type)
{
    if (!w) return 0;
    for (int i = 0; i < w->n; i++)
        if (w->c[i].kind == WI_SUPPORT_OP && !strcmp(w->c[i].op, op_type)) return 1;
    return 0;
}

int adv_wi_fuse_group(const struct nnperf_whatif *w, int k, const int **nodes)
{
    if (!w) return 0;
    for (int i = 0; i < w->n; i++)
        if (w->c[i].kind == WI_FUSE && w->c[i].n_nodes > 0 && w->c[i].nodes[0] == k) {
            *nodes = w->c[i].nodes;
            return w->c[i].n_nodes;
        }
    return 0;
}

void adv_wi_node_scales(const struct nnperf_whatif *w, const struct ir_node *nd, double *mac, double *vec,
                        double *params)
{
    *mac = *vec = *params = 1.0;
    if (!w) return;
    for (int i = 0; i < w->n; i++) {
        const struct adv_change *c = &w->c[i];
        if (c->node != nd->index) continue;
        if (c->kind == WI_SCALE_NODE) {
            *mac *= c->mac;
            *vec *= c->vec;
            *params *= c->params;
        } else if (c->kind == WI_DROP) {
            *mac = *vec = *params = 0;
        }
    }
}

static int has_node(const struct nnperf_whatif *w, int kind, const struct ir_node *nd)
{
    if (!w) return 0;
    for (int i = 0; i < w->n; i++)
        if (w->c[i].kind == kind && w->c[i].node == nd->index) return 1;
    return 0;
}

int adv_wi_grouped(const struct nnperf_whatif *w, const struct ir_node *nd)
{
    return has_node(w, WI_GROUPED, nd);
}

int adv_wi_dropped(const struct nnperf_whatif *w, const struct ir_node *nd)
{
    return has_node(w, WI_DROP, nd);
}

static const struct adv_change *find_value(const struct nnperf_whatif *w, int kind, const struct ir_value *v)
{
    if (!w || !v) return NULL;
    for (int i = 0; i < w->n; i++)
        if (w->c[i].kind == kind && w->c[i].v == v) return &w->c[i];
    return NULL;
}

int64_t adv_wi_channels(const struct nnperf_whatif *w, const struct ir_value *v)
{
    const struct adv_change *c = find_value(w, WI_CHANNELS, v);
    return c ? c->n : 0;
}

double adv_wi_bytes_scale(const struct nnperf_whatif *w, const struct ir_value *v)
{
    const struct adv_change *c = find_value(w, WI_CHANNELS, v);
    return c ? c->factor : 1.0;
}

int adv_wi_pinned(const struct nnperf_whatif *w, const struct ir_value *v)
{
    return find_value(w, WI_PIN, v) != NULL;
}
