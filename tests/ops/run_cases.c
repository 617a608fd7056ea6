/* run_cases.c - runs tests/ops/cases/<op>.txt: each case builds a one-node graph straight in the IR (no ONNX
 * file), infers and counts it, and checks output dtypes/shapes and costs. It also checks the registry: sorted,
 * and every operator has a case file with at least one case.
 *
 * Case file format (one file per operator: <Name>.txt for ai.onnx, <domain>.<Name>.txt otherwise):
 *   # comment
 *   case NAME            starts a case
 *   opset N              opset of the node's domain (default: the operator's since version)
 *   attr NAME int 3 | ints 1 2 | float 0.5 | floats 1 2 | string abc | strings a b
 *   in NAME DTYPE SHAPE [init] [= v1 v2 ...]   an input; SHAPE like 1x3x224x224, batchx3, scalar, ?;
 *                                             'init' makes it an initializer (counted as params); '= ...' gives
 *                                             its values (propagated); "in -" is an omitted optional input
 *   in NAME seq DTYPE SHAPE                   a sequence input whose elements are not known one by one (SHAPE is
 *                                             their merged shape)
 *   in NAME seqof DTYPE [SHAPE ...]           a sequence input whose elements are known: one SHAPE per element
 *                                             (none: an empty sequence)
 *   out DTYPE SHAPE      expected output (in order); DTYPE '*' skips the dtype check; SHAPE '?' = unknown rank
 *   outval v1 v2 ...     expected propagated integer values of the last 'out' (symbols by name)
 *   outelems [SHAPE ...] the last 'out' is a sequence with these elements known one by one (none: empty);
 *                        'outelems none' expects its elements not to be known
 *   macs N / flops N     expected cost; 'cost unknown' expects cost_known = false
 *   error                expects inference to fail (a contradiction)
 *   end
 */
#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/analysis.h"

#define MAXT 32

struct tcase {
    char name[128];
    int opset;
    struct ir_attr attrs[MAXT];
    int n_attr;
    struct ir_value *in[MAXT];
    int n_in;
    int exp_dtype[MAXT];
    int exp_rank[MAXT];
    struct ir_dim exp_dims[MAXT][NNPERF_MAX_RANK];
    int n_out;
    struct ir_ival exp_vals[256];
    int n_exp_vals, exp_vals_out;
    int exp_el_out, n_exp_el; /* outelems: output index (-1: no check), element count (-1: 'none') */
    int exp_el_rank[MAXT];
    struct ir_dim exp_el_dims[MAXT][NNPERF_MAX_RANK];
    long long macs, flops;
    int want_macs, want_flops, want_unknown_cost, want_error;
};

static int failures, passes;

/* a whole token that is an integer (optionally negative); "2*H" is a symbol */
static int is_int_token(const char *t)
{
    if (*t == '-') t++;
    if (!*t) return 0;
    for (; *t; t++)
        if (!isdigit((unsigned char)*t)) return 0;
    return 1;
}
static struct arena AR;

static int dtype_from(const char *s)
{
    if (!strcmp(s, "*")) return -1;
    for (int i = 0; i < DT_COUNT; i++)
        if (ir_dtype_name(i) && !strcmp(ir_dtype_name(i), s)) return i;
    if (!strcmp(s, "float")) return DT_FLOAT;
    if (!strcmp(s, "double")) return DT_DOUBLE;
    return -2;
}

static int parse_shape(const char *s, int *rank, struct ir_dim *dims)
{
    if (!strcmp(s, "?")) {
        *rank = -1;
        return 1;
    }
    if (!strcmp(s, "scalar")) {
        *rank = 0;
        return 1;
    }
    int r = 0;
    const char *p = s;
    while (*p) {
        const char *x = strchr(p, 'x');
        size_t len = x ? (size_t)(x - p) : strlen(p);
        if (r >= NNPERF_MAX_RANK || !len) return 0;
        char tok[64];
        if (len >= sizeof tok) return 0;
        memcpy(tok, p, len);
        tok[len] = 0;
        if (is_int_token(tok))
            dims[r] = ir_dim_known(atoll(tok));
        else if (!strcmp(tok, "?"))
            dims[r] = IR_DIM_UNKNOWN;
        else
            dims[r] = (struct ir_dim){-1, ar_strdup(&AR, tok)};
        r++;
        p += len;
        if (*p == 'x') p++;
    }
    *rank = r;
    return 1;
}

static void fail(const char *file, const char *cname, const char *fmt, const char *a, long long x,
                 long long y)
{
    failures++;
    fprintf(stderr, "%s: case '%s': ", file, cname);
    fprintf(stderr, fmt, a, x, y);
    fputc('\n', stderr);
}

static void run_case(const char *file, const char *domain, const char *opname, struct tcase *tc)
{
    struct ir_model *m = calloc(1, sizeof *m);
    ar_init(&m->ar, 0);
    m->path = file;
    m->dir = ".";
    m->ir_version = 8;
    struct ir_opset os = {domain, tc->opset};
    m->opsets = &os;
    m->n_opsets = 1;
    struct ir_graph *g = ar_alloc(&m->ar, sizeof *g);
    m->graph = g;
    struct ir_node *nd = ar_alloc(&m->ar, sizeof *nd);
    nd->name = "n0";
    nd->op_type = opname;
    nd->domain = domain;
    nd->op = op_find(domain, opname);
    nd->opset = tc->opset;
    nd->graph = g;
    nd->repeat = 1;
    nd->n_in = tc->n_in;
    nd->in = ar_calloc(&m->ar, (size_t)(tc->n_in + 1), sizeof *nd->in);
    struct diag d = {0};
    for (int i = 0; i < tc->n_in; i++) {
        if (!tc->in[i]) continue;
        struct ir_value *v;
        if (ir_add_value(&m->ar, g, tc->in[i]->name, &v, &d)) {
            fail(file, tc->name, "%s%lld%lld", d.msg, 0, 0);
            return;
        }
        struct ir_value *src = tc->in[i];
        const char *nm = v->name;
        *v = *src;
        v->name = nm;
        nd->in[i] = v;
        v->n_consumers = 1;
    }
    nd->n_out = tc->n_out;
    nd->out = ar_calloc(&m->ar, (size_t)(tc->n_out + 1), sizeof *nd->out);
    for (int i = 0; i < tc->n_out; i++) {
        char nm[32];
        snprintf(nm, sizeof nm, "out%d", i);
        struct ir_value *v;
        ir_add_value(&m->ar, g, ar_strdup(&m->ar, nm), &v, &d);
        v->producer = nd;
        v->flags = IR_V_OUTPUT;
        nd->out[i] = v;
    }
    nd->n_attr = tc->n_attr;
    nd->attrs = tc->attrs;
    g->nodes = ar_calloc(&m->ar, 1, sizeof *g->nodes);
    g->nodes[0] = nd;
    g->n_nodes = 1;
    struct an_state an;
    memset(&an, 0, sizeof an);
    an.m = m;
    ar_init(&an.ar, 0);
    enum nnperf_status st = nd->op < 0 ? NNPERF_E_INVALID : an_run_graph(&an, g, 1);
    if (nd->op < 0)
        fail(file, tc->name, "operator '%s' is not in the registry%lld%lld", opname, 0, 0);
    else if (tc->want_error) {
        if (st == NNPERF_OK)
            fail(file, tc->name, "expected an error, inference succeeded%s%lld%lld", "", 0, 0);
        else
            passes++;
    } else if (st) {
        fail(file, tc->name, "inference failed: %s%lld%lld", an.d.msg, 0, 0);
    } else {
        int ok = 1;
        for (int i = 0; i < tc->n_out && ok; i++) {
            struct ir_value *v = nd->out[i];
            if (tc->exp_dtype[i] >= 0 && v->dtype != tc->exp_dtype[i]) {
                fail(file, tc->name, "output %s dtype %lld, expected %lld", "", v->dtype, tc->exp_dtype[i]);
                ok = 0;
                break;
            }
            if (v->rank != tc->exp_rank[i]) {
                fail(file, tc->name, "output %s rank %lld, expected %lld", "", v->rank, tc->exp_rank[i]);
                ok = 0;
                break;
            }
            for (int k = 0; k < v->rank; k++) {
                struct ir_dim a = v->dims[k], e = tc->exp_dims[i][k];
                int same = (e.val >= 0) ? a.val == e.val
                                        : (e.sym ? (a.sym && !strcmp(a.sym, e.sym)) : (a.val < 0 && !a.sym));
                if (!same) {
                    char msg[200];
                    snprintf(msg, sizeof msg, "output %d dim %d is %lld%s%s, expected", i, k,
                             (long long)a.val, a.sym ? " " : "", a.sym ? a.sym : "");
                    fail(file, tc->name, "%s %lld%.0lld", msg, (long long)e.val, 0);
                    ok = 0;
                    break;
                }
            }
        }
        if (ok && tc->n_exp_vals >= 0 && tc->exp_vals_out >= 0) {
            struct ir_value *v = nd->out[tc->exp_vals_out];
            if (!v->iv || v->nv != tc->n_exp_vals) {
                fail(file, tc->name, "output values%s: have %lld, expected %lld", "",
                     v->iv ? (long long)v->nv : -1LL, tc->n_exp_vals);
                ok = 0;
            } else {
                for (int k = 0; k < tc->n_exp_vals && ok; k++) {
                    struct ir_ival a = v->iv[k], e = tc->exp_vals[k];
                    int same = e.known ? (a.known && a.v == e.v)
                                       : (!a.known && a.sym && e.sym && !strcmp(a.sym, e.sym));
                    if (!same) {
                        fail(file, tc->name, "output value %s%lld is %lld", "", k, a.v);
                        ok = 0;
                    }
                }
            }
        }
        if (ok && tc->exp_el_out >= 0) {
            struct ir_value *v = nd->out[tc->exp_el_out];
            int have = ir_n_elems(v);
            if (have != tc->n_exp_el) {
                fail(file, tc->name, "output elements%s: have %lld, expected %lld (-1: not known)", "", have,
                     tc->n_exp_el);
                ok = 0;
            }
            for (int k = 0; ok && k < have; k++) {
                const struct ir_value *e = ir_elems(v)[k];
                int same = e->rank == tc->exp_el_rank[k];
                for (int j = 0; same && j < e->rank; j++) {
                    struct ir_dim a = e->dims[j], x = tc->exp_el_dims[k][j];
                    same = x.val >= 0 ? a.val == x.val
                                      : (x.sym ? (a.sym && !strcmp(a.sym, x.sym)) : (a.val < 0 && !a.sym));
                }
                if (!same) {
                    fail(file, tc->name, "output element %s%lld has rank %lld or other dims than expected",
                         "", k, e->rank);
                    ok = 0;
                }
            }
        }
        if (ok && tc->want_unknown_cost && nd->cost.known) {
            fail(file, tc->name, "cost known, expected unknown%s%lld%lld", "", 0, 0);
            ok = 0;
        }
        if (ok && (tc->want_macs || tc->want_flops) && !nd->cost.known) {
            fail(file, tc->name, "cost unknown%s%lld%lld", "", 0, 0);
            ok = 0;
        }
        if (ok && tc->want_macs && (long long)nd->cost.macs != tc->macs) {
            fail(file, tc->name, "macs%s %lld, expected %lld", "", (long long)nd->cost.macs, tc->macs);
            ok = 0;
        }
        if (ok && tc->want_flops && (long long)nd->cost.flops != tc->flops) {
            fail(file, tc->name, "flops%s %lld, expected %lld", "", (long long)nd->cost.flops, tc->flops);
            ok = 0;
        }
        if (ok) passes++;
    }
    ar_free(&an.ar);
    ar_free(&m->ar);
    free(m);
}

static int run_file(const char *dir, const char *fname)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, fname);
    FILE *f = fopen(path, "r");
    if (!f) return 0;
    /* <domain>.<Name>.txt or <Name>.txt */
    char base[256];
    snprintf(base, sizeof base, "%s", fname);
    base[strlen(base) - 4] = 0;
    char *dot = strrchr(base, '.');
    const char *domain = "", *opname = base;
    if (dot) {
        *dot = 0;
        domain = ar_strdup(&AR, base);
        opname = dot + 1;
    }
    opname = ar_strdup(&AR, opname);
    int idx = op_find(domain, opname);
    int ncases = 0;
    char line[8192];
    struct tcase *tc = NULL;
    int lineno = 0;
    while (fgets(line, sizeof line, f)) {
        lineno++;
        char *s = line;
        while (isspace((unsigned char)*s)) s++;
        size_t L = strlen(s);
        while (L && isspace((unsigned char)s[L - 1])) s[--L] = 0;
        if (!*s || *s == '#') continue;
        char *save, *kw = strtok_r(s, " \t", &save);
        if (!strcmp(kw, "case")) {
            tc = calloc(1, sizeof *tc);
            char *nm = strtok_r(NULL, "", &save);
            snprintf(tc->name, sizeof tc->name, "%s", nm ? nm : "?");
            tc->opset = idx >= 0 ? op_table[idx].since : 1;
            tc->n_exp_vals = -1;
            tc->exp_vals_out = -1;
            tc->exp_el_out = -1;
            continue;
        }
        if (!tc) {
            fprintf(stderr, "%s:%d: '%s' outside a case\n", path, lineno, kw);
            failures++;
            continue;
        }
        if (!strcmp(kw, "end")) {
            run_case(path, domain, opname, tc);
            free(tc);
            tc = NULL;
            ncases++;
        } else if (!strcmp(kw, "opset")) {
            tc->opset = atoi(strtok_r(NULL, " \t", &save));
        } else if (!strcmp(kw, "attr")) {
            struct ir_attr *a = &tc->attrs[tc->n_attr++];
            a->name = ar_strdup(&AR, strtok_r(NULL, " \t", &save));
            const char *ty = strtok_r(NULL, " \t", &save);
            char *tok;
            if (!strcmp(ty, "int"))
                a->type = AT_INT, a->i = atoll(strtok_r(NULL, " \t", &save));
            else if (!strcmp(ty, "float"))
                a->type = AT_FLOAT, a->f = atof(strtok_r(NULL, " \t", &save));
            else if (!strcmp(ty, "string")) {
                a->type = AT_STRING;
                tok = strtok_r(NULL, "", &save);
                a->s = ar_strdup(&AR, tok ? tok : "");
                a->slen = (int)strlen(a->s);
            } else if (!strcmp(ty, "ints") || !strcmp(ty, "floats") || !strcmp(ty, "strings")) {
                a->type = ty[0] == 'i' ? AT_INTS : ty[0] == 'f' ? AT_FLOATS : AT_STRINGS;
                /* one payload, the attribute's type's (struct ir_attr holds one) */
                int64_t *iv = ar_calloc(&AR, 256, sizeof *iv);
                double *fv = ar_calloc(&AR, 256, sizeof *fv);
                const char **sv = ar_calloc(&AR, 256, sizeof *sv);
                while ((tok = strtok_r(NULL, " \t", &save)) && a->n < 256) {
                    iv[a->n] = atoll(tok);
                    fv[a->n] = atof(tok);
                    sv[a->n] = ar_strdup(&AR, tok);
                    a->n++;
                }
                if (a->type == AT_INTS)
                    a->ints = iv;
                else if (a->type == AT_FLOATS)
                    a->floats = fv;
                else
                    a->strings = sv;
            } else {
                fprintf(stderr, "%s:%d: unknown attribute type '%s'\n", path, lineno, ty);
                failures++;
            }
        } else if (!strcmp(kw, "in")) {
            const char *nm = strtok_r(NULL, " \t", &save);
            if (!strcmp(nm, "-")) {
                tc->in[tc->n_in++] = NULL;
                continue;
            }
            struct ir_value *v = ar_alloc(&AR, sizeof *v);
            v->name = ar_strdup(&AR, nm);
            v->type_kind = TK_TENSOR;
            v->declared = 1;
            v->flags = IR_V_INPUT;
            const char *dt = strtok_r(NULL, " \t", &save);
            const char *shp = strtok_r(NULL, " \t", &save);
            v->dtype = dt ? dtype_from(dt) : -2;
            if (!strcmp(dt ? dt : "", "seq")) {
                v->type_kind = TK_SEQUENCE;
                dt = strtok_r(NULL, " \t", &save);
                v->dtype = dtype_from(shp);
                shp = dt;
            } else if (!strcmp(dt ? dt : "", "seqof")) {
                /* elements one by one; the merged shape keeps the dims they agree on */
                v->type_kind = TK_SEQUENCE;
                v->dtype = shp ? dtype_from(shp) : -2;
                v->rank = -1;
                struct ir_value **el = ar_calloc(&AR, MAXT, sizeof *el);
                int n_el = 0;
                char *tok;
                int bad = v->dtype < 0;
                while (!bad && (tok = strtok_r(NULL, " \t", &save)) && n_el < MAXT) {
                    struct ir_value *e = ar_alloc(&AR, sizeof *e);
                    e->type_kind = TK_TENSOR;
                    e->dtype = v->dtype;
                    e->dims = ar_calloc(&AR, NNPERF_MAX_RANK, sizeof *e->dims);
                    bad = !parse_shape(tok, &e->rank, e->dims);
                    if (n_el == 0) {
                        v->rank = e->rank;
                        v->dims = ar_calloc(&AR, NNPERF_MAX_RANK, sizeof *v->dims);
                        if (e->rank > 0) memcpy(v->dims, e->dims, (size_t)e->rank * sizeof *e->dims);
                    } else if (v->rank != e->rank) {
                        v->rank = -1;
                    } else {
                        for (int k = 0; k < v->rank; k++)
                            if (!ir_dim_eq(v->dims[k], e->dims[k])) v->dims[k] = IR_DIM_UNKNOWN;
                    }
                    el[n_el++] = e;
                }
                ir_set_elems(&AR, v, n_el, el);
                if (bad) {
                    fprintf(stderr, "%s:%d: bad input spec\n", path, lineno);
                    failures++;
                    continue;
                }
                tc->in[tc->n_in++] = v;
                continue;
            }
            struct ir_dim dims[NNPERF_MAX_RANK];
            if (v->dtype < 0 || !shp || !parse_shape(shp, &v->rank, dims)) {
                fprintf(stderr, "%s:%d: bad input spec\n", path, lineno);
                failures++;
                continue;
            }
            v->dims = ar_calloc(&AR, NNPERF_MAX_RANK, sizeof *v->dims);
            if (v->rank > 0) memcpy(v->dims, dims, (size_t)v->rank * sizeof *dims);
            char *tok;
            while ((tok = strtok_r(NULL, " \t", &save))) {
                if (!strcmp(tok, "init"))
                    v->flags = IR_V_INIT;
                else if (!strcmp(tok, "=")) {
                    int64_t cnt = 0;
                    struct ir_ival *iv = ar_calloc(&AR, NNPERF_MAX_CONST_ELEMS, sizeof *iv);
                    double *fv = ar_calloc(&AR, NNPERF_MAX_CONST_ELEMS, sizeof *fv);
                    while ((tok = strtok_r(NULL, " \t", &save)) && cnt < NNPERF_MAX_CONST_ELEMS) {
                        if (is_int_token(tok) || strspn(tok, "-.0123456789eE+") == strlen(tok)) {
                            iv[cnt] = ir_ival_known(atoll(tok));
                            fv[cnt] = atof(tok);
                        } else {
                            iv[cnt] = (struct ir_ival){0, ar_strdup(&AR, tok), 0};
                        }
                        cnt++;
                    }
                    v->nv = (int)cnt;
                    if (ir_dtype_is_int(v->dtype))
                        v->iv = iv;
                    else
                        v->fv = fv;
                    break;
                }
            }
            tc->in[tc->n_in++] = v;
        } else if (!strcmp(kw, "out")) {
            const char *dt = strtok_r(NULL, " \t", &save);
            const char *shp = strtok_r(NULL, " \t", &save);
            int i = tc->n_out++;
            tc->exp_dtype[i] = dt ? dtype_from(dt) : -2;
            if (tc->exp_dtype[i] == -2 || !shp || !parse_shape(shp, &tc->exp_rank[i], tc->exp_dims[i])) {
                fprintf(stderr, "%s:%d: bad output spec\n", path, lineno);
                failures++;
            }
        } else if (!strcmp(kw, "outval")) {
            char *tok;
            tc->n_exp_vals = 0;
            tc->exp_vals_out = tc->n_out - 1;
            while ((tok = strtok_r(NULL, " \t", &save)) && tc->n_exp_vals < 256) {
                if (is_int_token(tok))
                    tc->exp_vals[tc->n_exp_vals++] = ir_ival_known(atoll(tok));
                else
                    tc->exp_vals[tc->n_exp_vals++] = (struct ir_ival){0, ar_strdup(&AR, tok), 0};
            }
        } else if (!strcmp(kw, "outelems")) {
            char *tok;
            tc->exp_el_out = tc->n_out - 1;
            tc->n_exp_el = 0;
            while ((tok = strtok_r(NULL, " \t", &save)) && tc->n_exp_el < MAXT) {
                if (!strcmp(tok, "none")) {
                    tc->n_exp_el = -1;
                    break;
                }
                if (!parse_shape(tok, &tc->exp_el_rank[tc->n_exp_el], tc->exp_el_dims[tc->n_exp_el])) {
                    fprintf(stderr, "%s:%d: bad element shape\n", path, lineno);
                    failures++;
                }
                tc->n_exp_el++;
            }
        } else if (!strcmp(kw, "macs")) {
            tc->want_macs = 1;
            tc->macs = atoll(strtok_r(NULL, " \t", &save));
        } else if (!strcmp(kw, "flops")) {
            tc->want_flops = 1;
            tc->flops = atoll(strtok_r(NULL, " \t", &save));
        } else if (!strcmp(kw, "cost")) {
            tc->want_unknown_cost = 1;
        } else if (!strcmp(kw, "error")) {
            tc->want_error = 1;
        } else {
            fprintf(stderr, "%s:%d: unknown keyword '%s'\n", path, lineno, kw);
            failures++;
        }
    }
    fclose(f);
    if (tc) {
        fprintf(stderr, "%s: case '%s' has no 'end'\n", path, tc->name);
        failures++;
        free(tc);
    }
    return ncases;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : "tests/ops/cases";
    const char *only = argc > 2 ? argv[2] : NULL;
    ar_init(&AR, 0);
    /* the registry checks itself: sorted by (domain, name), and a case file per operator */
    for (int i = 1; i < OPID_COUNT; i++) {
        int c = strcmp(op_table[i - 1].domain, op_table[i].domain);
        if (!c) c = strcmp(op_table[i - 1].name, op_table[i].name);
        if (c >= 0) {
            fprintf(stderr, "op_list.def: '%s' is not sorted after '%s'\n", op_table[i].name,
                    op_table[i - 1].name);
            failures++;
        }
    }
    int missing = 0;
    for (int i = 0; i < OPID_COUNT; i++) {
        char fname[256];
        const struct op_def *o = &op_table[i];
        if (o->domain[0])
            snprintf(fname, sizeof fname, "%s.%s.txt", o->domain, o->name);
        else
            snprintf(fname, sizeof fname, "%s.txt", o->name);
        if (only && strcmp(only, o->name)) continue;
        int n = run_file(dir, fname);
        if (n == 0) {
            missing++;
            if (!only)
                fprintf(stderr, "no cases for operator %s%s%s (%s/%s)\n", o->domain, o->domain[0] ? "." : "",
                        o->name, dir, fname);
        }
    }
    printf("operator cases: %d operators without cases\n", missing);
    if (missing) failures++;
    printf("%d passed, %d failed\n", passes, failures);
    ar_free(&AR);
    return failures ? 1 : 0;
}
