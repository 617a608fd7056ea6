/* rnn.c - the recurrent operators RNN, GRU and LSTM: output shapes for both layouts and directions, and their
 * MACs (the gate matrix products) and element-wise gate FLOPs. */
#include <string.h>

#include "../ops.h"

/* Number of gates: RNN 1, GRU 3 (z, r, h), LSTM 4 (i, o, f, c). */
static int rnn_gates(struct op_ctx *c)
{
    if (!strcmp(c->n->op_type, "LSTM")) return 4;
    if (!strcmp(c->n->op_type, "GRU")) return 3;
    return 1;
}

struct rnn_dims {
    struct ir_dim seq, batch, input, hidden;
    int64_t ndir;
    int layout;
};

/* Reads and checks the dims shared by infer and count. ONNX RNN/GRU/LSTM (opset 14 adds layout):
 * X is [seq_length, batch_size, input_size] (layout 0) or [batch_size, seq_length, input_size] (layout 1);
 * W [num_directions, G*hidden_size, input_size]; R [num_directions, G*hidden_size, hidden_size];
 * B [num_directions, 2*G*hidden_size]. */
static enum nnperf_status rnn_read(struct op_ctx *c, struct rnn_dims *r)
{
    struct ir_value *x = op_in(c, 0), *w = op_in(c, 1), *rr = op_in(c, 2), *b = op_in(c, 3);
    int g = rnn_gates(c);
    const char *dir = op_attr_str(c, "direction", "forward");
    if (!strcmp(dir, "forward") || !strcmp(dir, "reverse"))
        r->ndir = 1;
    else if (!strcmp(dir, "bidirectional"))
        r->ndir = 2;
    else
        return op_err(c, "direction", "has unknown value '%s'", dir);
    int64_t layout = op_attr_int(c, "layout", 0);
    if (layout != 0 && layout != 1) return op_err(c, "layout", "is %lld, expected 0 or 1", (long long)layout);
    r->layout = (int)layout;
    r->seq = r->batch = r->input = r->hidden = IR_DIM_UNKNOWN;
    if (x && x->rank >= 0) {
        if (x->rank != 3) return op_err(c, NULL, "input X has rank %d, expected 3", x->rank);
        r->seq = x->dims[layout ? 1 : 0];
        r->batch = x->dims[layout ? 0 : 1];
        r->input = x->dims[2];
    }
    const struct ir_attr *hs = op_attr_typed(c, "hidden_size", AT_INT);
    if (hs && hs->type == AT_INT) {
        if (hs->i <= 0) return op_err(c, "hidden_size", "is %lld, expected at least 1", (long long)hs->i);
        r->hidden = ir_dim_known(hs->i);
    }
    if (w && w->rank >= 0) {
        if (w->rank != 3) return op_err(c, NULL, "input W has rank %d, expected 3", w->rank);
        if (w->dims[0].val >= 0 && w->dims[0].val != r->ndir)
            return op_err(c, "direction", "'%s' needs %lld directions but W has %lld", dir,
                          (long long)r->ndir, (long long)w->dims[0].val);
        if (r->hidden.val >= 0 && w->dims[1].val >= 0 && w->dims[1].val != g * r->hidden.val)
            return op_err(c, "hidden_size", "is %lld but W has %lld rows, expected %lld",
                          (long long)r->hidden.val, (long long)w->dims[1].val,
                          (long long)(g * r->hidden.val));
        if (r->hidden.val < 0 && w->dims[1].val >= 0) {
            if (w->dims[1].val % g)
                return op_err(c, NULL, "W has %lld rows, not a multiple of %d gates",
                              (long long)w->dims[1].val, g);
            r->hidden = ir_dim_known(w->dims[1].val / g);
        }
        if (r->input.val >= 0 && w->dims[2].val >= 0 && w->dims[2].val != r->input.val)
            return op_err(c, NULL, "W has input size %lld, X has %lld", (long long)w->dims[2].val,
                          (long long)r->input.val);
        if (r->input.val < 0 && w->dims[2].val >= 0) r->input = w->dims[2];
    }
    if (rr && rr->rank >= 0) {
        if (rr->rank != 3) return op_err(c, NULL, "input R has rank %d, expected 3", rr->rank);
        if (r->hidden.val < 0 && rr->dims[2].val >= 0) r->hidden = rr->dims[2];
        if (r->hidden.val >= 0 && rr->dims[2].val >= 0 && rr->dims[2].val != r->hidden.val)
            return op_err(c, NULL, "R has hidden size %lld, expected %lld", (long long)rr->dims[2].val,
                          (long long)r->hidden.val);
    }
    if (b && b->rank >= 0) {
        if (b->rank != 2) return op_err(c, NULL, "input B has rank %d, expected 2", b->rank);
        if (r->hidden.val >= 0 && b->dims[1].val >= 0 && b->dims[1].val != 2 * g * r->hidden.val)
            return op_err(c, NULL, "B has %lld columns, expected %lld", (long long)b->dims[1].val,
                          (long long)(2 * g * r->hidden.val));
    }
    return NNPERF_OK;
}

/* Outputs: Y [seq, num_directions, batch, hidden] (layout 1: [batch, seq, num_directions, hidden]);
 * Y_h and (LSTM) Y_c [num_directions, batch, hidden] (layout 1: [batch, num_directions, hidden]). */
enum nnperf_status infer_rnn(struct op_ctx *c)
{
    struct ir_value *x = op_in(c, 0);
    int dtype = x ? x->dtype : DT_UNDEFINED;
    struct rnn_dims r;
    enum nnperf_status st = rnn_read(c, &r);
    if (st) return st;
    struct ir_dim nd = ir_dim_known(r.ndir);
    struct ir_dim y0[4] = {r.seq, nd, r.batch, r.hidden}, y1[4] = {r.batch, r.seq, nd, r.hidden};
    struct ir_dim h0[3] = {nd, r.batch, r.hidden}, h1[3] = {r.batch, nd, r.hidden};
    if ((st = op_set(c, 0, dtype, 4, r.layout ? y1 : y0))) return st;
    for (int i = 1; i < c->n->n_out && i < 3; i++)
        if ((st = op_set(c, i, dtype, 3, r.layout ? h1 : h0))) return st;
    return NNPERF_OK;
}

/* MACs per time step, batch row and direction: G x H x (I + H) (the input and recurrent gate products);
 * RNN G=1, GRU G=3, LSTM G=4.
 * Element-wise FLOPs per step, batch row, direction and hidden unit (Sigmoid counted 4 and Tanh 1, as their
 * rows in op_list.def), plus 2 bias adds (Wb, Rb) per gate when B is given:
 *   RNN:  tanh 1                                                                  = 1  (+2 with B)
 *   GRU:  z, r sigmoid 8; h tanh 1; r (.) (R h + Rb) 1; (1-z) h~ + z h 4          = 14 (+6 with B)
 *   LSTM: i, f, o sigmoid 12; g tanh 1; C = f C + i g 3; H = o tanh(C) 2          = 18 (+8 with B, +6 with P:
 *         a multiply and an add for each of the three peepholes). */
void count_rnn(struct op_ctx *c, struct ir_cost *cost)
{
    struct rnn_dims r;
    int g = rnn_gates(c);
    if (rnn_read(c, &r) || r.seq.val < 0 || r.batch.val < 0 || r.input.val < 0 || r.hidden.val < 0) {
        cost->known = 0;
        return;
    }
    int64_t rows, macs, flops, ew;
    int has_b = op_in(c, 3) != NULL;
    if (g == 4)
        ew = 18 + (has_b ? 8 : 0) + (op_in(c, 7) ? 6 : 0);
    else if (g == 3)
        ew = 14 + (has_b ? 6 : 0);
    else
        ew = 1 + (has_b ? 2 : 0);
    if (!ck_mul_i64(r.seq.val, r.batch.val, &rows) || !ck_mul_i64(rows, r.ndir, &rows) ||
        !ck_add_i64(r.input.val, r.hidden.val, &macs) || !ck_mul_i64(macs, g * r.hidden.val, &macs) ||
        !ck_mul_i64(macs, rows, &macs) || !ck_mul_i64(rows, r.hidden.val, &flops) ||
        !ck_mul_i64(flops, ew, &flops)) {
        cost->known = 0;
        return;
    }
    cost->macs = (uint64_t)macs;
    cost->flops = (uint64_t)flops;
}
