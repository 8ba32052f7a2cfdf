/// Why a transport has no complete answer.
public struct HTTPTransportFailure: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of failure.
    public let kind: Kind
    /// What happened, for logs.
    public let description: String
    /// The answer's status when its head arrived before the failure (a body over the bound), else `nil`.
    public let status: Int?

    public init(_ kind: Kind, _ description: String, status: Int? = nil) {
        self.kind = kind
        self.description = description
        self.status = status
    }

    /// The kind of an ``HTTPTransportFailure``.
    public struct Kind: RawRepresentable, Sendable, Hashable {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }

        /// The connection could not be made, or broke before the answer was complete: worth retrying.
        public static let connection = Kind(rawValue: "connection")
        /// No complete answer within the timeout: worth retrying.
        public static let timeout = Kind(rawValue: "timeout")
        /// The body is over the size bound: not retried.
        public static let responseTooLarge = Kind(rawValue: "response_too_large")
        /// The request could not be formed (a URL the transport refuses): not retried.
        public static let invalidRequest = Kind(rawValue: "invalid_request")
        /// The calling task was cancelled.
        public static let cancelled = Kind(rawValue: "cancelled")
    }
}
