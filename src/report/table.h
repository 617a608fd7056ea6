/* table.h - text tables for the terminal: rows of cells collected first, then written with each column as wide as
 * its widest cell. When the lines would be wider than the given width, a column with the same cell in every row is
 * dropped first (rt_finish's note names its value), then the least useful columns (each column has a drop rank; rank
 * 0 is dropped only when constant) and then the name column is shortened from the left
 * ("..layer4.2/conv3/Conv": the end of an exporter's name is its distinctive part). */
#ifndef NNPERF_REPORT_TABLE_H
#define NNPERF_REPORT_TABLE_H

#include "fmt.h"

struct rep_col {
    const char *head;
    int right; /* right-aligned (numbers) */
    int drop;  /* 0 = always shown; otherwise dropped to fit, the highest rank first */
    int max;   /* longest cell shown (cut from the left beyond it; 0 = no limit) */
    int min;   /* shortest the column may be cut to when it still does not fit (0 = never cut) */
};

struct rep_table {
    const struct rep_col *cols;
    int nc;
    struct arena ar;
    const char **cells; /* rows x nc, in the arena */
    int rows, cap;
    int failed; /* out of memory: rt_write marks the output buffer as overflowed */
};

void rt_init(struct rep_table *t, const struct rep_col *cols, int nc);
/* Appends a row of nc cells (copied, control characters and bytes that are not UTF-8 written as \xNN by
 * sb_put_text; NULL is written as empty). */
void rt_row(struct rep_table *t, const char *const *cells);
/* Writes the table (header line, then rows) in at most width columns (0 = no limit). indent spaces start every
 * line. *dropped (may be NULL) gets the number of columns left out. */
void rt_write(const struct rep_table *t, int width, int indent, struct strbuf *sb, int *dropped);
void rt_free(struct rep_table *t);
/* Writes the table in width columns, each line after indent spaces, then the note (may be empty; the columns left
 * out, if any, are added to it) word-wrapped; frees the table and the note. */
void rt_finish(struct rep_table *t, int width, int indent, struct strbuf *sb, struct strbuf *note);
/* Writes text (one line: control characters, a line break too, written as \xNN) word-wrapped to width columns
 * (0 = one line), without trailing blanks, ending in a newline;
 * rt_wrap_indent starts the lines after the first with indent spaces (the first line's start is the caller's). */
void rt_wrap_indent(struct strbuf *sb, const char *text, int width, int indent);

#endif
