package import MotionAlgorithms
package import MotionDaemonClient
import MotionDaemonProtocol
package import MotionEngine
import Locking

/// What a batched sensor manager is, without Core Motion's classes: a board, its FIFO IMU's
/// highest rate, and at most one running client per stream (accelerometer, device motion), kept
/// after it stops so that its counts stay readable. `CMBatchedSensorManager` (the Swift API) and
/// `ocm_batched_sensor_manager` (the C API) both wrap one; neither needs Foundation here.
///
/// When motiond serves the board (`DaemonBackend`'s rule, the other managers'), the daemon runs
/// the batched client on its engine and sends each batch (`DaemonBatches`); the queue, the
/// handler thread and the counts here work the same either way.
///
/// Thread-safe: every member may be used from any thread. Its deinit stops both streams.
package final class BatchedCore: DaemonOrBoardCore, Sendable {
    /// The board file, resolved (absolute); motiond's board file when the daemon serves it.
    package let boardPath: String
    /// Nil when motiond serves the board (`daemon`) or the board file could not be loaded.
    package let board: LiveBoard?
    /// The connection to motiond when it serves this manager (`DaemonBackend`'s rule).
    package let daemon: DaemonClient?
    /// Why the board file could not be loaded (nothing is then supported).
    package let boardError: MotionManagerError?
    /// The loader's own error, for the C API's status codes.
    package let boardFailure: EngineError?
    /// The board's FIFO IMU at its highest rate; nil: no batched sensors on this board, or it
    /// runs in motiond (`rates`).
    package let fifo: HighRateFIFO?
    /// The batched accelerometer's and device motion's rates, Hz (0: not supported), from the
    /// board file in-process or from motiond's welcome.
    private let rates: (accelerometer: Int, deviceMotion: Int)
    /// Batches a client's queue holds before new ones are dropped: 4 s of data.
    package static let defaultQueueCapacity = 4

    /// One stream's client: the running one, or the one stopped last (for its counts).
    private struct Slot<Element: Sendable> {
        var client: BatchClient<Element>?
        var running = false
        /// The thread calling the handler, for a stream started with one.
        var delivery: BatchDeliveryThread<Element>?
    }

    private struct State {
        var accelerometer = Slot<SensorReading>()
        var deviceMotion = Slot<DeviceMotion>()
    }

    private let state = Lock(State())

    /// A manager of the board file at `board` (resolved as `LiveBoard.resolve` does), or of the
    /// system's board when nil (motiond's when it runs: `DaemonBackend`; else `SystemBoard`'s).
    package init(board: String?, daemonSocket: String? = nil) {
        (daemon, self.board, boardPath, boardError, boardFailure) = DaemonBackend.source(board: board, daemonSocket: daemonSocket,
                                                                                          name: "batched sensor manager")
        fifo = self.board.flatMap { HighRateFIFO(board: $0.description) }
        if let daemon {
            let welcome = daemon.welcome
            rates = welcome.version >= 3 ? (Int(welcome.accelerometerBatchHertz), Int(welcome.deviceMotionBatchHertz)) : (0, 0)
        } else {
            rates = fifo.map { ($0.rateHertz, $0.deviceMotionRateHertz) } ?? (0, 0)
        }
    }

    deinit {
        stopAccelerometer()
        stopDeviceMotion()
        daemon?.close()
    }

    /// Whether the board has a FIFO IMU (accelerometer and gyroscope: both streams).
    package var isSupported: Bool { rates.accelerometer > 0 }

    /// Accelerometer samples per second (0: not supported).
    package var accelerometerFrequency: Int { rates.accelerometer }
    /// Device-motion samples per second (0: not supported).
    package var deviceMotionFrequency: Int { rates.deviceMotion }

    package var isAccelerometerActive: Bool { state.withLock { $0.accelerometer.running } }
    package var isDeviceMotionActive: Bool { state.withLock { $0.deviceMotion.running } }

    /// The accelerometer client running or stopped last (its counts), nil before any start.
    package var accelerometerClient: BatchClient<SensorReading>? { state.withLock { $0.accelerometer.client } }
    package var deviceMotionClient: BatchClient<DeviceMotion>? { state.withLock { $0.deviceMotion.client } }

    // MARK: Starting and stopping

    /// What a handler gets: a batch, or (nil, the failure) once when the board fails.
    package typealias Handler<Element> = @Sendable ([Element]?, MotionManagerError?) -> Void

    /// Starts accelerometer batches (replacing a running stream) once the engine runs them;
    /// throws when the board has no FIFO IMU or could not be brought up. They go to the client's
    /// queue, or with `pull` replace its latest batch, or with a `handler` reach it on a thread
    /// of the stream's own (a slow handler makes batches wait in the queue, never the engine).
    @discardableResult
    package func startAccelerometer(queueCapacity: Int = defaultQueueCapacity, pull: Bool = false,
                                    handler: Handler<SensorReading>? = nil) throws(MotionManagerError) -> BatchClient<SensorReading> {
        try start(\.accelerometer, hertz: rates.accelerometer, queueCapacity: queueCapacity, pull: pull, handler: handler,
                  BatchedClient.accelerometer, DaemonBatches.accelerometer)
    }

    @discardableResult
    package func startDeviceMotion(queueCapacity: Int = defaultQueueCapacity, pull: Bool = false,
                                   handler: Handler<DeviceMotion>? = nil) throws(MotionManagerError) -> BatchClient<DeviceMotion> {
        try start(\.deviceMotion, hertz: rates.deviceMotion, queueCapacity: queueCapacity, pull: pull, handler: handler,
                  BatchedClient.deviceMotion, DaemonBatches.deviceMotion)
    }

    /// Stops accelerometer batches: its queue ends after what it holds; once this returns the
    /// engine adds nothing more and (outside the handler) the handler is not running and will
    /// not run again. The client stays for its counts.
    package func stopAccelerometer() { stop(\.accelerometer, BatchedClient.accelerometer, .batchedAccelerometer) }
    package func stopDeviceMotion() { stop(\.deviceMotion, BatchedClient.deviceMotion, .batchedDeviceMotion) }

    private func start<Element>(_ slot: WritableKeyPath<State, Slot<Element>>, hertz: Int, queueCapacity: Int,
                                pull: Bool, handler: Handler<Element>?, _ wrap: (BatchClient<Element>) -> BatchedClient,
                                _ onDaemon: DaemonBatches.Stream<Element>) throws(MotionManagerError) -> BatchClient<Element> {
        let board = try checkSupported()
        stop(slot, wrap, onDaemon.wire)
        let client = BatchClient<Element>(frequencyHertz: hertz, queueCapacity: queueCapacity, pull: pull)
        state.withLock { $0[keyPath: slot] = Slot(client: client, running: true) }
        do throws(MotionManagerError) {
            if let daemon {
                try DaemonBatches.subscribe(client, onDaemon, on: daemon)
            } else if let board {
                try board.add(wrap(client))
            }
        } catch {
            state.withLock { state in if state[keyPath: slot].client === client { state[keyPath: slot].running = false } }
            throw error
        }
        if let handler {
            let delivery = BatchDeliveryThread.start(client: client, deliver: handler)
            let replaced = state.withLock { state -> Bool in
                guard state[keyPath: slot].client === client, state[keyPath: slot].running else { return true }
                state[keyPath: slot].delivery = delivery
                return false
            }
            if replaced { delivery.finish() }  // stopped meanwhile: its queue has ended
        }
        return client
    }

    private func stop<Element>(_ slot: WritableKeyPath<State, Slot<Element>>, _ wrap: (BatchClient<Element>) -> BatchedClient,
                               _ wire: WireStream) {
        let (running, delivery) = state.withLock { state -> (BatchClient<Element>?, BatchDeliveryThread<Element>?) in
            defer {
                state[keyPath: slot].running = false
                state[keyPath: slot].delivery = nil
            }
            return (state[keyPath: slot].running ? state[keyPath: slot].client : nil, state[keyPath: slot].delivery)
        }
        if let running {
            if let board { board.remove(wrap(running)) }
            if let daemon {
                daemon.unsubscribe(wire)
                running.cancel(nil)
            }
        }
        delivery?.finish()
    }

    /// The in-process board (nil on motiond), or the error Core Motion reports when batches
    /// cannot run.
    private func checkSupported() throws(MotionManagerError) -> LiveBoard? {
        if let daemon {
            if let error = DaemonBackend.authorizationError(daemon, doing: "Starting batched sensor updates") { throw error }
            guard isSupported else {
                let reason = daemon.welcome.version < 3 ? "speaks protocol version \(daemon.welcome.version), which has no batched sensors: update motiond"
                    : "has no IMU read through a hardware FIFO, which batched sensors need"
                throw MotionManagerError(.notAvailable, "motiond's board \"\(daemon.welcome.boardName)\" (at \(daemon.path)) \(reason). "
                                         + "Check `isAccelerometerSupported` before starting.")
            }
            return nil
        }
        guard let board else { throw boardError ?? MotionManagerError(.notAvailable, "The board file \(boardPath) could not be loaded.") }
        guard fifo != nil else {
            throw MotionManagerError(.notAvailable, "The board file \(board.path) (\"\(board.description.name)\") has no IMU read through a "
                                     + "hardware FIFO, which batched sensors need: its chips are \(BoardSensors.chipList(board.description)). "
                                     + "Check `isAccelerometerSupported` before starting, or use a board with an MPU-6050 family chip "
                                     + "(driver = mpu6050, mpu9250) or a BMI160 (driver = bmi160).")
        }
        return board
    }
}
