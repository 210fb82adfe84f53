import Glibc

/// C strings handed to callers: static ones from literals, owned ones copied with strdup and
/// freed by their owner (a handle's close, or the next error on the same thread).
enum CString {
    /// A string literal's bytes as a C string. Literals are stored NUL-terminated in the
    /// binary's constant data, valid for the life of the library.
    static func pointer(_ literal: StaticString) -> UnsafePointer<CChar> {
        UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self)
    }

    /// A malloc'ed copy of `text` (free with `free`); nil only when out of memory.
    static func duplicate(_ text: String) -> UnsafeMutablePointer<CChar>? {
        strdup(text)
    }
}
