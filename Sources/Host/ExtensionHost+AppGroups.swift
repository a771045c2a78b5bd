/// App groups: the containing app's side of the containers it shares with its extensions.
extension ExtensionHost {
    /// The container of app group `identifier`, as its containing app sees it (`app`: the
    /// app's bundle identifier, needed only when several installed apps declare the group).
    /// Throws when no installed app declares it.
    ///
    /// ```swift
    /// try host.appGroup("group.com.example.relay").defaults["relayData"] = "leg 3 of 7"
    /// await host.reloadTimelines(ofKind: "RelayStatus")
    /// ```
    public func appGroup(_ identifier: String, app: String? = nil) throws -> AppGroup {
        let matches = installedAppGroups.withLock { groups in
            groups.filter { $0.identifier == identifier && (app == nil || $0.app == app) }
        }
        guard let first = matches.first else {
            let declared = installedAppGroups.withLock { $0.map { "\($0.identifier) (\($0.app))" } }
            throw AppGroupError(
                identifier,
                "no installed app\(app.map { " \($0)" } ?? "") declares this group; declared: \(declared.isEmpty ? "none" : declared.joined(separator: ", ")) (com.apple.security.application-groups in a .entitlements file)"
            )
        }
        guard matches.count == 1 else {
            throw AppGroupError(
                identifier,
                "\(matches.count) installed apps declare this group (\(matches.map(\.app).joined(separator: ", "))); name one with app:")
        }
        return first
    }
}
