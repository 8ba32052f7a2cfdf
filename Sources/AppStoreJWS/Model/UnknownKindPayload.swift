import struct Foundation.Date

/// The payload of a JWS whose fields name no kind, or several (``AppStoreSignedDataKind/unknown``).
///
/// Every field is kept as signed. The fields the verifier reads are type-checked as every kind documents them
/// (`bundleId`, `environment` and `receiptType` strings, `appAppleId` an integer, `signedDate` milliseconds); the
/// others are carried, not read.
struct UnknownKindPayload: AppStoreSignedPayload {
    let fields: [String: JSONValue]
    static let kind = "unknown"
    /// Not named by the kind, since there is none: checked when present (``PayloadClaims/init(unknown:policy:)``).
    static let namesBundleIdentifier = false
    static let namesAppAppleID = false

    static let schema: [String: PayloadField] = [
        "appAppleId": .integer, "bundleId": .string, "environment": .string, "receiptType": .string,
        "signedDate": .timestamp,
    ]

    init(fields: [String: JSONValue]) throws(JWSError) {
        try PayloadField.check(fields, Self.schema, in: Self.kind)
        self.fields = fields
    }

    /// `signedDate`; without one the chain is validated at the verification's `now`.
    var signingTime: Date? { self.fields.timestamp("signedDate")?.date }
    /// `bundleId`.
    var bundleIdentifier: String? { self.fields.string("bundleId") }
    /// `appAppleId`.
    var appAppleID: Int64? { self.fields.integer("appAppleId") }

    /// Every environment the payload names, as present: `environment` (transactions, renewal info) and
    /// `receiptType` (`AppTransaction`).
    var namedEnvironments: [AppStoreEnvironment] {
        [self.fields.environment("environment"), self.fields.environment("receiptType")].compactMap { $0 }
    }

    /// The environment the payload names, when the fields that name one agree; `nil` when none does or they differ.
    var environment: AppStoreEnvironment? {
        let named = self.namedEnvironments
        guard let first = named.first, named.allSatisfy({ $0 == first }) else { return nil }
        return first
    }
}
