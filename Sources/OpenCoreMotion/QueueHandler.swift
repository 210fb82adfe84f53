/// A Core Motion handler on its way to the queue it runs on.
///
/// Core Motion's handler types are plain closures, not `@Sendable`: Apple's Swift SDK imports
/// its Objective-C blocks so, and iOS code relies on it (a handler written in a `@MainActor`
/// type, given `OperationQueue.main`, reads and writes the type's state). The engine side
/// takes `@Sendable` closures, so each `start…(to:withHandler:)` wraps the caller's here.
///
/// `@unchecked Sendable`, and why it is sound as Core Motion's contract is: the closure is only
/// ever called on the `OperationQueue` given with it (or, where Core Motion's method takes none,
/// the manager's own serial queue or the batched stream's own thread); what it captures is
/// the caller's to make safe on that queue, as on Apple platforms (where a `@MainActor`
/// handler on another queue traps).
struct QueueHandler<Data>: @unchecked Sendable {
    private let body: (Data?, (any Error)?) -> Void

    init(_ body: @escaping (Data?, (any Error)?) -> Void) { self.body = body }

    /// The handler as the engine-side code takes it.
    var sendable: @Sendable (Data?, (any Error)?) -> Void { { [self] data, error in body(data, error) } }
}
