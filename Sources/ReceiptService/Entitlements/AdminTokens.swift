import Crypto
import _ReceiptKitShared

/// The operator's bearer tokens (setting `admin_tokens`): several at once, so that one can be rotated out while the
/// next is already in use. Tokens are kept as SHA-256 digests and a request's is compared with every one of them
/// in constant time, so neither a token's content nor its length nor which one matched shows in the timing.
struct AdminTokens: Sendable {
    private let digests: [[UInt8]]

    init(_ tokens: [String]) {
        self.digests = tokens.map { Array(SHA256.hash(data: Array($0.utf8))) }
    }

    /// Whether no token is configured: the endpoints behind them are then not served.
    var isEmpty: Bool { self.digests.isEmpty }

    /// Whether `authorization` is `Bearer` and one of the tokens (the scheme's case ignored, as RFC 9110 says).
    func admits(_ authorization: String?) -> Bool {
        guard let authorization, authorization.utf8.count <= 4096 else { return false }
        let scheme = "bearer "
        guard authorization.utf8.count > scheme.utf8.count,
            authorization.prefix(scheme.count).lowercased() == scheme
        else { return false }
        return self.contains(Array(authorization.utf8.dropFirst(scheme.utf8.count)))
    }

    /// Whether `authorization` is HTTP `Basic` (RFC 7617) whose password is one of the tokens, whatever the user
    /// name: what a browser sends for the timeline page once a person has typed the token in.
    func admitsBasic(_ authorization: String?) -> Bool {
        guard let authorization, authorization.utf8.count <= 8192 else { return false }
        let scheme = "basic "
        guard authorization.utf8.count > scheme.utf8.count,
            authorization.prefix(scheme.count).lowercased() == scheme,
            let decoded = Base64Decoder.bytes(of: String(authorization.dropFirst(scheme.count)))
        else { return false }
        // The user name ends at the first colon (RFC 7617 §2: it cannot hold one); the rest is the password.
        guard let colon = decoded.firstIndex(of: UInt8(ascii: ":")) else { return false }
        return self.contains(Array(decoded[(colon + 1)...]))
    }

    /// Whether `token` is one of the tokens, every one compared in constant time.
    private func contains(_ token: [UInt8]) -> Bool {
        let digest = Array(SHA256.hash(data: token))
        var admitted = false
        for stored in self.digests {
            // Every token compared: no early exit.
            admitted = ConstantTime.equals(digest[...], stored[...]) || admitted
        }
        return admitted
    }
}
