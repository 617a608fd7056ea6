/* test_core.c - arena, checked arithmetic, string buffer, diagnostics. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/core.h"
#include "tinytest.h"

/* sb_json_str and sb_json_key (core_json_copy) against the escaping written out byte by byte, for every length to 50
 * with the byte to escape at every position (the fast path checks a word of 16 or 8 bytes at a time, the last word
 * overlapping; 8 to 15 and 4 to 7 bytes as two overlapping halves), among bytes that need none */
static void test_json_escape(void)
{
    static const unsigned char special[] = {'"', '\\', '\n', '\r', '\t', 0x01, 0x1f};
    static const unsigned char plain[] = {'a', ' ', '!', '#', '[', ']', '~', 0x7f, 0x80, 0xc3, 0xff};
    int bad = 0;
    for (int len = 0; len <= 50; len++)
        for (int at = -1; at < len; at++)
            for (size_t k = 0; k < sizeof special; k++) {
                char in[64], want[400];
                size_t w = 0;
                want[w++] = '"';
                for (int i = 0; i < len; i++) {
                    unsigned char c = i == at ? special[k] : plain[(size_t)(i + len) % sizeof plain];
                    in[i] = (char)c;
                    if (c == '"' || c == '\\')
                        want[w++] = '\\', want[w++] = (char)c;
                    else if (c == '\n' || c == '\r' || c == '\t')
                        want[w++] = '\\', want[w++] = c == '\n' ? 'n' : c == '\r' ? 'r' : 't';
                    else if (c < 0x20)
                        w += (size_t)snprintf(want + w, sizeof want - w, "\\u%04x", c);
                    else
                        want[w++] = (char)c;
                }
                in[len] = 0;
                want[w++] = '"';
                want[w] = 0;
                /* after 1 byte (the room is there), after 250 (the buffer grows), as a key (':' after it), under a
                 * cap that it fills exactly, one byte short of it, and as a key with no room left for ':' (past the
                 * cap: overflow, and what was appended, if anything, begins the text) */
                for (int way = 0; way < 6; way++) {
                    size_t before = way == 1 ? 250 : 1, wl = strlen(want);
                    struct strbuf sb;
                    sb_init(&sb, way == 3 || way == 5 ? 1 + wl : way == 4 ? wl : 0);
                    for (size_t i = 0; i < before; i++) sb_putc(&sb, 'x');
                    if (way == 2 || way == 5)
                        sb_json_key(&sb, in);
                    else
                        sb_json_str(&sb, in);
                    int over = way >= 4;
                    const char *got = sb.p ? sb.p + before : "";
                    if (sb.overflow != over) bad++;
                    size_t gl = strlen(got);
                    if (over ? gl > wl - (way == 4) || strncmp(got, want, gl) : strncmp(got, want, wl)) bad++;
                    if (way == 2 && strcmp(got + wl, ":")) bad++;
                    if (way != 2 && !over && got[wl]) bad++;
                    sb_free(&sb);
                }
                if (at < 0) break; /* no byte to escape: once */
            }
    CHECK(bad == 0);
}

/* core_digits as "%llu" writes them: every number of digits (each power of ten and its neighbours), powers of two
 * and their neighbours (where the estimate of the number of digits steps), and spread values */
static void test_digits(void)
{
    int bad = 0;
    unsigned long long v[3 * 20 + 3 * 64 + 2000];
    size_t nv = 0;
    for (unsigned long long p = 1, k = 0; k < 20; k++, p *= 10) v[nv++] = p - 1, v[nv++] = p, v[nv++] = p + 1;
    for (int k = 0; k < 64; k++) v[nv++] = (1ull << k) - 1, v[nv++] = 1ull << k, v[nv++] = (1ull << k) + 1;
    unsigned long long r = 0x9e3779b97f4a7c15ull;
    for (int k = 0; k < 2000; k++) {
        r ^= r << 13, r ^= r >> 7, r ^= r << 17;
        v[nv++] = r >> (r % 64);
    }
    for (size_t k = 0; k < nv; k++) {
        char got[24], want[24];
        size_t n = core_digits(got, v[k]);
        snprintf(want, sizeof want, "%llu", v[k]);
        if (n != strlen(want) || memcmp(got, want, n)) bad++;
    }
    CHECK(bad == 0);
}

/* sb_reserve: room for n bytes, the NUL and SB_SLACK more (written over here: ASan and valgrind check the
 * allocation), across the buffer's growth and its prefaulted part (ready); under a cap, exactly the bytes the cap
 * allows; a length that cannot be refused quietly (near SIZE_MAX) sets overflow */
static void test_sb_reserve(void)
{
    int bad = 0;
    struct strbuf sb;
    sb_init(&sb, 0);
    size_t want = 0;
    for (size_t n = 0; n < 300000; n = n * 2 + 1) {
        for (int k = 0; k < 3; k++) {
            char *o = sb_reserve(&sb, n);
            if (!o) {
                bad++;
                break;
            }
            memset(o, 'a' + k, n + 1 + SB_SLACK);
            sb_wrote(&sb, n);
            want += n;
            if (sb.len != want || sb.p[sb.len] || sb.len > sb.ready || sb.ready > sb.alloc) bad++;
            if (n && (sb.p[sb.len - n] != 'a' + k || sb.p[sb.len - 1] != 'a' + k)) bad++;
        }
    }
    if (sb_reserve(&sb, SIZE_MAX - 8) || !sb.overflow) bad++;
    sb_free(&sb);
    sb_init(&sb, 100);
    sb_putc(&sb, 'x');
    if (!sb_reserve(&sb, 99) || sb.overflow) bad++;
    if (sb_reserve(&sb, 100) || !sb.overflow) bad++;
    sb_free(&sb);
    CHECK(bad == 0);
}

/* sb_uint and sb_int as "%llu" and "%lld" write them: after 1 byte, after 250 (the buffer grows), under a cap the
 * digits fill exactly and one byte short of it (nothing written) */
static void test_sb_digits(void)
{
    static const unsigned long long v[] = {
        0, 7, 10, 99, 12345678, 99999999, 100000000, 123456789012ull, 18446744073709551615ull};
    int bad = 0;
    for (size_t k = 0; k < sizeof v / sizeof v[0]; k++)
        for (int neg = 0; neg < 2; neg++) {
            char want[32];
            long long sv = neg ? -(long long)(v[k] >> 1) - 1 : (long long)(v[k] >> 1);
            if (neg)
                snprintf(want, sizeof want, "%lld", sv);
            else
                snprintf(want, sizeof want, "%llu", v[k]);
            size_t wl = strlen(want);
            for (int way = 0; way < 4; way++) {
                size_t before = way == 1 ? 250 : 1;
                struct strbuf sb;
                sb_init(&sb, way == 2 ? 1 + wl : way == 3 ? wl : 0);
                for (size_t i = 0; i < before; i++) sb_putc(&sb, 'x');
                if (neg)
                    sb_int(&sb, sv);
                else
                    sb_uint(&sb, v[k]);
                const char *got = sb.p + before;
                if (way == 3 ? sb.len > 1 + (neg ? 1 : 0) || !sb.overflow : strcmp(got, want) || sb.overflow)
                    bad++;
                sb_free(&sb);
            }
        }
    CHECK(bad == 0);
}

/* ar_alloc's memory is zero: a small block is cleared as it is handed out, and the heap memory a freed arena left
 * comes back dirty from malloc */
static void test_arena_zero(void)
{
    static const size_t sizes[] = {8, 100, 4000, 4096, 5000, 30000, 70000, 200000, 3};
    int bad = 0;
    for (int round = 0; round < 3; round++) {
        struct arena a;
        ar_init(&a, 0);
        for (int k = 0; k < 40; k++) {
            size_t n = sizes[(size_t)k % (sizeof sizes / sizeof sizes[0])];
            unsigned char *p = ar_alloc(&a, n);
            if (!p) {
                bad++;
                continue;
            }
            for (size_t i = 0; i < n; i++) bad += p[i] != 0;
            memset(p, 0xa5, n);
        }
        ar_free(&a);
        void *dirty = malloc(60000); /* heap memory left dirty for the next round's blocks */
        if (dirty) memset(dirty, 0x5a, 60000);
        free(dirty);
    }
    CHECK(bad == 0);
}

/* After ar_expect the memory comes from one block of huge pages (where the kernel has them): still zero, aligned to 8
 * bytes and writable past the estimate, on through the blocks after it; a capped arena keeps its cap. */
static void test_arena_expect(void)
{
    static const size_t sizes[] = {24, 168, 4096, 1000, 70000, 8, 200000, 40};
    static const size_t expect[] = {3u << 20, 1u << 20, 100, (5u << 20) / 2};
    int bad = 0;
    for (int round = 0; round < 4; round++) {
        struct arena a;
        ar_init(&a, 0);
        if (round == 3 && !ar_alloc(&a, 100)) bad++; /* a head block with a little room already */
        ar_expect(&a, expect[round]);
        size_t total = 0;
        for (int k = 0; total < ((size_t)6 << 20); k++) {
            size_t n = sizes[(size_t)k % (sizeof sizes / sizeof sizes[0])];
            unsigned char *p = ar_alloc(&a, n);
            if (!p || (uintptr_t)p % 8) {
                bad++;
                break;
            }
            for (size_t i = 0; i < n; i++) bad += p[i] != 0;
            memset(p, 0xa5, n);
            total += n;
        }
        CHECK(a.used_total >= total);
        ar_free(&a);
    }
    struct arena c;
    ar_init(&c, 1000);
    ar_expect(&c, 4u << 20);
    CHECK(ar_alloc(&c, 100) != NULL);
    CHECK(ar_alloc(&c, 2000) == NULL); /* over the cap */
    ar_free(&c);
    CHECK(bad == 0);
}

int main(void)
{
    test_json_escape();
    test_digits();
    test_sb_reserve();
    test_sb_digits();
    test_arena_zero();
    test_arena_expect();
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
    sb_init(&sb, 3); /* sb_putc: the cap refuses the fourth byte and what follows */
    for (const char *c = "abcd"; *c; c++) sb_putc(&sb, *c);
    CHECK(sb.overflow);
    CHECK_STR(sb.p, "abc");
    sb_free(&sb);
    sb_init(&sb, 0);
    for (int i = 0; i < 1000; i++) sb_putc(&sb, (char)('a' + i % 26));
    CHECK(!sb.overflow && sb.len == 1000 && sb.p[999] == 'a' + 999 % 26 && sb.p[1000] == 0);
    sb_free(&sb);
    struct diag d = {0};
    diag_set(&d, NNPERF_E_INVALID, "first %d", 1);
    diag_set(&d, NNPERF_E_PARSE, "second");
    CHECK(d.status == NNPERF_E_INVALID);
    CHECK_STR(d.msg, "first 1");
    return tt_done();
}
