// Synchronization.Mutex as ThreadSanitizer can see it (issue 22).
//
// On Linux a contended Mutex locks and unlocks through FUTEX_LOCK_PI / FUTEX_UNLOCK_PI inside
// libswiftSynchronization.so, which is not instrumented: TSan sees no happens-before between
// two critical sections that met, and reports the accesses inside them as a race, a different
// set each run (tools/sanitizers/mutex-contention.swift shows it in 20 lines). That noise hid
// any real race. `Lock` is the same Mutex (priority-inheriting futex, same API) that, when the
// TSan runtime is loaded, tells it what the futex did: `__tsan_acquire` once the lock is held,
// `__tsan_release` before it is let go, on an address of its own. Without TSan the hooks are
// not found and the only cost is one well-predicted branch per lock.
public import Synchronization
import Glibc

// Inlinable, as Mutex is: every call site is specialized, so a lock costs what a Mutex did.
public struct Lock<Value: ~Copyable>: ~Copyable {
    @usableFromInline let mutex: Mutex<Value>
    /// The address TSan keys this lock's happens-before on; nil when TSan is not loaded.
    @usableFromInline let token: UnsafeMutableRawPointer?

    @inlinable
    public init(_ initialValue: consuming sending Value) {
        mutex = Mutex(initialValue)
        token = ThreadSanitizerHooks.loaded != nil ? .allocate(byteCount: 1, alignment: 1) : nil
    }

    @inlinable
    deinit { token?.deallocate() }

    /// Mutex.withLock: `body` runs with the lock held and the value lent to it.
    @inlinable
    public borrowing func withLock<Result: ~Copyable, E: Error>(
        _ body: (inout sending Value) throws(E) -> sending Result
    ) throws(E) -> sending Result {
        try mutex.withLock { (value: inout sending Value) throws(E) -> sending Result in
            if let token, let hooks = ThreadSanitizerHooks.loaded { hooks.acquire(token) }
            defer { if let token, let hooks = ThreadSanitizerHooks.loaded { hooks.release(token) } }
            return try body(&value)
        }
    }
}

// As Mutex: the value only ever moves in and out under the lock (`sending`).
extension Lock: @unchecked Sendable where Value: ~Copyable {}

/// TSan's annotation entry points, looked up at run time: a build without `-sanitize=thread`
/// has no such symbols, so they cannot be linked directly.
@usableFromInline
enum ThreadSanitizerHooks {
    @usableFromInline typealias Hook = @convention(c) (UnsafeMutableRawPointer?) -> Void
    @usableFromInline
    struct Pair: @unchecked Sendable {  // two C function pointers, never written after lookup
        @usableFromInline let acquire: Hook
        @usableFromInline let release: Hook
    }
    @usableFromInline
    static let loaded: Pair? = {
        guard let acquire = dlsym(nil, "__tsan_acquire"), let release = dlsym(nil, "__tsan_release") else { return nil }
        return Pair(acquire: unsafeBitCast(acquire, to: Hook.self), release: unsafeBitCast(release, to: Hook.self))
    }()
}
