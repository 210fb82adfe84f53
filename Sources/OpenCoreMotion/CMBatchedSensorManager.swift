package import MotionManagerCore
import MotionAlgorithms
import MotionEngine

/// Core Motion's `CMBatchedSensorManager` on a Linux board: the accelerometer at its chip's
/// highest FIFO rate (1 kHz on the MPU-6050 family, 1.6 kHz on the BMI160) and device motion at
/// 200 Hz, delivered about once a second as arrays: a second of samples, each with its
/// FIFO-derived timestamp, strictly increasing at the FIFO's period.
///
/// While a batched stream runs, the board's IMU runs at that rate and is read in FIFO bursts
/// (every quarter of the FIFO's span, at most 10 ms; its data-ready line is not used); the
/// board's other streams (`CMMotionManager`, the pedometer, activity) get one frame of every
/// N, what they got at the board file's rate. Starting the first batched stream and stopping the
/// last changes only the IMU's rate, in place (`BoardRuntime.setFIFORate`): no chip reset, no
/// gap in the other streams, a simulated board's recording going on.
///
/// Without a board file (or with motiond's own), the manager uses motiond when it runs, as
/// `CMMotionManager` does: the daemon switches its board's IMU to the FIFO's rate for the first
/// batched client (its other clients, the pedometer, activity and the sensor recorder's 50 Hz
/// history go on unchanged) and sends each batch; the queue, the counts and the handlers here
/// behave the same. A daemon restart loses the samples of the break (counted in `fifo`) and the
/// stream resumes by itself.
///
/// Nothing is lost silently: a consumer that falls `queueCapacity` batches behind loses whole
/// batches, counted in `accelerometerDrops` / `deviceMotionDrops` with the samples missing
/// between FIFO reads and the FIFO overflows; the engine never waits for a consumer.
///
/// Thread-safe: every member may be used from any thread.
public final class CMBatchedSensorManager: Sendable, CustomStringConvertible {
    /// The board file, resolved (absolute).
    public let boardPath: String
    package let core: BatchedCore
    /// Why the board file could not be loaded (then nothing is supported).
    public let boardError: CMError?

    /// A manager of the board file at `board` (found as `CMMotionManager(board:)` finds it), or
    /// of the system's board when nil: motiond's when it answers, else the configured or probed
    /// board in-process. The rule is `CMMotionManager.init(board:daemonSocket:)`'s.
    public init(board: String? = nil, daemonSocket: String? = nil) {
        core = BatchedCore(board: board, daemonSocket: daemonSocket)
        boardPath = core.boardPath
        boardError = core.boardError.map(CMError.init)
    }

    public var description: String { "CMBatchedSensorManager(\(core.summary))" }

    /// Whether motiond serves this manager (`DaemonBackend`'s rule: no board file given, or the
    /// daemon's own; `OPENCOREMOTION_NO_DAEMON=1` never) rather than the in-process engine.
    public var isUsingDaemon: Bool { core.daemon != nil }
    /// "via motiond at /run/opencoremotion/motiond.sock" or "in-process engine".
    public var backendDescription: String { core.backend.summary }
    /// Each break of the connection to motiond so far, in seconds from the break to the
    /// re-subscription: the samples of each are counted in the drops' `fifo`.
    public var daemonGaps: [CMTimeInterval] { core.daemon?.reconnections.gapSeconds ?? [] }

    // MARK: Support and rates

    /// Core Motion's class property: whether the system's board (`init(board: nil)`) has an IMU read through a hardware FIFO. A manager of another board
    /// says its own.
    /// Core Motion's class property: whether this user may have motion data (motiond's policy:
    /// `CMAuthorizationStatus`), as for the other managers.
    public static var authorizationStatus: CMAuthorizationStatus { CMAuthorizationStatus.ofSystemBoard }

    public static var isAccelerometerSupported: Bool { CMBatchedSensorManager().isAccelerometerSupported }
    public static var isDeviceMotionSupported: Bool { CMBatchedSensorManager().isDeviceMotionSupported }

    /// Whether this manager's board has an IMU read through a hardware FIFO (MPU-6050 family,
    /// BMI160): its accelerometer batches.
    public var isAccelerometerSupported: Bool { core.isSupported }
    /// The same IMU's accelerometer and gyroscope give device motion.
    public var isDeviceMotionSupported: Bool { core.isSupported }

    /// Accelerometer samples per second in the batches, Hz (0 when not supported).
    public var accelerometerDataFrequency: Int { core.accelerometerFrequency }
    /// Device-motion samples per second in the batches, Hz (0 when not supported).
    public var deviceMotionDataFrequency: Int { core.deviceMotionFrequency }

    public var isAccelerometerActive: Bool { core.isAccelerometerActive }
    public var isDeviceMotionActive: Bool { core.isDeviceMotionActive }

    /// Batches a consumer may leave unread before newer ones are dropped (about 4 s).
    public static let queueCapacity = BatchedCore.defaultQueueCapacity

    /// What a batched stream lost, since it was last started.
    public struct Drops: Sendable, Equatable {
        /// Samples in batches dropped because the consumer was `queueCapacity` batches behind.
        public var queueFull: Int
        /// Samples missing between FIFO reads (by their timestamps: the FIFO overflowed).
        public var fifo: Int
        /// FIFO overflows the driver saw.
        public var fifoOverflows: Int
        /// Samples handed to the consumer's queue.
        public var delivered: Int

        public var total: Int { queueFull + fifo }
    }

    public var accelerometerDrops: Drops { Self.drops(core.accelerometerClient) }
    public var deviceMotionDrops: Drops { Self.drops(core.deviceMotionClient) }

    private static func drops<Element>(_ client: BatchClient<Element>?) -> Drops {
        Drops(queueFull: client?.queueDroppedSamples ?? 0, fifo: client?.fifoDroppedSamples ?? 0,
              fifoOverflows: client?.fifoOverflows ?? 0, delivered: client?.deliveredSamples ?? 0)
    }

    // MARK: Async sequences

    /// Core Motion's `CMBatchedSensorManager.AccelerometerUpdates`: an async sequence of batches
    /// (a stream here, where Apple has a struct of its own; `for try await` reads both alike).
    public typealias AccelerometerUpdates = AsyncThrowingStream<[CMAccelerometerData], any Error>
    /// Core Motion's `CMBatchedSensorManager.DeviceMotionUpdates`, as `AccelerometerUpdates`.
    public typealias DeviceMotionUpdates = AsyncThrowingStream<[CMDeviceMotion], any Error>

    /// Accelerometer batches (a second each, `accelerometerDataFrequency` samples) as they come.
    /// Iterating starts the stream (an unsupported board throws the `CMError` saying why);
    /// `stopAccelerometerUpdates()` ends it, cancelling the iterating task stops it, a board
    /// that fails throws. Leaving the loop with `break` does not stop it (the sequence cannot
    /// tell): call `stopAccelerometerUpdates()`, or let the manager go, whose deinit stops it.
    public func accelerometerUpdates() -> AccelerometerUpdates {
        let core = self.core
        let source = BatchSource<SensorReading>(start: { () throws(MotionManagerError) in try core.startAccelerometer() },
                                                stop: { client in if core.accelerometerClient === client { core.stopAccelerometer() } })
        return AsyncThrowingStream(unfolding: { try await source.next().map(Self.accelerometerBatch) })
    }

    /// Device-motion batches (a second each, `deviceMotionDataFrequency` samples, attitude in
    /// `xArbitraryZVertical`), as `accelerometerUpdates()`.
    public func deviceMotionUpdates() -> DeviceMotionUpdates {
        let core = self.core
        let source = BatchSource<DeviceMotion>(start: { () throws(MotionManagerError) in try core.startDeviceMotion() },
                                               stop: { client in if core.deviceMotionClient === client { core.stopDeviceMotion() } })
        return AsyncThrowingStream(unfolding: { try await source.next().map(Self.deviceMotionBatch) })
    }

    // MARK: Pull

    /// Starts accelerometer batches into `accelerometerBatch` (replacing a running stream). Does
    /// nothing on a board without a FIFO IMU (check `isAccelerometerSupported`).
    public func startAccelerometerUpdates() { _ = try? core.startAccelerometer(pull: true) }
    /// Starts device-motion batches into `deviceMotionBatch`.
    public func startDeviceMotionUpdates() { _ = try? core.startDeviceMotion(pull: true) }

    /// The latest accelerometer batch of updates started without a handler (nil before the
    /// first; kept after stop). Each batch replaces the one before: not reading loses nothing
    /// the engine counts, only what the caller chose not to look at.
    public var accelerometerBatch: [CMAccelerometerData]? { core.accelerometerClient?.latestBatch.map(Self.accelerometerBatch) }
    public var deviceMotionBatch: [CMDeviceMotion]? { core.deviceMotionClient?.latestBatch.map(Self.deviceMotionBatch) }

    // MARK: Handlers

    /// Calls `handler` with each accelerometer batch on a thread of the stream's own (never the
    /// engine thread; a handler slower than a batch a second makes batches wait, and past
    /// `queueCapacity` newer ones are dropped and counted). An unsupported board, or one that
    /// fails, gives one call with a nil batch and the `CMError` (the batch is optional, as Core
    /// Motion declares it).
    public func startAccelerometerUpdates(handler: @escaping ([CMAccelerometerData]?, (any Error)?) -> Void) {
        let handler = QueueHandler(handler).sendable
        do { try core.startAccelerometer(handler: Self.calling(handler, with: Self.accelerometerBatch)) } catch { handler(nil, CMError(error)) }
    }

    public func startDeviceMotionUpdates(handler: @escaping ([CMDeviceMotion]?, (any Error)?) -> Void) {
        let handler = QueueHandler(handler).sendable
        do { try core.startDeviceMotion(handler: Self.calling(handler, with: Self.deviceMotionBatch)) } catch { handler(nil, CMError(error)) }
    }

    /// The core's handler for a Core Motion one: each batch converted, or nil and the failure.
    private static func calling<Element, Data>(_ handler: @escaping @Sendable ([Data]?, (any Error)?) -> Void,
                                               with convert: @escaping @Sendable ([Element]) -> [Data]) -> BatchedCore.Handler<Element> {
        { batch, failure in
            if let batch { handler(convert(batch), nil) } else { handler(nil, failure.map(CMError.init)) }
        }
    }

    /// Stops accelerometer batches: once this returns (outside the handler) the handler is not
    /// running and will not run again; a sequence ends after what it has queued.
    public func stopAccelerometerUpdates() { core.stopAccelerometer() }
    public func stopDeviceMotionUpdates() { core.stopDeviceMotion() }

    // MARK: Conversions (engine units → Core Motion's, on the consumer's side)

    static func accelerometerBatch(_ readings: [SensorReading]) -> [CMAccelerometerData] {
        readings.map { CMMotionManager.accelerometerData(.accelerometer($0)) }
    }

    static func deviceMotionBatch(_ motions: [DeviceMotion]) -> [CMDeviceMotion] {
        motions.compactMap { CMMotionManager.deviceMotion(.deviceMotion($0, .xArbitraryZVertical)) }
    }
}
