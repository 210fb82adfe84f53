import FixedPoint
import MotionAlgorithms
import Testing
import TestSupport

@Suite struct ChannelStatisticsTests {
    @Test func meansAndLevelsMatchADoubleOracle() {
        var random = SeededRandom(seed: 41)
        var statistics = ChannelStatistics()
        var sum = (0.0, 0.0, 0.0), levelSum = 0.0, levelMinimum = Double.infinity, levelMaximum = -Double.infinity
        let count = 10_000
        for _ in 0..<count {
            let vector = Vector3(x: Q16_16(Double.random(in: -20...20, using: &random)),
                                 y: Q16_16(Double.random(in: -20...20, using: &random)),
                                 z: Q16_16(Double.random(in: -20...20, using: &random)))
            statistics.add(.acceleration(vector))
            let (x, y, z) = (vector.x.doubleValue, vector.y.doubleValue, vector.z.doubleValue)
            sum = (sum.0 + x, sum.1 + y, sum.2 + z)
            let level = (x * x + y * y + z * z).squareRoot()
            levelSum += level
            levelMinimum = min(levelMinimum, level)
            levelMaximum = max(levelMaximum, level)
        }
        let mean = statistics.meanRaw
        let lsb = 1.0 / 65536
        #expect(statistics.count == Int64(count))
        #expect(abs(Double(mean.x) * lsb - sum.0 / Double(count)) <= lsb)  // the mean rounds once
        #expect(abs(Double(mean.y) * lsb - sum.1 / Double(count)) <= lsb)
        #expect(abs(Double(mean.z) * lsb - sum.2 / Double(count)) <= lsb)
        // Each level is correctly rounded (≤ ½ LSB), so their mean is within 1 LSB.
        #expect(abs(Double(mean.level) * lsb - levelSum / Double(count)) <= lsb)
        #expect(abs(Double(statistics.levelMinimum) * lsb - levelMinimum) <= lsb / 2)
        #expect(abs(Double(statistics.levelMaximum) * lsb - levelMaximum) <= lsb / 2)
    }

    @Test func scalarChannelsUseTheirValueAsLevel() {
        var statistics = ChannelStatistics()
        statistics.add(.pressure(Q24_8(101_325.0)))
        statistics.add(.pressure(Q24_8(101_300.5)))
        #expect(statistics.meanRaw.level == Q24_8(101_312.75).rawValue)
        #expect(statistics.levelMinimum == Q24_8(101_300.5).rawValue)
        statistics = ChannelStatistics()
        statistics.add(.temperature(Q16_16(-3.0)))
        statistics.add(.temperature(Q16_16(-4.0)))
        #expect(statistics.meanRaw.level == Q16_16(-3.5).rawValue)  // negative means round symmetrically
        #expect(ChannelStatistics().meanRaw == (0, 0, 0, 0))
    }
}
