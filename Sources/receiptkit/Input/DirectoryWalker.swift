import Foundation
import ReceiptKit
import _ReceiptKitShared

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Walks a directory tree depth-first with one open directory handle per level, yielding files as it reads them:
/// memory depends on the depth, never on the number of entries.
///
/// Regular files and symbolic links are yielded (when `accepts` their name) — a link is read only if it points at a
/// regular file, so symbolic links to directories are never descended (no cycles, no escaping the tree); hidden
/// entries (`.name`) are skipped, and other kinds (FIFOs, sockets, devices) are ignored. Entries come in directory order, which is the file system's.
final class DirectoryWalker {
    enum Entry {
        case file(String)
        /// A symbolic link: read it if it turns out to point at a regular file, skip it otherwise. (Resolving it
        /// here would walk its path once more, under the lock batch workers share.)
        case link(String)
        /// A directory that cannot be opened or read, or that lies deeper than the limit.
        case failed(path: String, reason: String)
    }

    #if canImport(Darwin)
    private typealias Handle = UnsafeMutablePointer<DIR>
    #else
    private typealias Handle = OpaquePointer
    #endif

    private struct Level {
        var handle: Handle
        var path: String
    }

    private var levels: [Level] = []
    /// A failure found while entering a directory, returned before reading on.
    private var pending: Entry?
    private let maximumDepth: Int
    private let accepts: (String) -> Bool

    init(root: String, maximumDepth: Int, accepts: @escaping (String) -> Bool) {
        self.maximumDepth = maximumDepth
        self.accepts = accepts
        self.enter(root)
    }

    deinit {
        for level in self.levels { closedir(level.handle) }
    }

    func next() -> Entry? {
        while true {
            if let pending = self.pending {
                self.pending = nil
                return pending
            }
            guard let level = self.levels.last else { return nil }
            errno = 0
            guard let entry = readdir(level.handle) else {
                let failure = errno
                closedir(level.handle)
                self.levels.removeLast()
                if failure != 0 {
                    return .failed(path: level.path, reason: "cannot be read: \(String(cString: strerror(failure)))")
                }
                continue
            }
            let name = withUnsafePointer(to: entry.pointee.d_name) { pointer in
                pointer.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: entry.pointee.d_name)) {
                    String(cString: $0)
                }
            }
            guard !name.hasPrefix(".") else { continue }
            let path = level.path.hasSuffix("/") ? level.path + name : level.path + "/" + name
            switch Self.kind(of: path, type: entry.pointee.d_type) {
            case .directory:
                self.enter(path)
            case .regular:
                if self.accepts(name) { return .file(path) }
            case .symbolicLink:
                if self.accepts(name) { return .link(path) }
            case .other, nil:
                continue
            }
        }
    }

    /// The entry's kind from `d_type`, or from one `lstat` (which does not follow links) on file systems that do
    /// not report types.
    private static func kind(of path: String, type: UInt8) -> FileStatus.Kind? {
        switch Int32(type) {
        case Int32(DT_DIR): return .directory
        case Int32(DT_REG): return .regular
        case Int32(DT_LNK): return .symbolicLink
        case Int32(DT_UNKNOWN): return FileStatus(path: path, followingLinks: false)?.kind
        default: return .other
        }
    }

    private func enter(_ path: String) {
        guard self.levels.count < self.maximumDepth else {
            self.pending = .failed(path: path, reason: "deeper than \(self.maximumDepth) directory levels")
            return
        }
        guard let handle = opendir(path) else {
            self.pending = .failed(path: path, reason: "cannot be read: \(String(cString: strerror(errno)))")
            return
        }
        self.levels.append(Level(handle: handle, path: path))
    }
}
