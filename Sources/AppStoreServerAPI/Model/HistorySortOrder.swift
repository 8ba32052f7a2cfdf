public import AppStoreJWS

/// The `sort` order of Get Transaction History, by modification date.
public struct HistorySortOrder: APIEnumeration {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// `ASCENDING`.
    public static let ascending = HistorySortOrder(rawValue: "ASCENDING")

    /// `DESCENDING`.
    public static let descending = HistorySortOrder(rawValue: "DESCENDING")
}
