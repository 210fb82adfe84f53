// Level 1 (../../../shared/specs/hil-testing.md): a fake /dev/i2c-1 for our real ioctl path.
//
// umockdev 0.17 has no i2c-dev support, so this serves the i2c-dev ioctls itself (I2C_FUNCS,
// I2C_SLAVE/_FORCE, I2C_RDWR, I2C_SMBUS) to a child run under libumockdev-preload, with a
// BMP280 at --address whose registers are plain memory loaded from --registers:
//   - writes land in that memory; 0xE0 = 0xB6 (soft reset) clears ctrl_meas/config like the chip
//     and 0xE0 itself reads 0. The result registers are NOT reset to 0x80000 (nothing would ever
//     measure again): plain memory keeps the loaded sample.
//   - status (0xF3) im_update reads 1 for --im-update-reads N reads after a reset (default 0), then
//     whatever memory holds (0): our driver polls it until clear after its soft reset.
//   - --busy ADDR: a second chip with the same registers, owned by a kernel driver: I2C_SLAVE
//     answers EBUSY (I2C_SLAVE_FORCE and I2C_RDWR still reach it, as in the kernel).
//   - --smbus-only: I2C_FUNCS hides I2C_FUNC_I2C and I2C_RDWR fails with EOPNOTSUPP.
//   - --fail-register R: a transfer starting at register R fails with EIO (a glitch on the bus).
// Other addresses NACK (ENXIO). Every ioctl served is appended to --log, one line each.
// Usage: i2c_umockdev_fixture --registers FILE [--address 0x76] [--busy 0x77] [--smbus-only]
//        [--im-update-reads N] [--fail-register R] --log FILE -- COMMAND ARGS...   (exits with COMMAND's status)
#define _GNU_SOURCE  // strerrorname_np
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <linux/i2c.h>
#include <linux/i2c-dev.h>
#include <umockdev.h>

static guint8 memory[256];
static int chip = 0x76, busy = -1, fail_register = -1, smbus_only = 0, im_update_reads = 0, im_update_left = 0;
static FILE *log_file;
static GMainLoop *loop;
static int child_status = 1;

// Fails the test run (exit 2, no core dump as g_error would leave).
#define die(...) do { fprintf(stderr, "i2c_umockdev_fixture: " __VA_ARGS__); fputc('\n', stderr); exit(2); } while (0)

static int answers(int address) { return address == chip || address == busy; }

static guint8 read_register(guint8 reg) {
    if (reg == 0xE0) return 0;
    if (reg == 0xF3 && im_update_left > 0) { im_update_left--; return memory[reg] | 0x01; }
    return memory[reg];
}

static void write_register(guint8 reg, guint8 value) {
    if (reg == 0xE0) {
        if (value == 0xB6) { memory[0xF4] = memory[0xF5] = 0; im_update_left = im_update_reads; }
        return;
    }
    memory[reg] = value;
}

static void log_bytes(const guint8 *bytes, int count) {
    if (count > 0) fputs(" data=", log_file);
    for (int i = 0; i < count; i++) fprintf(log_file, "%02x", bytes[i]);
}

static int client_address(UMockdevIoctlClient *client) {
    return GPOINTER_TO_INT(g_object_get_data(G_OBJECT(client), "i2c-address")) - 1;
}

static void finish(UMockdevIoctlClient *client, long result, int error) {
    if (result < 0) fprintf(log_file, " result=-1 errno=%s\n", strerrorname_np(error));
    else fprintf(log_file, " result=%ld\n", result);
    fflush(log_file);
    umockdev_ioctl_client_complete(client, result, result < 0 ? error : 0);
}

static void serve_rdwr(UMockdevIoctlClient *client, UMockdevIoctlData *arg) {
    g_autoptr(UMockdevIoctlData) request = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct i2c_rdwr_ioctl_data), NULL);
    if (!request) { fprintf(log_file, "I2C_RDWR"); finish(client, -1, EFAULT); return; }
    struct i2c_rdwr_ioctl_data *rdwr = (struct i2c_rdwr_ioctl_data *)request->data;
    fprintf(log_file, "I2C_RDWR nmsgs=%u", rdwr->nmsgs);
    if (smbus_only) { finish(client, -1, EOPNOTSUPP); return; }
    if (rdwr->nmsgs == 0 || rdwr->nmsgs > I2C_RDWR_IOCTL_MAX_MSGS) { finish(client, -1, EINVAL); return; }
    g_autoptr(UMockdevIoctlData) messages = umockdev_ioctl_data_resolve(
        request, G_STRUCT_OFFSET(struct i2c_rdwr_ioctl_data, msgs), rdwr->nmsgs * sizeof(struct i2c_msg), NULL);
    if (!messages) { finish(client, -1, EFAULT); return; }
    int pointer = 0;  // the register pointer: set by the first byte of a write, auto-incremented
    for (guint i = 0; i < rdwr->nmsgs; i++) {
        struct i2c_msg *msg = (struct i2c_msg *)messages->data + i;
        int reading = msg->flags & I2C_M_RD;
        fprintf(log_file, " msg%u=addr=0x%02x,%s,len=%u,flags=0x%04x", i, msg->addr, reading ? "R" : "W", msg->len, msg->flags);
        if (!answers(msg->addr)) { finish(client, -1, ENXIO); return; }
        if (msg->len == 0) continue;
        g_autoptr(UMockdevIoctlData) buffer = umockdev_ioctl_data_resolve(
            messages, i * sizeof(struct i2c_msg) + G_STRUCT_OFFSET(struct i2c_msg, buf), msg->len, NULL);
        if (!buffer) { finish(client, -1, EFAULT); return; }
        if (reading) {
            for (int k = 0; k < msg->len; k++) buffer->data[k] = read_register((guint8)pointer++);
        } else {
            pointer = buffer->data[0];
            fprintf(log_file, ",reg=0x%02x", pointer);
            if (pointer == fail_register) { finish(client, -1, EIO); return; }
            for (int k = 1; k < msg->len; k++) write_register((guint8)pointer++, buffer->data[k]);
        }
        log_bytes(buffer->data + (reading ? 0 : 1), msg->len - (reading ? 0 : 1));
    }
    finish(client, rdwr->nmsgs, 0);
}

static void serve_smbus(UMockdevIoctlClient *client, UMockdevIoctlData *arg) {
    g_autoptr(UMockdevIoctlData) request = umockdev_ioctl_data_resolve(arg, 0, sizeof(struct i2c_smbus_ioctl_data), NULL);
    if (!request) { fprintf(log_file, "I2C_SMBUS"); finish(client, -1, EFAULT); return; }
    struct i2c_smbus_ioctl_data *smbus = (struct i2c_smbus_ioctl_data *)request->data;
    int address = client_address(client), reading = smbus->read_write == I2C_SMBUS_READ;
    const char *size = smbus->size == I2C_SMBUS_BYTE_DATA ? "BYTE_DATA" : smbus->size == I2C_SMBUS_I2C_BLOCK_DATA
        ? "I2C_BLOCK_DATA" : smbus->size == I2C_SMBUS_I2C_BLOCK_BROKEN ? "I2C_BLOCK_BROKEN" : "other";
    fprintf(log_file, "I2C_SMBUS addr=0x%02x reg=0x%02x size=%s(%u) %s", address, smbus->command, size, smbus->size,
            reading ? "R" : "W");
    if (address < 0) { finish(client, -1, EINVAL); return; }  // the kernel's default address is 0: nobody
    g_autoptr(UMockdevIoctlData) data = umockdev_ioctl_data_resolve(
        request, G_STRUCT_OFFSET(struct i2c_smbus_ioctl_data, data), sizeof(union i2c_smbus_data), NULL);
    if (!data) { finish(client, -1, EFAULT); return; }
    union i2c_smbus_data *value = (union i2c_smbus_data *)data->data;
    if (!answers(address)) { finish(client, -1, ENXIO); return; }
    if (smbus->command == fail_register) { finish(client, -1, EIO); return; }
    guint8 reg = smbus->command;
    switch (smbus->size) {
    case I2C_SMBUS_BYTE_DATA:
        if (reading) value->byte = read_register(reg); else write_register(reg, value->byte);
        fprintf(log_file, " len=1");
        log_bytes(&value->byte, 1);
        break;
    case I2C_SMBUS_I2C_BLOCK_BROKEN:
    case I2C_SMBUS_I2C_BLOCK_DATA: {
        int length = smbus->size == I2C_SMBUS_I2C_BLOCK_BROKEN && reading ? I2C_SMBUS_BLOCK_MAX : value->block[0];
        if (length < 1 || length > I2C_SMBUS_BLOCK_MAX) { fprintf(log_file, " len=%d", length); finish(client, -1, EINVAL); return; }
        value->block[0] = (guint8)length;
        for (int k = 0; k < length; k++) {
            if (reading) value->block[1 + k] = read_register((guint8)(reg + k));
            else write_register((guint8)(reg + k), value->block[1 + k]);
        }
        fprintf(log_file, " len=%d", length);
        log_bytes(value->block + 1, length);
        break;
    }
    default:
        finish(client, -1, EOPNOTSUPP);
        return;
    }
    finish(client, 0, 0);
}

static gboolean handle_ioctl(UMockdevIoctlBase *handler, UMockdevIoctlClient *client, gpointer user_data) {
    (void)handler; (void)user_data;
    UMockdevIoctlData *arg = umockdev_ioctl_client_get_arg(client);
    gulong request = umockdev_ioctl_client_get_request(client);
    switch (request) {
    case I2C_FUNCS: {
        g_autoptr(UMockdevIoctlData) functions = umockdev_ioctl_data_resolve(arg, 0, sizeof(unsigned long), NULL);
        unsigned long value = I2C_FUNC_SMBUS_EMUL | (smbus_only ? 0 : I2C_FUNC_I2C);
        memcpy(functions->data, &value, sizeof value);
        fprintf(log_file, "I2C_FUNCS funcs=0x%08lx", value);
        finish(client, 0, 0);
        break;
    }
    case I2C_SLAVE:
    case I2C_SLAVE_FORCE: {
        unsigned long address = *(unsigned long *)arg->data;
        fprintf(log_file, "%s addr=0x%02lx", request == I2C_SLAVE ? "I2C_SLAVE" : "I2C_SLAVE_FORCE", address);
        if (address > 0x7F) { finish(client, -1, EINVAL); break; }
        if (request == I2C_SLAVE && (int)address == busy) { finish(client, -1, EBUSY); break; }
        g_object_set_data(G_OBJECT(client), "i2c-address", GINT_TO_POINTER((int)address + 1));
        finish(client, 0, 0);
        break;
    }
    case I2C_RDWR: serve_rdwr(client, arg); break;
    case I2C_SMBUS: serve_smbus(client, arg); break;
    default:
        fprintf(log_file, "ioctl=0x%lx", request);
        finish(client, -1, ENOTTY);
    }
    return TRUE;
}

// Register file: lines "0x88: 70 6b 43 ..." (first register, then consecutive bytes); # comments.
static void load_registers(const char *path) {
    g_autofree char *text = NULL;
    g_autoptr(GError) error = NULL;
    if (!g_file_get_contents(path, &text, NULL, &error)) die("%s", error->message);
    g_auto(GStrv) lines = g_strsplit(text, "\n", -1);
    for (char **line = lines; *line; line++) {
        char *hash = strchr(*line, '#'), *end;
        if (hash) *hash = 0;
        if (!g_strstrip(*line)[0]) continue;
        unsigned long reg = strtoul(*line, &end, 16);
        if (*end != ':' || reg > 0xFF) die("%s: bad line \"%s\"", path, *line);
        for (char *p = end + 1;; reg++) {
            unsigned long byte = strtoul(p, &end, 16);
            if (end == p) break;
            if (reg > 0xFF || byte > 0xFF) die("%s: bad byte in \"%s\"", path, *line);
            memory[reg] = (guint8)byte;
            p = end;
        }
    }
}

static void child_exited(GPid pid, gint status, gpointer user_data) {
    (void)user_data;
    child_status = WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
    g_spawn_close_pid(pid);
    g_main_loop_quit(loop);
}

int main(int argc, char **argv) {
    const char *registers = NULL, *log_path = NULL;
    int i = 1;
    for (; i < argc && strcmp(argv[i], "--") != 0; i++) {
        if (!strcmp(argv[i], "--smbus-only")) smbus_only = 1;
        else if (i + 1 >= argc) die("%s needs a value", argv[i]);
        else if (!strcmp(argv[i], "--registers")) registers = argv[++i];
        else if (!strcmp(argv[i], "--log")) log_path = argv[++i];
        else if (!strcmp(argv[i], "--address")) chip = (int)strtol(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--busy")) busy = (int)strtol(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--fail-register")) fail_register = (int)strtol(argv[++i], NULL, 0);
        else if (!strcmp(argv[i], "--im-update-reads")) im_update_reads = (int)strtol(argv[++i], NULL, 0);
        else die("unknown option %s", argv[i]);
    }
    if (!registers || !log_path || i + 1 >= argc) {
        fprintf(stderr, "usage: %s --registers FILE --log FILE [--address A] [--busy A] [--smbus-only] "
                        "[--im-update-reads N] [--fail-register R] -- COMMAND...\n", argv[0]);
        return 2;
    }
    load_registers(registers);
    if (!(log_file = fopen(log_path, "w"))) die("%s: %s", log_path, g_strerror(errno));

    g_autoptr(GError) error = NULL;
    g_autoptr(UMockdevTestbed) testbed = umockdev_testbed_new();  // sets UMOCKDEV_DIR here
    if (!umockdev_testbed_add_from_string(testbed,
            "P: /devices/platform/i2c-1/i2c-dev/i2c-1\nN: i2c-1\nE: DEVNAME=/dev/i2c-1\n"
            "E: MAJOR=89\nE: MINOR=1\nE: SUBSYSTEM=i2c-dev\nA: name=OpenCoreMotion level-1 fake adapter\\n\n", &error))
        die("adding /dev/i2c-1: %s", error->message);
    g_autoptr(UMockdevIoctlBase) handler = umockdev_ioctl_base_new();
    g_signal_connect(handler, "handle-ioctl", G_CALLBACK(handle_ioctl), NULL);
    if (!umockdev_testbed_attach_ioctl(testbed, "/dev/i2c-1", handler, &error))
        die("attaching the ioctl handler: %s", error->message);

    g_auto(GStrv) environment = g_get_environ();
    const char *preload = g_environ_getenv(environment, "LD_PRELOAD");
    g_autofree char *preloads = preload && *preload ? g_strconcat("libumockdev-preload.so.0:", preload, NULL)
                                                    : g_strdup("libumockdev-preload.so.0");
    environment = g_environ_setenv(environment, "LD_PRELOAD", preloads, TRUE);
    GPid pid;
    if (!g_spawn_async(NULL, argv + i + 1, environment, G_SPAWN_SEARCH_PATH | G_SPAWN_DO_NOT_REAP_CHILD,
                       NULL, NULL, &pid, &error))
        die("starting %s: %s", argv[i + 1], error->message);
    loop = g_main_loop_new(NULL, FALSE);
    g_child_watch_add(pid, child_exited, NULL);
    g_main_loop_run(loop);
    g_main_loop_unref(loop);
    fclose(log_file);
    return child_status;
}
