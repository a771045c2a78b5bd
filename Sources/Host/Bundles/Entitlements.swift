import Foundation

/// The entitlements of an app or an extension, as Xcode keeps them beside a target: a property
/// list named `<Name>.entitlements` in the `.app` or `.appex` directory (at most one). Only the
/// app groups matter here (`com.apple.security.application-groups`, an array of identifiers that
/// start with `group.`); other keys are ignored.
///
/// ```xml
/// <!-- Relay.app/PlugIns/RelayWidget.appex/RelayWidget.entitlements -->
/// <plist version="1.0"><dict>
///     <key>com.apple.security.application-groups</key>
///     <array><string>group.com.example.relay</string></array>
/// </dict></plist>
/// ```
enum Entitlements {
    /// The key of the app groups.
    static let appGroupsKey = "com.apple.security.application-groups"

    /// The most app groups an app declares, its extensions' and its own together: each is a
    /// container under a quota of its own and a gid of the host's range
    /// (``SandboxPolicy/appGroupRange``). A real app has one or two.
    static let maximumAppGroups = 16

    /// The app groups declared by the `*.entitlements` file of `directory` (`shown` is how
    /// errors name the directory); none when it has no such file. A malformed file, a second
    /// file, a bad identifier, or more than ``maximumAppGroups`` with those the app's other
    /// targets declared `before` is refused naming the file and the key.
    static func appGroups(in directory: String, shown: String, before: [String] = []) throws(BundleError) -> [String] {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? [])
            .filter { $0.hasSuffix(".entitlements") }.sorted()
        guard let name = names.first else { return [] }
        guard names.count == 1 else {
            throw BundleError(
                file: shown,
                message: "holds \(names.count) entitlements files (\(names.joined(separator: ", "))); keep the one of this target")
        }
        let file = shown + "/" + name
        let plist = try PropertyListDictionary.read(
            directory + "/" + name, file: file,
            remedy: "an entitlements file is a property list dictionary")
        guard let value = plist.values[appGroupsKey] else { return [] }
        let example = "e.g. <array><string>group.com.example.app</string></array>"
        guard let list = value as? [Any] else {
            throw plist.error(
                appGroupsKey, "is \(PropertyListValue(value).summary); it must be an array of app group identifiers, \(example)")
        }
        var groups: [String] = []
        for (index, item) in list.enumerated() {
            guard case .string(let group) = PropertyListValue(item) else {
                throw plist.error(appGroupsKey, "item \(index) is \(PropertyListValue(item).summary); each must be a string, \(example)")
            }
            if let problem = problem(with: group) {
                throw plist.error(appGroupsKey, "item \(index) is \(PropertyListValue.quoted(group)); it \(problem)")
            }
            if !groups.contains(group) { groups.append(group) }
        }
        let inAll = Set(before).union(groups).count
        guard inAll <= maximumAppGroups else {
            throw plist.error(
                appGroupsKey,
                "declares \(groups.count) app groups, \(inAll) in all with the app's other targets; an app may declare at most \(maximumAppGroups) (each is a container with a quota of its own)"
            )
        }
        return groups
    }

    /// Why `group` is not an app group identifier, or nil when it is.
    static func problem(with group: String) -> String? {
        guard group.hasPrefix("group."), group.count > "group.".count else {
            return "must start with \"group.\" and go on in reverse-DNS, e.g. group.com.example.app"
        }
        guard group.utf8.count <= 255 else { return "is longer than 255 bytes" }
        if let problem = BundleIdentifierRules.problem(with: group) {
            return problem.replacingOccurrences(of: "a bundle identifier", with: "an app group identifier")
        }
        return nil
    }
}
