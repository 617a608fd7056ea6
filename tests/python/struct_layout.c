/* struct_layout: prints the size of each struct of include/nnperf.h that python/nnperf/_capi.py mirrors, and the
 * offset of each field, as the C compiler lays them out ("struct NAME SIZE", then "field NAME OFFSET" per field in
 * declaration order); check_struct_layout.py compares _capi.py's ctypes structures with it. */
#include <stddef.h>
#include <stdio.h>

#include "nnperf.h"

#define STRUCT(s)   printf("struct %s %zu\n", #s, sizeof(struct s))
#define FIELD(s, f) printf("field %s %zu\n", #f, offsetof(struct s, f))

int main(void)
{
    STRUCT(nnperf_load_options);
    FIELD(nnperf_load_options, flags);

    STRUCT(nnperf_analyze_options);
    FIELD(nnperf_analyze_options, input_shapes);
    FIELD(nnperf_analyze_options, n_input_shapes);
    FIELD(nnperf_analyze_options, dim_bindings);
    FIELD(nnperf_analyze_options, n_dim_bindings);

    STRUCT(nnperf_summary);
    FIELD(nnperf_summary, macs);
    FIELD(nnperf_summary, flops);
    FIELD(nnperf_summary, params);
    FIELD(nnperf_summary, weight_bytes);
    FIELD(nnperf_summary, activation_bytes);
    FIELD(nnperf_summary, conv_gemm_matmul_macs);
    FIELD(nnperf_summary, nodes);
    FIELD(nnperf_summary, unknown_nodes);
    FIELD(nnperf_summary, unknown_tensors);
    FIELD(nnperf_summary, warnings);
    FIELD(nnperf_summary, unbound_dims);

    STRUCT(nnperf_predict_options);
    FIELD(nnperf_predict_options, dtype);
    FIELD(nnperf_predict_options, batch);
    FIELD(nnperf_predict_options, memory_model);
    FIELD(nnperf_predict_options, interval_s);
    FIELD(nnperf_predict_options, whatif);
    FIELD(nnperf_predict_options, causal);
    FIELD(nnperf_predict_options, weight_dtype);
    FIELD(nnperf_predict_options, activation_dtype);
    FIELD(nnperf_predict_options, kv_dtype);
    FIELD(nnperf_predict_options, allow_unbound);
    FIELD(nnperf_predict_options, no_timeline);
    FIELD(nnperf_predict_options, threads);
    FIELD(nnperf_predict_options, streams);

    STRUCT(nnperf_annotate_options);
    FIELD(nnperf_annotate_options, costs);
    FIELD(nnperf_annotate_options, dest);

    STRUCT(nnperf_llm_options);
    FIELD(nnperf_llm_options, prompts);
    FIELD(nnperf_llm_options, n_prompts);
    FIELD(nnperf_llm_options, generate);
    FIELD(nnperf_llm_options, batches);
    FIELD(nnperf_llm_options, n_batches);
    FIELD(nnperf_llm_options, weights);
    FIELD(nnperf_llm_options, kv);
    FIELD(nnperf_llm_options, compute);
    FIELD(nnperf_llm_options, decode_points);
    FIELD(nnperf_llm_options, dims);
    FIELD(nnperf_llm_options, n_dims);
    FIELD(nnperf_llm_options, allow_offload);
    FIELD(nnperf_llm_options, serve);
    FIELD(nnperf_llm_options, tp);
    FIELD(nnperf_llm_options, pp);
    FIELD(nnperf_llm_options, draft);
    FIELD(nnperf_llm_options, spec_tokens);
    FIELD(nnperf_llm_options, spec_accept);
    FIELD(nnperf_llm_options, microbatches);
    STRUCT(nnperf_serve_options);
    FIELD(nnperf_serve_options, requests);
    FIELD(nnperf_serve_options, rate);
    FIELD(nnperf_serve_options, concurrency);
    FIELD(nnperf_serve_options, seed);
    FIELD(nnperf_serve_options, prompt);
    FIELD(nnperf_serve_options, output);
    FIELD(nnperf_serve_options, lengths);
    FIELD(nnperf_serve_options, block_size);
    FIELD(nnperf_serve_options, chunk);
    FIELD(nnperf_serve_options, max_batch);
    FIELD(nnperf_serve_options, trace);
    FIELD(nnperf_serve_options, slo_ttft_s);
    FIELD(nnperf_serve_options, slo_tpot_s);
    FIELD(nnperf_serve_options, slo_percentile);
    return 0;
}
