/* test_profile.c - the ONNX Runtime profile reader (src/perf/profile.c): a real, trimmed profile
 * (tests/data/ort_profile_small.json: squeezenet1_1, ORT 1.30 CPU, 1 thread, 3 runs) and malformed inputs. */
#include <math.h>
#include <string.h>

#include "predict/profile.h"
#include "tinytest.h"

#define NEAR(a, b) (fabs((a) - (b)) < 1e-6)

/* Loads a buffer and returns the status; the message goes to msg. */
static enum nnperf_status load_str(const char *text, char *msg, size_t n)
{
    struct perf_profile p;
    struct diag d = {NNPERF_OK, {0}};
    enum nnperf_status st = perf_profile_load_buffer(text, strlen(text), "bad.json", &p, &d);
    snprintf(msg, n, "%s", d.msg);
    perf_profile_free(&p);
    return st;
}

static void test_real(void)
{
    struct perf_profile p;
    struct diag d = {NNPERF_OK, {0}};
    enum nnperf_status st = perf_profile_load("tests/data/ort_profile_small.json", &p, &d);
    CHECK(st == NNPERF_OK);
    if (st != NNPERF_OK) {
        fprintf(stderr, "%s\n", d.msg);
        return;
    }
    /* expected values computed from the file with Python's json module */
    CHECK_EQ_U(p.runs, 3);
    CHECK(NEAR(p.run_median_us, 18603));
    CHECK(NEAR(p.run_min_us, 18212));
    CHECK_EQ_U(p.n_nodes, 40);
    CHECK(NEAR(p.kernel_total_us, 66964));
    CHECK(NEAR(p.kernel_us_per_run, 66964.0 / 3));
    CHECK(NEAR(p.kernel_median_us, 18185)); /* per run: 31020, 18185, 17759 */
    /* the first node ORT ran: a Conv fused with its Relu, in NCHWc layout */
    CHECK_STR(p.nodes[0].name, "/features/features.1/Relu_output_0_nchwc");
    CHECK_STR(p.nodes[0].op, "Conv");
    CHECK_STR(p.nodes[0].provider, "CPUExecutionProvider");
    CHECK_EQ_U(p.nodes[0].count, 3);
    CHECK(NEAR(p.nodes[0].total_us, 2786));
    CHECK(NEAR(p.nodes[0].min_us, 811));
    const struct perf_profile_node *n = perf_profile_find(&p, "/features/features.1/Relu_output_0_nchwc");
    CHECK(n == &p.nodes[0]);
    CHECK(perf_profile_find(&p, "/features/features.1/Relu_output_0_nchwc_kernel_time") == NULL);
    double sum = 0;
    int count = 0;
    for (int i = 0; i < p.n_nodes; i++) sum += p.nodes[i].total_us, count += p.nodes[i].count;
    CHECK(NEAR(sum, p.kernel_total_us));
    CHECK_EQ_U(count, 120);
    perf_profile_free(&p);
}

static void test_malformed(void)
{
    struct perf_profile p;
    struct diag d = {NNPERF_OK, {0}};
    /* a truncated real profile: a JSON syntax error naming the file and position */
    CHECK(perf_profile_load("tests/data/ort_profile_malformed.json", &p, &d) == NNPERF_E_PARSE);
    CHECK(strstr(d.msg, "ort_profile_malformed.json") != NULL);
    CHECK(strstr(d.msg, "line") != NULL);
    perf_profile_free(&p);
    struct diag d2 = {NNPERF_OK, {0}};
    CHECK(perf_profile_load("tests/data/no_such_profile.json", &p, &d2) == NNPERF_E_IO);
    CHECK(strstr(d2.msg, "no_such_profile.json") != NULL);
    perf_profile_free(&p);

    char msg[512];
    CHECK(load_str("", msg, sizeof msg) == NNPERF_E_PARSE);
    CHECK(load_str("{\"a\": 1}", msg, sizeof msg) == NNPERF_E_PARSE);
    CHECK(strstr(msg, "bad.json") != NULL);
    CHECK(load_str("[]", msg, sizeof msg) == NNPERF_E_INVALID);
    CHECK(strstr(msg, "model_run") != NULL);
    CHECK(load_str("[1]", msg, sizeof msg) == NNPERF_E_INVALID);
    CHECK(strstr(msg, "event 0") != NULL);
    CHECK(load_str("[{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":0}]", msg, sizeof msg) ==
          NNPERF_E_INVALID);
    CHECK(strstr(msg, "'dur'") != NULL);
    CHECK(load_str("[{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":0,\"dur\":-5}]", msg, sizeof msg) ==
          NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":0,\"dur\":\"10\"}]", msg,
                   sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":0,\"dur\":1e300}]", msg,
                   sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":\"Node\",\"name\":\"x_kernel_time\",\"ts\":0,\"dur\":5,\"args\":[]}]", msg,
                   sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str(
              "[{\"cat\":\"Node\",\"name\":\"x_kernel_time\",\"ts\":0,\"dur\":5,\"args\":{\"op_name\":7}}]",
              msg, sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":5,\"name\":\"x\"}]", msg, sizeof msg) == NNPERF_E_INVALID);
    CHECK(load_str("[{\"cat\":\"Node\",\"name\":\"x\\u0000y_kernel_time\",\"ts\":0,\"dur\":5}]", msg,
                   sizeof msg) != NNPERF_OK);
    CHECK(load_str("[{\"name\":\"model_run\",\"ts\":0,\"dur\":1,\"name\":\"x\"}]", msg, sizeof msg) ==
          NNPERF_E_PARSE); /* duplicate key */

    /* the object form {"traceEvents": [...]}, events outside any run, a node without args */
    const char *ok = "{\"traceEvents\": [{\"cat\":\"Session\",\"name\":\"model_run\",\"ts\":100,\"dur\":50},"
                     "{\"cat\":\"Node\",\"name\":\"a_kernel_time\",\"ts\":110,\"dur\":20},"
                     "{\"cat\":\"Node\",\"name\":\"a_kernel_time\",\"ts\":500,\"dur\":30},"
                     "{\"cat\":\"Node\",\"name\":\"a_fence_before\",\"ts\":120,\"dur\":1},"
                     "{\"cat\":\"Node\",\"name\":\"_kernel_time\",\"ts\":120,\"dur\":1}]}";
    struct diag d3 = {NNPERF_OK, {0}};
    CHECK(perf_profile_load_buffer(ok, strlen(ok), "obj.json", &p, &d3) == NNPERF_OK);
    CHECK_EQ_U(p.runs, 1);
    CHECK_EQ_U(p.n_nodes, 1);
    CHECK(p.n_nodes == 1 && NEAR(p.nodes[0].total_us, 50) && p.nodes[0].count == 2);
    CHECK(p.n_nodes == 1 && !strcmp(p.nodes[0].op, ""));
    CHECK(NEAR(p.kernel_median_us, 20)); /* the event at ts 500 is outside the run */
    CHECK(NEAR(p.run_median_us, 50));
    perf_profile_free(&p);
}

int main(void)
{
    test_real();
    test_malformed();
    return tt_done();
}
