import Dispatch
import Foundation
import SandglassIPC
import Synchronization
import Testing

@testable import WidgetKit

/// Records how a runtime ended, and lets a test wait for it with a deadline.
final class EndingRecorder: Sendable {
    private let endings = Mutex<[ExtensionRuntime.Ending]>([])
    private let signal = DispatchSemaphore(value: 0)

    func record(_ ending: ExtensionRuntime.Ending) {
        endings.withLock { $0.append(ending) }
        signal.signal()
    }

    /// The first ending, waiting at most `seconds` for it.
    func wait(within seconds: Double = HostEnd.patience) -> ExtensionRuntime.Ending? {
        guard signal.wait(timeout: .now() + seconds) == .success else { return nil }
        return endings.withLock { $0.first }
    }

    var all: [ExtensionRuntime.Ending] {
        endings.withLock { $0 }
    }
}

/// An `ExtensionRuntime` running in-process over a socketpair, with the test as its host.
final class RuntimeHarness {
    let host: HostEnd
    let runtime: ExtensionRuntime
    let endings = EndingRecorder()
    private var nextID: UInt64 = 1

    static let bundleIdentifier = "com.example.tests.widget"
    /// The harness's welcome: a container of its own, where the SDK makes finished downloads'
    /// files; removed with the harness.
    let welcome = Welcome(
        version: .current,
        clockMode: .real,
        clockEpoch: 1_700_000_000,
        containerPath: FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-harness-\(UUID().uuidString.prefix(8))")
            .path
    )

    /// A harness serving `widgets`; installed as the process's runtime for `WidgetCenter` when asked.
    init(widgets: [WidgetDescriptor], role: ExtensionRole = .widgetKit, installAsCurrent: Bool = false) throws {
        let (host, extensionFD) = try HostEnd.makePair()
        self.host = host
        let endings = self.endings
        runtime = ExtensionRuntime(
            widgets: widgets,
            bundleIdentifier: Self.bundleIdentifier,
            role: role,
            fd: extensionFD
        ) { ending in
            endings.record(ending)
        }
        if installAsCurrent {
            ExtensionRuntime.current.withLock { $0 = runtime }
        }
    }

    /// A harness serving the widgets of `bundle`.
    static func serving<Bundle: WidgetBundle>(_ bundle: Bundle.Type, installAsCurrent: Bool = false) async throws -> RuntimeHarness {
        let widgets = await MainActor.run { descriptors(of: Bundle().body) }
        return try RuntimeHarness(widgets: widgets, installAsCurrent: installAsCurrent)
    }

    /// A harness serving `widget`.
    static func serving<W: Widget>(widget: W.Type) async throws -> RuntimeHarness {
        let widgets = await MainActor.run { descriptors(of: W()) }
        return try RuntimeHarness(widgets: widgets)
    }

    deinit {
        ExtensionRuntime.current.withLock { current in
            if current === runtime { current = nil }
        }
        host.close()
        try? FileManager.default.removeItem(atPath: welcome.containerPath)
    }

    /// Starts the runtime and returns its `hello`.
    func start() throws -> Hello {
        runtime.start()
        let first = try host.receive()
        guard case .hello(let hello) = first else {
            throw HostEndError(description: "the first frame is \(first.type), not hello")
        }
        return hello
    }

    /// Starts the runtime, reads `hello` and answers `welcome`.
    @discardableResult
    func handshake() throws -> Hello {
        let hello = try start()
        try host.send(.welcome(welcome))
        return hello
    }

    /// A fresh request id.
    func makeID() -> RequestID {
        defer { nextID += 1 }
        return RequestID(nextID)
    }

    /// The activation context the host sends for `kind`.
    static func activation(
        _ kind: String,
        family: String = "systemMedium",
        isPreview: Bool = false,
        width: Double = 0,
        height: Double = 0
    ) -> ActivationContext {
        ActivationContext(kind: kind, family: family, isPreview: isPreview, displayWidth: width, displayHeight: height)
    }

    /// Sends a placeholder request and returns the next frame.
    func placeholder(_ activation: ActivationContext) throws -> (RequestID, Message) {
        let id = makeID()
        try host.send(.placeholderRequest(id, activation))
        return (id, try host.receive())
    }

    /// Sends a snapshot request and returns the next frame.
    func snapshot(_ activation: ActivationContext) throws -> (RequestID, Message) {
        let id = makeID()
        try host.send(.snapshotRequest(id, activation))
        return (id, try host.receive())
    }

    /// Sends a timeline request and returns the next frame.
    func timeline(_ activation: ActivationContext) throws -> (RequestID, Message) {
        let id = makeID()
        try host.send(.timelineRequest(id, activation))
        return (id, try host.receive())
    }

    /// Closes the host end and waits for the runtime to see the host gone.
    func finish() -> ExtensionRuntime.Ending? {
        host.close()
        return endings.wait()
    }
}

/// Parses an entry's JSON object.
func jsonObject(_ bytes: [UInt8]) throws -> [String: Any] {
    let object = try JSONSerialization.jsonObject(with: Data(bytes))
    guard let dictionary = object as? [String: Any] else {
        throw HostEndError(description: "the entry JSON is not an object: \(String(decoding: bytes, as: UTF8.self))")
    }
    return dictionary
}
