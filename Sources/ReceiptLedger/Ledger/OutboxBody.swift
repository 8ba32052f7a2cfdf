/// How an outbox entry's body is stored: Apple's request body, `{"signedPayload": "<JWS>"}`, is almost all the JWS,
/// which the notification's own row already holds (`receiptkit_notifications.signed_payload`, written in the same
/// transaction and never deleted). So an entry stores the body's bytes around the JWS and a mark that says so, rather
/// than the JWS a second time for every target; a claim puts the body together again, byte for byte.
///
/// Stored forms, told apart by their first bytes (a JSON body never starts with NUL):
/// - `00 'R' 'K' 01`, the prefix's length (4 bytes, big-endian), the prefix, the suffix: the body is prefix + the
///   notification's `signed_payload` + suffix;
/// - `00 'R' 'K' 00`, then the body: a body that itself starts with NUL, kept whole;
/// - anything else: the body itself (a body that does not hold the JWS as it was signed — one whose JSON escapes a
///   character of it — and every entry written before this form existed).
enum OutboxBody {
    /// The mark of a body stored around its notification's signed payload.
    static let referenceMark: [UInt8] = [0x00, 0x52, 0x4B, 0x01]
    /// The mark of a body kept whole although it starts with NUL.
    static let literalMark: [UInt8] = [0x00, 0x52, 0x4B, 0x00]

    /// Why an entry is parked when its body refers to a signed payload that is gone.
    static let missingPayloadError =
        "its notification's signed payload is no longer in the ledger (receiptkit_notifications): the body cannot be sent"

    /// What to store for `body`, whose notification's row holds `signedPayload`.
    static func stored(_ body: [UInt8], signedPayload: String?) -> [UInt8] {
        let payload = signedPayload.map { Array($0.utf8) } ?? []
        if let start = ByteSearch.firstOffset(of: payload, in: body), let length = UInt32(exactly: start) {
            var stored = Self.referenceMark
            stored.reserveCapacity(8 + body.count - payload.count)
            stored.append(contentsOf: [UInt8(length >> 24), UInt8(length >> 16 & 0xFF), UInt8(length >> 8 & 0xFF), UInt8(length & 0xFF)])
            stored.append(contentsOf: body[..<start])
            stored.append(contentsOf: body[(start + payload.count)...])
            return stored
        }
        return body.first == 0x00 ? Self.literalMark + body : body
    }

    /// Whether `stored` needs its notification's signed payload to be read back.
    static func refersToPayload(_ stored: [UInt8]) -> Bool {
        stored.starts(with: Self.referenceMark)
    }

    /// The body `stored` stands for, given its notification's signed payload; `nil` when it refers to a payload that
    /// is not there (the notification's row was removed by hand) or its prefix's length is out of range.
    static func restored(_ stored: [UInt8], signedPayload: String?) -> [UInt8]? {
        if stored.starts(with: Self.literalMark) { return Array(stored.dropFirst(4)) }
        guard Self.refersToPayload(stored) else { return stored }
        guard let signedPayload, stored.count >= 8 else { return nil }
        let length = stored[4..<8].reduce(0) { ($0 << 8) | Int($1) }
        guard length <= stored.count - 8 else { return nil }
        let prefixEnd = 8 + length
        var body: [UInt8] = []
        body.reserveCapacity(stored.count - 8 + signedPayload.utf8.count)
        body.append(contentsOf: stored[8..<prefixEnd])
        body.append(contentsOf: signedPayload.utf8)
        body.append(contentsOf: stored[prefixEnd...])
        return body
    }
}
