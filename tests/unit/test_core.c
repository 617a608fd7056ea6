/* test_core.c - arena, checked arithmetic, string buffer, diagnostics. */
#include <stdint.h>

#include "core/core.h"
#include "tinytest.h"

int main(void)
{
    struct arena a;
    ar_init(&a, 1000);
    CHECK(ar_alloc(&a, 100) != NULL);
    CHECK(ar_alloc(&a, 2000) == NULL); /* over the cap */
    ar_free(&a);
    int64_t r = 0;
    CHECK(!ck_mul_i64(INT64_MAX, 2, &r));
    CHECK(ck_mul_i64(3, 4, &r) && r == 12);
    CHECK(!ck_add_i64(INT64_MAX, 1, &r));
    CHECK_EQ_U(ck_sat_mul(UINT64_MAX, 2), UINT64_MAX);
    struct strbuf sb;
    sb_init(&sb, 8);
    sb_puts(&sb, "hello");
    CHECK(!sb.overflow);
    sb_puts(&sb, "world");
    CHECK(sb.overflow);
    CHECK_STR(sb.p, "hello");
    sb_free(&sb);
    sb_init(&sb, 0);
    sb_json_str(&sb, "a\"b\n<");
    CHECK_STR(sb.p, "\"a\\\"b\\n<\"");
    sb_free(&sb);
    struct diag d = {0};
    diag_set(&d, NNPERF_E_INVALID, "first %d", 1);
    diag_set(&d, NNPERF_E_PARSE, "second");
    CHECK(d.status == NNPERF_E_INVALID);
    CHECK_STR(d.msg, "first 1");
    return tt_done();
}
