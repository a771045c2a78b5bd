import Foundation
import Glibc

/// App groups: the containers an app shares with its extensions.
extension Supervisor {
    /// A prepared container of an app group.
    struct AppGroupContainer {
        let path: String
        let ownership: GroupOwnership
        /// The supplementary gid that opens it, when extensions have uids of their own.
        let gid: UInt32?
    }

    /// The container of `group` of `app`, made (or repaired) when first asked for.
    func appGroupContainer(app: String, group: String) throws -> AppGroupContainer {
        let key = app + "/" + group
        if let known = appGroupContainers[key] { return known }
        let policy = sandbox.policy
        let ownership: GroupOwnership
        var gid: UInt32?
        if policy.extensionUser.isPerExtension {
            let identities = appGroupIdentities ?? AppGroupIdentities(range: policy.appGroupRange, root: settings.appGroupsRoot)
            appGroupIdentities = identities
            let allocated = try identities.gid(app: app, group: group)
            gid = allocated
            ownership = .shared(gid: allocated)
        } else if let shared = policy.extensionUser.sharedCredentials {
            ownership = .single(uid: shared.uid, gid: shared.gid)
        } else {
            ownership = .single(uid: geteuid(), gid: getegid())
        }
        let (path, repair) = try AppGroupDirectory.prepare(root: settings.appGroupsRoot, app: app, group: group, ownership: ownership)
        switch repair {
        case .none: break
        case .removed(let what):
            log.emit(
                .appGroupRepaired,
                [("app", .string(app)), ("group", .string(group)), ("detail", .string("\(what); a new container was made"))])
        case .movedAside(let name):
            log.emit(
                .appGroupRepaired,
                [
                    ("app", .string(app)), ("group", .string(group)),
                    ("detail", .string("the container belonged to another user; moved aside to \(name) and a new one was made"))
                ])
        }
        let container = AppGroupContainer(path: path, ownership: ownership, gid: gid)
        appGroupContainers[key] = container
        return container
    }

    /// Gives `managed` the containers of the groups its bundle declares.
    func attachAppGroups(_ managed: ManagedExtension) throws {
        for group in managed.bundle.appGroups {
            let container = try appGroupContainer(app: managed.app.bundleIdentifier, group: group)
            managed.appGroups[group] = container.path
            if let gid = container.gid { managed.appGroupGids.append(gid) }
        }
    }

    /// `SANDGLASS_APP_GROUPS`: the extension's groups and their containers, as a JSON object.
    static func appGroupsEnvironment(_ groups: [String: String]) -> String? {
        guard !groups.isEmpty, let data = try? JSONSerialization.data(withJSONObject: groups, options: [.sortedKeys]) else { return nil }
        return String(decoding: data, as: UTF8.self)
    }
}
