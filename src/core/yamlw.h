/* yamlw.h - YAML written through libyaml's emitter (the platform descriptions, calibrate's output, the
 * ai8x-synthesis description of `nnperf map`): the emitter chooses quoting and escapes, so no string (a node name
 * with a line break or ": ", a file name with " #") can change the document's structure. Comments, which the
 * emitter cannot write, are whole lines added between fragments (yw_comment), their text made printable first. */
#ifndef NNPERF_CORE_YAMLW_H
#define NNPERF_CORE_YAMLW_H

#include <yaml.h>

#include "core.h"

struct yamlw {
    yaml_emitter_t e;
    struct strbuf *sb;
    int err; /* the emitter refused an event or ran out of memory: the output is incomplete (sb->overflow set) */
    size_t start; /* sb->len when the fragment began */
};

/* Starts a fragment written into sb: a stream with one implicit document, block styles, no line width. */
void yw_begin(struct yamlw *w, struct strbuf *sb);
/* A string: plain when it reads back as the same string (a word of letters, digits, '_', '-', '.' starting with a
 * letter or '_' that is no YAML 1.1 boolean or null), else double-quoted with the emitter's escapes (a line break as
 * "\n": it reads back unchanged). A string that is not UTF-8 (YAML cannot hold it) has its control characters and
 * stray bytes written as the text \xNN (sb_put_text). */
void yw_str(struct yamlw *w, const char *s);
/* A scalar the program made (a number, a hex mask, true, 3x3) written plain, as it is. */
void yw_plain(struct yamlw *w, const char *s);
void yw_printf(struct yamlw *w, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
/* Collections: flow 1 = [a, b] / {a: 1}, 0 = block. */
void yw_map(struct yamlw *w, int flow);
void yw_seq(struct yamlw *w, int flow);
void yw_end_map(struct yamlw *w);
void yw_end_seq(struct yamlw *w);
/* Ends the fragment and flushes it into sb; returns w->err. The text ends in a line break. */
int yw_end(struct yamlw *w);
/* yw_end for a fragment that is one value on one line (a scalar or a flow collection after "key: "): the line
 * break is left out. */
int yw_end_line(struct yamlw *w);
/* "# text" on a line of its own after indent spaces, text made printable (control characters and line breaks as
 * \xNN) */
void yw_comment(struct strbuf *sb, int indent, const char *text);

#endif
