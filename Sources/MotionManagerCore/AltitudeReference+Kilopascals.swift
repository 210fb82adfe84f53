import FixedPoint
package import MotionAlgorithms

/// The altimeter's sea-level reference in the APIs' and the wire's unit, kPa (the algorithms
/// hold it in Pa, Q32.32), with the one check both the in-process altimeter and motiond apply.
extension AltitudeReference {
    /// Sea-level pressure `kilopascals` (such as a nearby airfield's QNH) known to `uncertainty`
    /// kPa (one standard deviation). Throws for a pressure no sea level has (outside 80…110 kPa;
    /// the records are 87.0 and 108.4) or an uncertainty outside 0…10 kPa.
    package static func checked(kilopascals: Double, uncertainty: Double) throws(MotionManagerError) -> AltitudeReference {
        guard kilopascals >= 80, kilopascals <= 110 else {
            throw MotionManagerError(.invalidParameter, "A sea-level pressure of \(kilopascals) kPa is outside 80…110 kPa: give it in kPa "
                                     + "(1013.2 hPa is 101.32 kPa), reduced to sea level (a QNH, not the station's own pressure).")
        }
        guard uncertainty >= 0, uncertainty <= 10 else {
            throw MotionManagerError(.invalidParameter, "An uncertainty of \(uncertainty) kPa is outside 0…10 kPa: give one standard deviation in kPa "
                                     + "(0.1 for a recent QNH from a nearby airfield).")
        }
        return AltitudeReference(seaLevelPressure: Q32_32(kilopascals * 1000), uncertainty: Q32_32(uncertainty * 1000))
    }

    /// The sea-level pressure, kPa.
    package var seaLevelKilopascals: Double { seaLevelPressure.doubleValue / 1000 }
    /// Its uncertainty (one standard deviation), kPa.
    package var uncertaintyKilopascals: Double { uncertainty.doubleValue / 1000 }
}
