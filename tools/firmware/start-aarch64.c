// The AArch64 image's C side (start-aarch64.S runs first): .bss cleared, the stack painted and
// measured as on Cortex-M (startup.c), output and exit through semihosting (`hlt #0xf000`;
// `qemu-system-aarch64 -semihosting-config enable=on,target=native`), and the instruction
// counts per stage: the PMU's event counter 0 counts INST_RETIRED (event 0x08), which QEMU
// implements with `-icount` (exact, the instructions executed). The replay
// (Replay.swift, -D COUNT_INSTRUCTIONS) brackets each stage's per-sample call with
// ocm_count_begin / ocm_count_end; the totals are printed as "#" lines, which the comparison
// with the host's output leaves out.
#include <stdint.h>
#include <string.h>
#include "replay.h"

void ocm_replay(void);

extern uint64_t __bss_start[], __bss_end[], __stack_bottom[], __stack_top[];

enum { SYS_WRITE0 = 0x04, SYS_EXIT = 0x18 };
enum { ADP_Stopped_ApplicationExit = 0x20026, ADP_Stopped_RunTimeErrorUnknown = 0x20023 };
#define STACK_PATTERN 0xA5A5A5A5A5A5A5A5u

// The level-1 table of start-aarch64.S's identity map (TCR_EL1.T0SZ = 32: four 1 GB blocks):
// 0–1 GB Device-nGnRnE, never executed (virt's flash, GIC, UART...), 1–2 GB Normal write-back,
// inner shareable (virt's RAM, where QEMU loads this image). Access flag set, EL1 read-write.
// A table is aligned to its size, at least 64 bytes (4 entries: 32).
#define BLOCK (1u | 1u << 10)
#define DEVICE (0u << 2 | 1ull << 53 | 1ull << 54)
#define NORMAL (1u << 2 | 3u << 8)
__attribute__((aligned(64))) const uint64_t ocm_page_table[4] = {
    0x00000000 | BLOCK | DEVICE,
    0x40000000 | BLOCK | NORMAL,
};

static uint64_t semihost(uint64_t operation, uint64_t parameter) {
    register uint64_t x0 __asm__("x0") = operation;
    register uint64_t x1 __asm__("x1") = parameter;
    __asm__ volatile("hlt #0xf000" : "+r"(x0) : "r"(x1) : "memory");
    return x0;
}

// AArch64's SYS_EXIT takes a block {reason, subcode}; QEMU exits with the subcode for an
// application exit, and with 1 for any other reason.
__attribute__((noreturn)) static void semihost_exit(int ok) {
    uint64_t block[2] = {ok ? ADP_Stopped_ApplicationExit : ADP_Stopped_RunTimeErrorUnknown, 0};
    semihost(SYS_EXIT, (uint64_t)block);
    for (;;) {}
}

// --- Instruction counts ----------------------------------------------------------------------

static uint32_t instructions_raw(void) {
    uint64_t value;
    __asm__ volatile("mrs %0, pmevcntr0_el0" : "=r"(value));
    return (uint32_t)value;
}

// Instructions spent writing output (ocm_write: the semihosting calls), left out of the
// stages' counts: a step's line is written from inside the step detector's callback.
static uint64_t writing;
// Instructions retired, less those writing output (32 bits: differences are taken modulo 2³²,
// and no bracket is anywhere near 4 × 10⁹ instructions).
static uint32_t instructions(void) { return instructions_raw() - (uint32_t)writing; }

static struct { uint64_t instructions, samples; } stages[3];
static uint32_t begun;
// What a bracket around nothing counts (the calls and the counter reads themselves), measured
// before the replay and taken off every bracket.
static uint32_t overhead;

__attribute__((noinline)) void ocm_count_begin(void) { begun = instructions(); }

__attribute__((noinline)) void ocm_count_end(int stage) {
    uint32_t counted = instructions() - begun;
    stages[stage].instructions += counted - overhead;
    stages[stage].samples += 1;
}

// --- Output --------------------------------------------------------------------------------

void ocm_write(const uint8_t *bytes, size_t count) {
    uint32_t start = instructions_raw();
    char chunk[65];
    while (count > 0) {
        size_t n = count < 64 ? count : 64;
        memcpy(chunk, bytes, n);
        chunk[n] = 0;
        semihost(SYS_WRITE0, (uint64_t)chunk);
        bytes += n;
        count -= n;
    }
    writing += (uint32_t)(instructions_raw() - start);
}

static void write_text(const char *text) { ocm_write((const uint8_t *)text, strlen(text)); }

static void write_number(uint64_t value) {
    char digits[20];
    int used = 0;
    do { digits[used++] = (char)('0' + value % 10); value /= 10; } while (value != 0);
    while (used > 0) ocm_write((const uint8_t *)&digits[--used], 1);
}

static void write_hex(uint64_t value) {
    write_text("0x");
    for (int shift = 60; shift >= 0; shift -= 4) ocm_write((const uint8_t *)&"0123456789abcdef"[(value >> shift) & 15], 1);
}

// --- Faults and the Swift runtime's references -----------------------------------------------

// Any exception (start-aarch64.S's vectors): its syndrome, where, and the faulting address.
__attribute__((noreturn)) void ocm_fault(uint64_t esr, uint64_t elr, uint64_t far) {
    write_text("FAULT esr ");
    write_hex(esr);
    write_text(" elr ");
    write_hex(elr);
    write_text(" far ");
    write_hex(far);
    write_text("\n");
    semihost_exit(0);
}

__attribute__((noreturn)) void ocm_wrong_level(uint64_t level) {
    write_text("FAULT entered at EL");
    write_number(level);
    write_text(", not EL1: run on QEMU virt without virtualization=on or secure=on\n");
    semihost_exit(0);
}

// Embedded Swift's runtime refers to these; the replay must never reach them (it allocates
// nothing and hashes nothing): with --gc-sections they are not even in the image unless some
// code that calls them is (the test checks the symbol table).
int posix_memalign(void **pointer, size_t alignment, size_t size) {
    (void)pointer; (void)alignment; (void)size;
    write_text("FAULT heap allocation\n");
    semihost_exit(0);
}
void free(void *pointer) { (void)pointer; }
void arc4random_buf(void *buffer, size_t count) { memset(buffer, 0x5a, count); }

// Swift's stack protector.
uintptr_t __stack_chk_guard = 0x5eed1e555eed1e55u;
__attribute__((noreturn)) void __stack_chk_fail(void) {
    write_text("FAULT stack smashed\n");
    semihost_exit(0);
}

// The counter on, the brackets' own cost measured and the count checked (before the replay).
static void count_start(void) {
    __asm__ volatile("msr pmevtyper0_el0, %0" :: "r"(0x08ull));  // INST_RETIRED, at EL1 and EL0
    __asm__ volatile("msr pmcntenset_el0, %0" :: "r"(1ull));      // event counter 0 on
    __asm__ volatile("msr pmcr_el0, %0\n isb" :: "r"(1ull));      // PMCR_EL0.E: counters on
    // The bracket's own cost: the least of a few (the first runs with cold state).
    uint32_t least = UINT32_MAX;
    for (int i = 0; i < 4; i++) {
        ocm_count_begin();
        ocm_count_end(0);
        if (stages[0].instructions < least) least = (uint32_t)stages[0].instructions;
        stages[0].instructions = 0;
        stages[0].samples = 0;
    }
    overhead = least;
    // The counter must count exactly: a bracket around 2001 known instructions (a mov, then
    // 1000 × subs and b.ne) must count 2001. Without -icount QEMU's INST_RETIRED counts nothing.
    ocm_count_begin();
    __asm__ volatile("mov x9, #1000\n 1: subs x9, x9, #1\n b.ne 1b" ::: "x9", "cc");
    ocm_count_end(0);
    uint64_t counted = stages[0].instructions;
    stages[0].instructions = 0;
    stages[0].samples = 0;
    if (counted != 2001) {
        write_text("FAULT the instruction counter counted ");
        write_number(counted);
        write_text(" of 2001 instructions: run QEMU with -icount shift=0\n");
        semihost_exit(0);
    }
}

// --- Start -----------------------------------------------------------------------------------

__attribute__((noinline)) static void run(void) { ocm_replay(); }

static const char *const stage_names[3] = {"steps", "fusion", "activity"};

__attribute__((noreturn)) void ocm_start(void) {
    for (uint64_t *word = __bss_start; word < __bss_end;) *word++ = 0;
    count_start();
    // Paint the stack below what this function uses, replay, then find the deepest word
    // written: the replay's peak stack (plus this frame's few words).
    uint64_t *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (uint64_t *word = __stack_bottom; word < sp - 16; word++) *word = STACK_PATTERN;
    run();
    uint64_t *deepest = __stack_bottom;
    while (deepest < __stack_top && *deepest == STACK_PATTERN) deepest++;
    write_text("# stack peak ");
    write_number((uint64_t)((uintptr_t)__stack_top - (uintptr_t)deepest));
    write_text(" of ");
    write_number((uint64_t)((uintptr_t)__stack_top - (uintptr_t)__stack_bottom));
    write_text(" bytes\n");
    // "# instructions STAGE TOTAL SAMPLES OVERHEAD" for each stage the image ran.
    for (int stage = 0; stage < 3; stage++) {
        if (stages[stage].samples == 0) continue;
        write_text("# instructions ");
        write_text(stage_names[stage]);
        write_text(" ");
        write_number(stages[stage].instructions);
        write_text(" ");
        write_number(stages[stage].samples);
        write_text(" ");
        write_number(overhead);
        write_text("\n");
    }
    semihost_exit(deepest > __stack_bottom);  // a stack that reached its bottom overflowed
}
