import Locking

/// The live handles given out to C callers. Every entry point looks its handle up here before
/// touching it, so NULL, a closed handle or a stray pointer is answered with
/// OCM_STATUS_INVALID_HANDLE instead of a crash (the pointer is compared, never dereferenced,
/// until it is known to be ours).
final class HandleRegistry<Object: AnyObject>: Sendable {
    private let live = Lock<Set<UInt>>([])  // handle addresses

    /// Retains `object` and returns its handle.
    func register(_ object: Object) -> UnsafeMutableRawPointer {
        let handle = Unmanaged.passRetained(object).toOpaque()
        live.withLock { _ = $0.insert(UInt(bitPattern: handle)) }
        return handle
    }

    /// The object behind `handle`, or nil when it is not a live handle.
    func object(for handle: UnsafeRawPointer?) -> Object? {
        guard let handle else { return nil }
        let isLive = live.withLock { $0.contains(UInt(bitPattern: handle)) }
        return isLive ? Unmanaged<Object>.fromOpaque(handle).takeUnretainedValue() : nil
    }

    /// Forgets `handle` and releases its object; false when it was not live.
    @discardableResult
    func close(_ handle: UnsafeRawPointer?) -> Bool {
        guard let handle else { return false }
        guard live.withLock({ $0.remove(UInt(bitPattern: handle)) }) != nil else { return false }
        Unmanaged<Object>.fromOpaque(handle).release()
        return true
    }
}
