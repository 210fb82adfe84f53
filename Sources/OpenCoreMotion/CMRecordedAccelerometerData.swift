public import Foundation
package import MotionDaemonProtocol
import MotionManagerCore

/// One recorded accelerometer sample (`CMSensorRecorder`), a `CMAccelerometerData` as in Core
/// Motion: `acceleration` in g with Core Motion's sign, stored to 1/2048 g; `startDate` its
/// wall-clock date; `timestamp` (from `CMLogItem`) its CLOCK_MONOTONIC seconds now;
/// `identifier` the continuity run it belongs to (the run's first sample's time, ns since
/// 1970): consecutive samples with different identifiers have a gap between them (motiond
/// stopped, the board failed).
public final class CMRecordedAccelerometerData: CMAccelerometerData, @unchecked Sendable {
    public let startDate: Date
    public let identifier: UInt64

    package init(_ sample: RecordedSample) {
        startDate = Date(timeIntervalSince1970: sample.time)
        identifier = UInt64(bitPattern: sample.run)
        super.init(timestampNanoseconds: Date(timeIntervalSince1970: sample.time).engineNanoseconds,
                   acceleration: CMAcceleration(x: sample.x, y: sample.y, z: sample.z))
    }

    /// A sample made by hand (tests of code that reads recorded data).
    package convenience init(startDate: Date, acceleration a: CMAcceleration, identifier: UInt64) {
        self.init(RecordedSample(time: startDate.timeIntervalSince1970, x: a.x, y: a.y, z: a.z, run: Int64(bitPattern: identifier)))
    }

    public override var description: String {
        "x \(acceleration.x) y \(acceleration.y) z \(acceleration.z) g @ \(startDate) (run \(identifier))"
    }
}

/// Core Motion's `CMSensorDataList`: the samples of one `accelerometerData(from:to:)`, oldest
/// first, each a `CMRecordedAccelerometerData`. As in Core Motion it is not itself a Swift
/// `Sequence` but fast-enumerable, so the extension iOS code writes compiles unchanged:
///
///     extension CMSensorDataList: Sequence {
///         public typealias Iterator = NSFastEnumerationIterator
///         public func makeIterator() -> NSFastEnumerationIterator { NSFastEnumerationIterator(self) }
///     }
///
/// (`NSFastEnumerationIterator` comes from this module on Linux: see `NSFastEnumeration`.)
public final class CMSensorDataList: NSFastEnumeration, Sendable, CustomStringConvertible {
    private let samples: [CMRecordedAccelerometerData]

    package init(_ samples: [CMRecordedAccelerometerData]) { self.samples = samples }

    public func fastEnumerationObjects() -> [Any] { samples }

    public var description: String { "CMSensorDataList(\(samples.count) samples)" }
}

/// Foundation's `NSFastEnumeration`, which swift-corelibs-foundation does not have (Linux has
/// no Objective-C runtime, hence no `countByEnumerating(with:objects:count:)`): a type whose
/// objects `NSFastEnumerationIterator` walks. Defined here so that Core Motion code extending
/// `CMSensorDataList` to `Sequence` compiles on Linux.
public protocol NSFastEnumeration {
    /// The objects an enumeration yields, in order (the Linux stand-in for `countByEnumerating`).
    func fastEnumerationObjects() -> [Any]
}

/// Foundation's `NSFastEnumerationIterator` (absent from swift-corelibs-foundation): iterates an
/// `NSFastEnumeration`'s objects as `Any`, as on Apple platforms (`for case let data as
/// CMRecordedAccelerometerData in list`).
public struct NSFastEnumerationIterator: IteratorProtocol {
    private var objects: IndexingIterator<[Any]>

    public init(_ enumerable: any NSFastEnumeration) {
        objects = enumerable.fastEnumerationObjects().makeIterator()
    }

    public mutating func next() -> Any? { objects.next() }
}
