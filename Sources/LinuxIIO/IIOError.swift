/// An IIO operation that failed, with the device, the attribute and what to do.
public struct IIOError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The context URI ("local:", "ip:raspberrypi.local").
    public var context: String
    /// The device ("iio:device0 (lsm9ds1_accel)"), when the problem is about one.
    public var device: String?
    public var problem: String
    public var advice: String?

    public init(context: String, device: String? = nil, problem: String, advice: String? = nil) {
        self.context = context
        self.device = device
        self.problem = problem
        self.advice = advice
    }

    public var description: String {
        "IIO context \"\(context)\"" + (device.map { ", \($0)" } ?? "") + ": " + problem + (advice.map { ". \($0)" } ?? "")
    }
}
