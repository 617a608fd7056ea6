/* html.h - the HTML writer: one self-contained page (inline CSS, inline SVG, a little inline script for tabs,
 * sorting, filtering and zooming the timeline; a Content-Security-Policy forbids any network request), tabs,
 * summary cards, key/value tables, sortable and filterable tables, warning boxes. Every text is escaped. The
 * script has a self-test, run when the URL ends in #selftest (tests/browser/). */
#ifndef NNPERF_REPORT_HTML_H
#define NNPERF_REPORT_HTML_H

#include "fmt.h"

struct rep_tab {
    const char *id, *title; /* id: [a-z0-9-] */
};

void rh_page_open(struct strbuf *sb, const char *title, const char *sub);
void rh_nav(struct strbuf *sb, const struct rep_tab *t, int n);
void rh_tab_open(struct strbuf *sb, const char *id, const char *h2, int first);
void rh_tab_close(struct strbuf *sb);
void rh_page_close(struct strbuf *sb);

void rh_cards_open(struct strbuf *sb);
void rh_card(struct strbuf *sb, const char *k, const char *v);
void rh_cards_close(struct strbuf *sb);
/* key/value table rows: rh_kv escapes v */
void rh_kv_open(struct strbuf *sb);
void rh_kv(struct strbuf *sb, const char *k, const char *v);
void rh_kv_close(struct strbuf *sb);
/* a paragraph of muted text (escaped); cls adds classes, attrs attributes (both may be NULL) */
void rh_note(struct strbuf *sb, const char *cls, const char *attrs, const char *text);

struct rep_hcol {
    const char *head, *key; /* key: data-key of the header cell */
    int num;                /* numeric: right-aligned, sorted by data-v */
};
/* A sortable, filterable table: the filter box, a row count and the header; sorted_col is marked sorted
 * (descending), -1 for none. Rows are written with rh_td_* between "<tr>" and "</tr>". */
void rh_table_open(struct strbuf *sb, const char *id, const char *what, int n_rows, const struct rep_hcol *c,
                   int nc, int sorted_col);
void rh_table_close(struct strbuf *sb);
void rh_td_num(struct strbuf *sb, const char *shown, double key); /* key: sort value (NaN sorts last) */
void rh_td_text(struct strbuf *sb, const char *cls, const char *s);

/* A warning box: the first ten messages, the rest behind a <details>. */
void rh_warnings(struct strbuf *sb, const char *head, const char *const *w, int n);

#endif
