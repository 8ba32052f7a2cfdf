import AppStorePKI
import AppStoreJWS
import Dispatch
import Foundation
import ReceiptKit
import ReceiptKitTesting

/// App Store JWS decoding and verification. Each input is read three ways: as a compact JWS or a notification body,
/// verified as every payload kind; as JSON text, which must survive serialize → parse unchanged; and, when it is a
/// JSON object, as the payload of a JWS built around it (so mutations reach the payload checks without fighting
/// base64url). A valid verdict must mean what it says.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJWS(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    FuzzJWSHarness.verifyAsEveryKind(bytes)
    if let body = try? NotificationRequestBody(jsonEncoded: bytes) {
        FuzzJWSHarness.verifyAsEveryKind(Array(body.signedPayload.utf8))
    }
    guard let value = try? JSONValue(jsonEncoded: bytes) else { return 0 }
    let reparsed = try? JSONValue(jsonEncoded: value.serialized)
    precondition(reparsed == value, "serialize then parse changed a JSON value")
    if case .object = value {
        FuzzJWSHarness.verifyAsEveryKind(Array(FuzzJWSHarness.wrapping(payload: bytes).utf8))
    }
    return 0
}

enum FuzzJWSHarness {
    /// `Fuzz/JWSCA`, written by `receiptkit mint jws-ca` (test keys, committed so seeds stay valid).
    static let directory = ProcessInfo.processInfo.environment["RECEIPTKIT_FUZZ_JWS_CA"].map { URL(fileURLWithPath: $0) }
        ?? URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("JWSCA")

    static let authority: JWSTestAuthority = {
        do {
            return try JWSTestAuthority(contentsOf: directory)
        } catch {
            FileHandle.standardError.write(Data("cannot load the JWS fuzzing CA at \(directory.path): \(error)\n".utf8))
            exit(2)
        }
    }()

    /// 2026-01-15T10:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_768_471_200)

    /// Trusts the fuzzing CA, accepts local data, expects the seeds' identity, caches chains across inputs.
    static let verifier = JWSVerifier(
        policy: JWSVerificationPolicy(
            anchors: AppStoreTrustAnchors([authority.root.certificate]),
            allowsLocalEnvironments: true,
            bundleIdentifier: "com.example.fuzz"
        ),
        cache: AppStoreTrustCache(capacity: 64)
    )

    static func verifyAsEveryKind(_ jws: [UInt8]) {
        blocking {
            check(try? await verifier.verify(jws, as: JWSTransactionPayload.self, now: now))
            check(try? await verifier.verify(jws, as: JWSRenewalInfoPayload.self, now: now))
            check(try? await verifier.verify(jws, as: AppTransactionPayload.self, now: now))
            if let notification = try? await verifier.verifyNotification(String(decoding: jws, as: UTF8.self), now: now) {
                check(notification.notification)
                if notification.isValid {
                    precondition(notification.transaction?.isValid ?? true, "a valid notification with an invalid transaction")
                }
            }
        }
    }

    /// A valid verdict has a trusted path ending at an anchor, and the identity the policy expects where the kind
    /// names one; every typed field reads without trapping.
    static func check<Payload: AppStoreSignedPayload>(_ result: JWSVerificationResult<Payload>?) {
        guard let result else { return }
        let payload = result.payload
        _ = (payload.signingTime, payload.environment, payload.appAppleID, payload.bundleIdentifier)
        _ = payload.fields.count
        if result.isValid {
            precondition(!result.certificatePath.isEmpty && result.anchor != nil, "valid without a trusted path")
            precondition(result.header.algorithm == "ES256", "valid with another algorithm")
            if Payload.namesBundleIdentifier {
                precondition(payload.bundleIdentifier == "com.example.fuzz", "valid with another bundle id")
            }
        }
    }

    /// A compact JWS around `payload` with an ES256 header and the fuzzing chain; the signature is 64 zero bytes.
    static func wrapping(payload: [UInt8]) -> String {
        let header = JSONValue.object(["alg": .string("ES256"), "x5c": .array(x5c)])
        return "\(base64URL(header.serialized)).\(base64URL(payload)).\(base64URL([UInt8](repeating: 0, count: 64)))"
    }

    /// The fuzzing chain as `x5c` holds it: leaf, intermediate, root, standard base64 of the committed DER files.
    static let x5c: [JSONValue] = ["leaf", "intermediate", "root"].compactMap { name in
        (try? Data(contentsOf: directory.appendingPathComponent("\(name).cer"))).map { .string($0.base64EncodedString()) }
    }

    static func base64URL(_ bytes: [UInt8]) -> String {
        Data(bytes).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
    }

    /// Runs `body` to completion on the calling thread (libFuzzer's callback is synchronous).
    static func blocking(_ body: @escaping @Sendable () async -> Void) {
        let done = DispatchSemaphore(value: 0)
        Task {
            await body()
            done.signal()
        }
        done.wait()
    }
}
