/* fmt.c - numbers, units and escaping for every report format (see fmt.h). Output depends on nothing but the
 * value: no locale (the library never calls setlocale, so printf's decimal point is '.'), no clock. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "fmt.h"

/* drops trailing zeros of a fixed-point number ("4.50" -> "4.5", "4.00" -> "4") */
static void trim_zeros(char *b)
{
    char *dot = strchr(b, '.');
    if (!dot) return;
    char *e = b + strlen(b);
    while (e > dot + 1 && e[-1] == '0') e--;
    if (e == dot + 1) e = dot;
    *e = 0;
}

/* three significant digits of 0 <= x < 1000, trailing zeros dropped */
static void sig3(char *b, size_t n, double x)
{
    int decimals = x >= 99.95      ? 0
                   : x >= 9.995    ? 1
                   : x >= 0.9995   ? 2
                   : x >= 0.09995  ? 3
                   : x >= 0.009995 ? 4
                                   : 5;
    c_snprintf(b, n, "%.*f", decimals, x);
    trim_zeros(b);
}

void rep_si(char *b, size_t n, double x, const char *unit)
{
    static const char *const big[] = {"", "k", "M", "G", "T", "P", "E"};
    static const char *const small[] = {"", "m", "u", "n"};
    if (!n) return;
    if (!unit) unit = "";
    if (!isfinite(x)) {
        snprintf(b, n, "?%s%s", unit[0] ? " " : "", unit);
        return;
    }
    const char *sign = x < 0 ? "-" : "";
    double a = fabs(x);
    const char *prefix = "";
    if (a >= 999.5) {
        int i = 0;
        while (a >= 999.5 && i < 6) a /= 1000, i++;
        prefix = big[i];
    } else if (a > 0 && a < 0.001 && unit[0]) { /* small quantities with a unit: 2.5 us, 40 mB/s */
        int i = 0;
        while (a < 0.9995 && i < 3) a *= 1000, i++;
        prefix = small[i];
    }
    char num[48];
    sig3(num, sizeof num, a);
    if (!strcmp(num, "0")) sign = "";
    int sep = prefix[0] || unit[0];
    snprintf(b, n, "%s%s%s%s%s", sign, num, sep ? " " : "", prefix, unit);
}

void rep_time(char *b, size_t n, double s)
{
    if (!isfinite(s))
        snprintf(b, n, "?");
    else if (s >= 1)
        c_snprintf(b, n, "%.3f s", s);
    else if (s >= 1e-3)
        c_snprintf(b, n, "%.3f ms", s * 1e3);
    else
        c_snprintf(b, n, "%.1f us", s * 1e6);
}

void rep_pct(char *b, size_t n, double fraction)
{
    if (!isfinite(fraction))
        snprintf(b, n, "?");
    else
        c_snprintf(b, n, "%.1f%%", fraction * 100);
}

void rep_count(char *b, size_t n, long long x)
{
    char t[32];
    snprintf(t, sizeof t, "%lld", x < 0 ? -x : x);
    size_t len = strlen(t), o = 0;
    char r[48];
    if (x < 0) r[o++] = '-';
    for (size_t i = 0; i < len; i++) {
        if (i && (len - i) % 3 == 0) r[o++] = ',';
        r[o++] = t[i];
    }
    r[o] = 0;
    snprintf(b, n, "%s", r);
}

void rep_esc(struct strbuf *sb, const char *s)
{
    if (!s) return;
    const char *run = s;
    for (; *s; s++) {
        const char *r = NULL;
        unsigned char c = (unsigned char)*s;
        switch (c) {
        case '&': r = "&amp;"; break;
        case '<': r = "&lt;"; break;
        case '>': r = "&gt;"; break;
        case '"': r = "&quot;"; break;
        case '\'': r = "&#39;"; break;
        default:
            if (c < 0x20 || c == 0x7f) r = " ";
        }
        if (r) {
            sb_putn(sb, run, (size_t)(s - run));
            sb_puts(sb, r);
            run = s + 1;
        }
    }
    sb_putn(sb, run, (size_t)(s - run));
}

void rep_csv_str(struct strbuf *sb, const char *s)
{
    if (!s) s = "";
    if (!core_text_plain(
            s)) { /* a control character or a byte that is not UTF-8: written as \xNN, then quoted as needed */
        struct strbuf e;
        sb_init(&e, (size_t)1 << 24);
        sb_put_text(&e, s, NULL);
        if (e.overflow || !e.p)
            sb->overflow = 1;
        else
            rep_csv_str(sb, e.p);
        sb_free(&e);
        return;
    }
    if (!strpbrk(s, ",\"\r\n")) {
        sb_puts(sb, s);
        return;
    }
    sb_putc(sb, '"');
    for (const char *run = s;; s++) {
        if (*s && *s != '"') continue;
        sb_putn(sb, run, (size_t)(s - run));
        if (!*s) break;
        sb_puts(sb, "\"\"");
        run = s + 1;
    }
    sb_putc(sb, '"');
}
