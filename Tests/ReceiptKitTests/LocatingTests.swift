import AppStorePKI
import Foundation
import ReceiptKit
import ReceiptKitTesting
import ReceiptTestSupport
import Testing

/// `.app` bundles and the exit-173 startup decision, exercised on any platform.
struct LocatingTests {
    func makeBundle(identifier: String, version: String, receipt: [UInt8]?, binaryPlist: Bool = false) throws -> String {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("receiptkit-\(UUID().uuidString)/Test.app")
        let contents = root.appendingPathComponent("Contents")
        try FileManager.default.createDirectory(at: contents.appendingPathComponent("_MASReceipt"), withIntermediateDirectories: true)
        let plist = ["CFBundleIdentifier": identifier, "CFBundleShortVersionString": version]
        try PropertyListSerialization.data(fromPropertyList: plist, format: binaryPlist ? .binary : .xml, options: 0)
            .write(to: contents.appendingPathComponent("Info.plist"))
        if let receipt {
            try Data(receipt).write(to: contents.appendingPathComponent("_MASReceipt/receipt"))
        }
        return root.path
    }

    var receipt: [UInt8] {
        get throws { try ReceiptMinter.mint(TestPKI.sampleReceipt, signer: TestPKI.ca.receiptSigner) }
    }

    @Test(arguments: [false, true])
    func validBundlePassesTheStartupCheck(binaryPlist: Bool) async throws {
        let path = try makeBundle(identifier: "com.example.app", version: "42", receipt: receipt, binaryPlist: binaryPlist)
        let bundle = try ApplicationBundle(path: path)
        #expect(bundle.bundleIdentifier == "com.example.app")
        #expect(bundle.shortVersion == "42")
        let verdict = await ReceiptStartupCheck.evaluate(
            bundle: bundle,
            device: TestPKI.device,
            anchors: AppStoreTrustAnchors([try TestPKI.ca.root.certificate]),
            now: TestPKI.now
        )
        #expect(try verdict.get().failures == [])
    }

    @Test func versionMismatchFailsTheStartupCheck() async throws {
        let path = try makeBundle(identifier: "com.example.app", version: "43", receipt: receipt)
        let verdict = await ReceiptStartupCheck.evaluate(
            bundle: try ApplicationBundle(path: path),
            device: TestPKI.device,
            anchors: AppStoreTrustAnchors([try TestPKI.ca.root.certificate]),
            now: TestPKI.now
        )
        #expect(try verdict.get().failures == [.appVersionMismatch])
    }

    @Test func missingReceiptIsUnreadable() async throws {
        let path = try makeBundle(identifier: "com.example.app", version: "42", receipt: nil)
        let verdict = await ReceiptStartupCheck.evaluate(
            bundle: try ApplicationBundle(path: path),
            device: nil,
            now: TestPKI.now
        )
        guard case .failure(.unreadable(let error)) = verdict else {
            Issue.record("a bundle without a receipt must fail as unreadable")
            return
        }
        #expect(error.code == .unreadableFile)
        #expect(ReceiptStartupCheck.receiptRefreshExitStatus == 173)
    }

    @Test func bundleWithoutIdentityIsInvalid() throws {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("receiptkit-\(UUID().uuidString)/Bad.app/Contents")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        try Data("not a plist".utf8).write(to: root.appendingPathComponent("Info.plist"))
        #expect(throws: ReceiptFileError(.invalidBundle, "")) { try ApplicationBundle(path: root.deletingLastPathComponent().path) }
        #expect(throws: ReceiptFileError(.unreadableFile, "")) { try ApplicationBundle(path: "/nonexistent.app") }
    }
}
