import COpenCoreMotion
import MotionEngine
import Testing

@Suite struct VersionTests {
    /// One version everywhere: the engine (motionctl --version), the C header's macros (and the
    /// C test checks the library's ocm_version_string() against them).
    @Test func engineAndCHeaderAgree() {
        #expect(OpenCoreMotionVersion.string == OCM_VERSION_STRING)
        #expect(OpenCoreMotionVersion.major == Int(OCM_VERSION_MAJOR))
        #expect(OpenCoreMotionVersion.minor == Int(OCM_VERSION_MINOR))
        #expect(OpenCoreMotionVersion.patch == Int(OCM_VERSION_PATCH))
    }
}
