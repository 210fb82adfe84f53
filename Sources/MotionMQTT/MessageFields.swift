import MotionManagerCore

extension DeviceMotionFields {
    /// A device-motion sample's numbers, as `CMDeviceMotion` gives them.
    init(_ motion: DeviceMotionValues) {
        func floats(_ v: Vector3Values) -> (x: Float, y: Float, z: Float) { (Float(v.x), Float(v.y), Float(v.z)) }
        self.init(w: Float(motion.w), x: Float(motion.x), y: Float(motion.y), z: Float(motion.z),
                  rotationRate: floats(motion.rotationRate), gravity: floats(motion.gravity),
                  userAcceleration: floats(motion.userAcceleration), magneticField: floats(motion.magneticField),
                  heading: Float(motion.heading), magneticAccuracy: Int8(motion.magneticAccuracy), referenceFrame: UInt8(motion.frame.rawValue))
    }
}

extension PedometerFields {
    /// A live pedometer update's numbers, its engine times moved to the wall clock by `offset` ns.
    init(_ values: PedometerValues, offset: Int64) {
        self.init(startUnixNanoseconds: values.startNanoseconds + offset, endUnixNanoseconds: values.endNanoseconds + offset,
                  numberOfSteps: UInt32(clamping: values.numberOfSteps), distanceMeters: Float(values.distanceMeters),
                  floorsAscended: values.floorsAscended.map { Int32(clamping: $0) }, floorsDescended: values.floorsDescended.map { Int32(clamping: $0) },
                  currentPace: values.currentPace.map(Float.init), currentCadence: values.currentCadence.map(Float.init),
                  averageActivePace: values.averageActivePace.map(Float.init))
    }
}
