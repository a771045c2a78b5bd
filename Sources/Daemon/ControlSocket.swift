import Foundation

/// Where the control socket lives unless `--control` says otherwise:
/// `$XDG_RUNTIME_DIR/sandglass.sock` when that is set, else `/tmp/sandglass-UID.sock`.
public enum ControlSocket {
    /// The default path for this user.
    public static var defaultPath: String {
        if let runtime = ProcessInfo.processInfo.environment["XDG_RUNTIME_DIR"], !runtime.isEmpty {
            return runtime + "/sandglass.sock"
        }
        return "/tmp/sandglass-\(getuid()).sock"
    }

    /// The longest path a Unix socket address holds (`sun_path` less its terminating zero).
    static let maximumPathLength = MemoryLayout.size(ofValue: sockaddr_un().sun_path) - 1
}

/// The daemon could not be reached, or answered something that is not a response.
public struct ControlError: Error, CustomStringConvertible {
    public let description: String
}
