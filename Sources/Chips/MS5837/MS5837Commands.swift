/// MS5837-30BA / MS5837-02BA commands ("MS5837-30BA datasheet, TE Connectivity", sections
/// "Commands" and "I2C interface"; the 02BA's datasheet has the same set). The chip has no
/// registers: every transaction is a one-byte command, some followed by a read.
public enum MS5837Command {
    /// The chip's only I2C address, 1110110x ("I2C interface").
    public static let address: UInt8 = 0x76
    /// Reloads the PROM into the chip's internal register; sent once after power-on.
    public static let reset: UInt8 = 0x1E
    /// ADC Read: clocks out the 24-bit result of the last conversion, MSB first. Reads 0 when no
    /// conversion was run, when it is repeated, or when sent during a conversion (which then
    /// goes on and ends wrong) ("Conversion sequence").
    public static let adcRead: UInt8 = 0x00
    /// PROM Read of word n (0…6): 0xA0 + 2n, 16 bits MSB first.
    public static let promRead: UInt8 = 0xA0
    /// Convert D1 (pressure) at OSR 256 (0x40) … 8192 (0x4A): 0x40 + 2 × OSR index.
    public static let convertPressure: UInt8 = 0x40
    /// Convert D2 (temperature) at OSR 256 (0x50) … 8192 (0x5A).
    public static let convertTemperature: UInt8 = 0x50
    /// PROM words: word 0 holds the CRC-4 and the product version, words 1…6 C1…C6.
    public static let promWords = 7
}

/// The ADC's oversampling ratio: resolution against conversion time.
public enum MS5837Oversampling: Int, Sendable, CaseIterable {
    case osr256 = 0, osr512, osr1024, osr2048, osr4096, osr8192

    /// The offset added to a conversion command (0x40 + offset is D1 at this ratio).
    public var commandOffset: UInt8 { UInt8(rawValue * 2) }

    /// The longest a conversion takes, µs (datasheet "ADC" characteristics, maximum column:
    /// 0.60, 1.17, 2.28, 4.54, 9.04, 18.08 ms). Drivers wait this long, emulators take it.
    public var maximumConversionMicroseconds: Int64 {
        switch self {
        case .osr256: 600
        case .osr512: 1_170
        case .osr1024: 2_280
        case .osr2048: 4_540
        case .osr4096: 9_040
        case .osr8192: 18_080
        }
    }

    /// The oversampling a command byte asks for, if it is a conversion command of either kind.
    static func of(command: UInt8) -> MS5837Oversampling? {
        let low = command & 0x0F
        guard command & 0xE0 == 0x40, low & 1 == 0 else { return nil }
        return MS5837Oversampling(rawValue: Int(low / 2))
    }
}
