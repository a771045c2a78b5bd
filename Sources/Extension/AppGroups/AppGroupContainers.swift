import Foundation

/// The app groups this extension declares (its entitlements' `com.apple.security.application-groups`)
/// and their containers, as the host passes them (`SANDGLASS_APP_GROUPS`, a JSON object).
enum AppGroupContainers {
    /// Read with `getenv` (`ProcessInfo.environment` copies the whole environment into a
    /// dictionary, on every cold start's path).
    static let declared: [String: String] = parse(getenv("SANDGLASS_APP_GROUPS").map { String(cString: $0) })

    /// The groups of the runtime whose request the caller serves: an in-process runtime's are
    /// its own (its host's `SANDGLASS_APP_GROUPS`), not the process's.
    static var active: [String: String] {
        guard let runtime = ExtensionRuntime.active, runtime.isInProcess else { return declared }
        return parse(runtime.environment["SANDGLASS_APP_GROUPS"])
    }

    static func parse(_ text: String?) -> [String: String] {
        guard let text, let object = try? JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: String] else { return [:] }
        return object
    }
}

extension FileManager {
    /// The shared container of app group `groupIdentifier`, as on Apple's platforms: `nil`
    /// unless the extension's entitlements declare the group. The sandbox lets the extension
    /// read and write there, and nowhere else outside its own container.
    ///
    /// ```swift
    /// let url = FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: "group.com.example.relay")
    /// ```
    public func containerURL(forSecurityApplicationGroupIdentifier groupIdentifier: String) -> URL? {
        AppGroupContainers.active[groupIdentifier].map { URL(fileURLWithPath: $0, isDirectory: true) }
    }
}
