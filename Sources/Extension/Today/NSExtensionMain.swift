import SandglassIPC

/// The entry point of a Today extension: call it from the executable's `main.swift`.
///
/// ```swift
/// // main.swift
/// import NotificationCenter
///
/// NSExtensionMain()
/// ```
///
/// It makes the principal class the extension's Info.plist names in
/// `NSExtension.NSExtensionPrincipalClass` (`Module.ClassName`, found with `NSClassFromString`;
/// a ``UIViewController`` subclass adopting ``NCWidgetProviding``), calls its `viewDidLoad()`,
/// says hello to the host as a Today extension, and serves `widgetPerformUpdate` on the main
/// thread, which runs the main run loop (serving the main queue) for the life of the process.
///
/// The host passes the class name in `SANDGLASS_PRINCIPAL_CLASS`; without it, the Info.plist
/// beside the executable is read. Exit statuses: 64 outside the host, 78 when the principal
/// class is missing, unknown or not a `UIViewController`; then as for widget extensions (0 when
/// the host is gone, 70 for a protocol violation, 76 when refused).
public func NSExtensionMain() -> Never {
    BareStartProbe.exitIfAsked()
    return TodayExtensionMain.run(environment: ExtensionMain.hostEnvironment())
}

/// What `NSExtensionMain()` does, in steps that tests can call.
enum TodayExtensionMain {
    /// The environment variable in which the host names the principal class.
    static let principalClassVariable = "SANDGLASS_PRINCIPAL_CLASS"

    static func run(environment: [String: String]) -> Never {
        guard Thread.isMainThread else {
            Syscalls.writeStandardError("NSExtensionMain() must be called on the main thread, from main.swift\n")
            Syscalls.exitProcess(70)
        }
        let runtime = ExtensionMain.makeRuntime(widgets: [], role: .today, environment: environment)
        let service = MainActor.assumeIsolated { () -> TodayService in
            switch makePrincipal(environment: environment) {
            case .success(let (controller, name)):
                controller.viewDidLoad()
                return TodayService(controller: controller, className: name, runtime: runtime)
            case .failure(let problem):
                Syscalls.writeStandardError("sandglass: \(problem.description)\n")
                Syscalls.exitProcess(78)
            }
        }
        RuntimeServices.register(service)
        MainActor.assumeIsolated { runtime.startOnMainThread() }
        // The main run loop serves the main queue on the main thread, as UIKit's does
        // (dispatchMain() would park the main thread and serve the main queue from the pool).
        while true {
            _ = RunLoop.main.run(mode: .default, before: .distantFuture)
        }
    }

    /// Why the principal class could not be made.
    struct PrincipalClassProblem: Error, CustomStringConvertible {
        let description: String
    }

    /// The principal class's name: the host's variable, else the Info.plist beside the executable.
    static func principalClassName(environment: [String: String]) -> String? {
        if let name = environment[principalClassVariable], !name.isEmpty { return name }
        guard let executable = Bundle.main.executableURL else { return nil }
        let info = executable.resolvingSymlinksInPath().deletingLastPathComponent().appendingPathComponent("Info.plist")
        guard let data = try? Data(contentsOf: info),
            let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
            let nsExtension = plist["NSExtension"] as? [String: Any]
        else { return nil }
        return nsExtension["NSExtensionPrincipalClass"] as? String
    }

    /// Makes the principal class named in `environment` (or the Info.plist).
    @MainActor
    static func makePrincipal(environment: [String: String]) -> Result<(UIViewController, String), PrincipalClassProblem> {
        guard let name = principalClassName(environment: environment) else {
            return .failure(
                PrincipalClassProblem(
                    description:
                        "no principal class: Info.plist's NSExtension.NSExtensionPrincipalClass names the NCWidgetProviding view controller as Module.ClassName, e.g. MyWidget.TodayViewController"
                ))
        }
        return makePrincipal(named: name)
    }

    /// Makes the class `name` (`Module.ClassName`) with its required `init()`; `lookUp` finds a
    /// class by name (the executable's, `NSClassFromString`; an in-process runtime's own list).
    @MainActor
    static func makePrincipal(
        named name: String, lookUp: (String) -> AnyClass? = NSClassFromString
    ) -> Result<(UIViewController, String), PrincipalClassProblem> {
        guard let found = lookUp(name) else {
            return .failure(
                PrincipalClassProblem(
                    description:
                        "NSExtensionPrincipalClass is \"\(name)\", but NSClassFromString finds no such class in this executable; write Module.ClassName with the executable's module name"
                ))
        }
        guard let type = found as? UIViewController.Type else {
            return .failure(
                PrincipalClassProblem(
                    description:
                        "NSExtensionPrincipalClass \"\(name)\" is not a UIViewController subclass; the principal class of a Today extension subclasses UIViewController and adopts NCWidgetProviding"
                ))
        }
        return .success((type.init(), name))
    }
}
