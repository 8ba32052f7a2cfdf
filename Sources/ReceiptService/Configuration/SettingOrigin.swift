/// Where a setting's value came from: named in every message about it, and the directory its relative paths are
/// resolved against.
public enum SettingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// The embedding code's ``ServiceConfiguration/verifyReceipt`` (or a default).
    case code
    /// The JSON settings file at this path.
    case file(String)
    /// This `RECEIPTKIT_…` environment variable.
    case environment(String)
    /// This command-line flag (`--port`, or `--set NAME=VALUE`).
    case commandLine(String)

    /// `--config PATH`, `RECEIPTKIT_PORT`, `--port`; empty for code.
    public var description: String {
        switch self {
        case .code: return ""
        case .file(let path): return "--config \(path)"
        case .environment(let variable): return variable
        case .commandLine(let flag): return flag
        }
    }

    /// The directory relative paths given here are resolved against: the settings file's; `nil` (the working
    /// directory) for the others.
    var directory: String? {
        guard case .file(let path) = self else { return nil }
        guard let slash = path.lastIndex(of: "/") else { return nil }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// `path` resolved against ``directory``: an absolute or empty path, or one with no directory to resolve
    /// against, as it is.
    func resolve(_ path: String) -> String {
        guard let directory = self.directory, !path.isEmpty, !path.hasPrefix("/") else { return path }
        return directory == "/" ? "/" + path : directory + "/" + path
    }

    /// The startup error for a problem with a value from here: the file and the environment are configuration
    /// (`malformed_file`, `malformed_environment`), the command line and code are a usage (`invalid_setting`).
    func error(_ problem: String) -> ServiceStartupError {
        switch self {
        case .code: return ServiceStartupError(.invalidSetting, problem)
        case .file: return ServiceStartupError(.malformedFile, "\(self): \(problem)")
        case .environment: return ServiceStartupError(.malformedEnvironment, "\(self): \(problem)")
        case .commandLine: return ServiceStartupError(.invalidSetting, "\(self): \(problem)")
        }
    }
}
