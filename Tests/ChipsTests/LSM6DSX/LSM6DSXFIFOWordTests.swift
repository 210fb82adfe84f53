import Chips
import FixedPoint
import MotionAlgorithms
import SensorBus
import Testing

/// Hand-written FIFO words (not the emulator's) through `LSM6DSXFIFODriver`: the decoder's
/// worked example (LSM6DSXFIFODecoder.swift) against the datasheet sensitivities at the
/// driver's ±8 g (0.244 mg/LSB) and ±1000 °/s (35 mdps/LSB).
@Suite struct LSM6DSXFIFOWordTests {
    /// A register file that keeps what is written (SW_RESET reads back cleared) and serves
    /// `words` from FIFO_DATA_OUT_TAG, with FIFO_STATUS1/2 counting them.
    final class ScriptedChip: I2CBus {
        let name = "scripted"
        var registers = [UInt8](repeating: 0, count: 128)
        var words: [UInt8] = []
        let status1: UInt8

        init(whoAmI: UInt8, status1: UInt8) {
            registers[0x0F] = whoAmI
            self.status1 = status1
        }

        func readRegisters(address: UInt8, register: UInt8, into buffer: UnsafeMutableRawBufferPointer) throws(BusError) {
            for offset in 0..<buffer.count {
                switch Int(register) {
                case 0x78:
                    buffer[offset] = words.isEmpty ? 0 : words.removeFirst()
                case Int(status1):
                    let count = words.count / 7
                    buffer[offset] = offset == 0 ? UInt8(count & 0xFF) : UInt8(count >> 8)
                default:
                    buffer[offset] = registers[Int(register) + offset]
                }
            }
        }

        func writeRegisters(address: UInt8, register: UInt8, values: UnsafeRawBufferPointer) throws(BusError) {
            for (offset, value) in values.enumerated() { registers[Int(register) + offset] = value & (register == 0x12 ? 0xFE : 0xFF) }
        }
    }

    @Test(arguments: [(UInt8(0x6C), UInt8(0x3A)), (0x6B, 0x3A), (0x70, 0x1B)])
    func theWorkedExampleDecodesToTheDatasheetValues(whoAmI: UInt8, status1: UInt8) throws {
        let chip = ScriptedChip(whoAmI: whoAmI, status1: status1)
        let driver = try LSM6DSXFIFODriver(bus: chip)
        // Gyroscope word (TAG_SENSOR 1, TAG_CNT 1), a timestamp word (TAG_SENSOR 4: skipped),
        // then the accelerometer word of the same slot (TAG_SENSOR 2, TAG_CNT 1).
        chip.words = [0x0A, 0x10, 0x00, 0xF0, 0xFF, 0x00, 0x00,
                      0x22, 0x01, 0x02, 0x03, 0x04, 0x00, 0x00,
                      0x12, 0x00, 0x00, 0x00, 0x00, 0x00, 0x10]
        let readings = UnsafeMutableBufferPointer<SensorReading>.allocate(capacity: 8)
        defer { readings.deallocate() }
        let result = try driver.drain(into: readings, nowNanoseconds: 5_000)
        #expect(result.readings == 2 && driver.unpairedWords == 1)
        guard case .acceleration(let a) = readings[0].value, case .angularVelocity(let w) = readings[1].value else {
            Issue.record("an (acceleration, angular velocity) pair"); return
        }
        // 16 × 35 mdps = 0.56 °/s = 0.0097738 rad/s; 4096 × 0.244 mg = 0.999424 g = 9.80100 m/s²
        // (Q16.16: ±2⁻¹⁷ of rounding, plus the LSB size's own rounding to whole nano-units).
        #expect(abs(w.x.doubleValue - 0.56 * .pi / 180) < 0x1p-16 && abs(w.y.doubleValue + 0.56 * .pi / 180) < 0x1p-16 && w.z == .zero)
        #expect(a.x == .zero && a.y == .zero && abs(a.z.doubleValue - 4096 * 0.244e-3 * 9.80665) < 0x1p-16)
        #expect(readings[0].timestampNanoseconds == 5_000 && readings[1].timestampNanoseconds == 5_000)
    }
}
