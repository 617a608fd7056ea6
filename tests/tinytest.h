/* tinytest.h - a tiny in-tree test runner: CHECK records a failure and goes on; the closing line is
 * "N passed, N failed" so CI can read it. */
#ifndef TINYTEST_H
#define TINYTEST_H
#include <stdio.h>
#include <string.h>

static int tt_pass, tt_fail;
#define CHECK(cond)                                                                                          \
    do {                                                                                                     \
        if (cond)                                                                                            \
            tt_pass++;                                                                                       \
        else {                                                                                               \
            tt_fail++;                                                                                       \
            fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond);                         \
        }                                                                                                    \
    } while (0)
#define CHECK_EQ_U(a, b)                                                                                     \
    do {                                                                                                     \
        unsigned long long a_ = (unsigned long long)(a), b_ = (unsigned long long)(b);                       \
        if (a_ == b_)                                                                                        \
            tt_pass++;                                                                                       \
        else {                                                                                               \
            tt_fail++;                                                                                       \
            fprintf(stderr, "%s:%d: %s == %llu, expected %llu\n", __FILE__, __LINE__, #a, a_, b_);           \
        }                                                                                                    \
    } while (0)
#define CHECK_STR(a, b)                                                                                      \
    do {                                                                                                     \
        const char *a_ = (a), *b_ = (b);                                                                     \
        if (a_ && b_ && !strcmp(a_, b_))                                                                     \
            tt_pass++;                                                                                       \
        else {                                                                                               \
            tt_fail++;                                                                                       \
            fprintf(stderr, "%s:%d: %s is \"%s\", expected \"%s\"\n", __FILE__, __LINE__, #a,                \
                    a_ ? a_ : "(null)", b_ ? b_ : "(null)");                                                 \
        }                                                                                                    \
    } while (0)
static inline int tt_done(void)
{
    printf("%d passed, %d failed\n", tt_pass, tt_fail);
    return tt_fail ? 1 : 0;
}
#endif
