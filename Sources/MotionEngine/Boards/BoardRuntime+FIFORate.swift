import Chips
public import MotionAlgorithms

/// A reader whose chip changes its sample rate in place (the FIFO IMUs): no reset, its other
/// registers and the other chips untouched.
protocol RateSwitchingReader: ChipReader {
    /// Reprograms the rate and flushes the FIFO (frames still in it are discarded: drain
    /// first); returns the new sample period, ns.
    func setSampleRate(hertz: Int, dataReadyInterrupt: Bool) throws(EngineError) -> Int64
}

extension FIFOReader: RateSwitchingReader {
    func setSampleRate(hertz: Int, dataReadyInterrupt: Bool) throws(EngineError) -> Int64 {
        do { return try driver.setSampleRate(hertz: hertz, dataReadyInterrupt: dataReadyInterrupt) } catch { throw .chip(label: label, error) }
    }
}

extension BoardRuntime {
    /// Runs the FIFO IMU `label` at `hertz` from now on, in place: the same runtime, time
    /// origin and motion source go on, and the other chips are not touched. What the FIFO holds
    /// is first drained at the old rate and delivered through `deliver`, stamped at the old
    /// period; then the driver writes the new rate and flushes the FIFO (no device reset), so
    /// every later frame is at the new period. The sample timing follows: the interval that
    /// spans the switch is judged against the longer of the two periods, so a switch alone
    /// counts no sample lost or repeated; an overflow before it still counts.
    ///
    /// `dataReady`: whether a chip with a data-ready line keeps waking the runtime through it.
    /// Off, the driver stops routing data ready to the pin and the chip is polled every quarter
    /// of its FIFO's span (at most 10 ms): at 1 kHz an edge per sample would wake the engine a
    /// thousand times a second for what one burst per 10 ms brings.
    ///
    /// Returns the new sample period, ns; nil when the board has no FIFO chip `label` (nothing
    /// changed). A failed drain or write throws with the rate unchanged or, if the rate
    /// register was written before the failure, with the chip and its timing at the new rate
    /// (the FIFO unflushed: its frames from before are stamped at the new period).
    @discardableResult
    public func setFIFORate(label: String, hertz: Int, dataReady: Bool,
                            deliver: (SensorReading) -> Void) throws(EngineError) -> Int64? {
        guard let session = sessions.first(where: { $0.chip.label == label }),
              let reader = session.reader as? any RateSwitchingReader else { return nil }
        let now = nowNanoseconds
        try readAll(session, at: now, sampleTime: now, byEdge: false, deliver: deliver)
        let period: Int64
        do {
            period = try reader.setSampleRate(hertz: hertz, dataReadyInterrupt: dataReady && session.chip.interruptLine != nil)
        } catch {
            // The rate register may have been written before the failure: the timing follows
            // the driver's period, whichever it is.
            if reader.samplePeriodNanoseconds != session.timing.samplePeriodNanoseconds {
                session.rateChanged(periodNanoseconds: reader.samplePeriodNanoseconds, edges: session.followsEdges, at: now)
            }
            throw error
        }
        session.rateChanged(periodNanoseconds: period, edges: dataReady, at: now)
        return period
    }
}
