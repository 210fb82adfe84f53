import MotionEngine

extension EngineWorker {
    /// Adds a batched client, first switching the board's FIFO IMU to its highest rate if it is
    /// not there yet; the error when the board has no FIFO IMU or the chip could not be switched.
    func addBatched(_ client: BatchedClient) -> MotionManagerError? {
        guard let fifo = batched.fifo else {
            // BatchedCore checks first; reached only if the board file changed meaning.
            return MotionManagerError(.notAvailable, "The board file \(board.path) has no IMU read through a hardware FIFO.")
        }
        if running != fifo.description {
            let normalPeriod = samplePeriod(of: fifo.label)
            do {
                try restart(fifo.description)
            } catch {
                return MotionManagerError(.unknown, "The board file \(board.path) could not run its chip \"\(fifo.label)\" at "
                                          + "\(fifo.rateHertz) Hz for batched sensors: \(error)")
            }
            let fastPeriod = samplePeriod(of: fifo.label)
            batched.runtimeChanged(decimation: Int((normalPeriod + fastPeriod / 2) / max(1, fastPeriod)), periodNanoseconds: fastPeriod,
                                   overflows: fastChipOverflows)
        }
        batched.add(client)
        return nil
    }

    /// Removes a batched client; the last one puts the chip back at the board file's rate (if
    /// that fails, the chip stays fast and the other streams keep getting their decimated share).
    func removeBatched(id: Int) {
        batched.remove(id: id)
        guard batched.isEmpty, running != board.description else { return }
        do {
            try restart(board.description)
            batched.runtimeChanged(decimation: 1, periodNanoseconds: 0, overflows: 0)
        } catch {
            // Kept fast: the next step reports a board that really failed.
        }
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
