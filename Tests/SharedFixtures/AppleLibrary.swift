import Foundation
import ReceiptKitTesting

/// Apple's app-store-server-library for Python (PyPI): whether this machine has it, and whether the run requires it
/// (`RECEIPTKIT_REQUIRE_APPLE_LIBRARY=1`, as `.ci/run` sets after installing it).
public enum AppleLibrary {
    public static var isRequired: Bool { ProcessInfo.processInfo.environment["RECEIPTKIT_REQUIRE_APPLE_LIBRARY"] == "1" }

    /// Whether `python3` imports the library (asked once, when the suites are listed).
    public static let isInstalled: Bool = {
        guard
            let process = try? SpawnedProcess(
                URL(fileURLWithPath: "/usr/bin/env"), ["python3", "-c", "import appstoreserverlibrary.signed_data_verifier"])
        else { return false }
        return process.waitUntilExit() == 0 && process.terminationReason == .exit
    }()
}
