public import MotionAlgorithms

extension BoardDescription.Chip {
    /// The sensors this chip gives, from its driver (for a chip read through IIO, the device
    /// name says which part: the kernel splits an IMU into `…_accel` and `…_gyro` devices).
    public var channels: Set<SensorChannel> {
        let all = ChipFamily.channels[driver] ?? []
        guard case .iio(let device, _) = bus else { return all }
        if device.contains("accel") { return all.intersection([.accelerometer]) }
        if device.contains("gyro") || device.contains("anglvel") { return all.intersection([.gyroscope]) }
        if device.contains("magn") { return all.intersection([.magnetometer]) }
        return all
    }
}

extension BoardDescription {
    /// Every sensor the board's chips give.
    public var channels: Set<SensorChannel> { chips.reduce(into: []) { $0.formUnion($1.channels) } }

    /// The drivers that give `channel`, for advice: "ak8963, lis3mdl, lsm9ds1-magnetometer".
    public static func drivers(giving channel: SensorChannel) -> [String] {
        ChipFamily.channels.filter { $0.value.contains(channel) }.keys.sorted()
    }
}
