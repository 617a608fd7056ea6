/* table.c - the text table writer (table.h). */
#include <stdlib.h>
#include <string.h>

#include "table.h"

#define RT_MAX_COLS 32

void rt_init(struct rep_table *t, const struct rep_col *cols, int nc)
{
    memset(t, 0, sizeof *t);
    t->cols = cols;
    t->nc = nc > RT_MAX_COLS ? RT_MAX_COLS : nc;
    ar_init(&t->ar, 0);
}

/* s in the arena, control characters and bytes that are not UTF-8 written as \xNN (sb_put_text) */
static const char *rt_text(struct arena *ar, const char *s)
{
    if (core_text_plain(s)) return ar_strdup(ar, s);
    struct strbuf b;
    sb_init(&b, (size_t)1 << 24);
    sb_put_text(&b, s, NULL);
    const char *r = b.overflow || !b.p ? NULL : ar_strdup(ar, b.p);
    sb_free(&b);
    return r;
}

void rt_row(struct rep_table *t, const char *const *cells)
{
    if (t->failed) return;
    if (t->rows == t->cap) {
        int cap = t->cap ? t->cap * 2 : 64;
        const char **c = realloc(t->cells, (size_t)cap * (size_t)t->nc * sizeof *c);
        if (!c) {
            t->failed = 1;
            return;
        }
        t->cells = c, t->cap = cap;
    }
    for (int i = 0; i < t->nc; i++) {
        const char *s = rt_text(&t->ar, cells[i] ? cells[i] : "");
        if (!s) {
            t->failed = 1;
            return;
        }
        t->cells[(size_t)t->rows * (size_t)t->nc + (size_t)i] = s;
    }
    t->rows++;
}

/* the width a cuttable column may be cut to before a column is dropped */
static int soft(const struct rep_col *c)
{
    int longest = c->max > 0 ? c->max : 2 * c->min;
    return c->min + (longest - c->min) / 2;
}

static void cell(struct strbuf *sb, const char *s, int w, int right)
{
    int n = (int)strlen(s);
    if (n > w) {
        if (w > 3) {
            sb_puts(sb, "..");
            sb_puts(sb, s + n - (w - 2));
        } else {
            sb_putn(sb, s, (size_t)w);
        }
        return;
    }
    if (right)
        for (int i = n; i < w; i++) sb_putc(sb, ' ');
    sb_puts(sb, s);
    if (!right)
        for (int i = n; i < w; i++) sb_putc(sb, ' ');
}

/* column c has the same cell in every row (two rows at least): it tells nothing a row needs */
static int constant(const struct rep_table *t, int c)
{
    if (t->rows < 2) return 0;
    for (int r = 1; r < t->rows; r++)
        if (strcmp(t->cells[(size_t)r * (size_t)t->nc + (size_t)c], t->cells[(size_t)c])) return 0;
    return 1;
}

/* the table in width columns; *dropped: the columns left out; *same: the constant ones among them (a bit each) */
static void rt_write_fit(const struct rep_table *t, int width, int indent, struct strbuf *sb, int *dropped,
                         unsigned *same)
{
    if (dropped) *dropped = 0;
    if (same) *same = 0;
    if (t->failed) {
        sb->overflow = 1;
        return;
    }
    int w[RT_MAX_COLS], on[RT_MAX_COLS], nc = t->nc;
    for (int c = 0; c < nc; c++) {
        w[c] = (int)strlen(t->cols[c].head);
        on[c] = 1;
        for (int r = 0; r < t->rows; r++) {
            int n = (int)strlen(t->cells[(size_t)r * (size_t)nc + (size_t)c]);
            if (n > w[c]) w[c] = n;
        }
        if (t->cols[c].max > 0 && w[c] > t->cols[c].max) w[c] = t->cols[c].max;
    }
    if (width > 0) {
        for (;;) {
            int total = indent - 1, worst = -1, slack = 0;
            for (int c = 0; c < nc; c++) {
                if (!on[c]) continue;
                total += w[c] + 1;
                if (t->cols[c].drop && (worst < 0 || t->cols[c].drop > t->cols[worst].drop)) worst = c;
                if (t->cols[c].min > 0 && w[c] > soft(&t->cols[c])) slack += w[c] - soft(&t->cols[c]);
            }
            if (total <= width) break;
            /* a column with one value in every row goes first (the note names the value) */
            int same_c = -1;
            for (int c = nc - 1; c >= 0 && same_c < 0; c--)
                if (on[c] && constant(t, c)) same_c = c;
            if (same_c >= 0) {
                on[same_c] = 0;
                if (dropped) (*dropped)++;
                if (same) *same |= 1u << same_c;
                continue;
            }
            int over = total - width;
            /* a name cut to about half its longest shown form is still better than a column less */
            if (slack >= over || worst < 0) {
                for (int c = 0; c < nc && over > 0; c++) {
                    if (!on[c] || t->cols[c].min <= 0) continue;
                    int floor = slack >= over ? soft(&t->cols[c]) : t->cols[c].min;
                    if (w[c] <= floor) continue;
                    int cut = w[c] - floor < over ? w[c] - floor : over;
                    w[c] -= cut, over -= cut;
                }
                break;
            }
            on[worst] = 0;
            if (dropped) (*dropped)++;
        }
    }
    for (int r = -1; r < t->rows; r++) {
        for (int i = 0; i < indent; i++) sb_putc(sb, ' ');
        int first = 1;
        /* trailing blanks of the last column are left out */
        int last = -1;
        for (int c = 0; c < nc; c++)
            if (on[c]) last = c;
        for (int c = 0; c < nc; c++) {
            if (!on[c]) continue;
            if (!first) sb_putc(sb, ' ');
            first = 0;
            const char *s = r < 0 ? t->cols[c].head : t->cells[(size_t)r * (size_t)nc + (size_t)c];
            if (c == last && !t->cols[c].right && (int)strlen(s) <= w[c])
                sb_puts(sb, s);
            else
                cell(sb, s, w[c], t->cols[c].right);
        }
        sb_putc(sb, '\n');
    }
}

void rt_write(const struct rep_table *t, int width, int indent, struct strbuf *sb, int *dropped)
{
    rt_write_fit(t, width, indent, sb, dropped, NULL);
}

void rt_free(struct rep_table *t)
{
    free(t->cells);
    ar_free(&t->ar);
    memset(t, 0, sizeof *t);
}

static void rt_wrap(struct strbuf *sb, const char *text, int width)
{
    rt_wrap_indent(sb, text, width, 0);
}

void rt_wrap_indent(struct strbuf *sb, const char *text, int width, int indent)
{
    struct arena ar;
    ar_init(&ar, 0);
    const char *p = rt_text(&ar, text); /* one line: a line break in a name is written \x0a */
    if (!p) {
        sb->overflow = 1;
        ar_free(&ar);
        return;
    }
    int avail = width > 0 ? width - indent : 0;
    if (width > 0 && avail < 20) avail = 20;
    for (int first = 1; *p; first = 0) {
        while (*p == ' ') p++;
        if (!*p) break;
        if (!first) {
            sb_putc(sb, '\n');
            for (int i = 0; i < indent; i++) sb_putc(sb, ' ');
        }
        size_t len = strlen(p);
        while (len && p[len - 1] == ' ') len--;
        if (avail <= 0 || (int)len <= avail) {
            sb_putn(sb, p, len);
            break;
        }
        /* the last space within the width; a word longer than the width stays whole */
        int cut = avail;
        while (cut > 0 && p[cut] != ' ') cut--;
        if (cut == 0) {
            cut = avail;
            while (p[cut] && p[cut] != ' ') cut++;
        }
        int end = cut;
        while (end > 0 && p[end - 1] == ' ') end--;
        sb_putn(sb, p, (size_t)end);
        p += cut;
    }
    sb_putc(sb, '\n');
    ar_free(&ar);
}

void rt_finish(struct rep_table *t, int width, int indent, struct strbuf *sb, struct strbuf *note)
{
    int dropped;
    unsigned same;
    rt_write_fit(t, width, indent, sb, &dropped, &same);
    if (same) {
        sb_puts(note, "In every row:");
        for (int c = 0, k = 0; c < t->nc; c++)
            if (same & (1u << c)) sb_printf(note, "%s %s %s", k++ ? "," : "", t->cols[c].head, t->cells[c]);
        sb_puts(note, ". ");
    }
    rt_free(t);
    if (dropped > 0)
        sb_printf(note, "%d column%s left out to fit %d columns (--format csv has them all).", dropped,
                  dropped == 1 ? "" : "s", width);
    if (note->len) rt_wrap(sb, note->p, width);
    if (note->overflow) sb->overflow = 1;
    sb_free(note);
}
