/* seq.h - per-element shapes of sequence values (ir_value n_elems/elems, see ir.h), shared by the sequence
 * operators (sequence.c, which implements these), control flow (If, Loop, SequenceMap) and Identity. Element
 * lists are immutable once made, so values may share them. */
#ifndef NNPERF_OPS_SEQ_H
#define NNPERF_OPS_SEQ_H

#include "../ops.h"

/* Longest sequence whose elements are tracked one by one; longer ones keep only the merged shape. */
#define SEQ_MAX_ELEMS 1024

/* 1 when v is a sequence whose elements are known one by one. */
int seq_known(const struct ir_value *v);
/* A new element (a tensor value in the model arena) with a copy of dims; NULL when out of memory. */
struct ir_value *seq_elem(struct op_ctx *c, int dtype, int rank, const struct ir_dim *dims);
/* Output i becomes a sequence of the n elements el (the pointers are copied, the elements shared); its merged
 * shape is computed from them (dtype is the element dtype when n is 0). n > SEQ_MAX_ELEMS: the list is dropped. */
enum nnperf_status seq_set_list(struct op_ctx *c, int i, int dtype, struct ir_value *const *el, int n);
/* Output i takes x's type kind and, for a sequence, its element list (dtype and dims are set by the caller). */
void seq_pass(struct op_ctx *c, int i, const struct ir_value *x);
/* 1 when two element lists have the same length, dtypes and dims. */
int seq_same_list(int na, struct ir_value *const *a, int nb, struct ir_value *const *b);

#endif
