/* yamlw.c - YAML through libyaml's emitter (yamlw.h). */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "yamlw.h"

static int put(void *data, unsigned char *buf, size_t n)
{
    sb_putn(((struct yamlw *)data)->sb, (const char *)buf, n);
    return 1;
}

static void emit(struct yamlw *w, yaml_event_t *ev, int made)
{
    if (w->err) {
        if (made) yaml_event_delete(ev);
        return;
    }
    if (!made || !yaml_emitter_emit(&w->e, ev)) { /* yaml_emitter_emit frees the event either way */
        w->err = 1;
        w->sb->overflow = 1;
    }
}

void yw_begin(struct yamlw *w, struct strbuf *sb)
{
    memset(w, 0, sizeof *w);
    w->sb = sb;
    w->start = sb->len;
    if (!yaml_emitter_initialize(&w->e)) {
        w->err = 1;
        sb->overflow = 1;
        return;
    }
    yaml_emitter_set_output(&w->e, put, w);
    yaml_emitter_set_unicode(&w->e, 1);
    yaml_emitter_set_width(&w->e, -1);
    yaml_emitter_set_indent(&w->e, 2);
    yaml_event_t ev;
    emit(w, &ev, yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING));
    emit(w, &ev, yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1));
}

/* 1 when s may be written plain (yw_str's rule) */
static int yw_plain_ok(const char *s)
{
    static const char *const words[] = {"y", "n", "yes", "no", "on", "off", "true", "false", "null", "~"};
    if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || *s == '_')) return 0;
    for (const char *p = s; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_' ||
              *p == '-' || *p == '.'))
            return 0;
    for (size_t i = 0; i < sizeof words / sizeof words[0]; i++) {
        size_t k = 0;
        while (s[k] && words[i][k] && (s[k] | 0x20) == words[i][k]) k++;
        if (!s[k] && !words[i][k]) return 0;
    }
    return 1;
}

static void scalar(struct yamlw *w, const char *s, yaml_scalar_style_t style)
{
    yaml_event_t ev;
    emit(w, &ev,
         yaml_scalar_event_initialize(&ev, NULL, NULL, (yaml_char_t *)(uintptr_t)s, (int)strlen(s), 1, 1,
                                      style));
}

void yw_str(struct yamlw *w, const char *s)
{
    if (!s) s = "";
    if (yw_plain_ok(s)) {
        scalar(w, s, YAML_PLAIN_SCALAR_STYLE);
        return;
    }
    const char *p = s;
    for (int n; *p && (n = core_utf8_len(p, NULL)) > 0;) p += n;
    if (!*p) { /* UTF-8: the emitter escapes control characters ("\n", "\e") and the text reads back unchanged */
        scalar(w, s, YAML_DOUBLE_QUOTED_SCALAR_STYLE);
        return;
    }
    struct strbuf t;
    sb_init(&t, (size_t)1 << 24);
    sb_put_text(&t, s, NULL);
    scalar(w, t.p && !t.overflow ? t.p : "", YAML_DOUBLE_QUOTED_SCALAR_STYLE);
    sb_free(&t);
}

void yw_plain(struct yamlw *w, const char *s)
{
    scalar(w, s, YAML_PLAIN_SCALAR_STYLE);
}

void yw_printf(struct yamlw *w, const char *fmt, ...)
{
    char b[256];
    va_list ap;
    va_start(ap, fmt);
    c_vsnprintf(b, sizeof b, fmt, ap);
    va_end(ap);
    yw_plain(w, b);
}

void yw_map(struct yamlw *w, int flow)
{
    yaml_event_t ev;
    emit(w, &ev,
         yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1,
                                             flow ? YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE));
}

void yw_seq(struct yamlw *w, int flow)
{
    yaml_event_t ev;
    emit(w, &ev,
         yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1,
                                              flow ? YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE));
}

void yw_end_map(struct yamlw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_mapping_end_event_initialize(&ev));
}

void yw_end_seq(struct yamlw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_sequence_end_event_initialize(&ev));
}

int yw_end(struct yamlw *w)
{
    yaml_event_t ev;
    emit(w, &ev, yaml_document_end_event_initialize(&ev, 1));
    emit(w, &ev, yaml_stream_end_event_initialize(&ev));
    if (!w->err && !yaml_emitter_flush(&w->e)) {
        w->err = 1;
        w->sb->overflow = 1;
    }
    yaml_emitter_delete(&w->e);
    /* an open-ended document is closed with "..." by some libyaml versions: the fragment goes on after it. Only a
     * line of its own is that marker: a plain scalar may end in "..." too (`name: a...`) */
    size_t n = w->sb->len;
    if (w->sb->p && n >= w->start + 4 && !memcmp(w->sb->p + n - 4, "...\n", 4) &&
        (n == w->start + 4 || w->sb->p[n - 5] == '\n'))
        w->sb->len -= 4;
    if (w->sb->p) w->sb->p[w->sb->len] = 0;
    return w->err;
}

int yw_end_line(struct yamlw *w)
{
    int err = yw_end(w);
    if (w->sb->p && w->sb->len && w->sb->p[w->sb->len - 1] == '\n') w->sb->p[--w->sb->len] = 0;
    return err;
}

void yw_comment(struct strbuf *sb, int indent, const char *text)
{
    for (int i = 0; i < indent; i++) sb_putc(sb, ' ');
    sb_puts(sb, "# ");
    sb_put_text(sb, text, NULL);
    sb_putc(sb, '\n');
}
