import AppStoreJWS
import _ReceiptKitShared

/// The `notification_forwarding` setting: an object whose members, each optional, set
/// ``NotificationForwardingConfiguration``'s — `deadline_seconds` (60–2592000), `attempt_timeout_seconds`
/// (0.001–300) and `max_in_flight` (1–1024). From the environment or `--set`, the object as JSON text.
enum NotificationForwardingSetting {
    static let keys = ["attempt_timeout_seconds", "deadline_seconds", "max_in_flight"]

    static func setting(
        _ name: String,
        _ path: any (WritableKeyPath<ServiceSettings, NotificationForwardingConfiguration> & Sendable),
        _ summary: String
    ) -> ServiceSetting {
        let deadline = NotificationForwardingConfiguration.deadlineRange
        let timeout = NotificationForwardingConfiguration.attemptTimeoutRange
        let inFlight = NotificationForwardingConfiguration.inFlightRange
        let bounds = NotificationBackfillSetting.bounds
        return ServiceSetting(
            name: name, summary: summary,
            rule: "{deadline_seconds \(bounds(deadline)), attempt_timeout_seconds \(bounds(timeout)), "
                + "max_in_flight [\(inFlight.lowerBound), \(inFlight.upperBound)]}",
            isSecret: false,
            read: { input, _, settings throws(SettingProblem) in
                guard case .object(let members) = try input.structured() else {
                    throw SettingProblem("must be an object (\(Self.keys.joined(separator: ", ")))")
                }
                if let unknown = members.keys.sorted().first(where: { !Self.keys.contains($0) }) {
                    throw SettingProblem(
                        "has an unknown setting \"\(unknown)\" (known: \(Self.keys.joined(separator: ", ")))")
                }
                var value = settings[keyPath: path]
                if let member = members["deadline_seconds"] {
                    value.deadline = try NotificationBackfillSetting.seconds(member, "deadline_seconds", deadline)
                }
                if let member = members["attempt_timeout_seconds"] {
                    value.attemptTimeout = try NotificationBackfillSetting.seconds(member, "attempt_timeout_seconds", timeout)
                }
                if let member = members["max_in_flight"] {
                    guard case .number(let number) = member, let count = number.int64, inFlight.contains(Int(clamping: count))
                    else {
                        throw SettingProblem("max_in_flight must be an integer in [\(inFlight.lowerBound), \(inFlight.upperBound)]")
                    }
                    value.maximumInFlight = Int(clamping: count)
                }
                settings[keyPath: path] = value
            },
            check: { settings in
                let value = settings[keyPath: path]
                let seconds = (DurationConversion.seconds(value.deadline), DurationConversion.seconds(value.attemptTimeout))
                if !deadline.contains(seconds.0) {
                    return SettingProblem("deadline_seconds must be in \(bounds(deadline)), not \(ServiceSetting.text(seconds.0))")
                }
                if !timeout.contains(seconds.1) {
                    return SettingProblem(
                        "attempt_timeout_seconds must be in \(bounds(timeout)), not \(ServiceSetting.text(seconds.1))")
                }
                if !inFlight.contains(value.maximumInFlight) {
                    return SettingProblem("max_in_flight must be in [\(inFlight.lowerBound), \(inFlight.upperBound)], not \(value.maximumInFlight)")
                }
                return nil
            },
            show: { settings in
                let value = settings[keyPath: path]
                return "for \(ServiceSetting.text(DurationConversion.seconds(value.deadline))) s, "
                    + "\(ServiceSetting.text(DurationConversion.seconds(value.attemptTimeout))) s an attempt, "
                    + "\(value.maximumInFlight) at once"
            }
        )
    }
}
