/// One HTTP request, as a transport sends it.
public struct HTTPTransportRequest: Sendable, Hashable, CustomStringConvertible {
    /// `GET`, `POST`, `PUT`.
    public var method: String
    /// The absolute URL, query included.
    public var url: String
    /// Header fields, in order.
    public var headers: [(name: String, value: String)]
    /// The body, or `nil` for none.
    public var body: [UInt8]?

    public init(method: String, url: String, headers: [(name: String, value: String)] = [], body: [UInt8]? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
    }

    /// The first value of a header field, compared case-insensitively.
    public func header(_ name: String) -> String? {
        self.headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The method and the URL only: the `Authorization` header is a credential.
    public var description: String { "\(self.method) \(self.url)" }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.url == rhs.url && lhs.body == rhs.body
            && lhs.headers.map(\.name) == rhs.headers.map(\.name)
            && lhs.headers.map(\.value) == rhs.headers.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(self.method)
        hasher.combine(self.url)
        hasher.combine(self.body)
    }
}
