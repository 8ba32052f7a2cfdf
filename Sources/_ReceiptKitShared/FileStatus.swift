#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
// Glibc's `struct stat` is owned by whichever Clang module included <sys/stat.h> first — CDispatch or
// CoreFoundation, depending on the build — and MemberImportVisibility wants that module imported. This file is the
// only one that touches it.
import CoreFoundation
import Glibc
#if canImport(CDispatch)
import CDispatch
#endif
#elseif canImport(Musl)
import Musl
#endif

/// What `stat(2)` says of a file: its kind and size.
package struct FileStatus {
    package enum Kind {
        case directory
        case regular
        case symbolicLink
        case other
    }

    package var kind: Kind
    package var size: Int

    /// The status of `path` (`lstat` when `followingLinks` is false); `nil` with `errno` set on failure.
    package init?(path: String, followingLinks: Bool) {
        var status = stat()
        guard (followingLinks ? stat(path, &status) : lstat(path, &status)) == 0 else { return nil }
        self.init(status)
    }

    /// The status of an open descriptor; `nil` with `errno` set on failure.
    package init?(descriptor: Int32) {
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { return nil }
        self.init(status)
    }

    private init(_ status: stat) {
        switch status.st_mode & S_IFMT {
        case S_IFDIR: self.kind = .directory
        case S_IFREG: self.kind = .regular
        case S_IFLNK: self.kind = .symbolicLink
        default: self.kind = .other
        }
        self.size = Int(status.st_size)
    }
}
