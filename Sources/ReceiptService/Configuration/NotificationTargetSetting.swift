import AppStoreJWS

/// The `notification_targets` setting: a list of `{"bundle_id", "url", "hmac_secret"?, "name"?}` objects
/// (``NotificationTarget``). Secret: the secrets are never shown, only the targets' names. Unknown members are an
/// error, as everywhere in the settings.
enum NotificationTargetSetting {
    static let keys = ["bundle_id", "hmac_secret", "name", "url"]

    static func setting(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, [NotificationTarget]> & Sendable),
        _ summary: String
    ) -> ServiceSetting {
        ServiceSetting(
            name: name, summary: summary, rule: "a list of {bundle_id, url, hmac_secret?, name?}", isSecret: true,
            read: { input, _, settings throws(SettingProblem) in
                guard case .array(let items) = try input.structured() else { throw SettingProblem("must be a list") }
                var targets: [NotificationTarget] = []
                for (index, item) in items.enumerated() {
                    targets.append(try Self.target(item, at: "[\(index)]"))
                }
                settings[keyPath: path] = targets
            },
            check: { settings in Self.problem(settings[keyPath: path]) },
            show: { settings in
                let targets = settings[keyPath: path]
                return targets.isEmpty ? "none" : "[" + targets.map(\.name).joined(separator: ", ") + "]"
            }
        )
    }

    private static func target(_ value: JSONValue, at entry: String) throws(SettingProblem) -> NotificationTarget {
        guard case .object(let members) = value else { throw SettingProblem("\(entry) must be an object") }
        if let unknown = members.keys.sorted().first(where: { !Self.keys.contains($0) }) {
            throw SettingProblem("\(entry): unknown setting \"\(unknown)\" (known: \(Self.keys.joined(separator: ", ")))")
        }
        func string(_ key: String) throws(SettingProblem) -> String? {
            switch members[key] {
            case nil: return nil
            case .string(let value)?: return value
            default: throw SettingProblem("\(entry).\(key) must be a string")
            }
        }
        guard let bundle = try string("bundle_id") else { throw SettingProblem("\(entry).bundle_id is missing") }
        guard let url = try string("url") else { throw SettingProblem("\(entry).url is missing") }
        return NotificationTarget(
            bundleIdentifier: bundle, url: url, hmacSecret: try string("hmac_secret"), name: try string("name"))
    }

    /// What is wrong with a list of targets (never quoting a secret, nor a URL, which may hold a credential): a
    /// target's own problem, or a name given twice.
    static func problem(_ targets: [NotificationTarget]) -> SettingProblem? {
        var names = Set<String>()
        for (index, target) in targets.enumerated() {
            if let problem = target.problem { return SettingProblem("[\(index)]: \(problem)") }
            guard names.insert(target.name).inserted else {
                return SettingProblem("[\(index)]: the name \(target.name) is given twice (each target's name must differ)")
            }
        }
        return nil
    }
}
