/// The App Store environment data belongs to — `Production`, `Sandbox`, `Xcode` or `LocalTesting` — spelled as the
/// App Store Server API, signed data and verifyReceipt's `environment` spell it. A receipt's own attribute has more
/// spellings (`ProductionSandbox`, `ProductionVPP`…): ReceiptKit's `ReceiptEnvironment` maps them to this one.
///
/// Transaction ids are unique within one environment only, so a ledger keys its rows by environment too.
public struct AppStoreEnvironment: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public static let production = AppStoreEnvironment(rawValue: "Production")
    public static let sandbox = AppStoreEnvironment(rawValue: "Sandbox")
    /// StoreKit testing in Xcode: signed on the developer's machine, never by Apple.
    public static let xcode = AppStoreEnvironment(rawValue: "Xcode")
    /// Local StoreKit testing: signed on the developer's machine, never by Apple.
    public static let localTesting = AppStoreEnvironment(rawValue: "LocalTesting")

    /// Whether data in this environment is signed on a developer's machine rather than by the App Store.
    public var isLocal: Bool { self == .xcode || self == .localTesting }

    /// Parses a command-line spelling, case-insensitively (`production`, `sandbox`, `xcode`, `localtesting`).
    public init?(_ name: String) {
        let known: [AppStoreEnvironment] = [.production, .sandbox, .xcode, .localTesting]
        guard let match = known.first(where: { $0.rawValue.lowercased() == name.lowercased() }) else { return nil }
        self = match
    }

    public var description: String { self.rawValue }
}
