// CONFIG_IRQ_SIM is a bool that Debian leaves off, and gpio-sim needs its exports: this wraps
// the kernel's own kernel/irq/irq_sim.c (copied from linux-source at build time) as a module.
#include <linux/module.h>
#include "irq_sim.c"
MODULE_LICENSE("GPL");
