/// One published message, as the publisher encodes it and the subscriber decodes it: which
/// stream, its sequence number and timestamp, and the stream's fields in Core Motion's units.
/// The binary layout of each is in PAYLOADS.md; `BinaryPayload` and `JSONPayload` write it.
package struct MotionMessage: Sendable, Equatable {
    package var stream: MQTTStream
    /// Counts the stream's messages from 0 since the publisher started (wraps at 2³²): a gap
    /// tells a subscriber how many were lost, a repeat that one was resent (QoS 1).
    package var sequence: UInt32
    /// When the sample was taken (or the update delivered), ns since 1970 (CLOCK_REALTIME, from
    /// the board's CLOCK_MONOTONIC stamp at the offset measured when publishing started).
    package var timestampUnixNanoseconds: Int64
    package var fields: Fields

    package init(stream: MQTTStream, sequence: UInt32, timestampUnixNanoseconds: Int64, fields: Fields) {
        self.stream = stream
        self.sequence = sequence
        self.timestampUnixNanoseconds = timestampUnixNanoseconds
        self.fields = fields
    }

    package enum Fields: Sendable, Equatable {
        case deviceMotion(DeviceMotionFields)
        case pedometer(PedometerFields)
        /// A pause (`isResume` false) or resume of walking, and when it happened (ns since 1970).
        case pedometerEvent(isResume: Bool, timeUnixNanoseconds: Int64)
        case activity(ActivityFields)
        /// Height relative to the first reading since publishing started (m, up positive) and the
        /// pressure (kPa): Core Motion's `CMAltitudeData`.
        case altitude(relativeAltitudeMeters: Float, pressureKilopascals: Float)
        /// A raw sample in Core Motion's units: accelerometer g (Core Motion's sign: −1 on z lying
        /// face up), gyroscope rad/s, magnetometer µT.
        case vector(x: Float, y: Float, z: Float)
    }
}

/// `CMDeviceMotion`'s numbers (Float32 on the wire: 24 bits of mantissa are far finer than any
/// MEMS sensor's noise).
package struct DeviceMotionFields: Sendable, Equatable {
    /// The attitude's unit quaternion (device axes → reference frame).
    package var w: Float, x: Float, y: Float, z: Float
    /// rad/s, device axes.
    package var rotationRate: (x: Float, y: Float, z: Float)
    /// g, device axes.
    package var gravity: (x: Float, y: Float, z: Float)
    /// g, device axes, gravity removed.
    package var userAcceleration: (x: Float, y: Float, z: Float)
    /// µT, calibrated, device axes (zero without a magnetometer).
    package var magneticField: (x: Float, y: Float, z: Float)
    /// Degrees clockwise from north (−1 when the frame has no north).
    package var heading: Float
    /// `CMMagneticFieldCalibrationAccuracy`: −1 uncalibrated … 2 high.
    package var magneticAccuracy: Int8
    /// `CMAttitudeReferenceFrame`'s raw value (1 xArbitraryZVertical … 8 xTrueNorthZVertical).
    package var referenceFrame: UInt8

    package static func == (a: Self, b: Self) -> Bool {
        (a.w, a.x, a.y, a.z) == (b.w, b.x, b.y, b.z) && a.rotationRate == b.rotationRate && a.gravity == b.gravity
            && a.userAcceleration == b.userAcceleration && a.magneticField == b.magneticField && a.heading == b.heading
            && a.magneticAccuracy == b.magneticAccuracy && a.referenceFrame == b.referenceFrame
    }
}

/// `CMPedometerData`'s numbers; nil where Core Motion gives nil.
package struct PedometerFields: Sendable, Equatable {
    /// The update counts from here (ns since 1970) …
    package var startUnixNanoseconds: Int64
    /// … to here.
    package var endUnixNanoseconds: Int64
    package var numberOfSteps: UInt32
    /// m.
    package var distanceMeters: Float
    package var floorsAscended: Int32?
    package var floorsDescended: Int32?
    /// s/m.
    package var currentPace: Float?
    /// steps/s.
    package var currentCadence: Float?
    /// s/m.
    package var averageActivePace: Float?
}

/// `CMMotionActivity`'s numbers.
package struct ActivityFields: Sendable, Equatable {
    /// Bits: 0 stationary, 1 walking, 2 running, 3 automotive, 4 cycling, 5 unknown.
    package var flags: UInt8
    /// 0 low, 1 medium, 2 high.
    package var confidence: UInt8
    /// When the activity started, ns since 1970.
    package var startUnixNanoseconds: Int64
}
