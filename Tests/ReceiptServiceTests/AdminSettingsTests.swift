import Foundation
@testable import ReceiptService
import Testing

/// The operator's settings: `admin_tokens` (secret, several, comma-separated from the environment) and
/// `entitlements` (names by app and product).
@Suite("Admin tokens and entitlement names settings")
struct AdminSettingsTests {
    typealias S = SettingsSources
    static let first = "first-token-0123456789abcdef"
    static let second = "second-token-0123456789abcdef"

    @Test("admin_tokens: a JSON list in the file, a comma-separated list from the environment, never shown")
    func tokensFromEverySource() throws {
        let fromFile = try S.read(file: #"{"admin_tokens": ["\#(Self.first)", "\#(Self.second)"]}"#).settings
        #expect(fromFile.verifyReceipt.adminTokens == [Self.first, Self.second])
        let fromEnvironment = try S.read(environment: ["RECEIPTKIT_ADMIN_TOKENS": "\(Self.first),\(Self.second)"]).settings
        #expect(fromEnvironment.verifyReceipt.adminTokens == [Self.first, Self.second])
        let fromFlag = try S.read(set: ["admin_tokens": #"["\#(Self.first)"]"#]).settings
        #expect(fromFlag.verifyReceipt.adminTokens == [Self.first])
        let description = try #require(ServiceSettings.descriptions.first { $0.name == "admin_tokens" })
        #expect(description.isSecret)
        #expect(description.defaultValue == "none")
        let setting = try #require(ServiceSettings.setting(named: "admin_tokens"))
        #expect(setting.show(fromFile) == "(secret)")
    }

    @Test("a token too short, with a space, or an empty one between commas is refused by its position, never quoted")
    func weakTokensAreRefused() throws {
        for (given, index) in [
            ("short-token", 0), ("\(Self.first),", 1), ("\(Self.first),with space 0123456789abcdefgh", 1),
            ("\(Self.first),\u{7F}0123456789abcdef0123456789", 1),
        ] {
            let refused = try #require(S.refusal(environment: ["RECEIPTKIT_ADMIN_TOKENS": given]), "\(given)")
            #expect(refused.code == .malformedEnvironment)
            #expect(
                refused.reason
                    == "RECEIPTKIT_ADMIN_TOKENS: admin_tokens[\(index)] must be at least 24 printable ASCII characters without spaces or commas")
            #expect(!refused.reason.contains(Self.first))
        }
        let file = try #require(S.refusal(file: #"{"admin_tokens": "\#(Self.first)"}"#))
        #expect(file.reason.hasSuffix("serve.json: admin_tokens must be a list of strings"))
    }

    @Test("entitlements: names by app and product; anything else refused")
    func entitlementNames() throws {
        let read = try S.read(
            file: #"{"entitlements": {"com.example.app": {"com.example.app.monthly": ["pro"], "com.example.app.yearly": ["pro", "archive"]}}}"#
        ).settings
        #expect(
            read.verifyReceipt.entitlements
                == ["com.example.app": ["com.example.app.monthly": ["pro"], "com.example.app.yearly": ["pro", "archive"]]])
        for bad in [
            #"{"entitlements": ["pro"]}"#, #"{"entitlements": {"com.example.app": ["pro"]}}"#,
            #"{"entitlements": {"com.example.app": {"p": "pro"}}}"#, #"{"entitlements": {"com.example.app": {"p": [""]}}}"#,
            #"{"entitlements": {"com.example.app": {"p": [1]}}}"#,
        ] {
            let refused = try #require(S.refusal(file: bad), "\(bad)")
            #expect(
                refused.reason.hasSuffix(
                    "serve.json: entitlements must be an object of bundle ids, each an object of product ids, each a list of names"),
                "\(refused.reason)")
        }
    }
}
