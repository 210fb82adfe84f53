import Foundation
import MotionEngine

extension BoardRuntime {
    /// Prints the runtime's warnings (a chip stuck or silent) on standard error, where a person
    /// running motionctl sees them apart from the data.
    func printWarningsToStandardError() {
        onWarning = { FileHandle.standardError.write(Data("warning: \($0)\n".utf8)) }
    }
}
