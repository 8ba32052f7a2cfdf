public import AppStoreJWS

/// How long the customer used the app (`playTime`, Send Consumption Information V1).
public struct PlayTime: APIEnumeration {
    public let rawValue: Int64
    public init(rawValue: Int64) { self.rawValue = rawValue }

    /// Undeclared (`0`).
    public static let undeclared = PlayTime(rawValue: 0)

    /// 0–5 minutes (`1`).
    public static let upToFiveMinutes = PlayTime(rawValue: 1)

    /// 5–60 minutes (`2`).
    public static let fiveToSixtyMinutes = PlayTime(rawValue: 2)

    /// 1–6 hours (`3`).
    public static let oneToSixHours = PlayTime(rawValue: 3)

    /// 6–24 hours (`4`).
    public static let sixToTwentyFourHours = PlayTime(rawValue: 4)

    /// 1–4 days (`5`).
    public static let oneToFourDays = PlayTime(rawValue: 5)

    /// 4–16 days (`6`).
    public static let fourToSixteenDays = PlayTime(rawValue: 6)

    /// Over 16 days (`7`).
    public static let overSixteenDays = PlayTime(rawValue: 7)
}
