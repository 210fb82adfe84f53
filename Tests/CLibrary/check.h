/* The C tests' one assertion: CHECK(condition, printf-style message) counts a pass or prints
 * the failure with its file and line and counts it; the test prints the totals at the end. */
#ifndef OCM_TEST_CHECK_H
#define OCM_TEST_CHECK_H

#include <stdio.h>

static int passed, failed;

#define CHECK(condition, ...)                                                   \
    do {                                                                        \
        if (condition) {                                                        \
            passed++;                                                           \
        } else {                                                                \
            failed++;                                                           \
            fprintf(stderr, "FAIL %s:%d: %s: ", __FILE__, __LINE__, #condition); \
            fprintf(stderr, __VA_ARGS__);                                       \
            fputc('\n', stderr);                                                \
        }                                                                       \
    } while (0)

#endif
