
/*
 * Added by tools/test-kernel-qemu.sh (i2c-stub-rdwr): plain I2C transfers, so that user-space
 * I2C_RDWR can be tested. A write's first byte sets the register pointer and the rest are
 * stored with auto-increment; a read returns bytes from the pointer on. Banks are ignored.
 */
static int stub_master_xfer(struct i2c_adapter *adap, struct i2c_msg *msgs, int num)
{
	int m, i;

	for (m = 0; m < num; m++) {
		struct i2c_msg *msg = &msgs[m];
		struct stub_chip *chip = NULL;

		for (i = 0; i < stub_chips_nr; i++) {
			if (msg->addr == chip_addr[i]) {
				chip = stub_chips + i;
				break;
			}
		}
		if (!chip)
			return -ENXIO;
		if (msg->flags & I2C_M_TEN)
			return -EOPNOTSUPP;
		if (msg->flags & I2C_M_RD) {
			for (i = 0; i < msg->len; i++)
				msg->buf[i] = chip->words[chip->pointer++] & 0xff;
		} else if (msg->len) {
			chip->pointer = msg->buf[0];
			for (i = 1; i < msg->len; i++) {
				u16 *word = &chip->words[chip->pointer++];
				*word = (*word & 0xff00) | msg->buf[i];
			}
		}
	}
	return num;
}
