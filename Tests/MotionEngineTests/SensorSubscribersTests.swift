import FixedPoint
import MotionAlgorithms
import MotionEngine
import Testing

@Suite struct SensorSubscribersTests {
    /// One second of a 100 Hz accelerometer + gyroscope with ±1 ms timing jitter, and a 25 Hz barometer.
    static func readings() -> [SensorReading] {
        var readings: [SensorReading] = []
        for k in 0..<100 {
            let jitter = Int64([0, 1, -1, 0, 1][k % 5]) * 1_000_000
            let time = Int64(k) * 10_000_000 + jitter
            readings.append(SensorReading(timestampNanoseconds: time, value: .acceleration(Vector3(x: .zero, y: .zero, z: Q16_16(9.8)))))
            readings.append(SensorReading(timestampNanoseconds: time, value: .angularVelocity(Vector3(x: .zero, y: .zero, z: .zero))))
            if k % 4 == 0 { readings.append(SensorReading(timestampNanoseconds: time, value: .pressure(Q24_8(101_325.0)))) }
        }
        return readings
    }

    @Test func eachSubscriberGetsItsSensorsAtItsOwnInterval() {
        let subscribers = SensorSubscribers()
        var all: [SensorReading] = [], slow: [SensorReading] = [], pressure: [SensorReading] = []
        _ = subscribers.subscribe([.accelerometer, .gyroscope]) { all.append($0) }
        _ = subscribers.subscribe([.accelerometer], intervalNanoseconds: 50_000_000) { slow.append($0) }
        _ = subscribers.subscribe([.barometer], intervalNanoseconds: 10_000_000) { pressure.append($0) }
        for reading in Self.readings() { subscribers.publish(reading) }
        #expect(all.count == 200)
        // 20 Hz out of a jittery 100 Hz stream: every fifth sample, not every sixth.
        #expect(slow.count == 20)
        #expect(slow.allSatisfy { $0.value.channel == .accelerometer })
        let gaps = zip(slow, slow.dropFirst()).map { $1.timestampNanoseconds - $0.timestampNanoseconds }
        #expect(gaps.allSatisfy { abs($0 - 50_000_000) <= 2_000_000 }, "\(gaps)")
        // An interval shorter than the source's period passes every reading.
        #expect(pressure.count == 25)
    }

    @Test func anUnsubscribedHandlerGetsNothingMore() {
        let subscribers = SensorSubscribers()
        var first = 0, second = 0
        let token = subscribers.subscribe([.accelerometer]) { _ in first += 1 }
        _ = subscribers.subscribe([.accelerometer]) { _ in second += 1 }
        let reading = SensorReading(timestampNanoseconds: 0, value: .acceleration(Vector3(x: .zero, y: .zero, z: .zero)))
        subscribers.publish(reading)
        subscribers.unsubscribe(token)
        subscribers.publish(reading)
        #expect(first == 1 && second == 2 && subscribers.count == 1)
    }
}
