import COpenCoreMotion
import MotionEngine

/// `ocm_version_string`: OpenCoreMotion's version. The header's OCM_VERSION_* macros and the
/// engine's `OpenCoreMotionVersion` must agree; CLibraryTests and the C test program check both.
@c @implementation
public func ocm_version_string() -> UnsafePointer<CChar>? {
    CString.pointer(versionString)
}

/// NUL-terminated at compile time: the pointer refers to constant data in the library.
private let versionString: StaticString = "0.1.0"
