public import Foundation
package import MotionDaemonProtocol
import MotionManagerCore

/// One recorded accelerometer sample (`CMSensorRecorder`): `acceleration` in g with Core
/// Motion's sign, stored to 1/2048 g; `startDate` its wall-clock date; `timestamp` (from
/// `CMLogItem`) its CLOCK_MONOTONIC seconds now; `identifier` the continuity run it belongs to
/// (the run's first sample's time, ns since 1970): consecutive samples with different
/// identifiers have a gap between them (motiond stopped, the board failed).
public final class CMRecordedAccelerometerData: CMLogItem, @unchecked Sendable {
    public let acceleration: CMAcceleration
    public let startDate: Date
    public let identifier: UInt64

    package init(_ sample: RecordedSample) {
        acceleration = CMAcceleration(x: sample.x, y: sample.y, z: sample.z)
        startDate = Date(timeIntervalSince1970: sample.time)
        identifier = UInt64(bitPattern: sample.run)
        super.init(timestampNanoseconds: Date(timeIntervalSince1970: sample.time).engineNanoseconds)
    }

    public override var description: String {
        "x \(acceleration.x) y \(acceleration.y) z \(acceleration.z) g @ \(startDate) (run \(identifier))"
    }
}

/// Core Motion's `CMSensorDataList`: the samples of one `accelerometerData(from:to:)`, oldest
/// first (a random-access collection here, where Core Motion has fast enumeration).
public struct CMSensorDataList: RandomAccessCollection, Sendable {
    private let samples: [CMRecordedAccelerometerData]

    init(_ samples: [CMRecordedAccelerometerData]) { self.samples = samples }

    public var startIndex: Int { samples.startIndex }
    public var endIndex: Int { samples.endIndex }
    public subscript(position: Int) -> CMRecordedAccelerometerData { samples[position] }
}
