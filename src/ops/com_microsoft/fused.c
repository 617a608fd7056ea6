/* fused.c - com.microsoft fused convolution and matrix products: FusedConv (Conv + bias + Z + activation),
 * FusedMatMul (MatMul with transposes and alpha) and MatMulNBits (MatMul with a block-quantized 2..8-bit weight).
 *
 * Source of the semantics: onnxruntime docs/ContribOperators.md, core/graph/contrib_ops/contrib_defs.cc; the Conv
 * output-size rule is ONNX Conv-11's. The shape rules are written here rather than borrowed from the ai.onnx
 * Conv/MatMul functions so the family stands on its own. */
#include <string.h>

#include "../ops.h"

static struct ir_dim dim_at(const struct ir_value *v, int k)
{
    if (!v || v->rank <= k || k < 0 || !v->dims) return IR_DIM_UNKNOWN;
    return v->dims[k];
}

static int clash(struct ir_dim a, struct ir_dim b)
{
    return a.val >= 0 && b.val >= 0 && a.val != b.val;
}

static uint64_t dmul(uint64_t a, double f)
{
    double x = (double)a * f + 0.5;
    return x >= 1.8e19 ? UINT64_MAX : (uint64_t)x;
}

/* ======================================================================================================
 * FusedConv (com.microsoft, since 1): Y = activation(Conv(X, W, B) + Z)
 *   X (N, C, D1..Dn), W (M, C/group, k1..kn), B (M), Z (Y's shape); attributes as ONNX Conv (auto_pad, dilations,
 *   group, kernel_shape, pads, strides) plus activation (Relu, Tanh, Sigmoid, LeakyRelu, Clip, HardSigmoid, ...)
 *   and activation_params. Y (N, M, O1..On).
 * ====================================================================================================== */

struct conv_attrs {
    int nsp;
    int64_t k[NNPERF_MAX_RANK], s[NNPERF_MAX_RANK], d[NNPERF_MAX_RANK], p[2 * NNPERF_MAX_RANK];
    int auto_pad; /* 0 NOTSET, 1 SAME_UPPER, 2 SAME_LOWER, 3 VALID */
    int64_t group;
};

static enum nnperf_status read_ints(struct op_ctx *c, const char *name, int want, int64_t def, int64_t min,
                                    int64_t *out)
{
    const int64_t *v;
    int64_t n = op_attr_ints(c, name, &v);
    for (int i = 0; i < want; i++) out[i] = def;
    if (!n) return NNPERF_OK;
    if (n != want) return op_err(c, name, "has %lld values, expected %d", (long long)n, want);
    for (int i = 0; i < want; i++) {
        if (v[i] < min)
            return op_err(c, name, "has value %lld, expected at least %lld", (long long)v[i], (long long)min);
        out[i] = v[i];
    }
    return NNPERF_OK;
}

static enum nnperf_status conv_attrs(struct op_ctx *c, const struct ir_value *x, const struct ir_value *w,
                                     struct conv_attrs *a)
{
    memset(a, 0, sizeof *a);
    a->nsp = -1;
    if (x && x->rank >= 0) {
        if (x->rank < 3) return op_err(c, NULL, "input 'X' has rank %d, expected at least 3", x->rank);
        a->nsp = x->rank - 2;
    }
    if (w && w->rank >= 0) {
        if (a->nsp >= 0 && w->rank != a->nsp + 2)
            return op_err(c, NULL, "'W' has rank %d, 'X' has rank %d", w->rank, a->nsp + 2);
        if (w->rank < 3) return op_err(c, NULL, "input 'W' has rank %d, expected at least 3", w->rank);
        a->nsp = w->rank - 2;
    }
    const int64_t *ks;
    int64_t nk = op_attr_ints(c, "kernel_shape", &ks);
    if (a->nsp < 0 && nk > 0 && nk <= NNPERF_MAX_RANK - 2) a->nsp = (int)nk;
    if (a->nsp < 0) return NNPERF_OK;
    enum nnperf_status st;
    for (int i = 0; i < a->nsp; i++) a->k[i] = dim_at(w, 2 + i).val;
    if (nk) {
        if ((st = read_ints(c, "kernel_shape", a->nsp, -1, 1, a->k))) return st;
        for (int i = 0; i < a->nsp; i++)
            if (clash(ir_dim_known(a->k[i]), dim_at(w, 2 + i)))
                return op_err(c, "kernel_shape", "has %lld at axis %d, 'W' has %lld", (long long)a->k[i], i,
                              (long long)dim_at(w, 2 + i).val);
    }
    if ((st = read_ints(c, "strides", a->nsp, 1, 1, a->s)) ||
        (st = read_ints(c, "dilations", a->nsp, 1, 1, a->d)) ||
        (st = read_ints(c, "pads", 2 * a->nsp, 0, 0, a->p)))
        return st;
    const char *ap = op_attr_str(c, "auto_pad", "NOTSET");
    if (!strcmp(ap, "NOTSET") || !ap[0])
        a->auto_pad = 0;
    else if (!strcmp(ap, "SAME_UPPER"))
        a->auto_pad = 1;
    else if (!strcmp(ap, "SAME_LOWER"))
        a->auto_pad = 2;
    else if (!strcmp(ap, "VALID"))
        a->auto_pad = 3;
    else
        return op_err(c, "auto_pad", "is '%s', expected NOTSET, SAME_UPPER, SAME_LOWER or VALID", ap);
    a->group = op_attr_int(c, "group", 1);
    if (a->group < 1) return op_err(c, "group", "is %lld, expected a positive number", (long long)a->group);
    return NNPERF_OK;
}

/* One spatial output dim. ONNX Conv-11: NOTSET/VALID out = floor((in + pads - dil·(k-1) - 1)/stride + 1);
 * SAME_UPPER/SAME_LOWER out = ceil(in / stride). Symbolic inputs give symbolic expressions. */
static enum nnperf_status conv_out_dim(struct op_ctx *c, const struct conv_attrs *a, int i, struct ir_dim in,
                                       struct ir_dim *out)
{
    int64_t s = a->s[i], k = a->k[i];
    *out = IR_DIM_UNKNOWN;
    if (a->auto_pad == 1 || a->auto_pad == 2) {
        if (in.val >= 0)
            *out = ir_dim_known(in.val / s + (in.val % s != 0));
        else if (s == 1)
            *out = in;
        else
            *out = ir_dim_div(c->ar, ir_dim_add(c->ar, in, ir_dim_known(s - 1)), ir_dim_known(s));
        return NNPERF_OK;
    }
    if (k < 1) return NNPERF_OK; /* kernel size unknown */
    int64_t pad = a->auto_pad == 3 ? 0 : a->p[i] + a->p[i + a->nsp], eff;
    if (!ck_mul_i64(a->d[i], k - 1, &eff) || !ck_add_i64(eff, 1, &eff))
        return op_err(c, "dilations", "overflow the kernel extent");
    if (in.val >= 0) {
        int64_t o = ir_window_out(in.val, k, s, a->d[i], pad, 0, 0); /* pads given as a total */
        if (o < 1)
            return op_err(c, NULL, "the kernel extent %lld exceeds the padded input %lld at spatial axis %d",
                          (long long)eff, (long long)(in.val + pad), i);
        *out = ir_dim_known(o);
        return NNPERF_OK;
    }
    if (!in.sym) return NNPERF_OK;
    int64_t delta = pad - eff; /* out = (in + delta)/s + 1 */
    struct ir_dim num =
        delta >= 0 ? ir_dim_add(c->ar, in, ir_dim_known(delta)) : ir_dim_sub(c->ar, in, ir_dim_known(-delta));
    if (s == 1) {
        *out = delta + 1 >= 0 ? ir_dim_add(c->ar, in, ir_dim_known(delta + 1))
                              : ir_dim_sub(c->ar, in, ir_dim_known(-(delta + 1)));
        return NNPERF_OK;
    }
    *out = ir_dim_add(c->ar, ir_dim_div(c->ar, num, ir_dim_known(s)), ir_dim_known(1));
    return NNPERF_OK;
}

enum nnperf_status infer_ms_fused_conv(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0), *w = op_in(c, 1), *b = op_in(c, 2), *z = op_in(c, 3);
    struct conv_attrs a;
    enum nnperf_status st = conv_attrs(c, x, w, &a);
    if (st) return st;
    int dt = x ? x->dtype : DT_UNDEFINED;
    if (a.nsp < 0) return op_set(c, 0, dt, -1, NULL);
    struct ir_dim cin = dim_at(x, 1), cpg = dim_at(w, 1), m = dim_at(w, 0);
    if (cin.val >= 0 && cpg.val >= 0 && cin.val != cpg.val * a.group)
        return op_err(c, "group", "is %lld: 'X' has %lld channels, 'W' expects %lld per group",
                      (long long)a.group, (long long)cin.val, (long long)cpg.val);
    if (m.val >= 0 && m.val % a.group)
        return op_err(c, "group", "is %lld, which does not divide the %lld output channels",
                      (long long)a.group, (long long)m.val);
    if (b && b->rank >= 0 && (b->rank != 1 || clash(b->dims[0], m)))
        return op_err(c, NULL, "input 'B' must be 1-D with %lld elements", (long long)m.val);
    struct ir_dim d[NNPERF_MAX_RANK];
    d[0] = dim_at(x, 0);
    d[1] = m;
    for (int i = 0; i < a.nsp; i++)
        if ((st = conv_out_dim(c, &a, i, dim_at(x, 2 + i), &d[2 + i]))) return st;
    if (z && z->rank >= 0) {
        if (z->rank != a.nsp + 2)
            return op_err(c, NULL, "input 'Z' has rank %d, the output has rank %d", z->rank, a.nsp + 2);
        for (int i = 0; i < z->rank; i++) {
            if (clash(z->dims[i], d[i]))
                return op_err(c, NULL, "input 'Z' has %lld at axis %d, the output has %lld",
                              (long long)z->dims[i].val, i, (long long)d[i].val);
            if (d[i].val < 0 && !d[i].sym) d[i] = z->dims[i];
        }
    }
    return op_set(c, 0, dt, a.nsp + 2, d);
}

/* FLOPs of the fused activation per output element: the fpe of the ai.onnx operator of that name (Relu 1,
 * Sigmoid 4, ...); 1 for a name the registry does not have; 0 without an activation. */
static double activation_fpe(struct op_ctx *c)
{
    const char *act = op_attr_str(c, "activation", "");
    if (!act[0]) return 0.0;
    int id = op_find("", act);
    return id >= 0 ? op_table[id].fpe : 1.0;
}

/* MACs = output elements × (C / group) × prod(kernel)   (docs/conventions.md, as Conv)
 * FLOPs beyond 2·MACs = output elements × ([B given] + [Z given] + activation fpe). */
void count_ms_fused_conv(struct op_ctx *c, struct ir_cost *cost)
{
    struct ir_value *w = op_in(c, 1);
    int64_t on, k;
    if (!ir_numel(op_out(c, 0), &on) || !w || w->rank < 3 || !ir_dims_numel(w->dims + 1, w->rank - 1, &k)) {
        cost->known = 0;
        return;
    }
    cost->macs = ck_sat_mul((uint64_t)on, (uint64_t)k); /* W's dims 1.. = (C/group) × kernel */
    double per = (op_in(c, 2) ? 1.0 : 0.0) + (op_in(c, 3) ? 1.0 : 0.0) + activation_fpe(c);
    cost->flops = dmul((uint64_t)on, per);
}

/* ======================================================================================================
 * FusedMatMul (com.microsoft, since 1): Y = alpha · A' × B'
 *   A' = A with, for rank >= 3 and transBatchA = 1, its first axis moved next to the last one
 *   ([d0, d1..dr-2, dr-1] -> [d1..dr-2, d0, dr-1]), then with transA = 1 its last two axes swapped; B' alike.
 *   Then numpy MatMul: batch dims broadcast, 1-D operands get (and lose) a unit axis.
 * ====================================================================================================== */

static void fm_operand(const struct ir_value *v, int trans_batch, int trans, struct ir_dim *d)
{
    int r = v->rank;
    for (int k = 0; k < r; k++) d[k] = v->dims[k];
    if (r >= 3 && trans_batch) {
        struct ir_dim first = d[0];
        for (int k = 0; k < r - 2; k++) d[k] = d[k + 1];
        d[r - 2] = first;
    }
    if (r >= 2 && trans) {
        struct ir_dim t = d[r - 1];
        d[r - 1] = d[r - 2];
        d[r - 2] = t;
    }
}

/* Infers FusedMatMul's output dims into d (rank *rank) and the contraction size *kd. */
static enum nnperf_status fused_matmul_shape(struct op_ctx *c, int *rank, struct ir_dim *d, struct ir_dim *kd)
{
    struct ir_value *a = op_in(c, 0), *b = op_in(c, 1);
    *rank = -1;
    *kd = IR_DIM_UNKNOWN;
    if (!a || !b || a->rank < 0 || b->rank < 0) return NNPERF_OK;
    if (a->rank == 0 || b->rank == 0) return op_err(c, NULL, "inputs must have rank 1 or more");
    struct ir_dim da[NNPERF_MAX_RANK], db[NNPERF_MAX_RANK];
    fm_operand(a, (int)op_attr_int(c, "transBatchA", 0), (int)op_attr_int(c, "transA", 0), da);
    fm_operand(b, (int)op_attr_int(c, "transBatchB", 0), (int)op_attr_int(c, "transB", 0), db);
    int ra = a->rank, rb = b->rank;
    struct ir_dim ka = da[ra - 1], kb = rb >= 2 ? db[rb - 2] : db[0];
    if (clash(ka, kb))
        return op_err(c, NULL, "'A' has %lld columns (after transposition), 'B' has %lld rows",
                      (long long)ka.val, (long long)kb.val);
    *kd = ka.val >= 0 ? ka : kb;
    /* broadcast the batch dims */
    struct ir_value va = {0}, vb = {0};
    va.rank = ra > 2 ? ra - 2 : 0;
    va.dims = da;
    vb.rank = rb > 2 ? rb - 2 : 0;
    vb.dims = db;
    const struct ir_value *vals[2] = {&va, &vb};
    int br, bad = -1;
    struct ir_dim *bd;
    if (!ir_broadcast(c->ar, vals, 2, &br, &bd, &bad))
        return op_err(c, NULL, "batch dimensions of 'A' and 'B' cannot be broadcast (axis %d)", bad);
    if (br + 2 > NNPERF_MAX_RANK) return op_err(c, NULL, "output rank is over the limit");
    int r = 0;
    for (int k = 0; k < br; k++) d[r++] = bd[k];
    if (ra >= 2) d[r++] = da[ra - 2];
    if (rb >= 2) d[r++] = db[rb - 1];
    *rank = r;
    return NNPERF_OK;
}

enum nnperf_status infer_ms_fused_mat_mul(struct op_ctx *c)
{
    struct ir_value *a = op_in(c, 0);
    int rank;
    struct ir_dim d[NNPERF_MAX_RANK], kd;
    enum nnperf_status st = fused_matmul_shape(c, &rank, d, &kd);
    if (st) return st;
    return op_set(c, 0, a ? a->dtype : DT_UNDEFINED, rank, rank >= 0 ? d : NULL);
}

/* MACs = prod(output batch dims) × M × N × K = output elements × K   (as MatMul)
 * FLOPs beyond 2·MACs = output elements when alpha != 1 (the scaling). */
void count_ms_fused_mat_mul(struct op_ctx *c, struct ir_cost *cost)
{
    int rank;
    struct ir_dim d[NNPERF_MAX_RANK], kd;
    int64_t on;
    if (fused_matmul_shape(c, &rank, d, &kd) != NNPERF_OK || rank < 0 || kd.val < 0 ||
        !ir_dims_numel(d, rank, &on)) {
        cost->known = 0;
        return;
    }
    cost->macs = ck_sat_mul((uint64_t)on, (uint64_t)kd.val);
    cost->flops = op_attr_float(c, "alpha", 1.0) != 1.0 ? (uint64_t)on : 0;
}

/* ======================================================================================================
 * MatMulNBits (com.microsoft, since 1): Y = A × dequant(B)ᵀ (+ bias)
 *   A (..., K); B uint8 (N, k_blocks, blob_size) with k_blocks = ceil(K / block_size) and
 *   blob_size = block_size · bits / 8 (codes packed low bits first); scales (N · k_blocks) or (N, k_blocks);
 *   zero_points (optional, packed uint8 or A's dtype); g_idx (optional, deprecated); bias (N, optional).
 *   Attributes K, N, block_size (required, a power of 2 >= 16), bits (default 4; 2..8), accuracy_level.
 *   Y = A's dims with the last replaced by N, A's dtype.
 * Params and bytes: the driver counts B's uint8 elements, N·k_blocks·blob_size = N·K·bits/8 when block_size divides
 * K, so a 4-bit weight of N·K values shows as N·K/2 "params" and exactly N·K/2 bytes: the stored size, not the
 * logical weight count (× 8/bits to get it). scales add N·k_blocks params, zero points their packed size.
 * ====================================================================================================== */

struct nbits {
    int64_t k, n, bits, bs, kblocks, blob;
};

static enum nnperf_status nbits_attrs(struct op_ctx *c, struct nbits *q)
{
    const char *req[3] = {"K", "N", "block_size"};
    int64_t *dst[3] = {&q->k, &q->n, &q->bs};
    for (int i = 0; i < 3; i++) {
        const struct ir_attr *at = op_attr_typed(c, req[i], AT_INT);
        if (!at) return op_err(c, req[i], "is missing");
        if (at->type != AT_INT || at->i <= 0)
            return op_err(c, req[i], "is %lld, expected a positive number",
                          (long long)(at->type == AT_INT ? at->i : 0));
        *dst[i] = at->i;
    }
    q->bits = op_attr_int(c, "bits", 4);
    if (q->bits < 2 || q->bits > 8) return op_err(c, "bits", "is %lld, expected 2 to 8", (long long)q->bits);
    if (q->bs < 16 || (q->bs & (q->bs - 1)))
        return op_err(c, "block_size", "is %lld, expected a power of 2 of at least 16", (long long)q->bs);
    q->kblocks = q->k / q->bs + (q->k % q->bs != 0);
    q->blob = (q->bs * q->bits + 7) / 8;
    return NNPERF_OK;
}

enum nnperf_status infer_ms_mat_mul_n_bits(struct op_ctx *c)
{
    struct nbits q;
    enum nnperf_status st = nbits_attrs(c, &q);
    if (st) return st;
    struct ir_value *a = op_in(c, 0), *b = op_in(c, 1), *scales = op_in(c, 2), *bias = op_in(c, 5);
    if (a && a->rank == 0) return op_err(c, NULL, "input 'A' is a scalar, expected rank 1 or more");
    if (a && a->rank > 0 && clash(a->dims[a->rank - 1], ir_dim_known(q.k)))
        return op_err(c, "K", "is %lld, but the last axis of 'A' has %lld", (long long)q.k,
                      (long long)a->dims[a->rank - 1].val);
    if (b && b->rank == 3) {
        struct ir_dim want[3] = {ir_dim_known(q.n), ir_dim_known(q.kblocks), ir_dim_known(q.blob)};
        for (int i = 0; i < 3; i++)
            if (clash(b->dims[i], want[i]))
                return op_err(
                    c, NULL,
                    "input 'B' has shape %lldx%lldx%lld, expected %lldx%lldx%lld (N, k_blocks, blob_size)",
                    (long long)b->dims[0].val, (long long)b->dims[1].val, (long long)b->dims[2].val,
                    (long long)q.n, (long long)q.kblocks, (long long)q.blob);
    } else if (b && b->rank == 2) {
        if (clash(b->dims[0], ir_dim_known(q.n)) || clash(b->dims[1], ir_dim_known(q.kblocks * q.blob)))
            return op_err(c, NULL, "input 'B' has shape %lldx%lld, expected %lldx%lld",
                          (long long)b->dims[0].val, (long long)b->dims[1].val, (long long)q.n,
                          (long long)(q.kblocks * q.blob));
    }
    int64_t ns;
    if (scales && ir_numel(scales, &ns) && ns != q.n * q.kblocks)
        return op_err(c, NULL, "input 'scales' has %lld elements, expected N x k_blocks = %lld",
                      (long long)ns, (long long)(q.n * q.kblocks));
    if (bias && bias->rank >= 0 && (bias->rank != 1 || clash(bias->dims[0], ir_dim_known(q.n))))
        return op_err(c, NULL, "input 'bias' must be 1-D with N = %lld elements", (long long)q.n);
    int dt = a ? a->dtype : DT_UNDEFINED;
    if (!a || a->rank < 0) return op_set(c, 0, dt, -1, NULL);
    struct ir_dim d[NNPERF_MAX_RANK];
    for (int k = 0; k < a->rank; k++) d[k] = a->dims[k];
    d[a->rank - 1] = ir_dim_known(q.n);
    return op_set(c, 0, dt, a->rank, d);
}

/* MACs = (A elements / K) × N × K = rows × N × K   (as MatMul, M × N × K per batch)
 * FLOPs beyond 2·MACs = 2 · N · K dequantisation ((code - zero_point) · scale, once per call)
 *                      + output elements when a bias is given. */
void count_ms_mat_mul_n_bits(struct op_ctx *c, struct ir_cost *cost)
{
    struct nbits q;
    int64_t an, on;
    if (nbits_attrs(c, &q) != NNPERF_OK || !ir_numel(op_in(c, 0), &an) || !ir_numel(op_out(c, 0), &on)) {
        cost->known = 0;
        return;
    }
    cost->macs = ck_sat_mul((uint64_t)an, (uint64_t)q.n);
    uint64_t fl = ck_sat_mul(2, ck_sat_mul((uint64_t)q.n, (uint64_t)q.k));
    if (op_in(c, 5)) fl = ck_sat_add(fl, (uint64_t)on);
    cost->flops = fl;
}
