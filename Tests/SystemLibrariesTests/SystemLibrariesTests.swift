// The Debian 12 system libraries the hardware layer binds are found, linked and are the
// versions the project is written against (libiio 0.24, libgpiod 1.6, libi2c 4.3, zlib 1.2).
import CLibGPIOD
import CLibI2C
import CLibIIO
import CZlib
import Testing

@Suite struct SystemLibrariesTests {
    @Test func libiioIs0_24() {
        var major: UInt32 = 0, minor: UInt32 = 0
        var tag = [CChar](repeating: 0, count: 8)
        iio_library_get_version(&major, &minor, &tag)
        #expect(major == 0 && minor == 24, "libiio \(major).\(minor)")
        // The local backend is compiled in: it is what reads /sys/bus/iio on a board.
        #expect(iio_has_backend("local"))
    }

    @Test func libgpiodIs1_6() {
        let version = String(cString: gpiod_version_string())
        #expect(version.hasPrefix("1.6"), "libgpiod \(version)")
    }

    @Test func zlibRoundTripsAndReportsItsVersion() {
        #expect(String(cString: zlibVersion()).hasPrefix("1."))
        var input = Array("ocm-recording 1\n".utf8)
        var compressed = [UInt8](repeating: 0, count: 64)
        var compressedLength = uLongf(compressed.count)
        #expect(compress(&compressed, &compressedLength, &input, uLong(input.count)) == Z_OK)
        var output = [UInt8](repeating: 0, count: input.count)
        var outputLength = uLongf(output.count)
        #expect(uncompress(&output, &outputLength, compressed, compressedLength) == Z_OK)
        #expect(output == input)
    }

    @Test func libi2cAndKernelI2CHeadersAreUsable() {
        // The ioctl numbers come from <linux/i2c-dev.h>: fixed kernel ABI values.
        #expect(I2C_RDWR == 0x0707)
        #expect(I2C_FUNCS == 0x0705)
        #expect(I2C_SLAVE == 0x0703)
        // libi2c's SMBus call on an invalid descriptor fails with -1 (EBADF), proving it links.
        #expect(i2c_smbus_read_byte_data(-1, 0x0F) < 0)
    }
}
