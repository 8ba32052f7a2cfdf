/// A JSON number as written: its text, read as an integer or a double on demand.
public struct JSONNumber: Sendable, Hashable, CustomStringConvertible {
    /// The number's text, as RFC 8259 spells it (`-12`, `1.5e3`).
    public let text: String

    /// Wraps text the JSON parser has already checked against the number grammar.
    init(validated text: String) {
        self.text = text
    }

    public init(_ value: Int64) {
        self.text = String(value)
    }

    /// `nil` for a value that is not finite.
    public init?(_ value: Double) {
        guard value.isFinite else { return nil }
        if value == value.rounded(), let integer = Int64(exactly: value) {
            self.text = String(integer)
        } else {
            self.text = "\(value)"
        }
    }

    /// The value as an integer, when the text is one (no fraction, no exponent) that fits in 64 bits.
    public var int64: Int64? { Int64(self.text) }

    /// The value as a double (rounded to the nearest double, as every JSON reader does).
    public var double: Double? { Double(self.text) }

    public var description: String { self.text }
}
