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
    int values;    /* value_info entries written (node outputs other than graph outputs) */
    int io;        /* graph inputs and outputs whose type was rewritten */
    int partial;   /* of those written, how many have an unknown rank or dim */
    int relocated; /* external data locations rewritten for o->out_dir */
};

/* What ox_annotate adds besides types (all optional). */
struct ox_annotate_opts {
    /* the folder the result is written into: external data locations (initializers and tensor attributes of every
     * graph) are rewritten relative to it when it is not the model's folder; a location whose file lies outside it
     * is refused (ONNX reads external data only inside a model's folder); a file that does not exist (a
     * weight-stripped model) keeps its location. NULL: every location kept. */
    const char *out_dir;
    /* the text a node of the main graph gets in its doc_string (after its own, whose earlier "nnperf: " paragraph
     * is dropped), given the node's first named output and its name; NULL: none */
    const char *(*node_doc)(void *ctx, const char *first_output, const char *name);
    void *ctx;
    /* metadata_props set on the model: n_meta key, value pairs (existing keys starting "nnperf." are dropped) */
    const char *const *meta;
    int n_meta;
};

/* Writes m's ModelProto (m->buf) into w with the types of g, the analysed copy of m's main graph (its values and
 * subgraphs as inference left them). o and stats may be NULL. Errors: NNPERF_E_PARSE (m->buf no longer reads as it
 * did at load), NNPERF_E_LIMIT / NNPERF_E_NOMEM (from w: the output would pass its cap, or out of memory),
 * NNPERF_E_USAGE (external data that cannot be reached from o->out_dir). */
enum nnperf_status ox_annotate(const struct ir_model *m, const struct ir_graph *g,
                               const struct ox_annotate_opts *o, struct pbw *w,
                               struct ox_annotate_stats *stats, struct diag *d);

#endif
