/* dims.c - the one place for dimension rules: numel, symbolic dim arithmetic, numpy broadcasting
 * (https://github.com/onnx/onnx/blob/main/docs/Broadcasting.md), conv/pool window sizes and axis normalisation.
 * All products and sums are overflow-checked. */
#include "ir.h"

#include <stdio.h>
#include <string.h>

int ir_dims_numel(const struct ir_dim *d, int rank, int64_t *n)
{
    if (rank < 0) return 0;
    int64_t p = 1;
    for (int i = 0; i < rank; i++) {
        if (d[i].val < 0) return 0;
        if (__builtin_mul_overflow(p, d[i].val, &p)) return 0; /* ck_mul_i64, inline: 40,000 calls a model */
    }
    *n = p;
    return 1;
}

int ir_numel(const struct ir_value *v, int64_t *n)
{
    if (!v || v->type_kind == TK_SEQUENCE || v->type_kind == TK_MAP) return 0;
    return ir_dims_numel(v->dims, v->rank, n);
}

int ir_dim_eq(struct ir_dim a, struct ir_dim b)
{
    if (a.val >= 0 || b.val >= 0) return a.val == b.val;
    return a.sym && b.sym && !strcmp(a.sym, b.sym);
}

static int is_simple(const char *s)
{
    for (; *s; s++)
        if (*s == '+' || *s == '-' || *s == '*' || *s == '/') return 0;
    return 1;
}

/* Builds "a OP b" as a symbol, parenthesising compound operands; NULL if either side has no name. */
static struct ir_dim sym_expr(struct arena *ar, struct ir_dim a, struct ir_dim b, char op)
{
    char as[32], bs[32];
    const char *sa = a.sym, *sb = b.sym;
    if (a.val >= 0) {
        snprintf(as, sizeof as, "%lld", (long long)a.val);
        sa = as;
    }
    if (b.val >= 0) {
        snprintf(bs, sizeof bs, "%lld", (long long)b.val);
        sb = bs;
    }
    if (!sa || !sb || !ar) return IR_DIM_UNKNOWN;
    if (strlen(sa) + strlen(sb) > 200) return IR_DIM_UNKNOWN; /* keep expressions readable */
    if (op == '*' && a.val < 0 && b.val >= 0) {
        /* constants first, so that the same product is always spelled the same way ("4*N", never "N*4") */
        const char *t = sa;
        sa = sb;
        sb = t;
    }
    int pa = !is_simple(sa) && op != '+', pb = !is_simple(sb) && op != '+';
    struct ir_dim r = {-1, ar_printf(ar, "%s%s%s%c%s%s%s", pa ? "(" : "", sa, pa ? ")" : "", op,
                                     pb ? "(" : "", sb, pb ? ")" : "")};
    return r;
}

struct ir_dim ir_dim_mul(struct arena *ar, struct ir_dim a, struct ir_dim b)
{
    int64_t r;
    if (a.val >= 0 && b.val >= 0) return ck_mul_i64(a.val, b.val, &r) ? ir_dim_known(r) : IR_DIM_UNKNOWN;
    if (a.val == 0 || b.val == 0) return ir_dim_known(0);
    if (a.val == 1) return b;
    if (b.val == 1) return a;
    return sym_expr(ar, a, b, '*');
}

struct ir_dim ir_dim_add(struct arena *ar, struct ir_dim a, struct ir_dim b)
{
    int64_t r;
    if (a.val >= 0 && b.val >= 0) return ck_add_i64(a.val, b.val, &r) ? ir_dim_known(r) : IR_DIM_UNKNOWN;
    if (a.val == 0) return b;
    if (b.val == 0) return a;
    return sym_expr(ar, a, b, '+');
}

struct ir_dim ir_dim_sub(struct arena *ar, struct ir_dim a, struct ir_dim b)
{
    if (a.val >= 0 && b.val >= 0) return a.val >= b.val ? ir_dim_known(a.val - b.val) : IR_DIM_UNKNOWN;
    if (b.val == 0) return a;
    if (ir_dim_eq(a, b)) return ir_dim_known(0);
    return sym_expr(ar, a, b, '-');
}

/* "k*X" / k = X and "X*k" / k = X for a top-level product, so (N*64)/64 reads N again */
static struct ir_dim cancel_factor(struct arena *ar, const char *expr, const char *factor)
{
    size_t n = strlen(expr), f = strlen(factor);
    int depth = 0;
    for (size_t i = 0; i < n; i++) {
        if (expr[i] == '(')
            depth++;
        else if (expr[i] == ')')
            depth--;
        else if (depth == 0 && (expr[i] == '+' || expr[i] == '-' || expr[i] == '/'))
            return IR_DIM_UNKNOWN;
    }
    if (n > f + 1 && !strncmp(expr, factor, f) && expr[f] == '*') {
        struct ir_dim r = {-1, ar_strdup(ar, expr + f + 1)};
        return r;
    }
    if (n > f + 1 && !strcmp(expr + n - f, factor) && expr[n - f - 1] == '*') {
        struct ir_dim r = {-1, ar_strndup(ar, expr, n - f - 1)};
        return r;
    }
    return IR_DIM_UNKNOWN;
}

struct ir_dim ir_dim_div(struct arena *ar, struct ir_dim a, struct ir_dim b)
{
    if (a.val >= 0 && b.val > 0) return ir_dim_known(a.val / b.val);
    if (b.val == 1) return a;
    if (ir_dim_eq(a, b) && b.val != 0) return ir_dim_known(1);
    if (b.val == 0) return IR_DIM_UNKNOWN;
    if (a.sym && ar) {
        char fb[32];
        const char *bs = b.sym;
        if (b.val >= 0) {
            snprintf(fb, sizeof fb, "%lld", (long long)b.val);
            bs = fb;
        }
        if (bs) {
            struct ir_dim r = cancel_factor(ar, a.sym, bs);
            if (r.sym) {
                /* strip one level of parentheses left around the remaining factor */
                size_t rl = strlen(r.sym);
                int whole = rl > 2 && r.sym[0] == '(' && r.sym[rl - 1] == ')';
                for (size_t i = 0, depth = 0; whole && i + 1 < rl; i++) {
                    if (r.sym[i] == '(')
                        depth++;
                    else if (r.sym[i] == ')' && --depth == 0)
                        whole = 0; /* "(a)*(b)": not one group */
                }
                if (whole) r.sym = ar_strndup(ar, r.sym + 1, rl - 2);
                return r;
            }
        }
    }
    return sym_expr(ar, a, b, '/');
}

int ir_broadcast(struct arena *ar, const struct ir_value *const *vals, int n, int *rank, struct ir_dim **dims,
                 int *bad_axis)
{
    int r = 0;
    for (int i = 0; i < n; i++) {
        if (!vals[i]) continue;
        if (vals[i]->rank < 0) {
            *rank = -1;
            *dims = NULL;
            return 1;
        }
        if (vals[i]->rank > r) r = vals[i]->rank;
    }
    struct ir_dim *d = ar_calloc(ar, (size_t)(r ? r : 1), sizeof *d);
    if (!d) {
        /* out of memory: report an unknown shape rather than fail the node */
        *rank = -1;
        *dims = NULL;
        return 1;
    }
    for (int ax = 0; ax < r; ax++) {
        struct ir_dim out = ir_dim_known(1);
        int have_unknown = 0;
        for (int i = 0; i < n; i++) {
            const struct ir_value *v = vals[i];
            if (!v) continue;
            int k = ax - (r - v->rank);
            if (k < 0) continue;
            struct ir_dim x = v->dims[k];
            if (x.val == 1) continue;
            if (x.val < 0 && !x.sym) {
                have_unknown = 1;
                continue;
            }
            if (out.val == 1)
                out = x;
            else if (!ir_dim_eq(out, x)) {
                if (out.val >= 0 && x.val >= 0) {
                    *bad_axis = ax;
                    return 0;
                }
                /* symbol vs number or two symbols: numpy would require them equal; prefer the number */
                if (x.val >= 0) out = x;
            }
        }
        /* an unknown dim broadcast against 1s stays unknown; against a known >1 dim it must equal it */
        if (have_unknown && out.val == 1) out = IR_DIM_UNKNOWN;
        d[ax] = out;
    }
    *rank = r;
    *dims = d;
    return 1;
}

int64_t ir_window_out(int64_t in, int64_t k, int64_t stride, int64_t dilation, int64_t pad_begin,
                      int64_t pad_end, int ceil_mode)
{
    /* ONNX Conv/MaxPool: out = floor((in + pads - dil*(k-1) - 1) / stride + 1), ceil with ceil_mode; in ceil mode
     * the last window must start inside the input or its begin padding (ONNX MaxPool-12 reference, PyTorch) */
    if (in < 0 || k <= 0 || stride <= 0 || dilation <= 0 || pad_begin < 0 || pad_end < 0) return -1;
    int64_t eff, span, num;
    if (!ck_mul_i64(dilation, k - 1, &eff) || !ck_add_i64(eff, 1, &eff)) return -1;
    if (!ck_add_i64(in, pad_begin, &span) || !ck_add_i64(span, pad_end, &span)) return -1;
    num = span - eff;
    if (num < 0) return -1;
    int64_t out = num / stride + 1;
    if (ceil_mode && num % stride) {
        out++;
        if ((out - 1) * stride >= in + pad_begin) out--;
    }
    return out;
}

int ir_norm_axis(int64_t axis, int rank, int *out)
{
    if (rank < 0) return 0;
    if (axis < -(int64_t)rank || axis >= rank) return 0;
    *out = (int)(axis < 0 ? axis + rank : axis);
    return 1;
}

void ir_format_shape(struct strbuf *sb, const struct ir_value *v, const char *sep)
{
    if (!v || v->rank < 0) {
        sb_puts(sb, "?");
        return;
    }
    if (v->rank == 0) {
        sb_puts(sb, "scalar");
        return;
    }
    for (int i = 0; i < v->rank; i++) {
        if (i) sb_puts(sb, sep);
        if (v->dims[i].val >= 0)
            sb_printf(sb, "%lld", (long long)v->dims[i].val);
        else if (v->dims[i].sym)
            sb_puts(sb, v->dims[i].sym);
        else
            sb_putc(sb, '?');
    }
}
