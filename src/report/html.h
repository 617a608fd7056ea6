/* html.h - the self-contained HTML reports: analysis, prediction and compare pages (inline CSS, inline SVG from
 * svg.c, a little inline script for tabs, sorting, filtering). */
#ifndef NNPERF_HTML_H
#define NNPERF_HTML_H

#include "svg.h"

/* An extra tab of the prediction page, e.g. "Advice" (src/advise/): id is an HTML id ([a-z0-9-]), title the tab
 * label; text is escaped and shown as preformatted lines unless is_html is set, in which case it is inserted as is
 * (the caller escapes every name in it with rep_esc). */
struct rep_html_section {
    const char *id, *title, *text;
    int is_html;
};

void rep_html_analysis(const struct an_state *an, struct strbuf *sb);
/* extra: n_extra tabs added after Memory (NULL, 0 for none). */
void rep_html_prediction(const struct nnperf_prediction *p, const struct rep_html_section *extra, int n_extra,
                         struct strbuf *sb);
void rep_html_compare(const struct nnperf_compare_data *d, struct strbuf *sb);
/* Pieces of the same page for other reports (src/llm/): the head with n_tabs tabs (at most 16; the first is shown),
 * a tab's section (first: visible) and its end, a summary card (key, value), and the foot with the script. */
void rep_html_page_open(struct strbuf *sb, const char *title, const char *sub, const char *const *tab_ids,
                        const char *const *tab_titles, int n_tabs);
void rep_html_tab(struct strbuf *sb, const char *id, const char *h2, int first);
void rep_html_tab_close(struct strbuf *sb);
void rep_html_card(struct strbuf *sb, const char *k, const char *v);
void rep_html_page_close(struct strbuf *sb);

#endif
