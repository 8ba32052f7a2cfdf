import Crypto
import struct Foundation.URLComponents

/// One backend a notification of an app is sent on to (``NotificationForwardingConfiguration``): every verified
/// notification of `bundleIdentifier` recorded as new is POSTed to ``url`` — Apple's request body byte for byte —
/// until the target answers 2xx or the deadline passes.
///
/// Settings file: `"notification_targets": [{"bundle_id": "com.example.app", "url": "https://entitlements.internal/apple",
/// "hmac_secret": "…", "name": "entitlements"}]` (`hmac_secret` and `name` optional).
public struct NotificationTarget: Sendable, Hashable {
    /// The target's name: the key of its outbox entries and the `target` label of its metrics (shown in logs and
    /// `--check-config`; never a secret). Renaming a target leaves its pending entries under the old name
    /// (`receiptkit notifications outbox list` shows them; `drop --target OLD` removes them).
    public var name: String
    /// The app whose notifications it receives.
    public var bundleIdentifier: String
    /// Where they are POSTed: `http` or `https`.
    public var url: String
    /// With a secret, each request carries `X-ReceiptKit-Signature: sha256=<hex HMAC-SHA256 of the body>`.
    public var hmacSecret: String?

    /// A target; `name` defaults to ``defaultName(for:)`` of the URL (which changes with the URL: name a target
    /// whose URL may change).
    public init(bundleIdentifier: String, url: String, hmacSecret: String? = nil, name: String? = nil) {
        self.bundleIdentifier = bundleIdentifier
        self.url = url
        self.hmacSecret = hmacSecret
        self.name = name ?? Self.defaultName(for: url)
    }

    /// The URL's scheme, host and port, and the first 8 hex digits of the whole URL's SHA-256 — nothing that may be
    /// a credential (a user, a password, a query, a token in the path): `https://backend.example#3fa2c1d9`.
    public static func defaultName(for url: String) -> String {
        let digest = SHA256.hash(data: Array(url.utf8)).prefix(4).map { byte in
            let digits = Array("0123456789abcdef")
            return String([digits[Int(byte >> 4)], digits[Int(byte & 0x0F)]])
        }.joined()
        guard let components = URLComponents(string: url), let scheme = components.scheme, let host = components.host
        else { return "target#" + digest }
        return "\(scheme)://\(host)" + (components.port.map { ":\($0)" } ?? "") + "#" + digest
    }

    /// Why the target cannot be used, or `nil`.
    var problem: String? {
        if self.bundleIdentifier.isEmpty { return "bundle_id must not be empty" }
        if self.name.isEmpty || self.name.utf8.count > 200 || !self.name.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) {
            return "name must be 1 to 200 printable ASCII characters"
        }
        guard let components = URLComponents(string: self.url), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else {
            return "url must be an http or https URL with a host"
        }
        if components.fragment != nil { return "url must not have a fragment" }
        if let secret = self.hmacSecret, secret.utf8.count < 16 {
            return "hmac_secret must be at least 16 bytes"
        }
        return nil
    }
}
