// The host side of the reference: Replay.swift's output to stdout.
#include <stdio.h>
#include "replay.h"

void ocm_replay(void);

void ocm_write(const uint8_t *bytes, size_t count) { fwrite(bytes, 1, count, stdout); }

int main(void) {
    ocm_replay();
    return fflush(stdout) == 0 ? 0 : 1;
}
