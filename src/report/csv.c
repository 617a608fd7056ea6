/* csv.c - the CSV writer (csv.h). */
#include <math.h>

#include "csv.h"

void rc_init(struct rep_csv *c, struct strbuf *sb)
{
    c->sb = sb;
    c->col = 0;
}

static void sep(struct rep_csv *c)
{
    if (c->col++) sb_putc(c->sb, ',');
}

void rc_str(struct rep_csv *c, const char *s)
{
    sep(c);
    rep_csv_str(c->sb, s);
}

void rc_num(struct rep_csv *c, double x)
{
    sep(c);
    if (!isfinite(x)) return;
    char b[40];
    sb_putn(c->sb, b, core_exact(b, sizeof b, x));
}

void rc_int(struct rep_csv *c, long long x)
{
    sep(c);
    sb_int(c->sb, x);
}

void rc_uint(struct rep_csv *c, unsigned long long x)
{
    sep(c);
    sb_uint(c->sb, x);
}

void rc_end(struct rep_csv *c)
{
    sb_putc(c->sb, '\n');
    c->col = 0;
}
