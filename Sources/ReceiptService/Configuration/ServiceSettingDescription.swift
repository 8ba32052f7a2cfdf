/// One setting of ``ServiceSettings``, described for people (`receiptkit serve --list-settings`).
public struct ServiceSettingDescription: Sendable, Hashable {
    /// The name in the settings file and after `--set`: `request_timeout_seconds`.
    public let name: String
    /// The environment variable: `RECEIPTKIT_REQUEST_TIMEOUT_SECONDS`.
    public let environmentVariable: String
    /// The default, as text (`(secret)` for a secret).
    public let defaultValue: String
    /// The rule its value must meet: `0.001–3600 (seconds)`.
    public let rule: String
    /// What it does.
    public let summary: String
    /// Whether its value is a secret (give it in the environment or the file, not on a command line others can
    /// read).
    public let isSecret: Bool
}
