import AppStoreJWS
import _ReceiptKitShared

/// A verifyReceipt request body: `{"receipt-data": base64, "password"?: string, "exclude-old-transactions"?: bool}`.
///
/// The body is parsed as JSON whatever its Content-Type says (clients send `application/json`, `text/plain`,
/// form types or none), with the strict parser signed payloads use: UTF-8 only (RFC 8259 §8.1; a leading UTF-8
/// byte order mark is skipped, as §8.1 allows), and a member name that appears twice in any object makes the body
/// malformed, because JSON parsers disagree on which occurrence wins (Foundation's `JSONDecoder` keeps the first,
/// `JSONSerialization` the last) and a proxy and this service must never read different secrets. One parser reads
/// the bytes once: there is no second scanner that could lose step with the first (a UTF-16 body, an escaped quote).
/// Keys other than these three are ignored.
public struct VerifyReceiptRequest: Sendable, Hashable {
    /// The base64 text of `receipt-data`, not yet decoded.
    public var receiptData: String
    /// `password`: the app's shared secret, when sent.
    public var password: String?
    /// `exclude-old-transactions`.
    public var excludeOldTransactions: Bool

    /// How deep a body may nest (a verifyReceipt body is one flat object; this leaves room for clients that add
    /// their own structured keys, and bounds the parser's recursion).
    static let maximumDepth = 64

    /// Creates a request.
    public init(receiptData: String, password: String? = nil, excludeOldTransactions: Bool = false) {
        self.receiptData = receiptData
        self.password = password
        self.excludeOldTransactions = excludeOldTransactions
    }

    /// Why a body is not a verifyReceipt request; the code is sent in `reasons`.
    public struct Failure: Error, Sendable, Hashable {
        /// A stable snake_case code, e.g. `receipt_data_missing`.
        public let code: String
        init(_ code: String) { self.code = code }

        static let notUTF8 = Failure("body_not_utf8")
        static let notJSONObject = Failure("body_not_json_object")
        static let duplicateKey = Failure("duplicate_key")
        static let receiptDataMissing = Failure("receipt_data_missing")
        static let receiptDataNotString = Failure("receipt_data_not_string")
        static let receiptDataEmpty = Failure("receipt_data_empty")
        static let passwordNotString = Failure("password_not_string")
        static let excludeOldNotBool = Failure("exclude_old_transactions_not_bool")
    }

    /// Parses a request body.
    /// - Throws: ``Failure``: `body_not_utf8` (a UTF-16 or UTF-32 body, or bytes that are not UTF-8),
    ///   `body_not_json_object`, `duplicate_key`, or a field's own code.
    public init(body: [UInt8]) throws(Failure) {
        let text = body.starts(with: Self.byteOrderMark) ? Array(body.dropFirst(Self.byteOrderMark.count)) : body
        let value: JSONValue
        do {
            value = try JSONParser.parse(text, maximumDepth: Self.maximumDepth)
        } catch {
            if error.isDuplicateName { throw .duplicateKey }
            throw Self.isUTF8(text) ? .notJSONObject : .notUTF8
        }
        guard let members = value.objectValue else { throw .notJSONObject }
        guard let receipt = try Self.field(members["receipt-data"], \.stringValue, .receiptDataNotString) else {
            throw .receiptDataMissing
        }
        guard !receipt.isEmpty else { throw .receiptDataEmpty }
        self.receiptData = receipt
        self.password = try Self.field(members["password"], \.stringValue, .passwordNotString)
        self.excludeOldTransactions =
            try Self.field(members["exclude-old-transactions"], \.boolValue, .excludeOldNotBool) ?? false
    }

    /// EF BB BF, the UTF-8 encoding of U+FEFF.
    private static let byteOrderMark: [UInt8] = [0xEF, 0xBB, 0xBF]

    /// Whether a text that failed to parse was UTF-8 at all (asked only on failure, so a valid body is read once).
    /// A NUL byte is UTF-8 but never JSON outside a string, and in practice the mark of UTF-16 or UTF-32.
    private static func isUTF8(_ bytes: [UInt8]) -> Bool {
        !bytes.contains(0) && String(validating: bytes, as: UTF8.self) != nil
    }

    /// A member's value, `nil` when absent or JSON `null`, `failure` when of another type.
    private static func field<T>(
        _ value: JSONValue?,
        _ read: (JSONValue) -> T?,
        _ failure: Failure
    ) throws(Failure) -> T? {
        guard let value, value != .null else { return nil }
        guard let typed = read(value) else { throw failure }
        return typed
    }
}
