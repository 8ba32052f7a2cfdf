/// Resource limits for decoding hostile JWS input.
public struct JWSDecodingConfiguration: Sendable, Hashable {
    /// The longest compact JWS accepted, in bytes. App Store notifications, which nest two signed payloads, are a
    /// few kilobytes; the default is 256 KiB.
    public var maximumLength: Int
    /// The deepest JSON nesting accepted in a header or payload (Apple's payloads nest at most three levels).
    public var maximumDepth: Int
    /// The most certificates accepted in `x5c` (Apple sends three).
    public var maximumCertificateCount: Int

    public init(maximumLength: Int = 256 * 1024, maximumDepth: Int = 16, maximumCertificateCount: Int = 5) {
        self.maximumLength = maximumLength
        self.maximumDepth = maximumDepth
        self.maximumCertificateCount = maximumCertificateCount
    }

    /// The defaults.
    public static let `default` = JWSDecodingConfiguration()
}
