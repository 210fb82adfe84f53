import FixedPoint
import MotionAlgorithms
import MotionDaemonProtocol
import MotionEngine

/// motiond's wire records (Core Motion's units, CLOCK_REALTIME seconds) back in the engine's
/// types (engine units, CLOCK_MONOTONIC ns of this process), so that a core fed by the daemon
/// delivers exactly what one fed by the in-process engine does. Values pass through Q16.16
/// (1.5 × 10⁻⁵ of their unit) and the attitude through Q2.30, as the engine's own do.
enum DaemonSamples {
    /// The engine time (ns) of a wire time (CLOCK_REALTIME s).
    static func engineNanoseconds(_ wallSeconds: Double) -> Int64 {
        WallClock.engineTime(unixNanoseconds: Int64((wallSeconds * 1e9).rounded()))
    }

    /// The wire time (CLOCK_REALTIME s) of an engine time (ns).
    static func wallSeconds(_ engineNanoseconds: Int64) -> Double {
        Double(WallClock.unixTime(engineNanoseconds: engineNanoseconds)) / 1e9
    }

    static func vector(_ v: [Double]) -> Vector3 {
        Vector3(x: Q16_16(v.count > 0 ? v[0] : 0), y: Q16_16(v.count > 1 ? v[1] : 0), z: Q16_16(v.count > 2 ? v[2] : 0))
    }

    /// A raw stream's sample; the accelerometer goes back from g (Core Motion's sign) to specific force, m/s².
    static func motionSample(_ sample: VectorSample, stream: MotionStream) -> MotionSample {
        let time = engineNanoseconds(sample.time)
        switch stream {
        case .accelerometer:
            let force = vector([-sample.x * standardGravity, -sample.y * standardGravity, -sample.z * standardGravity])
            return .accelerometer(SensorReading(timestampNanoseconds: time, value: .acceleration(force)))
        case .gyroscope:
            return .gyroscope(SensorReading(timestampNanoseconds: time, value: .angularVelocity(vector([sample.x, sample.y, sample.z]))))
        case .magnetometer, .deviceMotion:
            return .magnetometer(SensorReading(timestampNanoseconds: time, value: .magneticField(vector([sample.x, sample.y, sample.z]))))
        }
    }

    static func motionSample(_ sample: DeviceMotionSample) -> MotionSample {
        let motion = DeviceMotion(timestampNanoseconds: engineNanoseconds(sample.time),
                                  attitude: Quaternion(w: Q2_30(sample.w), x: Q2_30(sample.x), y: Q2_30(sample.y), z: Q2_30(sample.z)),
                                  gravity: vector(sample.gravity), userAcceleration: vector(sample.userAcceleration),
                                  rotationRate: vector(sample.rotationRate), magneticField: vector(sample.magneticField),
                                  magneticAccuracy: sample.magneticAccuracy, heading: Q16_16(sample.heading))
        return .deviceMotion(motion, ReferenceFrames(rawValue: UInt(sample.frame)).engineFrame ?? .xArbitraryZVertical)
    }

    /// The samples of a batch as the engine would have delivered them.
    static func motionSamples(_ batch: SampleBatch) -> [MotionSample] {
        switch batch {
        case .vectors(let stream, let samples):
            guard let motionStream = MotionStream(rawValue: Int(stream.rawValue)) else { return [] }
            return samples.map { motionSample($0, stream: motionStream) }
        case .deviceMotion(let samples): return samples.map(motionSample)
        case .pedometer, .pedometerEvents, .activity, .altitude: return []
        }
    }

    static func altitudeValues(_ sample: AltitudeSample) -> AltitudeValues {
        AltitudeValues(timestampNanoseconds: engineNanoseconds(sample.time), relativeAltitude: sample.relativeAltitude,
                       pressureKilopascals: sample.pressure, absoluteAltitude: sample.absoluteAltitude, accuracy: sample.accuracy,
                       precision: sample.precision)
    }

    static func pedometerValues(_ sample: PedometerSample) -> PedometerValues {
        PedometerValues(startNanoseconds: engineNanoseconds(sample.start), endNanoseconds: engineNanoseconds(sample.end),
                        numberOfSteps: sample.steps, distanceMeters: sample.distance, floorsAscended: sample.floorsAscended,
                        floorsDescended: sample.floorsDescended, currentPace: sample.currentPace, currentCadence: sample.currentCadence,
                        averageActivePace: sample.averageActivePace)
    }

    static func pedometerEvent(_ sample: PedometerEventSample) -> PedometerEvent {
        PedometerEvent(kind: sample.isResume ? .resume : .pause, timeNanoseconds: engineNanoseconds(sample.time),
                       deliveredNanoseconds: engineNanoseconds(sample.delivered))
    }

    static func activityEstimate(_ sample: ActivitySample) -> MotionActivityEstimate {
        MotionActivityEstimate(flags: MotionActivityFlags(rawValue: sample.flags), confidence: MotionActivityConfidence(rawValue: sample.confidence) ?? .low,
                               startNanoseconds: engineNanoseconds(sample.start))
    }

    /// A live transition (`time` is when it was delivered).
    static func activityUpdate(_ sample: ActivitySample) -> MotionActivityUpdate {
        MotionActivityUpdate(activity: activityEstimate(sample), deliveredNanoseconds: engineNanoseconds(sample.time))
    }

    /// A history record (`time` is when it ends).
    static func activityRecord(_ sample: ActivitySample) -> ActivityHistory.Record {
        ActivityHistory.Record(activity: activityEstimate(sample), endNanoseconds: engineNanoseconds(sample.time))
    }
}

extension PedometerValues {
    /// Every field given (a daemon's update or query answer).
    init(startNanoseconds: Int64, endNanoseconds: Int64, numberOfSteps: Int, distanceMeters: Double, floorsAscended: Int?,
         floorsDescended: Int?, currentPace: Double?, currentCadence: Double?, averageActivePace: Double?) {
        (self.startNanoseconds, self.endNanoseconds, self.numberOfSteps, self.distanceMeters) = (startNanoseconds, endNanoseconds, numberOfSteps, distanceMeters)
        (self.floorsAscended, self.floorsDescended) = (floorsAscended, floorsDescended)
        (self.currentPace, self.currentCadence, self.averageActivePace) = (currentPace, currentCadence, averageActivePace)
    }
}
