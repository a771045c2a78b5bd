import SandglassIPC

/// A widget or Today extension (`PlugIns/Name.appex`) as ``BundleLoader`` found it.
public struct ExtensionBundle: Sendable, Hashable {
    /// The `.appex` directory, absolute.
    public var path: String
    /// `path/Info.plist`.
    public var infoPlistPath: String
    /// The extension's `CFBundleIdentifier`: the app's identifier, a period, and more.
    public var bundleIdentifier: String
    /// `CFBundleExecutable`: the executable's file name inside the `.appex`.
    public var executableName: String
    /// `path/executableName`; checked to be an executable regular file at load.
    public var executablePath: String
    /// `NSExtension.NSExtensionPointIdentifier`.
    public var point: ExtensionPoint
    /// `NSExtension.NSExtensionPrincipalClass` of a Today extension (`Module.ClassName`);
    /// `nil` for a WidgetKit extension, whose entry point is its `@main` type.
    public var principalClass: String?
    /// `NSWidgetWantsLocation`; `false` when absent.
    public var wantsLocation: Bool
    /// The budgets its `SandglassLimits` dictionary overrides.
    public var limits: LimitOverrides
    /// The app groups its entitlements declare (`com.apple.security.application-groups` in its
    /// `*.entitlements` file): the shared containers it may use.
    public var appGroups: [String]

    /// An extension with the given fields; ``BundleLoader/load(_:)`` is the usual way to get one.
    public init(
        path: String,
        infoPlistPath: String,
        bundleIdentifier: String,
        executableName: String,
        executablePath: String,
        point: ExtensionPoint,
        principalClass: String? = nil,
        wantsLocation: Bool = false,
        limits: LimitOverrides = LimitOverrides(),
        appGroups: [String] = []
    ) {
        self.path = path
        self.infoPlistPath = infoPlistPath
        self.bundleIdentifier = bundleIdentifier
        self.executableName = executableName
        self.executablePath = executablePath
        self.point = point
        self.principalClass = principalClass
        self.wantsLocation = wantsLocation
        self.limits = limits
        self.appGroups = appGroups
    }

    /// What the extension is on the wire: `.widgetKit` or `.today`.
    public var role: ExtensionRole { point.role }

    /// What its `SandglassLimits` ask for over its role's defaults: the bundle's word, before
    /// the operator's ceiling caps it. The host runs it under ``ManagedExtension/budgets``.
    public var budgets: Budgets { limits.applied(to: .defaults(for: role)) }
}
