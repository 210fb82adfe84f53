import CMosquitto
import Glibc
import Synchronization
import Locking

/// One connection to the broker through libmosquitto: connects in the background, reconnects
/// with exponential backoff (`reconnect_min` … `reconnect_max` s) for as long as it lives, and
/// counts what happened to every publish.
///
/// libmosquitto's own thread (`mosquitto_loop_start`) does the network I/O and calls back here;
/// `publish` may be called from any thread (Debian's libmosquitto is built with threading and
/// locks its queues). Messages of QoS 1 and 2 that cannot be sent — the broker is away — stay in
/// libmosquitto's memory and are sent, or resent with the DUP flag, after the next connect, so a
/// broker restart loses none of them; this class bounds how many may wait
/// (`maxQueuedMessages`) and counts what it refuses beyond. QoS 0 publishes while disconnected
/// are not queued: they are counted as lost.
package final class MosquittoClient: @unchecked Sendable {
    // @unchecked: `handle` is a C pointer, used only through libmosquitto's thread-safe calls;
    // every Swift state is in a Mutex or an Atomic.
    private let handle: OpaquePointer
    private let events: Events
    private let subscriptions: [(pattern: String, qos: Int32)]
    private let announcements: [Message]
    private let maxQueuedMessages: Int
    private let isConnected = Atomic<Bool>(false)
    private let isLoopRunning = Atomic<Bool>(false)
    /// QoS ≥ 1 messages not acknowledged yet: the message ids libmosquitto holds (sent, or
    /// queued to be sent or resent after a connect). Held across `mosquitto_publish` so the
    /// acknowledgement (on libmosquitto's thread, which never calls back from inside
    /// `mosquitto_publish` when it runs its own loop) cannot come first.
    private let unacknowledged = Lock(Set<Int32>())

    private let tallies = Lock(ConnectionCounts())

    /// What the owner hears, on libmosquitto's thread (keep it short).
    package struct Events: Sendable {
        package var connected: @Sendable () -> Void = {}
        /// The connection was refused (bad credentials, …) or lost; the text says why.
        package var disconnected: @Sendable (String) -> Void = { _ in }
        package var message: @Sendable (_ topic: String, _ payload: [UInt8], _ retained: Bool) -> Void = { _, _, _ in }
        package init() {}
    }

    /// A fixed message: the will (the broker publishes it for this client when its connection
    /// dies without a DISCONNECT: kill -9, power loss, network gone for 1.5 × keepalive) or an
    /// announcement (published again at every connect: the retained "online" and description).
    package struct Message: Sendable {
        package var topic: String
        package var payload: [UInt8]
        package var qos: Int32
        package var retain: Bool
        package init(topic: String, payload: [UInt8], qos: Int32, retain: Bool) {
            (self.topic, self.payload, self.qos, self.retain) = (topic, payload, qos, retain)
        }
    }

    /// Sets the client up (nothing is sent until `start`). A clean session forgets the broker's
    /// state for this client id at each connect; a subscriber that must not miss QoS 1 messages
    /// across a broker restart uses `cleanSession: false` with a fixed client id.
    package init(clientID: String, cleanSession: Bool, broker: BrokerSettings, will: Message?, announcements: [Message] = [],
                 subscriptions: [(pattern: String, qos: Int32)] = [], events: Events) throws(MQTTClientError) {
        _ = MosquittoLibrary.ready
        guard let handle = mosquitto_new(clientID, cleanSession, nil) else {
            throw MQTTClientError("could not create an MQTT client `\(clientID)`: \(String(cString: strerror(errno)))")
        }
        self.handle = handle
        self.events = events
        self.subscriptions = subscriptions
        self.announcements = announcements
        maxQueuedMessages = broker.maxQueuedMessages
        mosquitto_user_data_set(handle, Unmanaged.passUnretained(self).toOpaque())
        try configure(broker, will: will)
    }

    deinit {
        if isLoopRunning.load(ordering: .acquiring) { mosquitto_loop_stop(handle, true) }
        mosquitto_destroy(handle)
    }

    private func configure(_ broker: BrokerSettings, will: Message?) throws(MQTTClientError) {
        try check(mosquitto_int_option(handle, MOSQ_OPT_PROTOCOL_VERSION, Int32(MQTT_PROTOCOL_V311)), "set MQTT 3.1.1")
        // Samples are small and frequent: send each at once rather than wait for Nagle's timer.
        try check(mosquitto_int_option(handle, MOSQ_OPT_TCP_NODELAY, 1), "set TCP_NODELAY")
        try check(mosquitto_max_inflight_messages_set(handle, UInt32(broker.maxInflightMessages)), "set max_inflight")
        try check(mosquitto_reconnect_delay_set(handle, broker.reconnectMinimumSeconds,
                                                max(broker.reconnectMinimumSeconds, broker.reconnectMaximumSeconds), true), "set the reconnect delay")
        if let username = broker.username {
            try check(mosquitto_username_pw_set(handle, username, broker.password?.value), "set the username and password")
        }
        if let caFile = broker.caFile {
            try check(mosquitto_tls_set(handle, caFile, nil, broker.certificateFile, broker.keyFile, nil),
                      "set up TLS with ca_file \(caFile)\(broker.certificateFile.map { ", cert_file \($0)" } ?? "")"
                      + "\(broker.keyFile.map { ", key_file \($0)" } ?? "") (check that the files exist and are PEM)")
        } else if broker.certificateFile != nil || broker.keyFile != nil {
            throw MQTTClientError("cert_file and key_file need ca_file too (TLS is enabled by ca_file)")
        }
        if let will {
            try check(will.payload.withUnsafeBytes { mosquitto_will_set(handle, will.topic, Int32($0.count), $0.baseAddress, will.qos, will.retain) },
                      "set the last will on \(will.topic)")
        }
        mosquitto_connect_callback_set(handle) { _, context, code in
            MosquittoClient.from(context).didConnect(code)
        }
        mosquitto_disconnect_callback_set(handle) { _, context, code in
            MosquittoClient.from(context).didDisconnect(code)
        }
        mosquitto_publish_callback_set(handle) { _, context, messageID in
            MosquittoClient.from(context).didPublish(messageID)
        }
        mosquitto_message_callback_set(handle) { _, context, message in
            guard let message else { return }
            MosquittoClient.from(context).didReceive(message.pointee)
        }
    }

    private static func from(_ context: UnsafeMutableRawPointer?) -> MosquittoClient {
        Unmanaged<MosquittoClient>.fromOpaque(context!).takeUnretainedValue()
    }

    /// Starts libmosquitto's thread and the first connection to `broker`; returns at once. A
    /// broker that is not there yet is retried with the backoff; a host name that does not
    /// resolve is an error now (libmosquitto's thread would give up on it silently).
    package func start(_ broker: BrokerSettings) throws(MQTTClientError) {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let resolved = getaddrinfo(broker.host, nil, &hints, &found)
        if let found { freeaddrinfo(found) }
        guard resolved == 0 else {
            throw MQTTClientError("the broker host `\(broker.host)` does not resolve: \(String(cString: gai_strerror(resolved))); check host in [broker]")
        }
        // The thread first, then the connection: so libmosquitto 2.0 makes the first attempt on
        // its thread and retries it; a first attempt made here that fails is never retried.
        try check(mosquitto_loop_start(handle), "start the network thread")
        isLoopRunning.store(true, ordering: .releasing)
        try check(mosquitto_connect_async(handle, broker.host, broker.resolvedPort, broker.keepAliveSeconds),
                  "connect to \(broker.host):\(broker.resolvedPort)")
    }

    /// Waits up to `seconds` for QoS ≥ 1 messages to be acknowledged, then disconnects cleanly
    /// (the broker then does not publish the will) and stops the thread. Returns how many QoS ≥ 1
    /// messages were still unacknowledged.
    @discardableResult
    package func stop(waitingUpTo seconds: Double) -> Int {
        let deadline = MQTTClock.monotonicSeconds() + seconds
        while pendingCount > 0, isConnected.load(ordering: .acquiring), MQTTClock.monotonicSeconds() < deadline { usleep(10_000) }
        let left = pendingCount
        mosquitto_disconnect(handle)
        if isLoopRunning.exchange(false, ordering: .acquiringAndReleasing) { mosquitto_loop_stop(handle, false) }
        return left
    }

    package var counts: ConnectionCounts { tallies.withLock { $0 } }

    private func count(_ counter: WritableKeyPath<ConnectionCounts, Int>) {
        tallies.withLock { $0[keyPath: counter] += 1 }
    }

    package var connected: Bool { isConnected.load(ordering: .acquiring) }

    /// QoS ≥ 1 messages not yet acknowledged by the broker (queued or in flight).
    package var pendingCount: Int { unacknowledged.withLock { $0.count } }

    /// Publishes (queues) one message; see the type's notes for what happens while disconnected.
    package func publish(topic: String, payload: [UInt8], qos: Int32, retain: Bool) {
        guard qos > 0 else {
            guard isConnected.load(ordering: .acquiring) else { return count(\.lostWhileDisconnected) }
            let code = payload.withUnsafeBytes { mosquitto_publish(handle, nil, topic, Int32($0.count), $0.baseAddress, 0, retain) }
            return count(code == MOSQ_ERR_SUCCESS.rawValue ? \.sentAtMostOnce : code == MOSQ_ERR_NO_CONN.rawValue ? \.lostWhileDisconnected : \.failed)
        }
        let message = Message(topic: topic, payload: payload, qos: qos, retain: retain)
        let outcome = unacknowledged.withLock { waiting -> WritableKeyPath<ConnectionCounts, Int> in
            guard waiting.count < maxQueuedMessages else { return \.droppedQueueFull }
            return hand(message, &waiting) ? \.queuedAtLeastOnce : \.failed
        }
        count(outcome)
    }

    /// Gives a QoS ≥ 1 message to libmosquitto; false if libmosquitto refused it.
    ///
    /// libmosquitto (2.0) queues a QoS ≥ 1 message before it tries to send it, and keeps it
    /// when the send finds no connection: MOSQ_ERR_NO_CONN (before the first connect, or while
    /// it reconnects) means queued, to be sent after the next connect, and acknowledged under
    /// this id. Handing such a message again at the connect sent it twice (two ids: a
    /// subscriber could not tell the copy from a new message), and counting it failed after a
    /// disconnect left it unbounded by `max_queued` and not waited for by `stop`.
    private func hand(_ message: Message, _ waiting: inout Set<Int32>) -> Bool {
        var messageID: Int32 = 0
        let code = message.payload.withUnsafeBytes {
            mosquitto_publish(handle, &messageID, message.topic, Int32($0.count), $0.baseAddress, message.qos, message.retain)
        }
        guard code == MOSQ_ERR_SUCCESS.rawValue || code == MOSQ_ERR_NO_CONN.rawValue else { return false }
        waiting.insert(messageID)
        return true
    }

    package func subscribe(_ pattern: String, qos: Int32) {
        _ = mosquitto_subscribe(handle, nil, pattern, qos)
    }

    // MARK: Callbacks (libmosquitto's thread)

    private func didConnect(_ code: Int32) {
        guard code == 0 else {
            count(\.refusals)
            events.disconnected("the broker refused the connection: \(String(cString: mosquitto_connack_string(code)))")
            return
        }
        // Subscribed before `connected` says so: a thread that saw it and published at once
        // could otherwise get its message to the broker ahead of the SUBSCRIBE, and not back
        // (OfflineQueueTests' probe was lost so under load).
        for subscription in subscriptions { subscribe(subscription.pattern, qos: subscription.qos) }
        isConnected.store(true, ordering: .releasing)
        count(\.connects)
        for message in announcements { publish(topic: message.topic, payload: message.payload, qos: message.qos, retain: message.retain) }
        events.connected()
    }

    private func didDisconnect(_ code: Int32) {
        let was = isConnected.exchange(false, ordering: .acquiringAndReleasing)
        if was { count(\.disconnects) }
        events.disconnected(code == 0 ? "disconnected" : "connection lost: \(Self.text(code))")
    }

    private func didPublish(_ messageID: Int32) {
        let acknowledged = unacknowledged.withLock { $0.remove(messageID) != nil }
        if acknowledged { count(\.acknowledged) }
    }

    private func didReceive(_ message: mosquitto_message) {
        let topic = String(cString: message.topic)
        let bytes = message.payload.map { [UInt8](UnsafeRawBufferPointer(start: $0, count: Int(message.payloadlen))) } ?? []
        count(\.received)
        events.message(topic, bytes, message.retain)
    }

    // MARK: Helpers

    private func check(_ code: Int32, _ what: String) throws(MQTTClientError) {
        guard code == MOSQ_ERR_SUCCESS.rawValue else { throw MQTTClientError("could not \(what): \(Self.text(code))") }
    }

    static func text(_ code: Int32) -> String {
        code == MOSQ_ERR_ERRNO.rawValue ? String(cString: strerror(errno)) : String(cString: mosquitto_strerror(code))
    }
}

/// `mosquitto_lib_init` once per process, before the first client.
enum MosquittoLibrary {
    static let ready: Bool = mosquitto_lib_init() == MOSQ_ERR_SUCCESS.rawValue
}

/// What happened to a client's messages since it was made (a snapshot: `MosquittoClient.counts`).
package struct ConnectionCounts: Sendable, Equatable {
    /// Successful connections (the first and every reconnect).
    package var connects = 0
    package var disconnects = 0
    /// Connections the broker refused (bad credentials, …).
    package var refusals = 0
    /// QoS 0 messages handed to the socket.
    package var sentAtMostOnce = 0
    /// QoS 0 messages published while disconnected: lost, and only counted.
    package var lostWhileDisconnected = 0
    /// QoS ≥ 1 messages accepted (sent, or queued until the broker is back).
    package var queuedAtLeastOnce = 0
    /// QoS ≥ 1 messages the broker acknowledged.
    package var acknowledged = 0
    /// QoS ≥ 1 messages refused because `max_queued` were already waiting.
    package var droppedQueueFull = 0
    /// Publishes libmosquitto refused for another reason (out of memory, payload too big).
    package var failed = 0
    package var received = 0

    /// "connects 2, QoS 0 sent 1200 lost while disconnected 37, QoS 1 queued 40 acknowledged 40 dropped (queue full) 0".
    package var summary: String {
        "connects \(connects), QoS 0 sent \(sentAtMostOnce) lost while disconnected \(lostWhileDisconnected), "
            + "QoS 1 queued \(queuedAtLeastOnce) acknowledged \(acknowledged) dropped (queue full) \(droppedQueueFull)"
            + (failed > 0 ? ", failed \(failed)" : "") + (refusals > 0 ? ", refused \(refusals)" : "")
    }
}

/// An MQTT client that could not be set up: what failed and what to check.
package struct MQTTClientError: Error, Sendable, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}
