/* term.c - the terminal side of the CLI: width (TIOCGWINSZ, else $COLUMNS), colour only on a tty and never with
 * NO_COLOR ([NO-COLOR] in docs/sources.md), a progress bar on stderr for work that takes over a second, the width
 * wide tables are fitted to, and the error and warning lines (control characters escaped). */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <time.h>
#include <unistd.h>

#include "cli.h"

/* The width of the terminal on fd (TIOCGWINSZ, else $COLUMNS, else 0 = not a terminal or unknown). */
static int cli_term_width(int fd)
{
    if (!isatty(fd)) return 0;
    struct winsize ws;
    if (ioctl(fd, TIOCGWINSZ, &ws) == 0 && ws.ws_col > 0) return ws.ws_col;
    const char *c = getenv("COLUMNS");
    long n = c ? strtol(c, NULL, 10) : 0;
    return n > 0 && n < 10000 ? (int)n : 80;
}

/* Whether to colour output on fd (a tty, no NO_COLOR, TERM not dumb). */
static int cli_use_color(int fd)
{
    const char *nc = getenv("NO_COLOR");
    if (nc && nc[0]) return 0;
    const char *t = getenv("TERM");
    if (t && !strcmp(t, "dumb")) return 0;
    return isatty(fd);
}

/* A colour escape or "" (code "1" bold, "31" red, "33" yellow, "0" reset). */
static const char *cli_sgr(int fd, const char *code)
{
    if (!cli_use_color(fd)) return "";
    if (!strcmp(code, "0")) return "\033[0m";
    if (!strcmp(code, "1")) return "\033[1m";
    if (!strcmp(code, "31")) return "\033[31m";
    if (!strcmp(code, "33")) return "\033[33m";
    if (!strcmp(code, "2")) return "\033[2m";
    return "";
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static struct {
    int on, drawn;
    double t0, last;
} prog;

void cli_progress_start(int quiet)
{
    prog.on = !quiet && isatty(2);
    prog.drawn = 0;
    prog.t0 = now_s();
    prog.last = 0;
}

void cli_progress(int done, int total, const char *what)
{
    if (!prog.on || total <= 0) return;
    double t = now_s();
    if (t - prog.t0 < 1.0 || (t - prog.last < 0.1 && done < total)) return;
    prog.last = t;
    int w = cli_term_width(2);
    if (w <= 0) w = 80;
    int bar = w - 48;
    if (bar > 40) bar = 40;
    if (bar < 10) bar = 10;
    int fill = (int)((long)bar * done / total);
    char b[64];
    int i = 0;
    for (; i < fill && i < 63; i++) b[i] = '#';
    for (; i < bar && i < 63; i++) b[i] = '.';
    b[i] = 0;
    fprintf(stderr, "\r[%s] %3d%% %-.*s\033[K", b, 100 * done / total, w - bar - 10 > 0 ? w - bar - 10 : 0,
            what ? what : "");
    fflush(stderr);
    prog.drawn = 1;
}

void cli_progress_end(void)
{
    if (prog.drawn) fputs("\r\033[K", stderr);
    prog.drawn = 0;
    prog.on = 0;
}

void cli_put_text(FILE *f, const char *msg, int lines)
{
    for (const unsigned char *c = (const unsigned char *)msg; *c; c++)
        if ((*c < 0x20 || *c == 0x7f) && !(lines && *c == '\n'))
            fprintf(f, "\\x%02x", *c);
        else
            fputc(*c, f);
}

static void report(const char *color, const char *label, const char *fmt, va_list ap)
{
    char msg[4096];
    vsnprintf(msg, sizeof msg, fmt, ap);
    fprintf(stderr, "%snnperf:%s%s ", cli_sgr(2, color), label, cli_sgr(2, "0"));
    cli_put_text(stderr, msg, 0);
    fputc('\n', stderr);
}

void cli_error(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    report("31", "", fmt, ap);
    va_end(ap);
}

void cli_warn(int quiet, const char *fmt, ...)
{
    if (quiet) return;
    va_list ap;
    va_start(ap, fmt);
    report("33", " warning:", fmt, ap);
    va_end(ap);
}

int cli_table_width(const struct cli_args *a)
{
    if (a->v[OPT_WIDTH].n) return a->v[OPT_WIDTH].i[a->v[OPT_WIDTH].n - 1];
    const char *out = cli_str(a, OPT_OUTPUT);
    if (out && strcmp(out, "-")) return 0; /* a file: no limit */
    int w = cli_columns();
    return w > 0 ? w : 80;
}

int cli_columns(void)
{
    int w = cli_term_width(1);
    if (w > 0) return w;
    const char *c = getenv("COLUMNS");
    long n = c ? strtol(c, NULL, 10) : 0;
    return n > 0 && n < 10000 ? (int)n : 0;
}
