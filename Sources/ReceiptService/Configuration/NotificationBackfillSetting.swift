import AppStoreJWS
import _ReceiptKitShared

/// The `notification_backfill` setting: an object whose members, each optional, set
/// ``NotificationBackfillConfiguration``'s — `enabled` (true or false), `interval_seconds` (60–86400) and
/// `look_back_seconds` (60–15552000, Apple's 180 days). A member not given keeps its value; an unknown member is
/// an error, as everywhere in the settings. From the environment or `--set`, the object as JSON text.
enum NotificationBackfillSetting {
    static let keys = ["enabled", "interval_seconds", "look_back_seconds"]

    static func setting(
        _ name: String,
        _ path: any (WritableKeyPath<ServiceSettings, NotificationBackfillConfiguration> & Sendable),
        _ summary: String
    ) -> ServiceSetting {
        let interval = NotificationBackfillConfiguration.intervalRange
        let lookBack = NotificationBackfillConfiguration.lookBackRange
        return ServiceSetting(
            name: name, summary: summary,
            rule: "{enabled, interval_seconds \(Self.bounds(interval)), look_back_seconds \(Self.bounds(lookBack))}",
            isSecret: false,
            read: { input, _, settings throws(SettingProblem) in
                guard case .object(let members) = try input.structured() else {
                    throw SettingProblem("must be an object (enabled, interval_seconds, look_back_seconds)")
                }
                if let unknown = members.keys.sorted().first(where: { !Self.keys.contains($0) }) {
                    throw SettingProblem(
                        "has an unknown setting \"\(unknown)\" (known: \(Self.keys.joined(separator: ", ")))")
                }
                var value = settings[keyPath: path]
                if let member = members["enabled"] {
                    guard case .bool(let flag) = member else { throw SettingProblem("enabled must be true or false") }
                    value.isEnabled = flag
                }
                if let member = members["interval_seconds"] {
                    value.interval = try Self.seconds(member, "interval_seconds", interval)
                }
                if let member = members["look_back_seconds"] {
                    value.lookBack = try Self.seconds(member, "look_back_seconds", lookBack)
                }
                settings[keyPath: path] = value
            },
            check: { settings in
                let value = settings[keyPath: path]
                let seconds = (DurationConversion.seconds(value.interval), DurationConversion.seconds(value.lookBack))
                if !interval.contains(seconds.0) {
                    return SettingProblem("interval_seconds must be in \(Self.bounds(interval)), not \(ServiceSetting.text(seconds.0))")
                }
                if !lookBack.contains(seconds.1) {
                    return SettingProblem("look_back_seconds must be in \(Self.bounds(lookBack)), not \(ServiceSetting.text(seconds.1))")
                }
                return nil
            },
            show: { settings in
                let value = settings[keyPath: path]
                guard value.isEnabled else { return "off" }
                return "every \(ServiceSetting.text(DurationConversion.seconds(value.interval))) s, first "
                    + "\(ServiceSetting.text(DurationConversion.seconds(value.lookBack))) s back"
            }
        )
    }

    static func bounds(_ range: ClosedRange<Double>) -> String {
        "[\(ServiceSetting.text(range.lowerBound)), \(ServiceSetting.text(range.upperBound))]"
    }

    /// A member in seconds within `range`, refused as given.
    static func seconds(_ member: JSONValue, _ name: String, _ range: ClosedRange<Double>) throws(SettingProblem) -> Duration {
        guard case .number(let number) = member, let seconds = number.double, seconds.isFinite else {
            throw SettingProblem("\(name) must be a number")
        }
        guard range.contains(seconds) else {
            throw SettingProblem("\(name) must be in \(Self.bounds(range)), not \(ServiceSetting.text(seconds))")
        }
        return DurationConversion.duration(seconds: seconds)
    }
}
