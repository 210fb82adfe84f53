import MotionEngine

extension EngineWorker {
    /// Adds a batched client, first switching the board's FIFO IMU to its highest rate if it is
    /// not there yet; the error when the board has no FIFO IMU or the chip could not be switched.
    func addBatched(_ client: BatchedClient) -> MotionManagerError? {
        guard let fifo = batched.fifo else {
            // BatchedCore checks first; reached only if the board file changed meaning.
            return MotionManagerError(.notAvailable, "The board file \(board.path) has no IMU read through a hardware FIFO.")
        }
        switchBackDueNanoseconds = nil  // a switch back still waiting is off: the chip stays fast
        if !fifoRunsFast {
            let normalPeriod = samplePeriod(of: fifo.label)
            let fastPeriod: Int64
            do {
                // The frames read at the board's rate go to the other streams as they were.
                let period = try runtime.setFIFORate(label: fifo.label, hertz: fifo.rateHertz, dataReady: false) { publish($0) }
                guard let period else {
                    return MotionManagerError(.notAvailable, "The board file \(board.path) has no FIFO chip \"\(fifo.label)\".")
                }
                fastPeriod = period
            } catch {
                // Back where it was, if the bus lets us (the rate may have been written).
                _ = try? runtime.setFIFORate(label: fifo.label, hertz: fifo.boardRateHertz, dataReady: true) { publish($0) }
                return MotionManagerError(.unknown, "The board file \(board.path) could not run its chip \"\(fifo.label)\" at "
                                          + "\(fifo.rateHertz) Hz for batched sensors: \(error)")
            }
            fifoRunsFast = true
            batched.rateChanged(decimation: Int((normalPeriod + fastPeriod / 2) / max(1, fastPeriod)), periodNanoseconds: fastPeriod,
                                   overflows: fastChipOverflows)
        }
        batched.add(client)
        return nil
    }

    /// Removes a batched client; the last one puts the chip back at the board file's rate, right
    /// after the next frame the other streams get (`BatchedStage.nextPassingFrameNanoseconds`,
    /// at most one board period away): their next frame, the first at the board's rate, then
    /// follows it by about one board period.
    func removeBatched(id: Int) {
        batched.remove(id: id)
        guard batched.isEmpty, fifoRunsFast else { return }
        switchBackDueNanoseconds = max(0, (batched.nextPassingFrameNanoseconds ?? origin) - origin)
        if let due = switchBackDueNanoseconds, due <= runtime.nowNanoseconds { switchBack() }
    }

    /// Puts the chip back at the board file's rate, in place: what its FIFO holds goes on at the
    /// fast rate, decimated as before. If that fails, the chip stays fast (put back there if the
    /// rate was written) and the other streams keep getting their decimated share (the next step
    /// reports a board that really failed).
    func switchBack() {
        switchBackDueNanoseconds = nil
        guard batched.isEmpty, fifoRunsFast, let fifo = batched.fifo else { return }
        do {
            try runtime.setFIFORate(label: fifo.label, hertz: fifo.boardRateHertz, dataReady: true) { publish($0) }
        } catch {
            _ = try? runtime.setFIFORate(label: fifo.label, hertz: fifo.rateHertz, dataReady: false) { publish($0) }
            return
        }
        fifoRunsFast = false
        batched.rateChanged(decimation: 1, periodNanoseconds: 0, overflows: 0)
    }

    /// FIFO overflows of the fast chip so far.
    var fastChipOverflows: Int {
        guard let label = batched.fifo?.label else { return 0 }
        return runtime.status.first { $0.label == label }?.overflows ?? 0
    }

    private func samplePeriod(of label: String) -> Int64 {
        runtime.status.first { $0.label == label }?.samplePeriodNanoseconds ?? 0
    }
}
