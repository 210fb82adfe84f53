/// The update streams a client can subscribe to (the `stream` byte).
public enum WireStream: UInt8, Sendable, CaseIterable, Hashable {
    case accelerometer = 0, gyroscope = 1, magnetometer = 2, deviceMotion = 3
    /// Cumulative `CMPedometerData` from the subscription's `from` time.
    case pedometer = 4
    /// `CMPedometerEvent`s: pause and resume.
    case pedometerEvents = 5
    /// `CMMotionActivity` transitions (the current one first).
    case activity = 6
    /// `CMAltitudeData`: relative altitude from the subscription's first update (version 2).
    case relativeAltitude = 7
    /// `CMAbsoluteAltitudeData`: altitude above the subscription's sea level (version 2).
    case absoluteAltitude = 8
    /// `CMBatchedSensorManager`'s accelerometer: every FIFO frame of the board's IMU at its
    /// highest rate, a second a `batch` message (version 3).
    case batchedAccelerometer = 9
    /// `CMBatchedSensorManager`'s device motion at 200 Hz, a second a `batch` message (version 3).
    case batchedDeviceMotion = 10

    public var name: String {
        switch self {
        case .accelerometer: "accelerometer"
        case .gyroscope: "gyroscope"
        case .magnetometer: "magnetometer"
        case .deviceMotion: "deviceMotion"
        case .pedometer: "pedometer"
        case .pedometerEvents: "pedometerEvents"
        case .activity: "activity"
        case .relativeAltitude: "relativeAltitude"
        case .absoluteAltitude: "absoluteAltitude"
        case .batchedAccelerometer: "batchedAccelerometer"
        case .batchedDeviceMotion: "batchedDeviceMotion"
        }
    }

    /// The altimeter's streams, which `ClientMessage.subscribeAltitude` starts.
    public var isAltitude: Bool { self == .relativeAltitude || self == .absoluteAltitude }

    /// The batched streams, whose data comes in `batch` messages (never `samples`).
    public var isBatched: Bool { self == .batchedAccelerometer || self == .batchedDeviceMotion }

    /// The protocol version that added the stream: a reader of an older one takes its byte for
    /// an error, so it is never named to such a reader (its `status` leaves it out).
    public var introducedInVersion: UInt16 {
        switch self {
        case .relativeAltitude, .absoluteAltitude: 2
        case .batchedAccelerometer, .batchedDeviceMotion: 3
        default: 1
        }
    }
}

/// Core Motion's `CMAuthorizationStatus`, same raw values.
public enum WireAuthorization: UInt8, Sendable {
    case notDetermined = 0
    /// The administrator's policy file denies this user: only the administrator can change it.
    case restricted = 1
    /// The user is not root and not in group `motion`: joining it grants access.
    case denied = 2
    case authorized = 3
}

/// The typed errors (`error` message, `code` byte).
public enum WireErrorCode: UInt8, Sendable {
    /// The client may not have this (not authorized, or history restricted by policy); the
    /// advice says what to do.
    case unauthorized = 1
    /// A request the daemon cannot take as sent (a range backwards or too long, a duration over 12 h).
    case badRequest = 2
    /// The board has no such sensor, or the daemon's board or history failed.
    case notAvailable = 3
    /// The client's protocol version is not this daemon's.
    case unsupportedVersion = 4
    /// The client already has a query running: wait for its answer.
    case busy = 5
}

/// Sensors on the daemon's board (the `sensors` bits of `welcome`).
public struct WireSensors: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }
    public static let accelerometer = WireSensors(rawValue: 1 << 0)
    public static let gyroscope = WireSensors(rawValue: 1 << 1)
    public static let magnetometer = WireSensors(rawValue: 1 << 2)
    public static let barometer = WireSensors(rawValue: 1 << 3)
    public static let thermometer = WireSensors(rawValue: 1 << 4)
}

/// An accelerometer (g, Core Motion's sign), gyroscope (rad/s) or magnetometer (µT) sample.
public struct VectorSample: Sendable, Equatable {
    /// CLOCK_REALTIME, s.
    public var time: Double
    public var x: Double, y: Double, z: Double
    public init(time: Double, x: Double, y: Double, z: Double) {
        (self.time, self.x, self.y, self.z) = (time, x, y, z)
    }
}

/// A `CMDeviceMotion`, in Core Motion's units and signs.
public struct DeviceMotionSample: Sendable, Equatable {
    /// CLOCK_REALTIME, s.
    public var time: Double
    /// The attitude, unit quaternion (device axes → reference frame).
    public var w: Double, x: Double, y: Double, z: Double
    /// rad/s, device axes.
    public var rotationRate: [Double]
    /// g, device axes.
    public var gravity: [Double]
    /// g, device axes.
    public var userAcceleration: [Double]
    /// µT, device axes.
    public var magneticField: [Double]
    /// `CMMagneticFieldCalibrationAccuracy`: −1 uncalibrated … 2 high.
    public var magneticAccuracy: Int8
    /// Degrees from north (−1 when the frame has no north).
    public var heading: Double
    /// The `CMAttitudeReferenceFrame` bit the attitude is in.
    public var frame: UInt8

    public init(time: Double, w: Double, x: Double, y: Double, z: Double, rotationRate: [Double], gravity: [Double],
                userAcceleration: [Double], magneticField: [Double], magneticAccuracy: Int8, heading: Double, frame: UInt8) {
        (self.time, self.w, self.x, self.y, self.z) = (time, w, x, y, z)
        (self.rotationRate, self.gravity, self.userAcceleration, self.magneticField) = (rotationRate, gravity, userAcceleration, magneticField)
        (self.magneticAccuracy, self.heading, self.frame) = (magneticAccuracy, heading, frame)
    }
}

/// A `CMPedometerData` (a live update, or a query's answer). Times CLOCK_REALTIME s.
public struct PedometerSample: Sendable, Equatable {
    public var start: Double
    public var end: Double
    public var steps: Int
    /// m.
    public var distance: Double
    /// nil without a barometer.
    public var floorsAscended: Int?
    public var floorsDescended: Int?
    /// s/m; nil outside live updates or while not walking.
    public var currentPace: Double?
    /// steps/s; nil outside live updates or while not walking.
    public var currentCadence: Double?
    /// s/m; nil before any stepping.
    public var averageActivePace: Double?

    public init(start: Double, end: Double, steps: Int, distance: Double, floorsAscended: Int? = nil, floorsDescended: Int? = nil,
                currentPace: Double? = nil, currentCadence: Double? = nil, averageActivePace: Double? = nil) {
        (self.start, self.end, self.steps, self.distance) = (start, end, steps, distance)
        (self.floorsAscended, self.floorsDescended) = (floorsAscended, floorsDescended)
        (self.currentPace, self.currentCadence, self.averageActivePace) = (currentPace, currentCadence, averageActivePace)
    }
}

/// A `CMPedometerEvent`. Times CLOCK_REALTIME s.
public struct PedometerEventSample: Sendable, Equatable {
    /// When the user stopped (last step) or started (first step).
    public var time: Double
    /// When the detector decided it.
    public var delivered: Double
    public var isResume: Bool
    public init(time: Double, delivered: Double, isResume: Bool) {
        (self.time, self.delivered, self.isResume) = (time, delivered, isResume)
    }
}

/// A `CMMotionActivity`: a live transition (`end` nil) or a history record. Times CLOCK_REALTIME s.
public struct ActivitySample: Sendable, Equatable {
    /// When the activity started.
    public var start: Double
    /// Live: when it was delivered. History: when the record ends (the ongoing one: "now").
    public var time: Double
    /// Bits: 0 stationary, 1 walking, 2 running, 3 automotive, 4 cycling, 5 unknown.
    public var flags: UInt8
    /// 0 low, 1 medium, 2 high.
    public var confidence: UInt8
    public init(start: Double, time: Double, flags: UInt8, confidence: UInt8) {
        (self.start, self.time, self.flags, self.confidence) = (start, time, flags, confidence)
    }
}

/// One `CMRecordedAccelerometerData`.
public struct RecordedSample: Sendable, Equatable {
    /// CLOCK_REALTIME, s.
    public var time: Double
    /// g, Core Motion's sign, to 1/2048 g as stored.
    public var x: Double, y: Double, z: Double
    /// The continuity run (`identifier`): its first sample's time, CLOCK_REALTIME ns.
    public var run: Int64
    public init(time: Double, x: Double, y: Double, z: Double, run: Int64) {
        (self.time, self.x, self.y, self.z, self.run) = (time, x, y, z, run)
    }
}

/// An altimeter update (`CMAltitudeData` and `CMAbsoluteAltitudeData` in one): every field of
/// the daemon's `AltitudeStage` output, whichever altitude stream it is for.
public struct AltitudeSample: Sendable, Equatable {
    /// CLOCK_REALTIME, s: the pressure reading's time.
    public var time: Double
    /// m since the subscription's first update, up positive.
    public var relativeAltitude: Double
    /// kPa, low-passed.
    public var pressure: Double
    /// m above the subscription's sea-level pressure.
    public var absoluteAltitude: Double
    /// m, one standard deviation of the absolute altitude's error (the reference's uncertainty).
    public var accuracy: Double
    /// m, one standard deviation of the altitude's noise.
    public var precision: Double

    public init(time: Double, relativeAltitude: Double, pressure: Double, absoluteAltitude: Double, accuracy: Double, precision: Double) {
        (self.time, self.relativeAltitude, self.pressure) = (time, relativeAltitude, pressure)
        (self.absoluteAltitude, self.accuracy, self.precision) = (absoluteAltitude, accuracy, precision)
    }
}

/// A batch of one stream's samples.
public enum SampleBatch: Sendable, Equatable {
    /// accelerometer, gyroscope or magnetometer.
    case vectors(WireStream, [VectorSample])
    case deviceMotion([DeviceMotionSample])
    case pedometer([PedometerSample])
    case pedometerEvents([PedometerEventSample])
    case activity([ActivitySample])
    /// relativeAltitude or absoluteAltitude.
    case altitude(WireStream, [AltitudeSample])

    public var stream: WireStream {
        switch self {
        case .vectors(let stream, _): stream
        case .deviceMotion: .deviceMotion
        case .pedometer: .pedometer
        case .pedometerEvents: .pedometerEvents
        case .activity: .activity
        case .altitude(let stream, _): stream
        }
    }

    public var count: Int {
        switch self {
        case .vectors(_, let samples): samples.count
        case .deviceMotion(let samples): samples.count
        case .pedometer(let samples): samples.count
        case .pedometerEvents(let samples): samples.count
        case .activity(let samples): samples.count
        case .altitude(_, let samples): samples.count
        }
    }
}

/// One connected client, as `status` lists it.
public struct ClientStatus: Sendable, Equatable {
    public var name: String
    public var pid: Int32
    public var uid: UInt32
    public var authorization: WireAuthorization
    /// Subscribed streams and their intervals (s).
    public var streams: [(stream: WireStream, interval: Double)]
    /// Updates dropped for it since it connected (it did not read fast enough).
    public var dropped: UInt64

    public init(name: String, pid: Int32, uid: UInt32, authorization: WireAuthorization,
                streams: [(stream: WireStream, interval: Double)], dropped: UInt64) {
        (self.name, self.pid, self.uid, self.authorization, self.streams, self.dropped) = (name, pid, uid, authorization, streams, dropped)
    }

    public static func == (a: ClientStatus, b: ClientStatus) -> Bool {
        a.name == b.name && a.pid == b.pid && a.uid == b.uid && a.authorization == b.authorization && a.dropped == b.dropped
            && a.streams.map(\.stream) == b.streams.map(\.stream) && a.streams.map(\.interval) == b.streams.map(\.interval)
    }
}

/// One history kind's storage, as `status` lists it.
public struct StorageUse: Sendable, Equatable {
    /// "accelerometer", "pedometer", "activity".
    public var kind: String
    /// Bytes on disk.
    public var bytes: UInt64
    /// Segment files.
    public var files: UInt32
    public init(kind: String, bytes: UInt64, files: UInt32) {
        (self.kind, self.bytes, self.files) = (kind, bytes, files)
    }
}

/// The daemon's `status` answer.
public struct DaemonStatus: Sendable, Equatable {
    public var daemonVersion: String
    public var boardName: String
    /// The board file, absolute.
    public var boardPath: String
    /// Whether the board runs (false after a chip failed, until it is brought up again).
    public var boardRunning: Bool
    /// Seconds since the daemon started.
    public var uptime: Double
    public var historyPath: String
    public var storage: [StorageUse]
    /// Bytes written to the history since the daemon started.
    public var bytesWrittenSinceStart: UInt64
    public var clients: [ClientStatus]

    public init(daemonVersion: String, boardName: String, boardPath: String, boardRunning: Bool, uptime: Double,
                historyPath: String, storage: [StorageUse], bytesWrittenSinceStart: UInt64, clients: [ClientStatus]) {
        (self.daemonVersion, self.boardName, self.boardPath, self.boardRunning, self.uptime) = (daemonVersion, boardName, boardPath, boardRunning, uptime)
        (self.historyPath, self.storage, self.bytesWrittenSinceStart, self.clients) = (historyPath, storage, bytesWrittenSinceStart, clients)
    }
}
