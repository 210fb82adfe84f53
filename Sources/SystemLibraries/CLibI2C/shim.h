// Debian 12's libi2c-dev 4.3 ships no pkg-config file: the header is <i2c/smbus.h> and the
// library is -li2c. The kernel's <linux/i2c-dev.h> and <linux/i2c.h> carry the ioctl numbers
// (I2C_RDWR, I2C_SLAVE, I2C_FUNCS) and the i2c_msg / i2c_rdwr_ioctl_data structs.
#include <linux/types.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <i2c/smbus.h>
#include <sys/ioctl.h>

// ioctl is variadic, which Swift cannot call: two fixed signatures for the transport's funnel.
static inline int ocm_i2c_ioctl_pointer(int descriptor, unsigned long request, void *argument) {
    return ioctl(descriptor, request, argument);
}
static inline int ocm_i2c_ioctl_value(int descriptor, unsigned long request, unsigned long argument) {
    return ioctl(descriptor, request, argument);
}
