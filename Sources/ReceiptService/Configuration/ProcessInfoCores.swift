import class Foundation.ProcessInfo

/// The number of cores this process may use.
enum ProcessInfoCores {
    static var count: Int { ProcessInfo.processInfo.activeProcessorCount }
}
