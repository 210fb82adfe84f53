import CLibGPIOD
import Glibc

/// A sensor's data-ready (interrupt) line through libgpiod 1.6: found by its line name
/// ("GPIO17" on a Raspberry Pi), never by chip number (the Pi 5 renumbered the chips), and
/// watched for rising (or both) edges. Each event carries the kernel's timestamp, taken in the
/// interrupt handler on CLOCK_MONOTONIC (GPIO character device v1 ABI, Linux ≥ 5.7), which is
/// the best estimate of when the sample was ready.
public final class DataReadyLine {
    public enum Edge: Sendable { case rising, both }

    public struct Event: Sendable, Equatable {
        /// CLOCK_MONOTONIC nanoseconds of the edge.
        public var timestampNanoseconds: Int64
        public var rising: Bool
    }

    public let name: String
    /// "gpiochip0 line 17", for messages.
    public let location: String
    private let line: OpaquePointer

    /// Finds the line named `name` on any GPIO chip and requests edge events for `consumer`.
    public init(name: String, edge: Edge = .rising, consumer: String = "opencoremotion") throws(GPIOError) {
        self.name = name
        errno = 0
        guard let line = gpiod_line_find(name) else {
            let code = errno
            if code == 0 || code == ENOENT {
                throw GPIOError(line: name, problem: "no GPIO line is named \"\(name)\"",
                                advice: "Line names come from the device tree; `gpioinfo` lists them (on a Raspberry Pi: GPIO17 for header pin 11).")
            }
            throw GPIOError(line: name, problem: "could not search the GPIO chips: \(String(cString: strerror(code)))",
                            advice: code == EACCES ? "Install udev/60-opencoremotion.rules and join group `motion` (udev/README.md)." : nil)
        }
        self.line = line
        let chip = gpiod_line_get_chip(line).flatMap { gpiod_chip_name($0) }.map { String(cString: $0) } ?? "gpiochip?"
        location = "\(chip) line \(gpiod_line_offset(line))"
        let status = edge == .rising ? gpiod_line_request_rising_edge_events(line, consumer)
                                     : gpiod_line_request_both_edges_events(line, consumer)
        if status < 0 {
            let code = errno
            gpiod_line_close_chip(line)
            throw GPIOError(line: name, problem: "could not request edge events on \(location): \(String(cString: strerror(code)))",
                            advice: code == EBUSY ? "Another program or a kernel driver holds the line; `gpioinfo` shows its consumer." : nil)
        }
    }

    deinit {
        gpiod_line_release(line)
        gpiod_line_close_chip(line)
    }

    /// Waits up to `timeoutNanoseconds` for the next edge; nil on timeout. EINTR is retried
    /// with the remaining time.
    public func wait(timeoutNanoseconds: Int64) throws(GPIOError) -> Event? {
        let deadline = Self.monotonicNanoseconds() + timeoutNanoseconds
        while true {
            let remaining = max(0, deadline - Self.monotonicNanoseconds())
            var timeout = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            let ready = gpiod_line_event_wait(line, &timeout)
            if ready == 0 { return nil }
            if ready < 0 {
                if errno == EINTR { continue }
                throw GPIOError(line: name, problem: "waiting for an edge on \(location) failed: \(String(cString: strerror(errno)))",
                                advice: errno == ENODEV ? "The GPIO chip is gone (unbound or unplugged)." : nil)
            }
            var event = gpiod_line_event()
            if gpiod_line_event_read(line, &event) < 0 {
                throw GPIOError(line: name, problem: "reading the edge event on \(location) failed: \(String(cString: strerror(errno)))")
            }
            return Event(timestampNanoseconds: Int64(event.ts.tv_sec) * 1_000_000_000 + Int64(event.ts.tv_nsec),
                         rising: event.event_type == Int32(GPIOD_LINE_EVENT_RISING_EDGE))
        }
    }

    /// The line's event file descriptor: readable while an edge is queued, so an engine can
    /// wait on several lines (and other devices) at once with poll(2).
    public var fileDescriptor: Int32 { gpiod_line_event_get_fd(line) }

    /// Reads every edge already queued on the line, without blocking: how many there were and
    /// the newest (nil when none). An engine that fell behind services the chip once, stamped
    /// with the newest edge, instead of once per stale edge.
    public func readQueuedEdges() throws(GPIOError) -> (count: Int, newest: Event)? {
        var count = 0
        var newest: Event?
        while let event = try wait(timeoutNanoseconds: 0) {
            count += 1
            newest = event
        }
        return newest.map { (count, $0) }
    }

    static func monotonicNanoseconds() -> Int64 {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        return Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec)
    }
}

/// A GPIO failure with the line name and what to do.
public struct GPIOError: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: String
    public var problem: String
    public var advice: String?

    public var description: String {
        "Data-ready line \"\(line)\": \(problem)" + (advice.map { ". \($0)" } ?? "")
    }
}
