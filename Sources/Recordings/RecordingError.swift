/// A recording that could not be read or written, said so a person can fix it: which file,
/// which line and column, what was found, and what to do.
public struct RecordingError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file as the caller named it.
    public var path: String
    /// 1-based line number, when the problem is on a line.
    public var line: Int?
    /// The column (`t`, `sensor`, `x`, `y`, `z`) when the problem is in one.
    public var column: String?
    /// What is wrong, e.g. `"9.8.1" is not a number`.
    public var problem: String
    /// What to do next, when there is something useful to say.
    public var advice: String?

    public init(path: String, line: Int? = nil, column: String? = nil, problem: String, advice: String? = nil) {
        self.path = path
        self.line = line
        self.column = column
        self.problem = problem
        self.advice = advice
    }

    /// `walk.csv.gz:1042: column x: "9.8.1" is not a number`, then the advice if any.
    public var description: String {
        var text = path
        if let line { text += ":\(line)" }
        text += ": "
        if let column { text += "column \(column): " }
        text += problem
        if let advice { text += ". " + advice }
        return text
    }
}
