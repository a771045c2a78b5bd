/// Registration: an extension made known, with its container and budgets.
extension Supervisor {
    /// Makes `bundle` known, with its container created.
    func register(_ bundle: ExtensionBundle, app: AppBundle) throws -> ManagedExtension {
        let identity = try identities?.identity(for: bundle.bundleIdentifier) ?? sandbox.policy.extensionUser.sharedCredentials
        let (container, repair) = try ContainerDirectory.prepare(
            root: settings.containersRoot, identifier: bundle.bundleIdentifier, owner: identity)
        switch repair {
        case .none: break
        case .removed(let what):
            log.emit(
                .containerRepaired, [("bundle", .string(bundle.bundleIdentifier)), ("detail", .string("\(what); a new container was made"))]
            )
        case .movedAside(let name, let owner):
            log.emit(
                .containerRepaired,
                [
                    ("bundle", .string(bundle.bundleIdentifier)),
                    (
                        "detail",
                        .string(
                            "the container belonged to uid \(owner), not the extension's; moved aside to \(settings.containersRoot)/\(name) and a new one was made"
                        )
                    )
                ])
        }
        let ceiling = settings.budgetOverrides.applied(to: .defaults(for: bundle.role))
        let (budgets, caps) = bundle.limits.capped(by: ceiling)
        for cap in caps {
            log.emit(
                .limitsCapped,
                [
                    ("bundle", .string(bundle.bundleIdentifier)), ("key", .string(cap.key)),
                    ("asked", .double(cap.asked)), ("granted", .double(cap.granted)),
                    ("detail", .string("SandglassLimits asks for more than the host allows; capped"))
                ])
        }
        let managed = ManagedExtension(app: app, bundle: bundle, container: container, identity: identity, budgets: budgets)
        try attachAppGroups(managed)
        extensions[bundle.bundleIdentifier] = managed
        return managed
    }
}
