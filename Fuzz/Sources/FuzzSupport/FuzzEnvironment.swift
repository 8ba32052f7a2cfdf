import AppStorePKI
import Dispatch
import Foundation
import ReceiptKit
import ReceiptKitTesting
import X509

/// What every harness shares: the committed fuzzing CA, a pinned clock, and a way to run async validation from
/// libFuzzer's synchronous callback.
public enum FuzzEnvironment {
    /// `Fuzz/CA`, written by `receiptkit mint ca` (test keys, committed so seeds stay valid).
    public static let caDirectory: URL = {
        if let path = ProcessInfo.processInfo.environment["RECEIPTKIT_FUZZ_CA"] {
            return URL(fileURLWithPath: path)
        }
        return URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("CA")
    }()

    /// The fuzzing CA; a harness that cannot load it stops at start-up, before any input.
    public static let authority: TestCertificateAuthority = {
        do {
            return try TestCertificateAuthority(contentsOf: caDirectory)
        } catch {
            FileHandle.standardError.write(Data("cannot load the fuzzing CA at \(caDirectory.path): \(error)\n".utf8))
            exit(2)
        }
    }()

    /// 2026-01-15T10:00:00Z: every validation in a harness runs at this instant.
    public static let now = Date(epochMilliseconds: 1_768_471_200_000)

    /// A device whose hash the seeds carry.
    public static let device = DeviceIdentifier(bytes: Array(0..<16))

    /// A validator trusting the fuzzing CA (and Apple's pinned root), checking identity and device too, with a
    /// shared cache so chain outcomes are cached across inputs as on a server.
    public static let validator = ReceiptValidator(
        policy: ReceiptValidationPolicy(
            anchors: AppStoreTrustAnchors([authority.root.certificate]),
            allowsXcodeReceipts: true,
            bundleIdentifier: "com.example.fuzz",
            appVersion: "1",
            device: device
        ),
        cache: AppStoreTrustCache(capacity: 64)
    )

    /// Runs `validate` to completion on the calling thread (`nil` only if the task ended without a result).
    public static func validateBlocking(_ bytes: [UInt8], with validator: ReceiptValidator = validator)
        -> Result<ReceiptValidationResult, ReceiptError>?
    {
        let box = ResultBox()
        let done = DispatchSemaphore(value: 0)
        Task {
            do throws(ReceiptError) {
                box.set(.success(try await validator.validate(bytes, now: now)))
            } catch {
                box.set(.failure(error))
            }
            done.signal()
        }
        done.wait()
        return box.get()
    }
}

/// A result handed from the validation task to the waiting harness thread.
final class ResultBox: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Result<ReceiptValidationResult, ReceiptError>?

    func set(_ value: Result<ReceiptValidationResult, ReceiptError>) {
        self.lock.lock()
        self.value = value
        self.lock.unlock()
    }

    func get() -> Result<ReceiptValidationResult, ReceiptError>? {
        self.lock.lock()
        defer { self.lock.unlock() }
        return self.value
    }
}
