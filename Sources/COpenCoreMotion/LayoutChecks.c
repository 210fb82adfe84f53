// The C library's ABI, checked when the library is built: these layouts are promised to C
// programs compiled against opencoremotion.h, and the Swift implementation uses the same
// header (through this target), so a change here is an ABI change.
#include <stddef.h>
#include "opencoremotion.h"

_Static_assert(sizeof(ocm_status) == 4, "ocm_status is an int-sized enum");
_Static_assert(offsetof(ocm_sample, timestamp_ns) == 0, "ocm_sample layout");
_Static_assert(offsetof(ocm_sample, x) == 16, "ocm_sample layout");
_Static_assert(sizeof(ocm_sample) == 40, "ocm_sample layout");
