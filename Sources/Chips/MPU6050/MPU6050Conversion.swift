public import FixedPoint

/// Raw counts to SI fixed point: pure functions, no I/O.
public enum MPU6050Conversion {
    /// A big-endian 16-bit two's complement value from two bytes.
    @inlinable
    public static func signed16(_ high: UInt8, _ low: UInt8) -> Int16 {
        Int16(bitPattern: UInt16(high) << 8 | UInt16(low))
    }

    /// Decodes one 12-byte FIFO frame (accelerometer x, y, z then gyroscope x, y, z, each big
    /// endian, in register order). Worked example: the bytes
    ///   40 00  00 00  00 00  00 83  FF 7D  00 00
    /// at ±2 g and ±250 °/s are a = (+16384, 0, 0) counts = (+9.80665, 0, 0) m/s² and
    /// ω = (+131, −131, 0) counts = (+1, −1, 0) °/s = (+0.017453, −0.017453, 0) rad/s.
    @inlinable
    public static func decodeFrame(_ frame: UnsafeRawBufferPointer, accelerometerNanoUnitsPerLSB: Int64,
                                    gyroscopeNanoUnitsPerLSB: Int64) -> (acceleration: Vector3, angularVelocity: Vector3) {
        func component(_ offset: Int, _ scale: Int64) -> Q16_16 {
            CountConversion.siValue(counts: signed16(frame[offset], frame[offset + 1]), nanoUnitsPerLSB: scale)
        }
        return (Vector3(x: component(0, accelerometerNanoUnitsPerLSB), y: component(2, accelerometerNanoUnitsPerLSB), z: component(4, accelerometerNanoUnitsPerLSB)),
                Vector3(x: component(6, gyroscopeNanoUnitsPerLSB), y: component(8, gyroscopeNanoUnitsPerLSB), z: component(10, gyroscopeNanoUnitsPerLSB)))
    }
}
