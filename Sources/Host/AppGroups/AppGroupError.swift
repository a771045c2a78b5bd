import Foundation
import Glibc

/// A failed operation on an app group's files, saying what failed, where, and why.
public struct AppGroupError: Error, Sendable, CustomStringConvertible {
    public let group: String
    public let reason: String
    /// The `errno` of the failed call, 0 when none.
    public let code: Int32
    /// What stands at the path is a link or a special file, not a file to read.
    let isNotAFile: Bool

    init(_ group: String, _ reason: String, code: Int32 = 0, isNotAFile: Bool = false) {
        self.group = group
        self.reason = reason
        self.code = code
        self.isNotAFile = isNotAFile || code == ELOOP
    }

    public var description: String { "app group \(group): \(reason)" }

    /// `what` failed with the current `errno`.
    static func errno(_ group: String, _ what: String) -> AppGroupError {
        let code = Glibc.errno
        let hint = code == ELOOP || code == ENOTDIR ? " (a symbolic link or a file stands there: the host never follows one)" : ""
        return AppGroupError(group, "\(what): \(String(cString: strerror(code))) (errno \(code))\(hint)", code: code)
    }
}
