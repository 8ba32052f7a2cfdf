/// The environment an App Store receipt was issued in (payload attribute 0).
///
/// A struct with static members rather than an enum, so values Apple adds later decode as themselves instead of
/// failing, and adding a known value is not a breaking change.
public struct ReceiptEnvironment: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The string exactly as it appears in the receipt, e.g. `ProductionSandbox`.
    public let rawValue: String

    /// Creates an environment from its receipt string; unknown strings are kept as they are.
    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// A receipt issued by the App Store to a customer.
    public static let production = ReceiptEnvironment(rawValue: "Production")
    /// A receipt issued in the App Store sandbox (TestFlight, sandbox accounts).
    public static let productionSandbox = ReceiptEnvironment(rawValue: "ProductionSandbox")
    /// A Volume Purchase Program receipt.
    public static let productionVPP = ReceiptEnvironment(rawValue: "ProductionVPP")
    /// A Volume Purchase Program receipt issued in the sandbox.
    public static let productionVPPSandbox = ReceiptEnvironment(rawValue: "ProductionVPPSandbox")
    /// A receipt created by Xcode's StoreKit testing, signed by a local test certificate.
    public static let xcode = ReceiptEnvironment(rawValue: "Xcode")

    /// Whether this is one of the environments listed above.
    public var isKnown: Bool {
        [Self.production, .productionSandbox, .productionVPP, .productionVPPSandbox, .xcode].contains(self)
    }

    public var description: String { self.rawValue }

    public init(from decoder: any Decoder) throws {
        self.rawValue = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(self.rawValue)
    }
}
