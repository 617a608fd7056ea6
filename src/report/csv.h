/* csv.h - a CSV writer (RFC 4180): fields separated by commas, text quoted when it holds a comma, a quote or a line
 * break (a layer named "a,b" stays one field), numbers exact (fmt.h), an empty field for a value that is not
 * known, rows ended by LF. */
#ifndef NNPERF_REPORT_CSV_H
#define NNPERF_REPORT_CSV_H

#include "fmt.h"

struct rep_csv {
    struct strbuf *sb;
    int col; /* fields written on the current row */
};

void rc_init(struct rep_csv *c, struct strbuf *sb);
void rc_str(struct rep_csv *c, const char *s);
void rc_num(struct rep_csv *c, double x); /* empty when not finite */
void rc_int(struct rep_csv *c, long long x);
void rc_uint(struct rep_csv *c, unsigned long long x);
void rc_end(struct rep_csv *c); /* ends the row */

#endif
