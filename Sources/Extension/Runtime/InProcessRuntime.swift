import Dispatch
import SandglassIPC
import Synchronization

/// An extension's runtime served inside another program, over one descriptor, for as long as
/// the other end stays open: the in-process extensions of the host's tests (`SandglassEmbedded`).
/// Several may run at once, one after another, and alongside the process's own. Not for
/// extensions, which run through `@main`.
package final class InProcessRuntime: Sendable {
    /// How a runtime stopped serving, and the exit status a process would have ended with.
    package enum Ending: Sendable, Equatable {
        /// The host closed the channel (status 0).
        case hostGone
        /// The host broke the protocol (status 70).
        case protocolViolation(String)
        /// The host refused the extension (status 76).
        case refused(String)
        /// A Today extension's principal class could not be made (status 78, as
        /// `NSExtensionMain()` exits).
        case principalClassProblem(String)

        /// The status ``ExtensionMain`` exits with for it.
        package var exitStatus: Int32 {
            switch self {
            case .hostGone: 0
            case .protocolViolation: 70
            case .refused: 76
            case .principalClassProblem: 78
            }
        }
    }

    /// What a runtime serves: a bundle's or a widget's descriptors, or a Today extension's
    /// principal classes.
    package struct Widgets: Sendable {
        let list: [WidgetDescriptor]
        /// A Today extension's classes by name; nil for a widget extension.
        let principalClasses: PrincipalClasses?

        /// The widgets of bundle `B`.
        @MainActor
        package init<B: WidgetBundle>(bundle: B.Type) {
            list = descriptors(of: B().body)
            principalClasses = nil
        }

        /// The one widget `W`.
        @MainActor
        package init<W: Widget>(widget: W.Type) {
            list = descriptors(of: W())
            principalClasses = nil
        }

        /// A Today extension's executable: its view controllers by the name an Info.plist gives in
        /// `NSExtension.NSExtensionPrincipalClass` (`Module.ClassName`). The runtime makes the one
        /// the host names, as `NSExtensionMain()` finds it with `NSClassFromString`.
        package init(principalClasses: [String: UIViewController.Type]) {
            list = []
            self.principalClasses = PrincipalClasses(byName: principalClasses)
        }
    }

    /// Where a Today extension's service is kept while its runtime serves.
    private final class TodayServiceSlot: Sendable {
        let service = Mutex<TodayService?>(nil)
    }

    /// Classes by name (immutable metatypes).
    struct PrincipalClasses: @unchecked Sendable {
        let byName: [String: UIViewController.Type]
    }

    private let runtime: ExtensionRuntime
    private let principalClasses: PrincipalClasses?
    /// A Today extension's service, registered while the runtime serves.
    private let todayService: TodayServiceSlot
    private let fd: Int32
    private let onEnd: @Sendable (Ending) -> Void
    /// The variables the host set for the extension (`SANDGLASS_CONTAINER`, `SANDGLASS_CLOCK_PAGE` …).
    package let environment: [String: String]

    /// A runtime serving `widgets` as `bundleIdentifier` on `fd`, which it closes when it stops
    /// reading; `onEnd` is called once, when it stops serving.
    package init(
        widgets: Widgets, bundleIdentifier: String, environment: [String: String], fd: Int32,
        onEnd: @escaping @Sendable (Ending) -> Void
    ) {
        self.environment = environment
        self.fd = fd
        self.onEnd = onEnd
        principalClasses = widgets.principalClasses
        let todayService = TodayServiceSlot()
        self.todayService = todayService
        runtime = ExtensionRuntime(
            widgets: widgets.list, bundleIdentifier: bundleIdentifier, role: widgets.principalClasses == nil ? .widgetKit : .today,
            fd: fd, environment: environment, isInProcess: true
        ) { ending in
            if let service = todayService.service.withLock({ $0.take() }) { RuntimeServices.unregister(service) }
            switch ending {
            case .hostGone: onEnd(.hostGone)
            case .protocolViolation(let reason): onEnd(.protocolViolation(reason))
            case .refused(let reason): onEnd(.refused(reason))
            }
        }
    }

    /// Sends `hello` and starts serving. A Today extension's principal class is made first, on
    /// the main thread, as `NSExtensionMain()` does: the class the host names
    /// (`SANDGLASS_PRINCIPAL_CLASS`), its `viewDidLoad()`, then its `performUpdate` service.
    package func start() {
        guard let principalClasses else { return runtime.start() }
        DispatchQueue.main.async { [self] in
            MainActor.assumeIsolated {
                let name = environment[TodayExtensionMain.principalClassVariable] ?? ""
                let made: Result<(UIViewController, String), TodayExtensionMain.PrincipalClassProblem> =
                    name.isEmpty
                    ? .failure(.init(description: "no principal class: the host named none (\(TodayExtensionMain.principalClassVariable))"))
                    : TodayExtensionMain.makePrincipal(named: name) { principalClasses.byName[$0].map { $0 as AnyClass } }
                switch made {
                case .success(let (controller, className)):
                    controller.viewDidLoad()
                    let service = TodayService(controller: controller, className: className, runtime: runtime)
                    todayService.service.withLock { $0 = service }
                    RuntimeServices.register(service)
                    runtime.start()
                case .failure(let problem):
                    Syscalls.closeDescriptor(fd)
                    onEnd(.principalClassProblem(problem.description))
                }
            }
        }
    }

    /// True while provider code runs on its request queue.
    package var isRunningRequests: Bool { runtime.isRunningRequests }

    /// The environment of the runtime whose request the caller is serving (its provider code,
    /// on its request queue); nil elsewhere.
    package static var servingEnvironment: [String: String]? {
        ExtensionRuntime.active?.environment
    }
}
