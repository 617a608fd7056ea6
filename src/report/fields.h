/* fields.h - a report's columns as one table that every writer walks: each row of the table (a field) is a JSON
 * member, a CSV column and a table column at once, with how its value is read from a report row and how people
 * see it. A report declares its fields once (render_roofline.c, render_sweep.c, render_prediction.c, ...) and hands
 * its rows to rf_row; the JSON, CSV and table writers (and a new format's writer: docs/design.md, "Adding an output
 * format") each walk the same fields. A field present in some formats only says which in .in; a column whose
 * place differs between formats is two fields, one per place. */
#ifndef NNPERF_REPORT_FIELDS_H
#define NNPERF_REPORT_FIELDS_H

#include "csv.h"
#include "html.h"
#include "json.h"
#include "table.h"

#define RF_MAX 64 /* fields of one report */

/* the formats a field is written in (.in) */
#define RF_JSON    1u
#define RF_CSV     2u
#define RF_TABLE   4u
#define RF_HTML    8u /* a column of an HTML page's sortable table (rf_begin_html) */
#define RF_ALL     (RF_JSON | RF_CSV | RF_TABLE)
#define RF_MACHINE (RF_JSON | RF_CSV) /* the formats for programs */

enum rf_kind {
    RF_STR, /* const char * at .off; NULL: JSON null, CSV and table empty */
    RF_NUM, /* double at .off, x .scale for JSON and CSV (exact; not finite: null / empty), .people for tables */
    RF_INT,  /* int at .off: JSON and CSV integers, "%d" for tables */
    RF_I64,  /* int64_t at .off, written as RF_INT */
    RF_U64,  /* uint64_t at .off, written as RF_INT (unsigned) */
    RF_BOOL, /* int at .off: JSON true/false, CSV 1/0, "yes"/"no" */
    RF_FN /* .fn fills the cell (computed values); .json, when set, writes the JSON member itself (arrays) */
};

/* how a table writes a number for people (fmt.h) */
enum rf_people {
    RF_P_SI,    /* rep_si with .unit */
    RF_P_TIME,  /* rep_time of the value in seconds (before .scale) */
    RF_P_PCT,   /* rep_pct of a fraction */
    RF_P_COUNT, /* rep_si of the integer with .unit */
    RF_P_FIX1,  /* "%.1f" */
    RF_P_FIX2   /* "%.2f" */
};

/* A computed cell: a string (s), or else a number (x, or the integer i when is_int; its bits an unsigned long long
 * when is_unsigned); text: what the table and the page show when set (else s, or x / i written as the field's people
 * format says). */
struct rf_cell {
    const char *s;
    double x;
    long long i;
    int is_num, is_int, is_unsigned;
    char buf[96]; /* room for s or text */
    const char *text;
};

struct rf_field {
    const char *key;    /* JSON member and CSV column */
    struct rep_col col; /* the table's column (col.head: its heading; the page's too, col.right: numeric) */
    unsigned in;        /* RF_JSON | RF_CSV | RF_TABLE | RF_HTML */
    enum rf_kind kind;
    size_t off;   /* where the value lies in a row (offsetof) */
    double scale; /* RF_NUM: machines write value x scale (0: x 1), e.g. 1e6 for "time_us" */
    int whole;    /* RF_NUM: a count kept as a double (bytes, tokens): rounded to an integer (nearbyint) */
    enum rf_people people;
    const char *unit; /* RF_P_SI's unit */
    void (*fn)(const void *ctx, const void *row, struct rf_cell *c);
    void (*json)(const void *ctx, const void *row, struct rep_json *j, const char *key);
    const char *hkey, *hcls; /* the page's column: its data-key (sorting; NULL: key), a text cell's class */
    void (*html)(const void *ctx, const void *row,
                 struct strbuf *sb); /* writes the page's cell (<td>...</td>) */
};

/* One pass of a writer over rows: rf_begin, rf_row per row, rf_end. */
struct rf_rows {
    enum nnperf_format fmt;
    const struct rf_field *f;
    int n;
    const void *ctx; /* handed to the fields' fn and json */
    struct rep_json *j;
    struct rj_key keys[RF_MAX]; /* JSON: the fields' keys, made once */
    struct rep_csv c;
    struct rep_table t;
    struct rep_col cols[RF_MAX];
    struct strbuf *sb; /* HTML */
    /* HTML: writes a row's opening tag, e.g. with a data- attribute (NULL after rf_begin_html: "<tr>") */
    void (*tr)(const void *ctx, const void *row, struct strbuf *sb);
};

/* Starts rows of fields f[0..n) in format fmt into sb: JSON: an array member named key of the open object j (each
 * row an object on a line of its own); CSV: the header line; table: the table (write it with rf_end's rt_finish
 * arguments). ctx is handed to the fields' functions. */
void rf_begin(struct rf_rows *w, enum nnperf_format fmt, const struct rf_field *f, int n, const void *ctx,
              struct strbuf *sb, struct rep_json *j, const char *key);
/* Starts an HTML page's sortable table of fields f[0..n) (rh_table_open: id, what the rows are, n_rows of them,
 * sorted_col the index among the RF_HTML fields marked sorted, -1 none); rf_row writes a row, rf_end closes it. A
 * number's cell shows it as the table does, sorted by its machine value (NaN: unknown, last). */
void rf_begin_html(struct rf_rows *w, const struct rf_field *f, int n, const void *ctx, struct strbuf *sb,
                   const char *id, const char *what, int n_rows, int sorted_col);
void rf_row(struct rf_rows *w, const void *row);
/* The JSON members of row (the RF_JSON fields of f[0..n)) into the open object j: a row written as an object of its
 * own (a summary) rather than as an element of rf_begin's array. */
void rf_json_members(struct rep_json *j, const struct rf_field *f, int n, const void *ctx, const void *row);
/* Ends the rows: JSON closes the array; the table is written in width columns after indent spaces with the note
 * (may be NULL: an empty one; rt_finish frees it). */
void rf_end(struct rf_rows *w, struct strbuf *sb, int width, int indent, struct strbuf *note);

#endif
