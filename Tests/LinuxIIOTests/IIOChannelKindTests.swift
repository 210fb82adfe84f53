import LinuxIIO
import Testing

@Suite struct IIOChannelKindTests {
    @Test func channelIDsMapToKindsAndAxes() {
        #expect(IIOChannelKind.parse(channelID: "accel_x")! == (.acceleration, 0))
        #expect(IIOChannelKind.parse(channelID: "anglvel_z")! == (.angularVelocity, 2))
        #expect(IIOChannelKind.parse(channelID: "magn_y")! == (.magneticField, 1))
        #expect(IIOChannelKind.parse(channelID: "pressure")! == (.pressure, nil))
        #expect(IIOChannelKind.parse(channelID: "temp")! == (.temperature, nil))
        for ignored in ["timestamp", "illuminance", "accel_w", "accel", "pressure_x", "magn_x_y"] {
            #expect(IIOChannelKind.parse(channelID: ignored) == nil, "\(ignored)")
        }
    }

    @Test func unitFactorsFollowTheIIOABI() {
        #expect(IIOChannelKind.magneticField.toSIFactor == 100)   // Gauss → µT
        #expect(IIOChannelKind.pressure.toSIFactor == 1000)       // kPa → Pa
        #expect(IIOChannelKind.temperature.toSIFactor == 0.001)   // m°C → °C
        #expect(IIOChannelKind.acceleration.toSIFactor == 1)
    }

    @Test func mountMatricesParseAndApplyAsRows() throws {
        let matrix = try #require(MountMatrix(text: "0, 1, 0; -1, 0, 0; 0, 0, 1\n"))
        let rotated = matrix.apply((1, 2, 3))
        #expect(rotated == (2, -1, 3))
        #expect(MountMatrix(text: "1, 0, 0; 0, 1, 0") == nil)
        #expect(MountMatrix(text: "1, 0, 0; 0, one, 0; 0, 0, 1") == nil)
        #expect(MountMatrix(text: "0.5, 0, 0; 0, 1, 0; 0, 0, 1")?.rows[0][0] == 0.5)
    }
}
