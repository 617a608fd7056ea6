/* json.h - a small JSON writer over a strbuf: it places the commas, escapes strings and writes numbers exactly
 * (fmt.h). Containers opened with lines = 1 put each member on a line of its own (a layer per line), so large
 * documents stay readable with line tools. Nesting deeper than REP_JSON_DEPTH is a programming error: the writer
 * marks the buffer as overflowed. */
#ifndef NNPERF_REPORT_JSON_H
#define NNPERF_REPORT_JSON_H

#include "fmt.h"

#define REP_JSON_DEPTH 16

struct rj_key;

struct rep_json {
    struct strbuf *sb;
    int depth;
    unsigned char n[REP_JSON_DEPTH];     /* members written at each level */
    unsigned char lines[REP_JSON_DEPTH]; /* one member per line */
    char close[REP_JSON_DEPTH];          /* '}' or ']' */
    /* the key made once of the field whose own JSON function (rf_field.json) is writing: a member named by that very
     * pointer takes it (fields.c) */
    const struct rj_key *field;
};

void rj_init(struct rep_json *j, struct strbuf *sb);
/* Containers: key is the member name inside an object, NULL inside an array or at the top. */
void rj_obj(struct rep_json *j, const char *key, int lines);
void rj_arr(struct rep_json *j, const char *key, int lines);
void rj_end(struct rep_json *j); /* closes the innermost container; at depth 0 also ends the line */
/* The members every document starts with: "schema", "schema_version" and "nnperf_version". */
void rj_header(struct rep_json *j, const char *schema, int version);
/* Values (key as above): an exact number (null when not finite), an integer, a string (NULL = null), a bool. */
void rj_num(struct rep_json *j, const char *key, double x);
void rj_int(struct rep_json *j, const char *key, long long x);
void rj_uint(struct rep_json *j, const char *key, unsigned long long x);
void rj_str(struct rep_json *j, const char *key, const char *s);
void rj_bool(struct rep_json *j, const char *key, int b);
void rj_null(struct rep_json *j, const char *key);

/* A key made once for members written many times (a field of a report's rows: fields.c): its text "key": with the
 * quotes and the colon; n = 0 when the key needs escaping or is longer than the text holds (then written as above).
 * The rj_*_k writers are the value writers above with such a key (k NULL: no key, inside an array). */
#define RJ_KEY_TEXT 48
struct rj_key {
    const char *key;
    size_t n;
    char text[RJ_KEY_TEXT];
};
void rj_key_init(struct rj_key *k, const char *key);
void rj_num_k(struct rep_json *j, const struct rj_key *k, double x);
void rj_int_k(struct rep_json *j, const struct rj_key *k, long long x);
void rj_uint_k(struct rep_json *j, const struct rj_key *k, unsigned long long x);
void rj_str_k(struct rep_json *j, const struct rj_key *k, const char *s);
void rj_bool_k(struct rep_json *j, const struct rj_key *k, int b);

#endif
