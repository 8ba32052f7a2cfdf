import AppStoreJWS
import AppStorePKI
import Foundation
import ReceiptKitTesting
import SharedFixtures
import SwiftASN1
import Testing
import X509
import _ReceiptKitShared

/// Apple's own verifier as the oracle (issue 46 §5): what `JWSTestAuthority` signs — transactions, renewal info,
/// app transactions, notifications — passes the `SignedDataVerifier` of Apple's app-store-server-library (PyPI),
/// given the authority's root, as Apple's data passes it given Apple's; data from another authority, or of another
/// app, does not. `.ci/run` installs the library; elsewhere the suite is skipped unless
/// `RECEIPTKIT_REQUIRE_APPLE_LIBRARY=1`.
@Suite(
    "Apple's SignedDataVerifier accepts minted data",
    .enabled(
        if: AppleLibrary.isInstalled || AppleLibrary.isRequired,
        "app-store-server-library is not installed (pip install app-store-server-library); .ci/run installs it"))
struct AppleVerifierTests {
    static let script = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Scripts/apple-verify.py")
    static let signed = Date(timeIntervalSince1970: 1_790_000_000)
    static let bundle = "com.example.app"

    /// Each kind signed by `authority` for `environment`, as `KIND=FILE` arguments of the script.
    static func mint(
        _ authority: JWSTestAuthority, environment: AppStoreEnvironment, bundle: String, in directory: URL
    ) throws -> [String] {
        func sign(_ payload: [String: JSONValue]) throws -> String {
            try JWSMinter.sign(payload, signer: authority.leaf, chain: authority.chain)
        }
        let transaction = try sign(JWSSamplePayload.transaction(
            bundleIdentifier: bundle, productID: "com.example.monthly", transactionID: "2000000000000001",
            environment: environment, purchaseDate: Self.signed.addingTimeInterval(-60), signedDate: Self.signed))
        let payloads: [(String, String)] = [
            ("transaction", transaction),
            ("renewal-info", try sign(JWSSamplePayload.renewalInfo(
                productID: "com.example.monthly", originalTransactionID: "2000000000000001", environment: environment,
                signedDate: Self.signed))),
            ("app-transaction", try sign(JWSSamplePayload.appTransaction(
                bundleIdentifier: bundle, appAppleID: 1, environment: environment, signedDate: Self.signed))),
            ("notification", try sign(JWSSamplePayload.notification(
                type: .subscribed, notificationUUID: "6a7b0000-0000-4000-8000-000000000001", bundleIdentifier: bundle,
                appAppleID: 1, environment: environment, signedDate: Self.signed, signedTransactionInfo: transaction))),
        ]
        return try payloads.map { kind, jws in
            let file = directory.appendingPathComponent("\(environment.rawValue)-\(kind)-\(UUID()).jws")
            try Data(jws.utf8).write(to: file)
            return "\(kind)=\(file.path)"
        }
    }

    /// The script's verdict per input: `nil` when accepted, else Apple's status name.
    static func verdicts(root: Certificate, environment: AppStoreEnvironment, inputs: [String], in directory: URL)
        async throws -> [String?]
    {
        let rootFile = directory.appendingPathComponent("root-\(UUID()).cer")
        var serializer = DER.Serializer()
        try serializer.serialize(root)
        try Data(serializer.serializedBytes).write(to: rootFile)
        let output = try await ChildProcess.run(
            URL(fileURLWithPath: "/usr/bin/env"),
            ["python3", Self.script.path, rootFile.path, environment.rawValue, Self.bundle] + inputs)
        try #require(output.status == 0, "\(output.text)")
        return try output.text.split(separator: "\n").map { line in
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            return (object["ok"] as? Bool) == true ? nil : (object["status"] as? String ?? "no status")
        }
    }

    @Test("every kind, production and sandbox, verifies with Apple's library given the test root", arguments: [
        AppStoreEnvironment.production, .sandbox,
    ])
    func mintedDataVerifies(environment: AppStoreEnvironment) async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-apple-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let authority = try JWSTestAuthority()
        let inputs = try Self.mint(authority, environment: environment, bundle: Self.bundle, in: directory)
        let verdicts = try await Self.verdicts(
            root: authority.root.certificate, environment: environment, inputs: inputs, in: directory)
        #expect(verdicts == [nil, nil, nil, nil], "\(inputs)")
    }

    @Test("Apple's library refuses data from another authority, and another app's")
    func otherAuthorityOrAppIsRefused() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-apple-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let trusted = try JWSTestAuthority()
        let stranger = try Self.mint(try JWSTestAuthority(), environment: .sandbox, bundle: Self.bundle, in: directory)
        let otherApp = try Self.mint(trusted, environment: .sandbox, bundle: "com.example.other", in: directory)
        let verdicts = try await Self.verdicts(
            root: trusted.root.certificate, environment: .sandbox, inputs: [stranger[0], otherApp[0]], in: directory)
        #expect(verdicts == ["VERIFICATION_FAILURE", "INVALID_APP_IDENTIFIER"])
    }
}
