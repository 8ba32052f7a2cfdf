/// The shape every ReceiptKit error shares: a stable ``ErrorCode`` to branch on and a human-readable reason never to
/// branch on. Two errors are equal when their codes are equal, so tests and callers match on the code alone.
///
/// Conforming types declare `code` and `reason`; equality, hashing and `description`
/// (`TypeName.code: reason`) come from here.
public protocol CodedError: Error, Sendable, Hashable, CustomStringConvertible {
    associatedtype Code: ErrorCode
    /// The stable, machine-readable kind of the error.
    var code: Code { get }
    /// A human-readable explanation. Never branch on this text.
    var reason: String { get }
}

extension CodedError {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.code == rhs.code
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.code)
    }

    public var description: String {
        "\(Self.self).\(self.code): \(self.reason)"
    }
}
