import Foundation

/// App groups: their containers made at install, seeded, and handed to the host API.
extension HostCore {
    /// Makes the container of every group `app` declares (its own and its extensions') and
    /// copies the configured seeds into them.
    func prepareAppGroups(of app: AppBundle) throws {
        for group in app.appGroups {
            let container = try supervisor.appGroupContainer(app: app.bundleIdentifier, group: group)
            var fields: [(String, JSONValue)] = [
                ("app", .string(app.bundleIdentifier)), ("group", .string(group)),
                ("path", .string(container.path)),
                ("extensions", .array(app.extensions.filter { $0.appGroups.contains(group) }.map { .string($0.bundleIdentifier) }))
            ]
            if let gid = container.gid { fields.append(("gid", .int(Int64(gid)))) }
            if let seed = configuration.appGroupSeeds[group] {
                try appGroup(app: app.bundleIdentifier, group: group, container).seed(from: seed)
                fields.append(("seededFrom", .string(seed)))
            }
            log.emit(.appGroupPrepared, fields)
        }
    }

    /// The host API's handles on the groups of `app`.
    func appGroups(of app: String) -> [AppGroup] {
        guard let bundle = apps.first(where: { $0.bundleIdentifier == app }) else { return [] }
        return bundle.appGroups.compactMap { group in
            (try? supervisor.appGroupContainer(app: app, group: group)).map { appGroup(app: app, group: group, $0) }
        }
    }

    private func appGroup(app: String, group: String, _ container: Supervisor.AppGroupContainer) -> AppGroup {
        AppGroup(identifier: group, app: app, path: container.path, ownership: container.ownership)
    }
}
