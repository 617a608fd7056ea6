/* cmd_annotate.c - `nnperf annotate MODEL.onnx -o OUT.onnx`: the model written back with every inferred tensor
 * type and shape as value_info (nnperf_annotate), so that Netron shows a shape on every edge. */
#include <stdio.h>

#include "cli.h"

int cmd_annotate(const struct cli_args *a)
{
    struct cli_run r;
    if (cli_run_init(a, &r)) return 2;
    if (!r.out) {
        cli_error("annotate: no output given: -o OUT.onnx (or -o - for standard output)");
        return 2;
    }
    struct nnperf_model *m;
    struct nnperf_analysis *an;
    if (cli_load(&r, r.models[0], &m, &an)) return 2;
    void *buf = NULL;
    size_t len = 0;
    char err[1024];
    int rc;
    if (nnperf_annotate(an, &buf, &len, err, sizeof err) != NNPERF_OK) {
        cli_error("annotate: %s", err);
        rc = 2;
    } else {
        rc = cli_write_output(a, buf, len);
    }
    nnperf_free(buf);
    struct nnperf_summary s;
    nnperf_analysis_summary(an, &s);
    if (!rc) {
        for (int i = 0; i < s.warnings; i++) cli_warn(r.quiet, "%s", nnperf_analysis_warning(an, i));
        if (s.unknown_tensors && !r.quiet)
            fprintf(stderr, "nnperf: %d tensors keep unknown dims (bind symbols with --dim or --input)\n",
                    s.unknown_tensors);
    }
    if (!rc && r.strict && s.warnings) rc = 1;
    nnperf_analysis_free(an);
    nnperf_model_free(m);
    return rc;
}
