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

    private struct State {
        var accelerometer: BatchClient<SensorReading>?
        var deviceMotion: BatchClient<DeviceMotion>?
        var accelerometerRunning = false
        var deviceMotionRunning = false
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

    package var isAccelerometerActive: Bool { state.withLock { $0.accelerometerRunning } }
    package var isDeviceMotionActive: Bool { state.withLock { $0.deviceMotionRunning } }

    /// The accelerometer client running or stopped last (its counts), nil before any start.
    package var accelerometerClient: BatchClient<SensorReading>? { state.withLock { $0.accelerometer } }
    package var deviceMotionClient: BatchClient<DeviceMotion>? { state.withLock { $0.deviceMotion } }

    // MARK: Starting and stopping

    /// Starts accelerometer batches (replacing a running stream); returns the client whose
    /// queue gets them once the engine runs it; throws when the board has no FIFO IMU or could
    /// not be brought up.
    package func startAccelerometer(queueCapacity: Int = defaultQueueCapacity) throws(MotionManagerError) -> BatchClient<SensorReading> {
        let (board, fifo) = try checkSupported()
        stopAccelerometer()
        let client = BatchClient<SensorReading>(frequencyHertz: fifo.rateHertz, queueCapacity: queueCapacity)
        state.withLock { $0.accelerometer = client; $0.accelerometerRunning = true }
        do {
            try board.add(.accelerometer(client))
        } catch {
            state.withLock { state in if state.accelerometer === client { state.accelerometerRunning = false } }
            throw error
        }
        return client
    }

    package func startDeviceMotion(queueCapacity: Int = defaultQueueCapacity) throws(MotionManagerError) -> BatchClient<DeviceMotion> {
        let (board, fifo) = try checkSupported()
        stopDeviceMotion()
        let client = BatchClient<DeviceMotion>(frequencyHertz: fifo.deviceMotionRateHertz, queueCapacity: queueCapacity)
        state.withLock { $0.deviceMotion = client; $0.deviceMotionRunning = true }
        do {
            try board.add(.deviceMotion(client))
        } catch {
            state.withLock { state in if state.deviceMotion === client { state.deviceMotionRunning = false } }
            throw error
        }
        return client
    }

    /// Stops accelerometer batches: its queue ends after what it holds; once this returns the
    /// engine adds nothing more. The client stays for its counts.
    package func stopAccelerometer() {
        let running = state.withLock { state -> BatchClient<SensorReading>? in
            defer { state.accelerometerRunning = false }
            return state.accelerometerRunning ? state.accelerometer : nil
        }
        if let running, let board { board.remove(.accelerometer(running)) }
    }

    package func stopDeviceMotion() {
        let running = state.withLock { state -> BatchClient<DeviceMotion>? in
            defer { state.deviceMotionRunning = false }
            return state.deviceMotionRunning ? state.deviceMotion : nil
        }
        if let running, let board { board.remove(.deviceMotion(running)) }
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
