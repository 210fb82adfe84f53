/* The C tests' clock helpers: sleeping, the wall clock in ns since 1970 (the API's _unix_ns
 * times), and |x| without libm (the build links only the library). `static inline`, so a
 * test that uses only some of them builds with -Wall -Wextra -Werror. Needs
 * _POSIX_C_SOURCE 200809L before the first include (nanosleep, clock_gettime). */
#ifndef OCM_TEST_CLOCK_H
#define OCM_TEST_CLOCK_H

#include <stdint.h>
#include <time.h>

static inline void sleep_ms(long milliseconds) {
    struct timespec remaining = {milliseconds / 1000, (milliseconds % 1000) * 1000000L};
    while (nanosleep(&remaining, &remaining) != 0) {}
}

static inline int64_t unix_now_ns(void) {
    struct timespec now;
    clock_gettime(CLOCK_REALTIME, &now);
    return (int64_t)now.tv_sec * 1000000000 + now.tv_nsec;
}

static inline double absolute(double x) { return x < 0 ? -x : x; }

#endif
