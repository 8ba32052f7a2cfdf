import Foundation
import Synchronization

/// A `swift-frontend` that runs at the lowest priority: a script beside the test process's temporary files that
/// starts the toolchain's frontend (the one beside `swiftc`, symbolic links resolved) under `nice -n 19`, for
/// `swiftc -driver-use-frontend-path`.
enum NiceFrontend {
    /// `nice`, where the system has it.
    static let nice: String? = ["/usr/bin/nice", "/bin/nice"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// The scripts written, by `swiftc` path.
    private static let scripts = Mutex<[String: String]>([:])

    /// The arguments that make `swiftc` start its frontends through the script — `-driver-use-frontend-path`, and
    /// `-resource-dir`, which the driver otherwise looks for beside the frontend it is given —, written once per
    /// process; `nil` when there is no `nice`, no frontend or resources beside `swiftc`, or the script cannot be
    /// written (the compiler then runs as it is).
    static func arguments(swiftc: String) -> [String]? {
        guard let nice = Self.nice else { return nil }
        let bin = URL(fileURLWithPath: swiftc).resolvingSymlinksInPath().deletingLastPathComponent()
        let frontend = bin.appendingPathComponent("swift-frontend").path
        let resources = bin.deletingLastPathComponent().appendingPathComponent("lib/swift").path
        var isFolder: ObjCBool = false
        guard FileManager.default.isExecutableFile(atPath: frontend), !frontend.contains("'"),
            FileManager.default.fileExists(atPath: resources, isDirectory: &isFolder), isFolder.boolValue
        else { return nil }
        let script = Self.scripts.withLock { scripts -> String? in
            if let script = scripts[swiftc] { return script }
            let script = FileManager.default.temporaryDirectory
                .appendingPathComponent("rk-nice-frontend-\(ProcessInfo.processInfo.processIdentifier)-\(scripts.count)").path
            let text = "#!/bin/sh\nexec \(nice) -n 19 '\(frontend)' \"$@\"\n"
            guard
                FileManager.default.createFile(
                    atPath: script, contents: Data(text.utf8), attributes: [.posixPermissions: 0o755])
            else { return nil }
            scripts[swiftc] = script
            return script
        }
        guard let script else { return nil }
        return ["-driver-use-frontend-path", script, "-resource-dir", resources]
    }
}
