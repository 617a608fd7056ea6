/* fmt.h - the leaf of the report stack: how numbers, units and text are written. Everything people read uses one
 * unit style, SI prefixes with a space ("25.7 MB", "20.5 GB/s", "2.38 G", "1.348 ms"); everything programs read
 * (JSON, CSV) gets exact numbers (the shortest text that reads back as the same double). Escaping for HTML/SVG
 * text and for CSV fields (RFC 4180) lives here too. Nothing here knows about models or predictions.
 *
 * The report module is a one-way stack; a file includes only headers of its own level or below:
 *   1. fmt.h                                   formatting (this file)
 *   2. table.h json.h csv.h svg.h html.h       writers (each includes fmt.h only); fields.h: a report's columns
 *                                              as one table walked by the table, JSON and CSV writers
 *   3. view.h                                  a prediction as reports read it (public accessors only)
 *   4. plots.h                                 the SVG plots (svg.h + view.h)
 *   5. render.h, render_*.c                    the render entry points of include/nnperf.h
 * (tests/report_layers.sh checks it.) */
#ifndef NNPERF_REPORT_FMT_H
#define NNPERF_REPORT_FMT_H

#include <stddef.h>

#include "../core/core.h"

/* x with an SI prefix and a space before the unit, three significant digits, trailing zeros dropped:
 * rep_si(b, n, 2.5712e7, "B") = "25.7 MB", (2.376e8, "") = "238 M", (0.5, "") = "0.5", (512, "B") = "512 B".
 * Non-finite values are written "?". */
void rep_si(char *b, size_t n, double x, const char *unit);
/* seconds as "1.348 s", "12.345 ms", "3.4 us" */
void rep_time(char *b, size_t n, double seconds);
/* a fraction as a percentage with one decimal: 0.0482 -> "4.8%" */
void rep_pct(char *b, size_t n, double fraction);
/* an integer with thousands separators: 9057 -> "9,057" */
void rep_count(char *b, size_t n, long long x);

/* Exact numbers for JSON and CSV: core_exact (src/core/core.h). */

/* Appends s escaped for HTML/XML text and attribute values (& < > " '); control bytes become spaces. */
void rep_esc(struct strbuf *sb, const char *s);
/* Appends s as one CSV field (RFC 4180): control characters and bytes that are not UTF-8 written as \xNN
 * (sb_put_text: a name's ESC or line break never reaches a terminal that shows the file), then quoted, with quotes
 * doubled, when it holds a comma or a quote. */
void rep_csv_str(struct strbuf *sb, const char *s);

#endif
