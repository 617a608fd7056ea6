/* json.c - the JSON writer (json.h). */
#include "json.h"

void rj_init(struct rep_json *j, struct strbuf *sb)
{
    j->sb = sb;
    j->depth = 0;
    j->n[0] = 0;
    j->lines[0] = 0;
}

/* comma, line break and key before a member */
static void member(struct rep_json *j, const char *key)
{
    if (j->depth > 0) {
        int d = j->depth;
        if (j->n[d]) sb_putc(j->sb, ',');
        if (j->lines[d]) sb_putc(j->sb, '\n');
        if (j->n[d] < 255) j->n[d]++;
    }
    if (key) {
        sb_json_key(j->sb, key);
    }
}

static void rj_open(struct rep_json *j, const char *key, int lines, char c)
{
    member(j, key);
    sb_putc(j->sb, c);
    if (j->depth + 1 < REP_JSON_DEPTH) j->close[j->depth + 1] = c == '{' ? '}' : ']';
    if (j->depth + 1 >= REP_JSON_DEPTH) {
        j->sb->overflow = 1;
        return;
    }
    j->depth++;
    j->n[j->depth] = 0;
    j->lines[j->depth] = (unsigned char)(lines != 0);
}

void rj_obj(struct rep_json *j, const char *key, int lines)
{
    rj_open(j, key, lines, '{');
}

void rj_arr(struct rep_json *j, const char *key, int lines)
{
    rj_open(j, key, lines, '[');
}

void rj_end(struct rep_json *j)
{
    if (j->depth <= 0) return;
    if (j->lines[j->depth] && j->n[j->depth]) sb_putc(j->sb, '\n');
    sb_putc(j->sb, j->close[j->depth]);
    j->depth--;
    if (!j->depth) sb_putc(j->sb, '\n');
}

void rj_num(struct rep_json *j, const char *key, double x)
{
    char b[40];
    member(j, key);
    core_exact(b, sizeof b, x);
    sb_puts(j->sb, b);
}

void rj_int(struct rep_json *j, const char *key, long long x)
{
    member(j, key);
    sb_int(j->sb, x);
}

void rj_uint(struct rep_json *j, const char *key, unsigned long long x)
{
    member(j, key);
    sb_uint(j->sb, x);
}

void rj_str(struct rep_json *j, const char *key, const char *s)
{
    member(j, key);
    if (s)
        sb_json_str(j->sb, s);
    else
        sb_puts(j->sb, "null");
}

void rj_bool(struct rep_json *j, const char *key, int b)
{
    member(j, key);
    sb_puts(j->sb, b ? "true" : "false");
}

void rj_null(struct rep_json *j, const char *key)
{
    member(j, key);
    sb_puts(j->sb, "null");
}

void rj_header(struct rep_json *j, const char *schema, int version)
{
    rj_str(j, "schema", schema);
    rj_int(j, "schema_version", version);
    rj_str(j, "nnperf_version", NNPERF_VERSION);
}
