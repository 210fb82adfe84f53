public import Foundation
package import MotionEngine

/// One relative altitude update (Core Motion's CMAltitudeData): `relativeAltitude` in metres
/// since updates started (up positive; it follows the weather too, ≈ 8 m per hPa of pressure
/// change, as Core Motion's does) and `pressure` in kPa (low-passed with 1 s). `timestamp` is
/// the pressure reading's.
public final class CMAltitudeData: CMLogItem, @unchecked Sendable {
    /// m since the first update.
    public let relativeAltitude: NSNumber
    /// kPa.
    public let pressure: NSNumber

    package init(_ values: AltitudeValues) {
        relativeAltitude = NSNumber(value: values.relativeAltitude)
        pressure = NSNumber(value: values.pressureKilopascals)
        super.init(timestampNanoseconds: values.timestampNanoseconds)
    }

    public override var description: String {
        String(format: "relative altitude %.3f m, pressure %.4f kPa @ %.3f s", relativeAltitude.doubleValue, pressure.doubleValue, timestamp)
    }
}

/// One absolute altitude update (Core Motion's CMAbsoluteAltitudeData): `altitude` in metres
/// above sea level by the standard atmosphere (ICAO) against the altimeter's sea-level
/// pressure, `accuracy` one standard deviation of its error from that reference's uncertainty
/// (≈ 83 m for the standard atmosphere's 1013.25 hPa, ≈ 8 m for a measured QNH), `precision`
/// one standard deviation of its noise, measured (centimetres on a BMP280).
public final class CMAbsoluteAltitudeData: CMLogItem, @unchecked Sendable {
    /// m above sea level.
    public let altitude: Double
    /// m.
    public let accuracy: Double
    /// m.
    public let precision: Double

    package init(_ values: AltitudeValues) {
        altitude = values.absoluteAltitude
        accuracy = values.accuracy
        precision = values.precision
        super.init(timestampNanoseconds: values.timestampNanoseconds)
    }

    public override var description: String {
        String(format: "altitude %.2f m ± %.1f m (precision %.3f m) @ %.3f s", altitude, accuracy, precision, timestamp)
    }
}
