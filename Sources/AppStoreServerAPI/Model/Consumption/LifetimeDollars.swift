public import AppStoreJWS

/// A range of US dollars the customer spent or was refunded in the app, on every platform
/// (`lifetimeDollarsPurchased` and `lifetimeDollarsRefunded`, Send Consumption Information V1).
public struct LifetimeDollars: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Undeclared (`0`).
    public static let undeclared = LifetimeDollars(rawValue: 0)

    /// $0 (`1`).
    public static let zero = LifetimeDollars(rawValue: 1)

    /// $0.01–49.99 (`2`).
    public static let upTo49_99 = LifetimeDollars(rawValue: 2)

    /// $50–99.99 (`3`).
    public static let from50To99_99 = LifetimeDollars(rawValue: 3)

    /// $100–499.99 (`4`).
    public static let from100To499_99 = LifetimeDollars(rawValue: 4)

    /// $500–999.99 (`5`).
    public static let from500To999_99 = LifetimeDollars(rawValue: 5)

    /// $1,000–1,999.99 (`6`).
    public static let from1000To1999_99 = LifetimeDollars(rawValue: 6)

    /// $2,000 or more (`7`).
    public static let atLeast2000 = LifetimeDollars(rawValue: 7)
}
