/// An app of a scenario: the bundle identifier its tokens name and the Apple ID responses report.
public struct ScenarioApp: Sendable, Hashable {
    public var bundleIdentifier: String
    public var appAppleID: Int64

    public init(bundleIdentifier: String, appAppleID: Int64) {
        self.bundleIdentifier = bundleIdentifier
        self.appAppleID = appAppleID
    }
}
