import COpenCoreMotion
import Glibc

/// `ocm_last_error_message`: the message of the last failure, one per thread (a pthread key, so
/// the library needs no Foundation). Each thread's string is malloc'ed, replaced on the next
/// failure, and freed when the thread exits.
enum LastError {
    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        // Cannot fail except when the process has used all PTHREAD_KEYS_MAX (1024) keys.
        precondition(pthread_key_create(&key, { free($0) }) == 0, "pthread_key_create failed")
        return key
    }()

    static func set(_ message: String) {
        let previous = pthread_getspecific(key)
        pthread_setspecific(key, CString.duplicate(message))
        free(previous)
    }

    static var message: UnsafePointer<CChar> {
        if let stored = pthread_getspecific(key) { return UnsafePointer(stored.assumingMemoryBound(to: CChar.self)) }
        return CString.pointer("")
    }
}

/// Every C function's failure path: `message` becomes the thread's last error, `status` the
/// function's result.
func fail(_ status: ocm_status, _ message: String) -> ocm_status {
    LastError.set(message)
    return status
}

@c @implementation
public func ocm_last_error_message() -> UnsafePointer<CChar>? {
    LastError.message
}
