/* cmd_llm.c - `nnperf llm MODEL.onnx --hw P`: prefill and decode of a decoder-only language model (time to first
 * token, time per output token, tokens/s, KV cache, memory fit) over prompt lengths and batch sizes. A thin client
 * of nnperf_llm (include/nnperf.h; docs/llm.md). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli.h"

const char llm_usage[] =
    "usage: nnperf llm MODEL.onnx --hw P [--prompt N[,N...]] [--generate M] [--batch B[,B...]]\n"
    "                  [--weights DTYPE] [--kv DTYPE] [--compute DTYPE] [--decode-points K] [--dim NAME=N]\n"
    "                  [--format table|json|csv|html] [-o FILE]\n"
    "\n"
    "Predicts LLM inference of a decoder-only model (input_ids, attention_mask, past_key_values.N.key/value "
    "->\n"
    "present.N.key/value; HF Optimum and ONNX Runtime GenAI layouts): the prefill of N prompt tokens (time "
    "to\n"
    "first token) and M decode steps (one token each, past N to N+M-1; predicted at K past lengths and "
    "summed\n"
    "by linear interpolation), tokens/s, end-to-end time, the KV cache, and weights + KV cache + "
    "activations\n"
    "against the device memory (docs/llm.md).\n"
    "\n"
    "options:\n"
    "  --hw P                a built-in platform (nnperf hw list) or a platform YAML file (required)\n"
    "  --prompt N[,N...]     prompt lengths (default 512); several give one row each\n"
    "  --generate M          generated tokens (default 128)\n"
    "  --batch B[,B...]      sequences per run (default 1); several give one row each\n"
    "  --weights DTYPE       weight dtype for the memory (int4, int8, fp8, fp16, bf16, fp32; default: the "
    "model's)\n"
    "  --kv DTYPE            KV cache dtype (default: the model's)\n"
    "  --compute DTYPE       compute dtype of the prediction (default: the platform's)\n"
    "  --decode-points K     past lengths predicted per generation (2 to 64, default 5)\n"
    "  --dim NAME=N          bind a dim the LLM conventions do not name (e.g. kv_cache_dim=128)\n"
    "  --format FMT          table (default), json, csv (one row per prompt and batch), html (tabs and "
    "plots)\n"
    "  -o, --output FILE     write to FILE (written completely or not at all) instead of standard output\n"
    "\n"
    "exit codes: 0 ok, 2 bad input or usage\n";

#define LLM_CLI_MAX 256

static int int_list(const char *s, int *v, int *n, const char *what)
{
    char *end;
    *n = 0;
    while (*s) {
        if (*n == LLM_CLI_MAX) {
            cli_error("llm: %s: more than %d values", what, LLM_CLI_MAX);
            return 2;
        }
        long x = strtol(s, &end, 10);
        if (end == s || (*end && *end != ',') || x < 1 || x > (1L << 24)) {
            cli_error("llm: %s '%s': expected positive integers separated by commas", what, s);
            return 2;
        }
        v[(*n)++] = (int)x;
        s = *end ? end + 1 : end;
    }
    if (!*n) {
        cli_error("llm: %s: no value", what);
        return 2;
    }
    return 0;
}

int cmd_llm(int argc, char **argv)
{
    const char *model = NULL, *hw = NULL, *out = NULL, *dims[LLM_CLI_MAX];
    int prompts[LLM_CLI_MAX], batches[LLM_CLI_MAX], n_dims = 0;
    struct nnperf_llm_options o = {0};
    enum nnperf_format fmt = NNPERF_FORMAT_TABLE;
    for (int i = 0; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        int rc = 0;
        if (a[0] == '-' && a[1] && !v) {
            cli_error("llm: option '%s' needs a value (see 'nnperf help llm')", a);
            return 2;
        }
        if (!strcmp(a, "--hw"))
            hw = v;
        else if (!strcmp(a, "--prompt"))
            rc = int_list(v, prompts, &o.n_prompts, "--prompt"), o.prompts = prompts;
        else if (!strcmp(a, "--batch"))
            rc = int_list(v, batches, &o.n_batches, "--batch"), o.batches = batches;
        else if (!strcmp(a, "--generate") || !strcmp(a, "--decode-points")) {
            int x[LLM_CLI_MAX], n;
            rc = int_list(v, x, &n, a);
            if (!rc && n != 1) {
                cli_error("llm: %s takes one value", a);
                rc = 2;
            }
            if (!rc) *(a[2] == 'g' ? &o.generate : &o.decode_points) = x[0];
        } else if (!strcmp(a, "--weights"))
            o.weights = v;
        else if (!strcmp(a, "--kv"))
            o.kv = v;
        else if (!strcmp(a, "--compute"))
            o.compute = v;
        else if (!strcmp(a, "--dim")) {
            if (n_dims == LLM_CLI_MAX) {
                cli_error("llm: too many --dim options");
                return 2;
            }
            dims[n_dims++] = v;
        } else if (!strcmp(a, "--format")) {
            if (!strcmp(v, "table"))
                fmt = NNPERF_FORMAT_TABLE;
            else if (!strcmp(v, "json"))
                fmt = NNPERF_FORMAT_JSON;
            else if (!strcmp(v, "csv"))
                fmt = NNPERF_FORMAT_CSV;
            else if (!strcmp(v, "html"))
                fmt = NNPERF_FORMAT_HTML;
            else {
                cli_error("llm: unknown format '%s' (table, json, csv or html)", v);
                return 2;
            }
        } else if (!strcmp(a, "-o") || !strcmp(a, "--output"))
            out = v;
        else if (a[0] == '-' && a[1]) {
            cli_error("llm: unknown option '%s' (see 'nnperf help llm')", a);
            return 2;
        } else if (model) {
            cli_error("llm: more than one model given ('%s' and '%s')", model, a);
            return 2;
        } else {
            model = a;
            continue;
        }
        if (rc) return rc;
        i++;
    }
    if (!model || !hw) {
        cli_error("llm: %s (see 'nnperf help llm')", model ? "--hw is required" : "no model given");
        return 2;
    }
    o.dims = dims;
    o.n_dims = n_dims;
    char err[1024];
    struct nnperf_platform *p;
    if (nnperf_platform_load(hw, &p, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        return 2;
    }
    struct nnperf_model *m;
    if (nnperf_model_load(model, NULL, &m, err, sizeof err) != NNPERF_OK) {
        cli_error("%s", err);
        nnperf_platform_free(p);
        return 2;
    }
    struct nnperf_llm *l;
    int rc = 2;
    if (nnperf_llm(m, p, &o, &l, err, sizeof err) != NNPERF_OK)
        cli_error("%s", err);
    else {
        char *buf;
        size_t len;
        if (nnperf_llm_render(l, fmt, &buf, &len, err, sizeof err) != NNPERF_OK)
            cli_error("%s", err);
        else {
            rc = cli_write_output(out, buf, len);
            free(buf);
        }
        nnperf_llm_free(l);
    }
    nnperf_model_free(m);
    nnperf_platform_free(p);
    return rc;
}
