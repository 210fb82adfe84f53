package import MotionAlgorithms
package import MotionEngine
import Synchronization

/// What a batched sensor manager is, without Core Motion's classes: a board, its FIFO IMU's
/// highest rate, and at most one running client per stream (accelerometer, device motion), kept
/// after it stops so that its counts stay readable. `CMBatchedSensorManager` (the Swift API) and
/// `ocm_batched_sensor_manager` (the C API) both wrap one; neither needs Foundation here.
///
/// Thread-safe: every member may be used from any thread. Its deinit stops both streams.
package final class BatchedCore: Sendable {
    /// The board file, resolved (absolute).
    package let boardPath: String
    package let board: LiveBoard?
    /// Why the board file could not be loaded (nothing is then supported).
    package let boardError: MotionManagerError?
    /// The loader's own error, for the C API's status codes.
    package let boardFailure: EngineError?
    /// The board's FIFO IMU at its highest rate; nil: no batched sensors on this board.
    package let fifo: HighRateFIFO?
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

    private let state = Mutex(State())

    /// `boards/sim-gy-521.board`: a simulated MPU-6050 read through its FIFO.
    package static var defaultBoardPath: String { BoardDescription.boardsFolder + "/sim-gy-521.board" }

    package init(board: String) {
        let load = BoardFileLoad(board)
        (self.board, boardPath, boardError, boardFailure) = (load.board, load.path, load.error, load.failure)
        fifo = load.board.flatMap { HighRateFIFO(board: $0.description) }
    }

    deinit {
        stopAccelerometer()
        stopDeviceMotion()
    }

    /// "/…/boards/sim-gy-521.board: \"…\"" or "/…/x.board, not loaded".
    package var summary: String {
        boardPath + (board.map { ": \"\($0.description.name)\"" } ?? ", not loaded")
    }

    /// Whether the board has a FIFO IMU (accelerometer and gyroscope: both streams).
    package var isSupported: Bool { fifo != nil }

    /// Accelerometer samples per second (0: not supported).
    package var accelerometerFrequency: Int { fifo?.rateHertz ?? 0 }
    /// Device-motion samples per second (0: not supported).
    package var deviceMotionFrequency: Int { fifo?.deviceMotionRateHertz ?? 0 }

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
        try start(\.accelerometer, hertz: \.rateHertz, queueCapacity: queueCapacity, pull: pull, handler: handler, BatchedClient.accelerometer)
    }

    @discardableResult
    package func startDeviceMotion(queueCapacity: Int = defaultQueueCapacity, pull: Bool = false,
                                   handler: Handler<DeviceMotion>? = nil) throws(MotionManagerError) -> BatchClient<DeviceMotion> {
        try start(\.deviceMotion, hertz: \.deviceMotionRateHertz, queueCapacity: queueCapacity, pull: pull, handler: handler,
                  BatchedClient.deviceMotion)
    }

    /// Stops accelerometer batches: its queue ends after what it holds; once this returns the
    /// engine adds nothing more and (outside the handler) the handler is not running and will
    /// not run again. The client stays for its counts.
    package func stopAccelerometer() { stop(\.accelerometer, BatchedClient.accelerometer) }
    package func stopDeviceMotion() { stop(\.deviceMotion, BatchedClient.deviceMotion) }

    private func start<Element>(_ slot: WritableKeyPath<State, Slot<Element>>, hertz: KeyPath<HighRateFIFO, Int>, queueCapacity: Int,
                                pull: Bool, handler: Handler<Element>?,
                                _ wrap: (BatchClient<Element>) -> BatchedClient) throws(MotionManagerError) -> BatchClient<Element> {
        let (board, fifo) = try checkSupported()
        stop(slot, wrap)
        let client = BatchClient<Element>(frequencyHertz: fifo[keyPath: hertz], queueCapacity: queueCapacity, pull: pull)
        state.withLock { $0[keyPath: slot] = Slot(client: client, running: true) }
        do {
            try board.add(wrap(client))
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

    private func stop<Element>(_ slot: WritableKeyPath<State, Slot<Element>>, _ wrap: (BatchClient<Element>) -> BatchedClient) {
        let (running, delivery) = state.withLock { state -> (BatchClient<Element>?, BatchDeliveryThread<Element>?) in
            defer {
                state[keyPath: slot].running = false
                state[keyPath: slot].delivery = nil
            }
            return (state[keyPath: slot].running ? state[keyPath: slot].client : nil, state[keyPath: slot].delivery)
        }
        if let running, let board { board.remove(wrap(running)) }
        delivery?.finish()
    }

    /// The board and its FIFO IMU, or the error Core Motion reports when batches cannot run.
    private func checkSupported() throws(MotionManagerError) -> (LiveBoard, HighRateFIFO) {
        guard let board else { throw boardError ?? MotionManagerError(.notAvailable, "The board file \(boardPath) could not be loaded.") }
        guard let fifo else {
            throw MotionManagerError(.notAvailable, "The board file \(board.path) (\"\(board.description.name)\") has no IMU read through a "
                                     + "hardware FIFO, which batched sensors need: its chips are \(BoardSensors.chipList(board.description)). "
                                     + "Check `isAccelerometerSupported` before starting, or use a board with an MPU-6050 family chip "
                                     + "(driver = mpu6050, mpu9250) or a BMI160 (driver = bmi160).")
        }
        return (board, fifo)
    }
}
