// Bare-metal entry for the AArch64 image on QEMU's `virt` with `-cpu cortex-a53` (the core of
// the Raspberry Pi Zero 2 W and Pi 3). QEMU enters the ELF's entry at EL1 (virt without
// `virtualization=on` or `secure=on` has no EL2 or EL3), MMU and caches off, SP undefined.
// Before any C or Swift runs: the stack; FP/SIMD (CPACR_EL1 traps it at reset, and the compilers
// use its registers for copies and 64-bit moves, not only for floating point); the exception
// vectors (a fault is reported, not a silent hang); and the MMU with an identity map, because
// with the MMU off every data access is Device memory, where an unaligned access faults and the
// compilers' code and picolibc's memcpy assume Normal memory, as under Linux.
    .section .text.boot, "ax"
    .global _start
_start:
    mrs     x0, CurrentEL
    cmp     x0, #(1 << 2)              // EL1
    b.ne    wrong_level
    ldr     x0, =__stack_top
    mov     sp, x0
    mov     x0, #(3 << 20)             // CPACR_EL1.FPEN = 0b11: FP/SIMD at EL1 and EL0
    msr     cpacr_el1, x0
    adr     x0, vectors
    msr     vbar_el1, x0
    isb
    // MAIR attribute 0: Device-nGnRnE (the UART and the rest of the low 1 GB); 1: Normal
    // write-back cacheable (RAM). The descriptors are in start-aarch64.c (ocm_page_table).
    mov     x0, #0xff00
    msr     mair_el1, x0
    // TCR_EL1: T0SZ = 32 (a 4 GB space, walks start at level 1 with 1 GB blocks), TTBR0 walks
    // inner and outer write-back cacheable and inner shareable, 4 KB granule, EPD1 (no TTBR1
    // walks), IPS = 0 (32-bit physical addresses: all of virt's below 4 GB that is used here).
    ldr     x0, =(32 | (1 << 8) | (1 << 10) | (3 << 12) | (1 << 23))
    msr     tcr_el1, x0
    adrp    x0, ocm_page_table
    add     x0, x0, :lo12:ocm_page_table
    msr     ttbr0_el1, x0
    tlbi    vmalle1
    dsb     nsh
    isb
    mrs     x0, sctlr_el1
    orr     x0, x0, #(1 << 0)          // M: the MMU
    orr     x0, x0, #(1 << 2)          // C: data cache
    orr     x0, x0, #(1 << 12)         // I: instruction cache
    bic     x0, x0, #(1 << 1)          // A: unaligned accesses allowed (as under Linux)
    msr     sctlr_el1, x0
    isb
    bl      ocm_start                  // does not return
1:  b       1b

wrong_level:
    lsr     x0, x0, #2
    ldr     x1, =__stack_top
    mov     sp, x1
    bl      ocm_wrong_level            // does not return
2:  b       2b

// Sixteen entries of 128 bytes (synchronous, IRQ, FIQ, SError × current EL with SP0, with
// SPx, lower EL AArch64, AArch32): nothing is expected, so each reports its cause and address.
    .section .text.vectors, "ax"
    .balign 2048
vectors:
    .rept 16
    .balign 128
    mrs     x0, esr_el1
    mrs     x1, elr_el1
    mrs     x2, far_el1
    b       ocm_fault
    .endr
