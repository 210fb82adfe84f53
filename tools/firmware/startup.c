// Bare-metal start for the Cortex-M images (armv6m on the micro:bit's Cortex-M0, armv7em on
// MPS2 AN386's Cortex-M4): the vector table, .data/.bss set-up, the stack painted with a
// pattern before the replay and measured after it, output and exit through semihosting (the
// debugger's channel: `qemu-system-arm -semihosting-config enable=on,target=native` prints it
// on its stdout and exits with the image's status).
#include <stdint.h>
#include <string.h>
#include "replay.h"

void ocm_replay(void);

extern uint32_t __data_load[], __data_start[], __data_end[], __bss_start[], __bss_end[];
extern uint32_t __stack_bottom[], __stack_top[];

enum { SYS_WRITE0 = 0x04, SYS_EXIT = 0x18 };
enum { ADP_Stopped_ApplicationExit = 0x20026, ADP_Stopped_RunTimeErrorUnknown = 0x20023 };
#define STACK_PATTERN 0xA5A5A5A5u

static uintptr_t semihost(uintptr_t operation, uintptr_t parameter) {
    register uintptr_t r0 __asm__("r0") = operation;
    register uintptr_t r1 __asm__("r1") = parameter;
    __asm__ volatile("bkpt 0xAB" : "+r"(r0) : "r"(r1) : "memory");
    return r0;
}

static void semihost_exit(int ok) {
    semihost(SYS_EXIT, ok ? ADP_Stopped_ApplicationExit : ADP_Stopped_RunTimeErrorUnknown);
    for (;;) {}
}

void ocm_write(const uint8_t *bytes, size_t count) {
    char chunk[65];
    while (count > 0) {
        size_t n = count < 64 ? count : 64;
        memcpy(chunk, bytes, n);
        chunk[n] = 0;
        semihost(SYS_WRITE0, (uintptr_t)chunk);
        bytes += n;
        count -= n;
    }
}

static void write_text(const char *text) { ocm_write((const uint8_t *)text, strlen(text)); }

static void write_number(uint32_t value) {
    char digits[11];
    int used = 0;
    do { digits[used++] = (char)('0' + value % 10); value /= 10; } while (value != 0);
    while (used > 0) ocm_write((const uint8_t *)&digits[--used], 1);
}

// A fault (an instruction the core does not have, a bad access, Swift's trap): report where
// (the PC and LR the exception stacked) and fail at once.
void fault_report(const uint32_t *frame) {
    write_text("FAULT pc 0x");
    for (int shift = 28; shift >= 0; shift -= 4) ocm_write((const uint8_t *)&"0123456789abcdef"[(frame[6] >> shift) & 15], 1);
    write_text(" lr 0x");
    for (int shift = 28; shift >= 0; shift -= 4) ocm_write((const uint8_t *)&"0123456789abcdef"[(frame[5] >> shift) & 15], 1);
    write_text("\n");
    semihost_exit(0);
}

__attribute__((naked)) void fault_handler(void) {
    __asm__ volatile("mov r0, sp\n ldr r1, =fault_report\n bx r1\n .ltorg");
}

// Embedded Swift's runtime refers to these; the replay must never reach them (it allocates
// nothing and hashes nothing): with --gc-sections they are not even in the image unless some
// code that calls them is (the test checks the symbol table).
int posix_memalign(void **pointer, size_t alignment, size_t size) {
    (void)pointer; (void)alignment; (void)size;
    write_text("FAULT heap allocation\n");
    semihost_exit(0);
    return 12;
}
void free(void *pointer) { (void)pointer; }
void arc4random_buf(void *buffer, size_t count) { memset(buffer, 0x5a, count); }

// Swift's stack protector.
uintptr_t __stack_chk_guard = 0x5eed1e55;
void __stack_chk_fail(void) {
    write_text("FAULT stack smashed\n");
    semihost_exit(0);
}

__attribute__((noinline)) static void run(void) { ocm_replay(); }

#if defined(COUNT_INSTRUCTIONS)
// The replay's brackets around each stage's call (Replay.swift, -D COUNT_INSTRUCTIONS): empty,
// for count-cortex-m.sh, which counts the instructions QEMU traces between them (QEMU's
// Cortex-M cores have no instruction counter to read). Not in the images the tests size.
__attribute__((noinline)) void ocm_count_begin(void) { __asm__ volatile(""); }
__attribute__((noinline)) void ocm_count_end(int stage) { __asm__ volatile("" :: "r"(stage)); }
#endif

void reset_handler(void) {
    for (uint32_t *from = __data_load, *to = __data_start; to < __data_end;) *to++ = *from++;
    for (uint32_t *to = __bss_start; to < __bss_end;) *to++ = 0;
    // Paint the stack below what this function uses, replay, then find the deepest word
    // written: the replay's peak stack (plus this frame's few words).
    uint32_t *sp;
    __asm__ volatile("mov %0, sp" : "=r"(sp));
    for (uint32_t *word = __stack_bottom; word < sp - 8; word++) *word = STACK_PATTERN;
#if defined(COUNT_INSTRUCTIONS)
    // An empty bracket first: its count (passing the stage, the call) is every bracket's own.
    ocm_count_begin();
    ocm_count_end(0);
#endif
    run();
    uint32_t *deepest = __stack_bottom;
    while (deepest < __stack_top && *deepest == STACK_PATTERN) deepest++;
    write_text("# stack peak ");
    write_number((uint32_t)((uintptr_t)__stack_top - (uintptr_t)deepest));
    write_text(" of ");
    write_number((uint32_t)((uintptr_t)__stack_top - (uintptr_t)__stack_bottom));
    write_text(" bytes\n");
    semihost_exit(deepest > __stack_bottom);  // a stack that reached its bottom overflowed
}

// Cortex-M: the initial stack pointer, then the exception handlers (reset, NMI, hard fault,
// and on v7-M memory management, bus and usage faults); the rest point at the fault handler.
__attribute__((section(".vectors"), used)) static void (*const vectors[16])(void) = {
    (void (*)(void))__stack_top, reset_handler,
    fault_handler, fault_handler, fault_handler, fault_handler, fault_handler, 0, 0, 0, 0,
    fault_handler, fault_handler, 0, fault_handler, fault_handler,
};

#if defined(__ARM_ARCH_6M__)
// ARMv6-M has no exclusive loads and stores, so LLVM calls these for the atomics Swift's lazy
// globals (swift_once) use. One core, no interrupt handlers touching Swift state: an access
// with interrupts masked is atomic.
static uint32_t mask_interrupts(void) {
    uint32_t primask;
    __asm__ volatile("mrs %0, primask\n cpsid i" : "=r"(primask) :: "memory");
    return primask;
}
static void restore_interrupts(uint32_t primask) { __asm__ volatile("msr primask, %0" :: "r"(primask) : "memory"); }

uint32_t __atomic_load_4(const volatile void *address, int order) {
    (void)order;
    uint32_t primask = mask_interrupts();
    uint32_t value = *(const volatile uint32_t *)address;
    restore_interrupts(primask);
    return value;
}

void __atomic_store_4(volatile void *address, uint32_t value, int order) {
    (void)order;
    uint32_t primask = mask_interrupts();
    *(volatile uint32_t *)address = value;
    restore_interrupts(primask);
}

_Bool __atomic_compare_exchange_4(volatile void *address, void *expected, uint32_t desired,
                                  _Bool weak, int success, int failure) {
    (void)weak; (void)success; (void)failure;
    uint32_t primask = mask_interrupts();
    volatile uint32_t *word = address;
    _Bool exchanged = *word == *(uint32_t *)expected;
    if (exchanged) *word = desired; else *(uint32_t *)expected = *word;
    restore_interrupts(primask);
    return exchanged;
}

uint32_t __atomic_fetch_add_4(volatile void *address, uint32_t value, int order) {
    (void)order;
    uint32_t primask = mask_interrupts();
    uint32_t old = *(volatile uint32_t *)address;
    *(volatile uint32_t *)address = old + value;
    restore_interrupts(primask);
    return old;
}

uint32_t __atomic_fetch_sub_4(volatile void *address, uint32_t value, int order) {
    (void)order;
    uint32_t primask = mask_interrupts();
    uint32_t old = *(volatile uint32_t *)address;
    *(volatile uint32_t *)address = old - value;
    restore_interrupts(primask);
    return old;
}
#endif
