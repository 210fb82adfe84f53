/// Depth, submersion state and submerged/surfaced events from a depth sensor's pressure.
///
/// Depth = (p − p_surface) / (ρ g), with ρ the configured water density and g standard
/// gravity. The surface pressure is learned before the dive, while not submerged:
/// - the first reading seeds it;
/// - each later reading from `reseedBand` (5 cm of water) below it to `learningBand` (1 cm)
///   above it moves it by an exponential average with a `learningSeconds` (4 s) time
///   constant, so slow weather changes are followed. The band is lopsided because water only
///   adds pressure: 1 cm is 5σ of the 30BA's noise, so still air is always taken, while a
///   splash, surface chop or the start of a descent (all higher) barely is. (With a ±5 cm
///   band the simulated dive's 2 s of splashing biased every depth by −5.5 mm.)
/// - a reading more than 5 cm *below* it re-seeds it (the surface cannot have a higher
///   pressure than air the sensor has just felt: the seed was taken in a wave or a squeeze);
/// - it is trusted (the state leaves `unknown`) after `learningSeconds` of such readings, and
///   frozen while submerged.
/// So start the board out of the water; started under water, the depth is measured from there.
///
/// Fixed storage, no allocation, Foundation-free (Embedded Swift).
public struct WaterSubmersionTracker: Sendable {
    public struct Measurement: Sendable, Equatable {
        /// Nanoseconds on the readings' clock.
        public var timestampNanoseconds: Int64
        /// Depth below the surface, m (0 at or above it; nil while the surface is unknown).
        public var depth: Double?
        /// Static pressure, Pa.
        public var pressure: Double
        /// The learned surface pressure, Pa (nil until known).
        public var surfacePressure: Double?
        public var state: WaterSubmersionState
    }

    public enum Event: Sendable, Equatable {
        case submerged, surfaced
    }

    public let settings: WaterSubmersionSettings
    public static let learningSeconds = 4.0
    public static let learningBand = 0.01
    public static let reseedBand = 0.05
    /// Below any pressure a diver meets at the surface (about 9 km up): a broken sensor.
    public static let lowestPlausiblePascals = 30_000.0
    /// How far below the surface pressure a reading may go while submerged, m of water, before
    /// it is a sensor error rather than a wave.
    public static let aboveSurfaceTolerance = 0.5

    public private(set) var surfacePressure: Double?
    private var learnedNanoseconds: Int64 = 0
    private var lastTimestamp: Int64?
    public private(set) var isSubmerged = false
    private var deepEnough = 0  // readings in a row at or below `submergedDepth`
    public private(set) var state = WaterSubmersionState.unknown

    public init(settings: WaterSubmersionSettings) {
        self.settings = settings
    }

    /// Takes one pressure reading (Pa, at `timestampNanoseconds`); returns the measurement and
    /// the event it caused, if any.
    public mutating func process(pressure: Double, timestampNanoseconds: Int64) -> (measurement: Measurement, event: Event?) {
        let elapsed = lastTimestamp.map { Double(timestampNanoseconds - $0) / 1e9 } ?? 0
        lastTimestamp = timestampNanoseconds
        let metre = settings.pascalsPerMetre
        let plausible = pressure.isFinite && pressure >= Self.lowestPlausiblePascals && pressure < settings.sensorFullScalePascals
        if plausible, !isSubmerged { learn(pressure, elapsedSeconds: elapsed, pascalsPerMetre: metre) }
        guard let surface = surfacePressure, Double(learnedNanoseconds) / 1e9 >= Self.learningSeconds || isSubmerged else {
            state = plausible ? .unknown : .sensorDepthError
            return (Measurement(timestampNanoseconds: timestampNanoseconds, depth: nil, pressure: pressure, surfacePressure: nil, state: state), nil)
        }
        let depth = (pressure - surface) / metre
        // Only a reading that can be a depth moves the state machine.
        let valid = plausible && depth > -Self.aboveSurfaceTolerance
        var event: Event?
        if valid, !isSubmerged {
            deepEnough = depth >= settings.submergedDepth ? deepEnough + 1 : 0
            if deepEnough >= 2 { isSubmerged = true; event = .submerged }
        } else if valid, depth < settings.surfacedDepth {
            isSubmerged = false
            deepEnough = 0
            event = .surfaced
        }
        state = valid ? nextState(depth: depth) : .sensorDepthError
        return (Measurement(timestampNanoseconds: timestampNanoseconds, depth: max(0, depth), pressure: pressure,
                            surfacePressure: surface, state: state), event)
    }

    private mutating func learn(_ pressure: Double, elapsedSeconds: Double, pascalsPerMetre: Double) {
        guard let surface = surfacePressure, pressure >= surface - Self.reseedBand * pascalsPerMetre else {
            surfacePressure = pressure
            learnedNanoseconds = 0
            return
        }
        guard pressure <= surface + Self.learningBand * pascalsPerMetre else { return }
        // A gap in the readings (the board paused) counts as one reading, not as its length.
        let seconds = min(elapsedSeconds, 0.5)
        surfacePressure = surface + (pressure - surface) * seconds / Self.learningSeconds
        learnedNanoseconds += Int64(seconds * 1e9)
    }

    /// The state for `depth` from the current one, with the hysteresis of the settings.
    private func nextState(depth: Double) -> WaterSubmersionState {
        guard isSubmerged else { return .notSubmerged }
        let s = settings
        let approaching = s.maximumDepth * s.approachingFraction
        // Each boundary: crossed going down at its depth, going up `hysteresis` above it.
        func beyond(_ boundary: Double, _ stateAtOrBeyond: WaterSubmersionState) -> Bool {
            depth >= boundary || (state.rawValue >= stateAtOrBeyond.rawValue && state != .sensorDepthError && depth >= boundary - s.hysteresis)
        }
        if depth > s.maximumDepth || (state == .pastMaxDepth && depth >= s.maximumDepth - s.hysteresis) { return .pastMaxDepth }
        if beyond(approaching, .approachingMaxDepth) { return .approachingMaxDepth }
        if beyond(s.deepDepth, .submergedDeep) { return .submergedDeep }
        return .submergedShallow
    }
}
