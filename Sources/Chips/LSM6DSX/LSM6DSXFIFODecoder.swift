import FixedPoint

/// The first word of a time slot, waiting for its partner (possibly across drains).
struct PendingSlot {
    /// TAG_CNT of the slot, nil when nothing is pending.
    var count: UInt8?
    var acceleration: Vector3?
    var angularVelocity: Vector3?
}

/// Tagged FIFO words to accelerometer + gyroscope frames, no I/O (pure, so the fuzz target
/// and the tests reach it through the driver alone).
///
/// A word is FIFO_DATA_OUT_TAG (TAG_SENSOR[7:3], TAG_CNT[2:1], TAG_PARITY bit 0) then x, y, z
/// little endian. Words batched at the same instant share TAG_CNT, which advances by one
/// (mod 4) per batch event; the datasheets fix no order between the sensors inside a slot, so
/// a frame is whichever accelerometer and gyroscope words share a slot. Worked example at
/// ±8 g and ±1000 °/s: the words
///   0A 10 00  F0 FF  00 00   (tag 0x0A: TAG_SENSOR 1 gyroscope, TAG_CNT 1; x = 16, y = −16 counts)
///   12 00 00  00 00  00 10   (tag 0x12: TAG_SENSOR 2 accelerometer, TAG_CNT 1; z = 0x1000 counts)
/// are one frame: angular velocity x = 16 × 35 mdps = 0.56 °/s = 0.009774 rad/s, y = −0.009774
/// rad/s, z = 0; acceleration z = 4096 × 0.244 mg = 0.999 g = 9.801 m/s².
struct LSM6DSXFIFODecoder {
    let accelerometerNanoUnitsPerLSB: Int64
    let gyroscopeNanoUnitsPerLSB: Int64
    var pending: PendingSlot
    /// Words dropped: other sensors' tags, or a slot whose partner never came.
    var unpaired = 0

    /// Takes one 7-byte word; returns a frame when it completes one.
    mutating func take(_ word: UnsafeRawBufferPointer) -> (acceleration: Vector3, angularVelocity: Vector3)? {
        let sensor = word[0] >> 3
        let count = word[0] >> 1 & 0x03
        guard sensor == LSM6DSXRegister.tagAccelerometer || sensor == LSM6DSXRegister.tagGyroscope else {
            unpaired += 1
            return nil
        }
        if let open = pending.count, open != count {
            unpaired += 1  // the open slot's partner was lost: drop its half
            pending = PendingSlot()
        }
        pending.count = count
        if sensor == LSM6DSXRegister.tagAccelerometer {
            if pending.acceleration != nil { unpaired += 1 }  // a second one in one slot: keep the newer
            pending.acceleration = CountConversion.littleEndianVector(word, at: 1, nanoUnitsPerLSB: accelerometerNanoUnitsPerLSB)
        } else {
            if pending.angularVelocity != nil { unpaired += 1 }
            pending.angularVelocity = CountConversion.littleEndianVector(word, at: 1, nanoUnitsPerLSB: gyroscopeNanoUnitsPerLSB)
        }
        guard let acceleration = pending.acceleration, let angularVelocity = pending.angularVelocity else { return nil }
        pending = PendingSlot()
        return (acceleration, angularVelocity)
    }
}
