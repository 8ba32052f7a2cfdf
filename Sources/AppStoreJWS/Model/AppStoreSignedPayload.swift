public import struct Foundation.Date

/// A JSON payload the App Store signs: a transaction, renewal info, an `AppTransaction` or a server notification.
///
/// Each keeps every field exactly as signed in ``fields`` (documented or not, so a field Apple adds tomorrow is
/// carried through) and reads its documented fields through typed properties. Documented fields are type-checked
/// when the payload is decoded: a date that is not a number is a ``JWSError/Code/malformedPayload`` error, not a
/// silent `nil`.
public protocol AppStoreSignedPayload: Sendable, Hashable, Codable {
    /// Every field as signed.
    var fields: [String: JSONValue] { get }

    /// Decodes a payload from its JSON members.
    /// - Throws: ``JWSError`` with ``JWSError/Code/malformedPayload`` when a documented field has the wrong type.
    init(fields: [String: JSONValue]) throws(JWSError)

    /// What the payload is called in messages (`transaction`, `renewal_info`, …).
    static var kind: String { get }

    /// Whether payloads of this kind name the app's bundle id (renewal info does not: a bundle-id expectation is
    /// checked on what carries it).
    static var namesBundleIdentifier: Bool { get }
    /// Whether payloads of this kind name the app's Apple ID (`AppTransaction` and notifications do).
    static var namesAppAppleID: Bool { get }

    /// The instant the chain is validated at by default (`TrustEvaluationTime.signedDate`).
    var signingTime: Date? { get }
    /// The app's bundle identifier, when the payload names one.
    var bundleIdentifier: String? { get }
    /// The app's Apple ID, when the payload names one.
    var appAppleID: Int64? { get }
    /// The environment that signed it.
    var environment: AppStoreEnvironment? { get }
}

extension AppStoreSignedPayload {
    public init(from decoder: any Decoder) throws {
        let fields = try [String: JSONValue](from: decoder)
        do {
            try self.init(fields: fields)
        } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        try self.fields.encode(to: encoder)
    }
}
