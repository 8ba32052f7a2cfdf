import struct Foundation.Data
import class Foundation.JSONDecoder

/// A verifyReceipt request body: `{"receipt-data": base64, "password"?: string, "exclude-old-transactions"?: bool}`.
///
/// The body is parsed as JSON whatever its Content-Type says (clients send `application/json`, `text/plain`,
/// form types or none). Keys other than these three are ignored; a key that appears twice at the top level makes
/// the body malformed, because JSON parsers disagree on which occurrence wins (Foundation's `JSONDecoder` keeps the
/// first, `JSONSerialization` the last) and a proxy and this service must never read different secrets.
public struct VerifyReceiptRequest: Sendable, Hashable {
    /// The base64 text of `receipt-data`, not yet decoded.
    public var receiptData: String
    /// `password`: the app's shared secret, when sent.
    public var password: String?
    /// `exclude-old-transactions`.
    public var excludeOldTransactions: Bool

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

        static let notJSONObject = Failure("body_not_json_object")
        static let duplicateKey = Failure("duplicate_key")
        static let receiptDataMissing = Failure("receipt_data_missing")
        static let receiptDataNotString = Failure("receipt_data_not_string")
        static let receiptDataEmpty = Failure("receipt_data_empty")
        static let passwordNotString = Failure("password_not_string")
        static let excludeOldNotBool = Failure("exclude_old_transactions_not_bool")
    }

    /// Parses a request body.
    public init(body: [UInt8]) throws(Failure) {
        let data = Data(body)
        let fields: Fields
        do {
            fields = try JSONDecoder().decode(Fields.self, from: data)
        } catch let error as Failure {
            throw error
        } catch {
            throw .notJSONObject
        }
        // Foundation has validated the document; now refuse ambiguous ones.
        guard TopLevelKeys.areUnique(in: body) else { throw .duplicateKey }
        guard let receipt = fields.receiptData else { throw .receiptDataMissing }
        guard !receipt.isEmpty else { throw .receiptDataEmpty }
        self.receiptData = receipt
        self.password = fields.password
        self.excludeOldTransactions = fields.excludeOld ?? false
    }

    /// The three fields, each optional and type-checked, other keys ignored.
    private struct Fields: Decodable {
        var receiptData: String?
        var password: String?
        var excludeOld: Bool?

        enum CodingKeys: String, CodingKey {
            case receiptData = "receipt-data"
            case password
            case excludeOld = "exclude-old-transactions"
        }

        init(from decoder: any Decoder) throws {
            let container: KeyedDecodingContainer<CodingKeys>
            do {
                container = try decoder.container(keyedBy: CodingKeys.self)
            } catch {
                throw Failure.notJSONObject
            }
            self.receiptData = try Self.field(container, .receiptData, String.self, .receiptDataNotString)
            self.password = try Self.field(container, .password, String.self, .passwordNotString)
            self.excludeOld = try Self.field(container, .excludeOld, Bool.self, .excludeOldNotBool)
        }

        /// A field's value, `nil` when absent or JSON `null`, the given failure when of another type.
        private static func field<T: Decodable>(
            _ container: KeyedDecodingContainer<CodingKeys>,
            _ key: CodingKeys,
            _ type: T.Type,
            _ failure: Failure
        ) throws -> T? {
            guard container.contains(key), (try? container.decodeNil(forKey: key)) == false else { return nil }
            guard let value = try? container.decode(T.self, forKey: key) else { throw failure }
            return value
        }
    }
}
