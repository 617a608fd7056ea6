/* json.c - the JSON writer (json.h). */
#include <string.h>

#include "json.h"

void rj_init(struct rep_json *j, struct strbuf *sb)
{
    j->sb = sb;
    j->depth = 0;
    j->n[0] = 0;
    j->lines[0] = 0;
    j->field = NULL;
}

void rj_key_init(struct rj_key *k, const char *key)
{
    size_t n = strlen(key);
    k->key = key;
    k->n = 0;
    memset(k->text, 0, sizeof k->text); /* member copies all of it */
    if (n + 3 > sizeof k->text || !core_json_copy(k->text + 1, key, n)) return;
    k->text[0] = '"';
    k->text[n + 1] = '"';
    k->text[n + 2] = ':';
    k->n = n + 3;
}

/* The comma and line break before a member and its key k (NULL: none), with room for n bytes of its value after
 * them: where the value goes (the caller writes it and counts it with sb_wrote), or NULL when the buffer refused.
 * One reservation; the separators and the key's text are copied at a fixed size into it (sb_reserve's slack). */
static char *member(struct rep_json *j, const struct rj_key *k, size_t n)
{
    struct strbuf *sb = j->sb;
    int d = j->depth;
    size_t ns = 0;
    char c0 = 0;
    if (d > 0) { /* "," and/or "\n" */
        unsigned char m = j->n[d];
        ns = (size_t)(m != 0) + j->lines[d];
        c0 = m ? ',' : '\n';
        if (m < 255) j->n[d] = (unsigned char)(m + 1);
    }
    if (k && !k->n) { /* a key to escape */
        char *o = sb_reserve(sb, ns);
        if (!o) return NULL;
        o[0] = c0, o[1] = '\n';
        sb_wrote(sb, ns);
        sb_json_key(sb, k->key);
        return sb_reserve(sb, n);
    }
    size_t head = ns + (k ? k->n : 0);
    char *o = sb_reserve(sb, head + n);
    if (!o) return NULL;
    o[0] = c0, o[1] = '\n';
    if (k) memcpy(o + ns, k->text, RJ_KEY_TEXT);
    sb->len += head; /* the value's sb_wrote ends the text */
    return o + head;
}

/* the writers by name: the key of the field being written when it is that one, else made on the spot in k (NULL:
 * none) */
static const struct rj_key *key_of(const struct rep_json *j, struct rj_key *k, const char *key)
{
    if (!key) return NULL;
    if (j->field && key == j->field->key) return j->field;
    rj_key_init(k, key);
    return k;
}

static void rj_open(struct rep_json *j, const char *key, int lines, char c)
{
    struct rj_key k;
    char *o = member(j, key_of(j, &k, key), 1);
    if (o) {
        o[0] = c;
        sb_wrote(j->sb, 1);
    }
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
    int d = j->depth;
    if (d <= 0) return;
    j->depth--;
    size_t nl = j->lines[d] && j->n[d], last = d == 1, n = nl + 1 + last, i = 0;
    char *o = sb_reserve(j->sb, n);
    if (!o) return;
    if (nl) o[i++] = '\n';
    o[i++] = j->close[d];
    if (last) o[i] = '\n';
    sb_wrote(j->sb, n);
}

/* a member whose value is the n bytes at v, copied as the size bytes v holds (n <= size <= SB_SLACK: a fixed size,
 * no call) */
static inline void member_text(struct rep_json *j, const struct rj_key *k, const char *v, size_t n,
                               size_t size)
{
    char *o = member(j, k, n);
    if (!o) return;
    memcpy(o, v, size);
    sb_wrote(j->sb, n);
}

void rj_num_k(struct rep_json *j, const struct rj_key *k, double x)
{
    char b[40];
    size_t n = core_exact(b, sizeof b, x);
    member_text(j, k, b, n, sizeof b);
}

void rj_int_k(struct rep_json *j, const struct rj_key *k, long long x)
{
    char b[24];
    member_text(j, k, b, core_idigits(b, x), sizeof b);
}

void rj_uint_k(struct rep_json *j, const struct rj_key *k, unsigned long long x)
{
    char b[24];
    size_t n = core_digits(b, x);
    member_text(j, k, b, n, sizeof b);
}

void rj_bool_k(struct rep_json *j, const struct rj_key *k, int b)
{
    if (b)
        member_text(j, k, "true", 4, 4);
    else
        member_text(j, k, "false", 5, 5);
}

static void null_k(struct rep_json *j, const struct rj_key *k)
{
    member_text(j, k, "null", 4, 4);
}

void rj_str_k(struct rep_json *j, const struct rj_key *k, const char *s)
{
    if (!s) {
        null_k(j, k);
        return;
    }
    size_t n = strlen(s);
    char *o = member(j, k, n + 2);
    if (!o) return;
    if (!core_json_copy(o + 1, s, n)) {
        sb_json_str(j->sb, s); /* escapes */
        return;
    }
    o[0] = '"';
    o[n + 1] = '"';
    sb_wrote(j->sb, n + 2);
}

void rj_num(struct rep_json *j, const char *key, double x)
{
    struct rj_key k;
    rj_num_k(j, key_of(j, &k, key), x);
}

void rj_int(struct rep_json *j, const char *key, long long x)
{
    struct rj_key k;
    rj_int_k(j, key_of(j, &k, key), x);
}

void rj_uint(struct rep_json *j, const char *key, unsigned long long x)
{
    struct rj_key k;
    rj_uint_k(j, key_of(j, &k, key), x);
}

void rj_str(struct rep_json *j, const char *key, const char *s)
{
    struct rj_key k;
    rj_str_k(j, key_of(j, &k, key), s);
}

void rj_bool(struct rep_json *j, const char *key, int b)
{
    struct rj_key k;
    rj_bool_k(j, key_of(j, &k, key), b);
}

void rj_null(struct rep_json *j, const char *key)
{
    struct rj_key k;
    null_k(j, key_of(j, &k, key));
}

void rj_header(struct rep_json *j, const char *schema, int version)
{
    rj_str(j, "schema", schema);
    rj_int(j, "schema_version", version);
    rj_str(j, "nnperf_version", NNPERF_VERSION);
}
