import COpenCoreMotion
import Foundation
@testable import MotionMQTT
import OpenCoreMotionC
import Locking
import Testing
import TestSupport

/// The C API's remote device motion (opencoremotion.h, `ocm_remote_motion_*`), called as a C
/// program calls it, fed by a board publishing in this process through a local mosquitto.
@Suite(.serialized, .blocking)
struct RemoteMotionCAPITests {
    /// What the C callback saw; reached through its `user_data`.
    final class Seen: Sendable {
        let events = Lock<[ocm_remote_event]>([])
        let samples = Lock<[ocm_device_motion_data]>([])
        /// ocm_last_error_message() in the callback of a disconnect (it is per thread).
        let reason = Lock<String?>(nil)
    }

    @Test func cCallersGetEventsAndRelativeAttitude() throws {
        let broker = try LocalBroker()
        let file = NSTemporaryDirectory() + "ocm-mqtt-c-\(getpid()).conf"
        try "[broker]\nhost = 127.0.0.1\nport = \(broker.port)\n[publish]\nprefix = c\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }

        var remote: OpaquePointer?
        #expect(ocm_remote_motion_open(file, "sim-gy-521", &remote) == OCM_STATUS_OK)
        let seen = Seen()
        let status = ocm_remote_motion_start(remote, { event, data, user in
            let seen = Unmanaged<Seen>.fromOpaque(user!).takeUnretainedValue()
            seen.events.withLock { $0.append(event) }
            if let data { seen.samples.withLock { $0.append(data.pointee) } }
            if event == OCM_REMOTE_EVENT_DISCONNECTED { seen.reason.withLock { $0 = String(cString: ocm_last_error_message()) } }
        }, Unmanaged.passUnretained(seen).toOpaque())
        #expect(status == OCM_STATUS_OK)

        let publisher = try BoardPublisher(board: BrokerFixtures.board("sim-gy-521.board"),
                                           configuration: try MQTTConfigurationFile.load(path: file), log: { _ in })
        try publisher.start()
        #expect(BrokerFixtures.wait { seen.samples.withLock { $0.count } >= 50 })
        #expect(ocm_remote_motion_is_connected(remote) == 1)
        let first = try #require(seen.samples.withLock { $0.first })
        #expect(abs(first.attitude.w - 1) < 1e-6 && abs(first.rotation_matrix.0.0 - 1) < 1e-5 && first.reference_frame == OCM_REFERENCE_FRAME_X_ARBITRARY_Z_VERTICAL)
        publisher.stop()
        #expect(BrokerFixtures.wait { seen.events.withLock { $0.last } == OCM_REMOTE_EVENT_DISCONNECTED })
        #expect(seen.events.withLock { $0.first } == OCM_REMOTE_EVENT_CONNECTED)
        #expect(seen.reason.withLock { $0?.contains("sim-gy-521 went offline") } == true)
        #expect(ocm_remote_motion_is_connected(remote) == 0)
        ocm_remote_motion_close(remote)
        #expect(ocm_remote_motion_is_connected(remote) == 0)  // a closed handle is answered, not dereferenced
    }

    @Test func aBadConfigurationNamesTheFileAndLine() throws {
        let file = NSTemporaryDirectory() + "ocm-mqtt-c-bad-\(getpid()).conf"
        try "[broker]\nport = seventy\n".write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        var remote: OpaquePointer?
        #expect(ocm_remote_motion_open(file, "x", &remote) == OCM_STATUS_NOT_AVAILABLE)
        #expect(remote == nil)
        #expect(String(cString: ocm_last_error_message()).contains("\(file):2:"))
        #expect(ocm_remote_motion_start(nil, nil, nil) == OCM_STATUS_INVALID_HANDLE)
    }
}
