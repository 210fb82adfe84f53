import MotionAlgorithms
package import MotionEngine
package import MotionDaemonProtocol
package import MotionManagerCore

/// The engine's samples, events and history records in the wire's units (PROTOCOL.md,
/// "Records"): Core Motion's (g with its sign, rad/s, µT), times CLOCK_REALTIME s.
extension DaemonClock {
    /// A raw stream's sample (nil for device motion: `deviceMotion(_:)`).
    package func vector(_ sample: MotionSample) -> VectorSample? {
        let time = wireSeconds(sample.timestampNanoseconds)
        switch sample {
        case .accelerometer:
            let g = sample.coreMotionAcceleration
            return VectorSample(time: time, x: g.x, y: g.y, z: g.z)
        case .gyroscope, .magnetometer:
            let v = sample.vector
            return VectorSample(time: time, x: v.x.doubleValue, y: v.y.doubleValue, z: v.z.doubleValue)
        case .deviceMotion:
            return nil
        }
    }

    package func deviceMotion(_ sample: MotionSample) -> DeviceMotionSample? {
        guard let values = sample.deviceMotionValues else { return nil }
        func axes(_ v: Vector3Values) -> [Double] { [v.x, v.y, v.z] }
        return DeviceMotionSample(time: wireSeconds(values.timestampNanoseconds), w: values.w, x: values.x, y: values.y, z: values.z,
                                  rotationRate: axes(values.rotationRate), gravity: axes(values.gravity),
                                  userAcceleration: axes(values.userAcceleration), magneticField: axes(values.magneticField),
                                  magneticAccuracy: Int8(clamping: values.magneticAccuracy), heading: values.heading,
                                  frame: UInt8(truncatingIfNeeded: values.frame.rawValue))
    }

    package func pedometer(_ values: PedometerValues) -> PedometerSample {
        PedometerSample(start: wireSeconds(values.startNanoseconds), end: wireSeconds(values.endNanoseconds), steps: values.numberOfSteps,
                        distance: values.distanceMeters, floorsAscended: values.floorsAscended, floorsDescended: values.floorsDescended,
                        currentPace: values.currentPace, currentCadence: values.currentCadence, averageActivePace: values.averageActivePace)
    }

    package func pedometerEvent(_ event: PedometerEvent) -> PedometerEventSample {
        PedometerEventSample(time: wireSeconds(event.timeNanoseconds), delivered: wireSeconds(event.deliveredNanoseconds),
                             isResume: event.kind == .resume)
    }

    package func activity(_ update: MotionActivityUpdate) -> ActivitySample {
        ActivitySample(start: wireSeconds(update.activity.startNanoseconds), time: wireSeconds(update.deliveredNanoseconds),
                       flags: update.activity.flags.rawValue, confidence: update.activity.confidence.rawValue)
    }

    package func altitude(_ values: AltitudeValues) -> AltitudeSample {
        AltitudeSample(time: wireSeconds(values.timestampNanoseconds), relativeAltitude: values.relativeAltitude,
                       pressure: values.pressureKilopascals, absoluteAltitude: values.absoluteAltitude,
                       accuracy: values.accuracy, precision: values.precision)
    }

    /// An activity update with its times moved to the wall clock (what the history stores).
    package func wall(_ update: MotionActivityUpdate) -> MotionActivityUpdate {
        var moved = update
        moved.activity.startNanoseconds = wallNanoseconds(update.activity.startNanoseconds)
        moved.deliveredNanoseconds = wallNanoseconds(update.deliveredNanoseconds)
        return moved
    }

    /// A pedometer output with its times moved to the wall clock.
    package func wall(_ output: PedometerOutput) -> PedometerOutput {
        switch output {
        case .step(let time, let length):
            return .step(timeNanoseconds: wallNanoseconds(time), lengthMeters: length)
        case .floor(let time, let ascended):
            return .floor(timeNanoseconds: wallNanoseconds(time), ascended: ascended)
        case .event(var event):
            event.timeNanoseconds = wallNanoseconds(event.timeNanoseconds)
            event.deliveredNanoseconds = wallNanoseconds(event.deliveredNanoseconds)
            return .event(event)
        }
    }
}

/// History records (wall-clock ns) in wire seconds.
enum HistoryConversion {
    static func seconds(_ wall: Int64) -> Double { Double(wall) / 1e9 }

    static func activity(_ record: ActivityHistory.Record) -> ActivitySample {
        ActivitySample(start: seconds(record.activity.startNanoseconds), time: seconds(record.endNanoseconds),
                       flags: record.activity.flags.rawValue, confidence: record.activity.confidence.rawValue)
    }

    static func pedometer(_ totals: PedometerRangeTotals, from: Int64, to: Int64, hasBarometer: Bool) -> PedometerSample {
        PedometerSample(start: seconds(from), end: seconds(to), steps: totals.numberOfSteps, distance: totals.distanceMeters,
                        floorsAscended: hasBarometer ? totals.floorsAscended : nil, floorsDescended: hasBarometer ? totals.floorsDescended : nil,
                        averageActivePace: totals.averageActivePace)
    }
}
