/*
 * ca_test.h — the assertion helpers every tests/unit/test_*.c uses.
 *
 * A failed CHECK prints file:line and the expression, counts the failure and
 * lets the test go on, so one run shows every broken expectation. End main()
 * with CA_TEST_MAIN(): it prints "<file>: N checks, M failed" and returns 0
 * only when nothing failed (ctest reads the exit status).
 *
 *     #include "ca_test.h"
 *     int main(void) { CHECK(1 + 1 == 2); CHECK_STR_EQ(f(), "x"); CA_TEST_MAIN(); }
 */
#ifndef CA_TEST_H
#define CA_TEST_H

#include <stdio.h>
#include <string.h>

static int ca_test_checks __attribute__((unused));
static int ca_test_failures __attribute__((unused));

static inline int ca_test_fail(const char *file, int line, const char *what)
{
    ca_test_failures++;
    fprintf(stderr, "%s:%d: CHECK failed: %s\n", file, line, what);
    return 0;
}

#define CHECK(cond)                                                              \
    do {                                                                         \
        ca_test_checks++;                                                        \
        if (!(cond)) ca_test_fail(__FILE__, __LINE__, #cond);                    \
    } while (0)

/* Integers (any type that fits long long); prints both values. */
#define CHECK_EQ(a, b)                                                           \
    do {                                                                         \
        long long ca_a_ = (long long)(a), ca_b_ = (long long)(b);                \
        ca_test_checks++;                                                        \
        if (ca_a_ != ca_b_) {                                                    \
            ca_test_fail(__FILE__, __LINE__, #a " == " #b);                      \
            fprintf(stderr, "    left:  %lld\n    right: %lld\n", ca_a_, ca_b_); \
        }                                                                        \
    } while (0)

/* Strings; NULL equals only NULL. Prints both values. */
#define CHECK_STR_EQ(a, b)                                                       \
    do {                                                                         \
        const char *ca_a_ = (a), *ca_b_ = (b);                                   \
        ca_test_checks++;                                                        \
        if (!(ca_a_ == ca_b_ || (ca_a_ && ca_b_ && strcmp(ca_a_, ca_b_) == 0))) { \
            ca_test_fail(__FILE__, __LINE__, #a " == " #b);                      \
            fprintf(stderr, "    left:  %s\n    right: %s\n",                    \
                    ca_a_ ? ca_a_ : "(null)", ca_b_ ? ca_b_ : "(null)");         \
        }                                                                        \
    } while (0)

/* n bytes of memory. */
#define CHECK_MEM_EQ(a, b, n)                                                    \
    do {                                                                         \
        ca_test_checks++;                                                        \
        if (memcmp((a), (b), (n)) != 0) ca_test_fail(__FILE__, __LINE__, "memcmp(" #a ", " #b ", " #n ") == 0"); \
    } while (0)

#define CA_TEST_MAIN()                                                           \
    do {                                                                         \
        fprintf(stderr, "%s: %d checks, %d failed\n", __FILE__,                  \
                ca_test_checks, ca_test_failures);                               \
        return ca_test_failures == 0 && ca_test_checks > 0 ? 0 : 1;              \
    } while (0)

#endif
