import _ReceiptKitShared

/// One row of the service's settings table (``ServiceSettings``): its name in the settings file — and, upper-cased
/// after `RECEIPTKIT_`, in the environment; `--set NAME=VALUE` on the command line — how a source's value is read,
/// the rule its value must meet, and where it goes.
///
/// The rule is checked on the value wherever it came from, the embedding code's included, once, after every
/// source is read; the message names the source. The builders below are the kinds a setting can be.
struct ServiceSetting: Sendable {
    /// The name in the settings file, snake_case: `request_timeout_seconds`.
    let name: String
    /// What the setting does, for `receiptkit serve --list-settings`.
    let summary: String
    /// The rule, for people: `0.001–3600 (seconds)`, `true or false`.
    let rule: String
    /// Whether its value is a secret: never shown, never quoted in a message.
    let isSecret: Bool
    /// Reads a source's value into the settings.
    let read: @Sendable (SettingInput, SettingOrigin, inout ServiceSettings) throws(SettingProblem) -> Void
    /// What is wrong with the value the settings hold, or `nil`.
    let check: @Sendable (ServiceSettings) -> SettingProblem?
    /// The value the settings hold, for people (a secret's is never shown).
    let show: @Sendable (ServiceSettings) -> String

    /// The problem, said of this setting: `port must be in [0, 65535], not 70000`, `app_store_server_api[1]: …`.
    func message(_ problem: SettingProblem) -> String {
        self.name + (problem.description.hasPrefix("[") ? "" : " ") + problem.description
    }

    /// `RECEIPTKIT_` and the name, upper-cased.
    var environmentVariable: String { "RECEIPTKIT_" + self.name.uppercased() }
}

extension ServiceSetting {
    /// A whole number within `range`.
    static func integer(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, Int> & Sendable), in range: ClosedRange<Int>,
        _ summary: String
    ) -> Self {
        Self(
            name: name, summary: summary, rule: "\(range.lowerBound)–\(range.upperBound)", isSecret: false,
            read: { input, _, settings throws(SettingProblem) in settings[keyPath: path] = try input.integer() },
            check: { settings in
                let value = settings[keyPath: path]
                return range.contains(value)
                    ? nil : SettingProblem("must be in [\(range.lowerBound), \(range.upperBound)], not \(value)")
            },
            show: { settings in String(settings[keyPath: path]) }
        )
    }

    /// A duration given in seconds (a number, to the millisecond) within `range`.
    static func seconds(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, Duration> & Sendable), in range: ClosedRange<Double>,
        _ summary: String
    ) -> Self {
        let bounds = "[\(Self.text(range.lowerBound)), \(Self.text(range.upperBound))]"
        return Self(
            name: name, summary: summary,
            rule: "\(Self.text(range.lowerBound))–\(Self.text(range.upperBound)) (seconds)", isSecret: false,
            read: { input, _, settings throws(SettingProblem) in
                let seconds = try input.number()
                // Refused as given (not as rounded to the millisecond), before any conversion.
                guard range.contains(seconds) else {
                    throw SettingProblem("must be in \(bounds), not \(Self.text(seconds))")
                }
                settings[keyPath: path] = DurationConversion.duration(seconds: seconds)
            },
            check: { settings in
                let seconds = DurationConversion.seconds(settings[keyPath: path])
                return range.contains(seconds) ? nil : SettingProblem("must be in \(bounds), not \(Self.text(seconds))")
            },
            show: { settings in Self.text(DurationConversion.seconds(settings[keyPath: path])) }
        )
    }

    /// `true` or `false`.
    static func flag(_ name: String, _ path: any (WritableKeyPath<ServiceSettings, Bool> & Sendable), _ summary: String) -> Self {
        Self(
            name: name, summary: summary, rule: "true or false", isSecret: false,
            read: { input, _, settings throws(SettingProblem) in settings[keyPath: path] = try input.flag() },
            check: { _ in nil },
            show: { settings in String(settings[keyPath: path]) }
        )
    }

    /// `true` or `false`, unset (`nil`) until a source says.
    static func optionalFlag(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, Bool?> & Sendable), _ summary: String
    ) -> Self {
        Self(
            name: name, summary: summary, rule: "true or false", isSecret: false,
            read: { input, _, settings throws(SettingProblem) in settings[keyPath: path] = try input.flag() },
            check: { _ in nil },
            show: { settings in settings[keyPath: path].map { String($0) } ?? "false" }
        )
    }

    /// A string that `valid` accepts (`nil`: any).
    static func string(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, String> & Sendable), rule: String,
        _ summary: String, valid: (@Sendable (String) -> SettingProblem?)? = nil
    ) -> Self {
        Self(
            name: name, summary: summary, rule: rule, isSecret: false,
            read: { input, _, settings throws(SettingProblem) in settings[keyPath: path] = try input.string() },
            check: { settings in valid?(settings[keyPath: path]) },
            show: { settings in settings[keyPath: path] }
        )
    }

    /// A ledger location (`sqlite:PATH`, `postgres://…`): a relative SQLite path given in a settings file is resolved
    /// against the file's directory, as `anchors` and key files are (elsewhere, against the working directory).
    static func ledgerLocation(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, String> & Sendable), rule: String,
        _ summary: String
    ) -> Self {
        Self(
            name: name, summary: summary, rule: rule, isSecret: false,
            read: { input, origin, settings throws(SettingProblem) in
                let location = try input.string()
                let file = location.dropFirst("sqlite:".count)
                guard location.hasPrefix("sqlite:"), !file.hasPrefix(":"), !file.hasPrefix("/") else {
                    settings[keyPath: path] = location
                    return
                }
                settings[keyPath: path] = "sqlite:" + origin.resolve(String(file))
            },
            check: { _ in nil },
            show: { settings in settings[keyPath: path] }
        )
    }

    /// A set of strings (a JSON list), or none (`nil`, the default: no restriction).
    static func stringSet(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, Set<String>?> & Sendable), _ summary: String
    ) -> Self {
        Self(
            name: name, summary: summary, rule: "a list of strings", isSecret: false,
            read: { input, _, settings throws(SettingProblem) in settings[keyPath: path] = Set(try input.strings()) },
            check: { _ in nil },
            show: { settings in settings[keyPath: path].map { "[" + $0.sorted().joined(separator: ", ") + "]" } ?? "any" }
        )
    }

    /// Strings by name (a JSON object of strings), secret: neither the values nor their number are ever shown.
    static func secrets(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, [String: String]> & Sendable), _ summary: String
    ) -> Self {
        Self(
            name: name, summary: summary, rule: "an object of strings", isSecret: true,
            read: { input, _, settings throws(SettingProblem) in settings[keyPath: path] = try input.stringMap() },
            check: { _ in nil },
            show: { _ in "(secret)" }
        )
    }

    /// Bearer tokens (a JSON list; from the environment or `--set`, also a comma-separated list), secret: neither
    /// the tokens nor their number are ever shown. Each is at least 24 characters of printable ASCII without spaces
    /// or commas (a random 128-bit value in hex or base64url is 22 to 32).
    static func tokens(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, [String]> & Sendable), _ summary: String
    ) -> Self {
        Self(
            name: name, summary: summary, rule: "a list of tokens (24+ printable characters, no space or comma)",
            isSecret: true,
            read: { input, _, settings throws(SettingProblem) in
                if case .text(let text) = input, !text.hasPrefix("[") {
                    settings[keyPath: path] = text.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
                } else {
                    settings[keyPath: path] = try input.strings()
                }
            },
            check: { settings in
                for (index, token) in settings[keyPath: path].enumerated() {
                    let printable = token.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ",") }
                    // The token's position only, never the token.
                    if token.utf8.count < 24 || !printable {
                        return SettingProblem(
                            "[\(index)] must be at least 24 printable ASCII characters without spaces or commas")
                    }
                }
                return nil
            },
            show: { settings in settings[keyPath: path].isEmpty ? "none" : "(secret)" }
        )
    }

    /// Entitlement names by app and product (a JSON object of objects of string lists).
    static func entitlementNames(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, [String: [String: [String]]]> & Sendable),
        _ summary: String
    ) -> Self {
        Self(
            name: name, summary: summary, rule: "{bundle id: {product id: [names]}}", isSecret: false,
            read: { input, _, settings throws(SettingProblem) in
                let refusal = SettingProblem("must be an object of bundle ids, each an object of product ids, each a list of names")
                guard case .object(let apps) = try input.structured() else { throw refusal }
                var table: [String: [String: [String]]] = [:]
                for (bundle, products) in apps {
                    guard case .object(let members) = products else { throw refusal }
                    for (product, names) in members {
                        guard case .array(let items) = names else { throw refusal }
                        var list: [String] = []
                        for item in items {
                            guard case .string(let name) = item, !name.isEmpty else { throw refusal }
                            list.append(name)
                        }
                        table[bundle, default: [:]][product] = list
                    }
                }
                settings[keyPath: path] = table
            },
            check: { _ in nil },
            show: { settings in
                let table = settings[keyPath: path]
                guard !table.isEmpty else { return "none" }
                return table.keys.sorted().map { bundle in
                    "\(bundle): \(table[bundle]?.count ?? 0) products"
                }.joined(separator: ", ")
            }
        )
    }

    /// File paths (a JSON list), each resolved against the settings file's directory when it names them; every
    /// source adds its own.
    static func paths(
        _ name: String, _ path: any (WritableKeyPath<ServiceSettings, [String]> & Sendable), _ summary: String
    ) -> Self {
        Self(
            name: name, summary: summary, rule: "a list of paths", isSecret: false,
            read: { input, origin, settings throws(SettingProblem) in
                settings[keyPath: path] += try input.strings().map(origin.resolve)
            },
            check: { _ in nil },
            show: { settings in "[" + settings[keyPath: path].joined(separator: ", ") + "]" }
        )
    }

    /// `12.5`, `3600`: whole numbers without a fraction.
    static func text(_ seconds: Double) -> String {
        seconds.rounded() == seconds && abs(seconds) < 1e15 ? String(Int64(seconds)) : String(seconds)
    }
}
