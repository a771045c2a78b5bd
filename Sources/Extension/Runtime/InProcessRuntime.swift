import SandglassIPC

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

        /// The status ``ExtensionMain`` exits with for it.
        package var exitStatus: Int32 {
            switch self {
            case .hostGone: 0
            case .protocolViolation: 70
            case .refused: 76
            }
        }
    }

    /// The widgets a runtime serves: a bundle's or a widget's descriptors.
    package struct Widgets: Sendable {
        let list: [WidgetDescriptor]

        /// The widgets of bundle `B`.
        @MainActor
        package init<B: WidgetBundle>(bundle: B.Type) {
            list = descriptors(of: B().body)
        }

        /// The one widget `W`.
        @MainActor
        package init<W: Widget>(widget: W.Type) {
            list = descriptors(of: W())
        }
    }

    private let runtime: ExtensionRuntime
    /// The variables the host set for the extension (`SANDGLASS_CONTAINER`, `SANDGLASS_CLOCK_PAGE` …).
    package let environment: [String: String]

    /// A runtime serving `widgets` as `bundleIdentifier` on `fd`, which it closes when it stops
    /// reading; `onEnd` is called once, when it stops serving.
    package init(
        widgets: Widgets, bundleIdentifier: String, environment: [String: String], fd: Int32,
        onEnd: @escaping @Sendable (Ending) -> Void
    ) {
        self.environment = environment
        runtime = ExtensionRuntime(
            widgets: widgets.list, bundleIdentifier: bundleIdentifier, fd: fd, environment: environment, isInProcess: true
        ) { ending in
            switch ending {
            case .hostGone: onEnd(.hostGone)
            case .protocolViolation(let reason): onEnd(.protocolViolation(reason))
            case .refused(let reason): onEnd(.refused(reason))
            }
        }
    }

    /// Sends `hello` and starts serving.
    package func start() {
        runtime.start()
    }

    /// True while provider code runs on its request queue.
    package var isRunningRequests: Bool { runtime.isRunningRequests }

    /// The environment of the runtime whose request the caller is serving (its provider code,
    /// on its request queue); nil elsewhere.
    package static var servingEnvironment: [String: String]? {
        ExtensionRuntime.active?.environment
    }
}
