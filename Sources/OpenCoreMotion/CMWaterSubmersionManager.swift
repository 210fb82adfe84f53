public import Foundation
package import MotionManagerCore
import Synchronization
import Locking

/// Core Motion's CMWaterSubmersionManagerDelegate: what a water-submersion manager reports.
/// Its methods run on the manager's `delegateQueue` (serial), never on the engine thread. Not
/// `Sendable`, as Apple's is not: only that queue calls it.
public protocol CMWaterSubmersionManagerDelegate: AnyObject {
    func manager(_ manager: CMWaterSubmersionManager, didUpdate event: CMWaterSubmersionEvent)
    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterSubmersionMeasurement)
    func manager(_ manager: CMWaterSubmersionManager, didUpdate measurement: CMWaterTemperature)
    func manager(_ manager: CMWaterSubmersionManager, errorOccurred error: any Error)
}

/// Core Motion's `CMWaterSubmersionManager` on a Linux board with a depth sensor (an
/// MS5837-30BA or -02BA; `boards/sim-ms5837.board` simulates a dive): submerged/not-submerged
/// events, depth measurements with the submersion state, and the water's temperature.
///
/// As in Core Motion, setting `delegate` starts the updates and clearing it stops them. The
/// surface pressure is learned from then on, so set it before going into the water (out of
/// it for at least 4 s). Every measurement comes (25 a second on an MS5837 at its highest
/// resolution), events as they happen, water temperature with each of its readings while
/// submerged. Fresh or salt water (`waterDensity`) and the rated depth (`maximumDepth`) are
/// this API's additions: Core Motion knows the watch's. Thread-safe.
public final class CMWaterSubmersionManager: Sendable, CustomStringConvertible {
    public static let freshWaterDensity = 1000.0
    public static let saltWaterDensity = 1025.0

    public let boardPath: String
    public let boardError: CMError?
    /// Water density, kg/m³.
    public let waterDensity: Double
    /// The serial queue the delegate's methods run on.
    public let delegateQueue: OperationQueue
    package let core: WaterSubmersionCore

    private struct WeakDelegate: @unchecked Sendable {
        // `@unchecked`: a weak reference to a delegate that is not Sendable (Apple's protocol is
        // not), only read and written under the Mutex below and called only on `delegateQueue`.
        weak var value: (any CMWaterSubmersionManagerDelegate)?
    }
    private let delegateBox = Lock(WeakDelegate())

    /// A manager of the board file at `board`, in water of `waterDensity` (kg/m³), rated to
    /// `maximumDepth` metres (nil: the depth sensor's range in that water). No board: the
    /// system's (`OPENCOREMOTION_BOARD`, /etc/opencoremotion/board, else a probe of the I2C buses).
    public init(board: String? = nil, waterDensity: Double = freshWaterDensity, maximumDepth: Double? = nil) {
        core = WaterSubmersionCore(board: board, waterDensity: waterDensity, maximumDepth: maximumDepth)
        boardPath = core.boardPath
        boardError = core.boardError.map(CMError.init)
        self.waterDensity = waterDensity
        delegateQueue = OperationQueue()
        delegateQueue.maxConcurrentOperationCount = 1
        delegateQueue.name = "CMWaterSubmersionManager"
    }

    deinit { core.stop() }

    public var description: String { "CMWaterSubmersionManager(\(core.summary))" }

    /// Whether the system's board has a depth sensor.
    public class var waterSubmersionAvailable: Bool { WaterSubmersionCore.isAvailable(board: nil) }
    /// Whether this manager's board has a depth sensor.
    public var isWaterSubmersionAvailable: Bool { core.isAvailable }
    /// Always `.authorized`: Linux has no per-app consent (see `CMAuthorizationStatus`).
    public class var authorizationStatus: CMAuthorizationStatus { .authorized }

    /// The deepest the device may go; nil without a depth sensor.
    public var maximumDepth: Measurement<UnitLength>? { core.settings.map { Measurement(value: $0.maximumDepth, unit: .meters) } }

    /// Setting a delegate starts updates (the surface is learned anew); nil stops them. A board
    /// without a depth sensor, or that cannot be brought up or stops, gives the delegate one
    /// `errorOccurred` with a `CMError`. The setter returns at once: the board is brought up
    /// (or let go) on `delegateQueue`, in the order the delegate was set, so a caller on an
    /// async task never holds one of the cooperative pool's threads while chips reset.
    public weak var delegate: (any CMWaterSubmersionManagerDelegate)? {
        get { delegateBox.withLock { $0.value } }
        set {
            delegateBox.withLock { $0.value = newValue }
            // Work queued for the earlier start is skipped from here on.
            let current = generation.add(1, ordering: .acquiringAndReleasing).newValue
            let starting = newValue != nil
            delegateQueue.addOperation { [weak self] in
                guard let self else { return }
                if starting { start(generation: current) } else { core.stop() }
            }
        }
    }

    /// Counts starts and stops: work queued for an earlier start is skipped.
    private let generation = Atomic<Int>(0)

    /// On `delegateQueue`: brings the board up for the start numbered `current`, unless the
    /// delegate was set again since (then that later operation decides).
    private func start(generation current: Int) {
        guard generation.load(ordering: .acquiring) == current else { return }
        // The engine thread only queues the work; the delegate is looked up when it runs.
        do {
            try core.start { [weak self] feed in
                self?.delegateQueue.addOperation { [weak self] in self?.dispatch(feed, generation: current) }
            }
        } catch {
            dispatch(.failed(error), generation: current)
        }
    }

    /// On `delegateQueue`: one feed to the delegate, unless updates stopped or restarted since.
    private func dispatch(_ feed: WaterSubmersionFeed, generation started: Int) {
        guard generation.load(ordering: .acquiring) == started, let delegate else { return }
        switch feed {
        case .event(let submerged, let time):
            delegate.manager(self, didUpdate: CMWaterSubmersionEvent(date: Date(engineNanoseconds: time), state: submerged ? .submerged : .notSubmerged))
        case .measurement(let measurement):
            delegate.manager(self, didUpdate: CMWaterSubmersionMeasurement(measurement))
        case .temperature(let time, let celsius, let uncertainty):
            delegate.manager(self, didUpdate: CMWaterTemperature(date: Date(engineNanoseconds: time), celsius: celsius, uncertaintyCelsius: uncertainty))
        case .failed(let failure):
            delegate.manager(self, errorOccurred: CMError(failure))
        }
    }
}
