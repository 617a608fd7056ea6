/* fields.c - the writers walking a report's field table (fields.h): JSON members, CSV columns, table cells. */
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "fields.h"

static unsigned fmt_bit(enum nnperf_format fmt)
{
    return fmt == NNPERF_FORMAT_JSON   ? RF_JSON
           : fmt == NNPERF_FORMAT_CSV  ? RF_CSV
           : fmt == NNPERF_FORMAT_HTML ? RF_HTML
                                       : RF_TABLE;
}

void rf_begin(struct rf_rows *w, enum nnperf_format fmt, const struct rf_field *f, int n, const void *ctx,
              struct strbuf *sb, struct rep_json *j, const char *key)
{
    w->fmt = fmt, w->f = f, w->n = n, w->ctx = ctx, w->j = j;
    unsigned bit = fmt_bit(fmt);
    if (fmt == NNPERF_FORMAT_JSON) {
        rj_arr(j, key, 1);
        for (int i = 0; i < n && i < RF_MAX; i++)
            if (f[i].in & RF_JSON) rj_key_init(&w->keys[i], f[i].key); /* .json functions' keys too */
    } else if (fmt == NNPERF_FORMAT_CSV) {
        rc_init(&w->c, sb);
        for (int i = 0; i < n; i++)
            if (f[i].in & bit) rc_str(&w->c, f[i].key);
        rc_end(&w->c);
    } else {
        int nc = 0;
        for (int i = 0; i < n && nc < RF_MAX; i++)
            if (f[i].in & bit) w->cols[nc++] = f[i].col;
        rt_init(&w->t, w->cols, nc);
    }
}

/* the value of field f in row into c */
static void get(const void *ctx, const struct rf_field *f, const void *row, struct rf_cell *c)
{
    c->s = c->text = NULL, c->x = 0, c->i = 0, c->is_num = c->is_int = c->is_unsigned = 0, c->buf[0] = 0;
    const char *p = (const char *)row + f->off;
    switch (f->kind) {
    case RF_STR: memcpy(&c->s, p, sizeof c->s); break;
    case RF_NUM:
        memcpy(&c->x, p, sizeof c->x);
        c->is_num = 1;
        break;
    case RF_INT:
    case RF_BOOL: {
        int v;
        memcpy(&v, p, sizeof v);
        c->i = v, c->is_num = c->is_int = 1;
        break;
    }
    case RF_I64: {
        int64_t v;
        memcpy(&v, p, sizeof v);
        c->i = v, c->is_num = c->is_int = 1;
        break;
    }
    case RF_U64: {
        uint64_t v;
        memcpy(&v, p, sizeof v);
        c->i = (long long)v, c->is_num = c->is_int = c->is_unsigned = 1; /* the bits kept */
        break;
    }
    case RF_FN: f->fn(ctx, row, c); break;
    }
    if (f->whole && c->is_num && !c->is_int) c->x = nearbyint(c->x);
}

static double machine(const struct rf_field *f, double x)
{
    return f->scale != 0 ? x * f->scale : x;
}

/* the table cell of field f: c's text, its string, or its number as people read it */
static const char *people(const struct rf_field *f, struct rf_cell *c)
{
    if (c->text) return c->text;
    if (!c->is_num) return c->s;
    if (f->kind == RF_BOOL) return c->i ? "yes" : "no";
    if (c->is_int) {
        if (f->people == RF_P_COUNT)
            rep_si(c->buf, sizeof c->buf, c->is_unsigned ? (double)(unsigned long long)c->i : (double)c->i,
                   f->unit ? f->unit : "");
        else
            c->buf[c->is_unsigned ? core_digits(c->buf, (unsigned long long)c->i)
                                  : core_idigits(c->buf, c->i)] = 0;
        return c->buf;
    }
    switch (f->people) {
    case RF_P_SI:
    case RF_P_COUNT: rep_si(c->buf, sizeof c->buf, c->x, f->unit ? f->unit : ""); break;
    case RF_P_TIME: rep_time(c->buf, sizeof c->buf, c->x); break;
    case RF_P_PCT: rep_pct(c->buf, sizeof c->buf, c->x); break;
    case RF_P_FIX1: c_snprintf(c->buf, sizeof c->buf, "%.1f", c->x); break;
    case RF_P_FIX2: c_snprintf(c->buf, sizeof c->buf, "%.2f", c->x); break;
    }
    return c->buf;
}

/* the JSON members of row, their keys made once in keys (rf_begin; NULL: here, member by member) */
static void json_members(struct rep_json *j, const struct rf_field *f, int n, const void *ctx,
                         const void *row, const struct rj_key *keys)
{
    struct rf_cell c;
    struct rj_key here;
    for (int i = 0; i < n; i++, f++) {
        if (!(f->in & RF_JSON)) continue;
        if (f->json) {
            j->field = keys ? &keys[i] : NULL;
            f->json(ctx, row, j, f->key);
            j->field = NULL;
            continue;
        }
        get(ctx, f, row, &c);
        const struct rj_key *k = keys ? &keys[i] : &here;
        if (!keys) rj_key_init(&here, f->key);
        if (f->kind == RF_BOOL)
            rj_bool_k(j, k, (int)c.i);
        else if (c.is_unsigned)
            rj_uint_k(j, k, (unsigned long long)c.i);
        else if (c.is_int)
            rj_int_k(j, k, c.i);
        else if (c.is_num)
            rj_num_k(j, k, machine(f, c.x));
        else
            rj_str_k(j, k, c.s);
    }
}

void rf_json_members(struct rep_json *j, const struct rf_field *f, int n, const void *ctx, const void *row)
{
    json_members(j, f, n, ctx, row, NULL);
}

void rf_row(struct rf_rows *w, const void *row)
{
    if (w->fmt == NNPERF_FORMAT_JSON) {
        rj_obj(w->j, NULL, 0);
        json_members(w->j, w->f, w->n < RF_MAX ? w->n : RF_MAX, w->ctx, row, w->keys);
        rj_end(w->j);
        return;
    }
    unsigned bit = fmt_bit(w->fmt);
    struct rf_cell cells[RF_MAX];
    const char *text[RF_MAX];
    int nc = 0;
    if (w->fmt == NNPERF_FORMAT_HTML) {
        if (w->tr)
            w->tr(w->ctx, row, w->sb);
        else
            sb_puts(w->sb, "<tr>");
    }
    for (int i = 0; i < w->n && nc < RF_MAX; i++) {
        const struct rf_field *f = &w->f[i];
        if (!(f->in & bit)) continue;
        if (w->fmt == NNPERF_FORMAT_HTML && f->html) {
            f->html(w->ctx, row, w->sb);
            continue;
        }
        struct rf_cell *c = &cells[nc];
        get(w->ctx, f, row, c);
        if (w->fmt == NNPERF_FORMAT_CSV) {
            if (c->is_unsigned)
                rc_uint(&w->c, (unsigned long long)c->i);
            else if (c->is_int)
                rc_int(&w->c, c->i);
            else if (c->is_num)
                rc_num(&w->c, machine(f, c->x));
            else
                rc_str(&w->c, c->s ? c->s : "");
        } else if (w->fmt == NNPERF_FORMAT_HTML) {
            const char *shown = people(f, c);
            if (c->is_num)
                rh_td_num(w->sb, shown ? shown : "",
                          c->is_unsigned ? (double)(unsigned long long)c->i
                          : c->is_int    ? (double)c->i
                                         : machine(f, c->x));
            else
                rh_td_text(w->sb, f->hcls, shown ? shown : "");
        } else {
            text[nc++] = people(f, c);
        }
    }
    if (w->fmt == NNPERF_FORMAT_CSV)
        rc_end(&w->c);
    else if (w->fmt == NNPERF_FORMAT_HTML)
        sb_puts(w->sb, "</tr>\n");
    else
        rt_row(&w->t, text);
}

void rf_begin_html(struct rf_rows *w, const struct rf_field *f, int n, const void *ctx, struct strbuf *sb,
                   const char *id, const char *what, int n_rows, int sorted_col)
{
    w->fmt = NNPERF_FORMAT_HTML, w->f = f, w->n = n, w->ctx = ctx, w->j = NULL, w->sb = sb, w->tr = NULL;
    struct rep_hcol hc[RF_MAX];
    int nc = 0;
    for (int i = 0; i < n && nc < RF_MAX; i++)
        if (f[i].in & RF_HTML)
            hc[nc++] = (struct rep_hcol){f[i].col.head, f[i].hkey ? f[i].hkey : f[i].key, f[i].col.right};
    rh_table_open(sb, id, what, n_rows, hc, nc, sorted_col);
}

void rf_end(struct rf_rows *w, struct strbuf *sb, int width, int indent, struct strbuf *note)
{
    if (w->fmt == NNPERF_FORMAT_HTML) {
        rh_table_close(w->sb);
    } else if (w->fmt == NNPERF_FORMAT_JSON) {
        rj_end(w->j);
    } else if (w->fmt == NNPERF_FORMAT_TABLE) {
        struct strbuf empty;
        if (!note) sb_init(&empty, 1 << 12), note = &empty;
        rt_finish(&w->t, width, indent, sb, note);
    }
}
