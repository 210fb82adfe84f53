public import MotionDaemonProtocol

/// What a stream's handler receives, on the client's reader thread (keep it short: hand work
/// to another thread).
public enum StreamDelivery: Sendable {
    /// Samples, oldest first.
    case samples(SampleBatch)
    /// The daemon dropped `count` updates because this client did not read in time (`total`
    /// since the stream started on this connection).
    case dropped(count: UInt64, total: UInt64)
    /// A second of a batched stream (protocol version 3).
    case batch(SensorBatch)
    /// The daemon dropped whole batches of a batched stream because this client did not read
    /// in time.
    case droppedBatches(BatchDrops)
    /// The connection broke: nothing arrives until `resumed`. The client reconnects by itself.
    case interrupted(DaemonClientError)
    /// Reconnected and re-subscribed; the stream was down for `gapSeconds` (wall clock, from
    /// the break to the new subscription).
    case resumed(gapSeconds: Double)
    /// The stream ended for good: re-subscribing failed (`rejected`, `unauthorized`), or the
    /// client gave up reconnecting (`closed`).
    case ended(DaemonClientError)
}
