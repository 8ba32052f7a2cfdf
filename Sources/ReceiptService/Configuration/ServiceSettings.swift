import AppStoreJWS
import _ReceiptKitShared

/// Everything the service can be told, from every source, checked once.
///
/// Each setting has one name, one rule and one place it goes (the table, ``descriptions``). Sources are layered,
/// lowest first: the embedding code's ``ServiceConfiguration/verifyReceipt`` and defaults; the JSON settings file
/// (``ServiceConfiguration/settingsFile``, unknown names refused, duplicate names refused); `RECEIPTKIT_…`
/// environment variables (the name upper-cased: `RECEIPTKIT_REQUEST_TIMEOUT_SECONDS=5`,
/// `RECEIPTKIT_SHARED_SECRETS='{"com.example.app":"…"}'` — the place for secrets); then the command line
/// (`receiptkit serve --port 8080`, or any setting as `--set NAME=VALUE`). A later source replaces an earlier one's
/// value, but for `anchors`, to which each adds. Text from the environment or the command line is read as the
/// setting's kind: a number, `true` or `false`, a string as it is, and a list or an object as JSON.
///
/// After every source is read, each value is checked against its setting's rule — whoever set it, code included —
/// and a failure names the setting, the rule, the value (never a secret's) and the source: `--config serve.json:
/// port must be in [0, 65535], not 70000`.
public struct ServiceSettings: Sendable {
    /// `host`: the address to bind.
    public var host = "127.0.0.1"
    /// `port`: the port to bind (0 picks a free one).
    public var port = 8080
    /// `database`: the ledger (`sqlite:PATH`, `sqlite::memory:`, `postgres://…`).
    public var database = "sqlite:receiptkit.sqlite"
    /// `ledger_snapshot_cache_bytes`: the most memory the ledger's cache of snapshots read before may hold (0 reads
    /// every `/verifyReceipt` snapshot from the database). PostgreSQL keeps snapshots only while it hears every
    /// instance's writes.
    public var ledgerSnapshotCacheBytes = 16 << 20
    /// `database_max_connections`: the PostgreSQL connections a serving instance opens at start and keeps (20, as
    /// PostgresNIO's pool; ignored for SQLite). Every instance holds this many: their sum, with the server's other
    /// clients, must stay under the server's `max_connections`.
    public var databaseMaximumConnections = 20
    /// `migrate_on_start`: whether the service migrates the ledger's schema when it starts (the default). Off, it
    /// starts only on a ledger at this build's schema version — an owner role migrates it first with
    /// `receiptkit serve --migrate` — so the service's own role needs no right to change the schema.
    public var migratesOnStart = true
    /// `metrics_listen`: `host:port` of a listener of their own for `GET /health` and `GET /metrics` (then the main
    /// listener answers 404 for them), or empty (the default): both on the main listener.
    public var metricsListen = ""
    /// `anchors`: certificate files (DER or PEM) trusted besides Apple's root, resolved against the settings file's
    /// directory when it names them.
    public var anchorFiles: [String] = []
    /// `check_revocation`: whether App Store JWS certificates are checked online (OCSP, `HTTPOCSPTransport`);
    /// `nil` leaves ``VerifyReceiptConfiguration/jwsRevocationCheck`` as the code set it.
    public var checksRevocation: Bool?
    /// `app_store_server_api`: the apps refreshed from the App Store Server API and served by its mirror, or served
    /// only (a public key); key files read at start.
    public var apps: [AppStoreServerAPISetting] = []
    /// What the verifier accepts and how much work it takes on: every other setting.
    public var verifyReceipt: VerifyReceiptConfiguration

    /// `host:port` as a URL writes it (`[::1]:8080` for an IPv6 host).
    var listeningAddress: String {
        "\(self.host.contains(":") ? "[\(self.host)]" : self.host):\(self.port)"
    }

    /// The defaults around `verifyReceipt`.
    public init(verifyReceipt: VerifyReceiptConfiguration = VerifyReceiptConfiguration()) {
        self.verifyReceipt = verifyReceipt
    }

    /// Checks every value against its setting's rule, as if the code had set it.
    /// - Throws: ``ServiceStartupError`` with ``ServiceStartupError/Code/invalidSetting`` for the first value out of
    ///   its rule.
    public func validate() throws(ServiceStartupError) {
        try self.validate(origins: [:])
    }

    /// Checks every value, each failure reported as coming from where the value was last set.
    func validate(origins: [String: SettingOrigin]) throws(ServiceStartupError) {
        for setting in Self.table {
            if let problem = setting.check(self) {
                throw (origins[setting.name] ?? .code).error(setting.message(problem))
            }
        }
        // Rules across settings, reported as coming from where the later of the two was set.
        let configuration = self.verifyReceipt
        if configuration.maximumInFlightBodyBytes < configuration.maximumBodySize {
            let origin = origins["max_in_flight_body_bytes"] ?? origins["max_body_bytes"] ?? .code
            throw origin.error(
                "max_in_flight_body_bytes (\(configuration.maximumInFlightBodyBytes)) must be at least max_body_bytes "
                    + "(\(configuration.maximumBodySize)): a body of the largest size could never be admitted")
        }
        var bundles = Set<String>()
        for app in configuration.appStoreServerAPI.apps where !bundles.insert(app.bundleIdentifier).inserted {
            // Apps given in code meet the rule the settings' `app_store_server_api` entries meet.
            throw (origins["app_store_server_api"] ?? .code).error(
                "app_store_server_api: bundle_id \(app.bundleIdentifier) is configured twice")
        }
    }

    /// Every setting, for people: name, environment variable, default, rule, summary.
    public static var descriptions: [ServiceSettingDescription] {
        let defaults = ServiceSettings()
        return Self.table.map { setting in
            ServiceSettingDescription(
                name: setting.name, environmentVariable: setting.environmentVariable,
                defaultValue: setting.show(defaults), rule: setting.rule, summary: setting.summary,
                isSecret: setting.isSecret)
        }
    }

    /// The setting named `name`.
    static func setting(named name: String) -> ServiceSetting? {
        Self.table.first { $0.name == name }
    }

    /// Reads one source's value of `setting` into the settings and notes where it came from; a value of the wrong
    /// kind is refused with its source.
    mutating func read(
        _ input: SettingInput, for setting: ServiceSetting, from origin: SettingOrigin,
        origins: inout [String: SettingOrigin]
    ) throws(ServiceStartupError) {
        do {
            try setting.read(input, origin, &self)
        } catch {
            throw origin.error(setting.message(error))
        }
        origins[setting.name] = origin
    }

    /// Reads a settings file: a JSON object of settings, parsed strictly, each name known.
    mutating func read(
        file bytes: [UInt8], at path: String, origins: inout [String: SettingOrigin]
    ) throws(ServiceStartupError) {
        let origin = SettingOrigin.file(path)
        let document: JSONValue
        do {
            document = try JSONParser.parse(bytes, maximumDepth: 16)
        } catch {
            let (line, column) = error.position(in: bytes)
            throw origin.error("line \(line), column \(column): not strict JSON (\(error.reason))")
        }
        guard case .object(let members) = document else { throw origin.error("not a JSON object of settings") }
        let known = Self.table.map(\.name)
        if let unknown = members.keys.sorted().first(where: { !known.contains($0) }) {
            throw origin.error("unknown setting \"\(unknown)\" (known: \(known.sorted().joined(separator: ", ")))")
        }
        for setting in Self.table {
            // JSON null is no value, as an absent name.
            guard let value = members[setting.name], value != .null else { continue }
            try self.read(.json(value), for: setting, from: origin, origins: &origins)
        }
    }

    /// Other spellings of settings' variables, by the variable they stand for: `RECEIPTKIT_DATABASE_URL`, as most
    /// deployment tools name a database URL.
    static let variableAliases = ["RECEIPTKIT_DATABASE_URL": "RECEIPTKIT_DATABASE"]

    /// Reads the `RECEIPTKIT_…` variables of `environment` that name settings; returns the others with that prefix
    /// (a misspelt one is reported, not silently dropped). A variable with `_FILE` appended names a file holding the
    /// value (a secret mounted by Docker, Kubernetes or systemd's credentials), read with `file`; one trailing line
    /// break is dropped. One setting given by two variables (`RECEIPTKIT_X` and `RECEIPTKIT_X_FILE`, or an alias) is
    /// refused rather than one silently winning.
    mutating func read(
        environment: [String: String], origins: inout [String: SettingOrigin],
        file: (_ path: String, _ variable: String) throws(ServiceStartupError) -> [UInt8]
    ) throws(ServiceStartupError) -> [String] {
        var unknown: [String] = []
        for variable in environment.keys.sorted() where variable.hasPrefix("RECEIPTKIT_") {
            let fromFile = variable.hasSuffix("_FILE")
            let spelled = fromFile ? String(variable.dropLast(5)) : variable
            let canonical = Self.variableAliases[spelled] ?? spelled
            guard let setting = Self.table.first(where: { $0.environmentVariable == canonical }),
                let given = environment[variable]
            else {
                unknown.append(variable)
                continue
            }
            let origin = SettingOrigin.environment(variable)
            let spellings = ([canonical] + Self.variableAliases.filter { $0.value == canonical }.map(\.key).sorted())
                .flatMap { [$0, $0 + "_FILE"] }
            let present = spellings.filter { environment[$0] != nil }
            guard present.count == 1 else {
                throw origin.error("\(setting.name) is given by \(present.joined(separator: " and ")): set one of them")
            }
            var text = given
            if fromFile {
                let bytes = try file(given, variable)
                guard let decoded = String(validating: bytes, as: UTF8.self) else {
                    throw origin.error("the file \(given) is not UTF-8 text")
                }
                // "\r\n" is one Character, as "\n" is: drop the last one if it is a line break.
                text = decoded.last.map(\.isNewline) == true ? String(decoded.dropLast()) : decoded
            }
            try self.read(.text(text), for: setting, from: origin, origins: &origins)
        }
        return unknown
    }

    /// Reads settings given by name on the command line (`--set NAME=VALUE`).
    mutating func read(
        commandLine settings: [String: String], origins: inout [String: SettingOrigin]
    ) throws(ServiceStartupError) {
        for name in settings.keys.sorted() {
            let origin = SettingOrigin.commandLine("--set \(name)")
            guard let setting = Self.setting(named: name), let text = settings[name] else {
                let known = Self.table.map(\.name).sorted().joined(separator: ", ")
                throw origin.error("unknown setting \"\(name)\" (known: \(known))")
            }
            try self.read(.text(text), for: setting, from: origin, origins: &origins)
        }
    }
}
