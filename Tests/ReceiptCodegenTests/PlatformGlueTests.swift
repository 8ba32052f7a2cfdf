import Foundation
import ReceiptKitTesting
import Testing

@testable import ReceiptCodegen

/// The macOS and iOS glue never builds on Linux (it stands behind `#if os(...)`), and a harness replaces it: here
/// each platform's glue, in every spelling of its check and every success and failure behaviour, is type-checked
/// (`-swift-version 6`, warnings as errors) against stand-ins for the Apple API it calls, declared with the shapes
/// that API has. What it proves: the generated Swift is well formed and uses its own names and values consistently;
/// not that the stand-ins match Apple's SDK to the letter (an app's build does that).
@Suite(.enabled(if: HarnessBuild.swiftc != nil, Comment(rawValue: HarnessBuild.skipMessage)))
struct PlatformGlueTests {
    /// Apple's API as the glue calls it, for a Linux type check.
    static let standIns = """
        import Foundation

        typealias io_object_t = UInt32
        typealias io_iterator_t = io_object_t
        typealias mach_port_t = UInt32
        typealias kern_return_t = Int32
        typealias CFString = String
        let MACH_PORT_NULL: Int32 = 0
        let KERN_SUCCESS: kern_return_t = 0
        final class CFAllocator: Sendable {}
        let kCFAllocatorDefault: CFAllocator? = nil
        func IOServiceMatching(_ name: String) -> NSMutableDictionary? { NSMutableDictionary() }
        func IOServiceGetMatchingServices(_ port: mach_port_t, _ matching: NSMutableDictionary, _ iterator: UnsafeMutablePointer<io_iterator_t>) -> kern_return_t { 0 }
        @discardableResult func IOObjectRelease(_ object: io_object_t) -> kern_return_t { 0 }
        func IOIteratorNext(_ iterator: io_iterator_t) -> io_object_t { 0 }
        func IORegistryEntryGetParentEntry(_ entry: io_object_t, _ plane: String, _ parent: UnsafeMutablePointer<io_object_t>) -> kern_return_t { 0 }
        func IORegistryEntryCreateCFProperty(_ entry: io_object_t, _ key: CFString, _ allocator: CFAllocator?, _ options: UInt32) -> Unmanaged<AnyObject>? { nil }
        func NSApplicationMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 { 0 }
        struct UIDevice: Sendable {
            static let current = UIDevice()
            var identifierForVendor: UUID? { UUID() }
        }
        final class SKReceiptRefreshRequest {
            func start() {}
        }
        extension Bundle {
            var appStoreReceiptURL: URL? { nil }
        }
        func receiptValidationSucceeded() {}
        func receiptValidationFailed() {}
        func verdicts(_ receipt: [UInt8], _ device: [UInt8], _ now: Int64) -> [Bool] { [receipt.count, device.count, Int(now)].map { $0 > 0 } }
        func constants(_ z: Int) -> [[UInt8]] { Array(repeating: [UInt8](repeating: 0x41, count: z + 4), count: 12) }

        """

    @Test func everyPlatformsGlueTypeChecksInEverySpelling() async throws {
        var random = SeededGenerator(seed: Array("platform-glue-tests".utf8), purpose: "tests")
        var source = Self.standIns
        var n = 0
        var checks: [CodegenPlatform: Set<String>] = [:]
        for platform in [CodegenPlatform.macOS, .iOS] {
            // Every success and failure behaviour, a receipt path or not, and draws enough that between them every
            // spelling of the check (sixteen) comes up.
            for i in 0..<96 {
                var options = CodegenOptions(bundleIdentifier: "com.example.glue", appVersion: "1.0", seed: Array(repeating: 1, count: 8))
                options.platform = platform
                options.onSuccess = [SuccessBehaviour.run, .call, .none][i % 3]
                options.onFailure = [FailureBehaviour.exit173, .refreshThenExit173, .call, .none][i % 4]
                options.receiptPath = i % 4 == 3 ? "Contents/_MASReceipt/receipt" : nil
                options.functionName = "check\(n)"
                let preamble = ("let table: [[UInt8]] = constants(0)", "let now: Int64 = 1_700_000_000_000", i % 2 == 0)
                let glue = try ValidatorWriter(options: options).platformGlue(
                    check: "verdicts", preamble: preamble, attribute: n % 2 == 0 ? "@MainActor " : "@MainActor\n",
                    mac: "mac\(n)", index: { _ in 11 }, using: &random)
                if options.receiptPath == nil {
                    // The check's own lines: which of its spellings this is.
                    let lines = glue.split(separator: "\n").filter { $0.contains("url") || $0.contains("valid") || $0.contains("verdicts(") }
                    checks[platform, default: []].insert(lines.joined(separator: "\n").replacingOccurrences(of: "mac\(n)(", with: "mac("))
                }
                source += glue.replacingOccurrences(of: "#if os(macOS)", with: "#if true")
                    .replacingOccurrences(of: "#if os(iOS)", with: "#if true") + "\n\n"
                n += 1
            }
        }
        #expect(checks[.macOS, default: []].count == 16 && checks[.iOS, default: []].count == 16, "\(checks.mapValues(\.count))")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("rk-glue-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("glue.swift")
        try Data(source.utf8).write(to: file)
        let result = try await ChildProcess.compile(["-swift-version", "6", "-warnings-as-errors", "-parse-as-library", "-typecheck", file.path])
        #expect(result.status == 0, "\(result.text.prefix(4000))")
    }
}
