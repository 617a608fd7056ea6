/* pbw.h - a protobuf wire-format writer into a growable buffer with a size cap: varints, tags, length-delimited
 * fields, nested messages, and fields copied verbatim from a reader (pb.h). The counterpart of pb.h, used to write
 * annotated models (annotate.c). Wire format: https://protobuf.dev/programming-guides/encoding/ */
#ifndef NNPERF_PBW_H
#define NNPERF_PBW_H

#include <stddef.h>
#include <stdint.h>

#include "pb.h"

/* The output; the first failure (out of memory, or past cap) sets err and later writes are dropped. */
struct pbw {
    uint8_t *p;
    size_t len, alloc, cap;
    int err; /* 0, NNPERF_E_NOMEM or NNPERF_E_LIMIT */
};

/* cap: the largest output in bytes (appends past it fail with NNPERF_E_LIMIT). */
void pbw_init(struct pbw *w, size_t cap);
void pbw_free(struct pbw *w);
/* Raw bytes, a bare varint, a field key. */
void pbw_bytes(struct pbw *w, const void *p, size_t n);
void pbw_tag(struct pbw *w, uint32_t num, int wire);
/* A varint field (int32/int64/uint64/enum/bool; a negative int64 is written as its two's complement, 10 bytes). */
void pbw_uint(struct pbw *w, uint32_t num, uint64_t v);
/* A length-delimited field: bytes, a NUL-terminated string. */
void pbw_len(struct pbw *w, uint32_t num, const void *p, size_t n);
void pbw_str(struct pbw *w, uint32_t num, const char *s);
/* A nested message: pbw_begin writes the key and returns a mark; the fields follow; pbw_end(w, mark) puts the
 * message's length in front of them. Begin/end pairs nest. */
size_t pbw_begin(struct pbw *w, uint32_t num);
void pbw_end(struct pbw *w, size_t mark);
/* The field pb_next read last from r, byte for byte as it was (key, length and value). */
void pbw_copy(struct pbw *w, const struct pb *r);
/* Bytes a varint of v takes (1 to 10). */
int pbw_varint_size(uint64_t v);
/* An ONNX ValueInfoProto as field num of the enclosing message (GraphProto: 11 input, 12 output, 13 value_info): name
 * and a tensor type of element type elem (TensorProto.DataType) with rank dims, dim d a dim_param syms[d] where syms
 * and syms[d] are non-NULL, else the dim_value dims[d]. Used by the graphs the library builds (llm/config.c) and by
 * the tests' model builder. */
void pbw_value_info(struct pbw *w, uint32_t num, const char *name, int elem, int rank,
                    const char *const *syms, const int64_t *dims);

#endif
