package import FixedPoint
package import MotionAlgorithms
package import MotionEngine

/// The four update streams of a motion manager.
package enum MotionStream: Int, Sendable, CaseIterable {
    case accelerometer = 0, gyroscope = 1, magnetometer = 2, deviceMotion = 3

    /// The sensor a raw stream carries (nil for device motion).
    var channel: SensorChannel? {
        switch self {
        case .accelerometer: .accelerometer
        case .gyroscope: .gyroscope
        case .magnetometer: .magnetometer
        case .deviceMotion: nil
        }
    }

    /// "accelerometer", "gyroscope", "magnetometer", "device motion".
    package var name: String {
        switch self {
        case .accelerometer: "accelerometer"
        case .gyroscope: "gyroscope"
        case .magnetometer: "magnetometer"
        case .deviceMotion: "device motion"
        }
    }
}

/// One sample as the engine hands it to a subscription: engine units (SI, Q16.16 / Q2.30),
/// timestamps on CLOCK_MONOTONIC in nanoseconds. Converted to Core Motion's classes or the C
/// structs only by whoever receives it.
package enum MotionSample: Sendable {
    /// Specific force in m/s² (the engine's sign: +9.81 on z lying face up).
    case accelerometer(SensorReading)
    case gyroscope(SensorReading)
    case magnetometer(SensorReading)
    case deviceMotion(DeviceMotion, AttitudeReferenceFrame)

    package var stream: MotionStream {
        switch self {
        case .accelerometer: .accelerometer
        case .gyroscope: .gyroscope
        case .magnetometer: .magnetometer
        case .deviceMotion: .deviceMotion
        }
    }

    package var timestampNanoseconds: Int64 {
        switch self {
        case .accelerometer(let reading), .gyroscope(let reading), .magnetometer(let reading): reading.timestampNanoseconds
        case .deviceMotion(let motion, _): motion.timestampNanoseconds
        }
    }

    /// The reading's vector in its own unit (m/s², rad/s, µT); zero for device motion.
    package var vector: Vector3 {
        switch self {
        case .accelerometer(let reading), .gyroscope(let reading), .magnetometer(let reading):
            switch reading.value {
            case .acceleration(let vector), .angularVelocity(let vector), .magneticField(let vector): vector
            case .pressure, .temperature: .zero
            }
        case .deviceMotion: .zero
        }
    }
}

/// What the engine delivers to a subscription: a sample, or the failure that stopped the board.
package enum EngineEvent: Sendable {
    case sample(MotionSample)
    case failed(MotionManagerError)
}

/// Core Motion's g: the accelerometer in Core Motion's units is −specific force / g.
package let standardGravity = 9.80665

extension MotionSample {
    /// Core Motion's accelerometer value: −specific force / 9.80665, in g.
    package var coreMotionAcceleration: (x: Double, y: Double, z: Double) {
        let v = vector
        return (-v.x.doubleValue / standardGravity, -v.y.doubleValue / standardGravity, -v.z.doubleValue / standardGravity)
    }
}
