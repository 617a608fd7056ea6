/* annotate.h - writes a model back with what an analysis inferred: the ModelProto read at load time, byte for byte,
 * except that every graph (subgraphs included) lists each node output's inferred type and shape as value_info and
 * its inputs and outputs carry the inferred types. Initializers, nodes, functions and metadata are copied as they
 * were, so weights are untouched and external data references stay as they are. */
#ifndef NNPERF_ONNX_ANNOTATE_H
#define NNPERF_ONNX_ANNOTATE_H

#include "../ir/ir.h"
#include "pbw.h"

/* What ox_annotate wrote. */
struct ox_annotate_stats {
    int values;  /* value_info entries written (node outputs other than graph outputs) */
    int io;      /* graph inputs and outputs whose type was rewritten */
    int partial; /* of those written, how many have an unknown rank or dim */
};

/* Writes m's ModelProto (m->buf) into w with the types of g, the analysed copy of m's main graph (its values and
 * subgraphs as inference left them). stats may be NULL. Errors: NNPERF_E_PARSE (m->buf no longer reads as it did
 * at load), NNPERF_E_LIMIT / NNPERF_E_NOMEM (from w: the output would pass its cap, or out of memory). */
enum nnperf_status ox_annotate(const struct ir_model *m, const struct ir_graph *g, struct pbw *w,
                               struct ox_annotate_stats *stats, struct diag *d);

#endif
