import NotificationCenter
import SandglassIPC
import Synchronization
import Testing

@testable import WidgetKit

extension RuntimeTests {
    /// A Today extension's runtime over a real socketpair: `widgetPerformUpdate` on the main
    /// thread, the completion accepted once, the async form, and the main-thread watchdog.
    @Suite("Today extensions")
    struct TodayTests {
        @Test("hello says Today and declares no widget kinds")
        func helloAsToday() async throws {
            let harness = try RuntimeHarness(widgets: [], role: .today)
            let hello = try harness.start()
            #expect(hello.role == .today)
            #expect(hello.widgets.isEmpty)
            _ = harness.finish()
        }

        @Test("widgetPerformUpdate arrives on the main thread; the completion may be called from any queue")
        func performUpdateOnMainThread() async throws {
            TodayProbe.reset()
            let harness = try await RuntimeHarness.today(NewDataController.self)
            let id = try harness.performUpdate()
            let (replyID, result) = try harness.host.expectUpdateResult()
            #expect(replyID == id)
            #expect(result == .newData)
            #expect(TodayProbe.calledOnMainThread.withLock { $0 } == [true])
            try harness.host.expectNothingMore()
            _ = harness.finish()
        }

        @Test("a completion called twice: the first result counts, the second is reported as misuse")
        func completionTwice() async throws {
            let harness = try await RuntimeHarness.today(TwiceController.self)
            let id = try harness.performUpdate()
            let (_, result) = try harness.host.expectUpdateResult()
            #expect(result == .newData)
            let misuse = try harness.host.expectDiagnostic()
            #expect(misuse.code == .completionCalledTwice)
            #expect(misuse.requestID == id)
            #expect(misuse.message.contains("(with .noData)"))
            #expect(misuse.message.contains("the first result (.newData) counts"))
            try harness.host.expectNothingMore()
            _ = harness.finish()
        }

        @Test("the async form answers through the default completion-handler implementation, on the main actor")
        func asyncForm() async throws {
            TodayProbe.reset()
            let harness = try await RuntimeHarness.today(AsyncController.self)
            let id = try harness.performUpdate()
            let (replyID, result) = try harness.host.expectUpdateResult()
            #expect(replyID == id)
            #expect(result == .noData)
            #expect(TodayProbe.calledOnMainThread.withLock { $0 } == [true])
            _ = harness.finish()
        }

        @Test("a principal class that implements neither form reports it and fails the update")
        func notImplemented() async throws {
            let harness = try await RuntimeHarness.today(SilentController.self)
            let id = try harness.performUpdate()
            let report = try harness.host.expectDiagnostic()
            #expect(report.code == .performUpdateNotImplemented)
            #expect(report.requestID == id)
            #expect(report.message.contains("SilentController"))
            let (_, result) = try harness.host.expectUpdateResult()
            #expect(result == .failed)
            _ = harness.finish()
        }

        @Test("a principal class that does not adopt NCWidgetProviding fails its updates, saying so")
        func notProviding() async throws {
            let harness = try await RuntimeHarness.today(PlainController.self)
            _ = try harness.performUpdate()
            let report = try harness.host.expectDiagnostic()
            #expect(report.code == .performUpdateNotImplemented)
            #expect(report.message.contains("does not conform to NCWidgetProviding"))
            let (_, result) = try harness.host.expectUpdateResult()
            #expect(result == .failed)
            _ = harness.finish()
        }

        @Test("blocking the main thread: reported while it blocks (from another thread), and how long when it returns")
        func mainThreadWatchdog() async throws {
            let harness = try await RuntimeHarness.today(BlockingController.self)
            let id = try harness.performUpdate()
            let blocking = try harness.host.expectDiagnostic()
            #expect(blocking.code == .mainThreadBlocking)
            #expect(blocking.requestID == id)
            #expect(blocking.milliseconds > 0)
            let (_, result) = try harness.host.expectUpdateResult()
            #expect(result == .newData)
            let blocked = try harness.host.expectDiagnostic()
            #expect(blocked.code == .mainThreadBlocked)
            #expect(blocked.milliseconds >= 400)
            #expect(blocked.message.contains("blocked the main thread"))
            _ = harness.finish()
        }

        @Test("a quick update reports nothing about the main thread")
        func noFalseAlarm() async throws {
            let harness = try await RuntimeHarness.today(NewDataController.self)
            _ = try harness.performUpdate()
            _ = try harness.host.expectUpdateResult()
            // The watchdog fires 250 ms after the request; a ping after that proves it stayed quiet.
            try await Task.sleep(for: .milliseconds(400))
            try harness.host.expectNothingMore()
            _ = harness.finish()
        }

        @Test("a widget extension answers performUpdate with an error: it has no Today service")
        func widgetExtensionRefuses() async throws {
            let harness = try await RuntimeHarness.serving(TestBundle.self)
            try harness.handshake()
            let id = try harness.performUpdate()
            let error = try harness.host.expect("error") { message -> ErrorReport? in
                if case .error(let report) = message { return report }
                return nil
            }
            #expect(error.requestID == id)
            #expect(error.code == .unsupportedRequest)
            _ = harness.finish()
        }
    }

    /// `NSExtensionMain()`'s principal class, found by name as the system does.
    @Suite("principal classes")
    struct PrincipalClassTests {
        @Test("Module.ClassName is found with NSClassFromString and made with its required init()")
        func found() async {
            let made = await MainActor.run { () -> String? in
                guard case .success(let (controller, name)) = TodayExtensionMain.makePrincipal(named: "WidgetKitTests.NewDataController")
                else { return nil }
                return "\(type(of: controller)) \(name)"
            }
            #expect(made == "NewDataController WidgetKitTests.NewDataController")
        }

        @Test("an unknown class and a class that is not a UIViewController are refused with the key named")
        func refused() async {
            let problems = await MainActor.run { () -> [String] in
                ["WidgetKitTests.NoSuchController", "WidgetKitTests.NotAController"].map { name in
                    if case .failure(let problem) = TodayExtensionMain.makePrincipal(named: name) { return problem.description }
                    return "made"
                }
            }
            #expect(problems[0].contains("NSExtensionPrincipalClass is \"WidgetKitTests.NoSuchController\""))
            #expect(problems[0].contains("NSClassFromString finds no such class"))
            #expect(problems[1].contains("is not a UIViewController subclass"))
        }

        @Test("the host's variable names the class; without it, a missing name is explained")
        func name() async {
            #expect(TodayExtensionMain.principalClassName(environment: ["SANDGLASS_PRINCIPAL_CLASS": "A.B"]) == "A.B")
            let problem = await MainActor.run { () -> String in
                if case .failure(let p) = TodayExtensionMain.makePrincipal(environment: [:]) { return p.description }
                return "made"
            }
            #expect(problem.contains("NSExtension.NSExtensionPrincipalClass"))
        }
    }
}

/// The principal class of the in-process Today tests: counts its `viewDidLoad()` and updates.
final class InProcessTodayController: UIViewController, NCWidgetProviding {
    nonisolated static let viewDidLoadCalls = Atomic<Int>(0)

    override func viewDidLoad() {
        Self.viewDidLoadCalls.add(1, ordering: .relaxed)
    }

    func widgetPerformUpdate(completionHandler: @escaping @Sendable (NCUpdateResult) -> Void) {
        // The SDK's calls from the update reach the runtime that asked (not the process's).
        let isItsOwn = ExtensionRuntime.active?.bundleIdentifier == "com.example.today"
        DispatchQueue.global().async { completionHandler(isItsOwn ? .newData : .failed) }
    }
}

extension RuntimeTests.TodayTests {
    /// An in-process runtime's ending, waited for.
    private final class Ended: Sendable {
        let ending = Mutex<InProcessRuntime.Ending?>(nil)
        let signal = DispatchSemaphore(value: 0)
    }

    @Test("an in-process runtime serves a Today extension: the class the host names, made on the main thread, its updates its own")
    func inProcessToday() async throws {
        let (host, fd) = try HostEnd.makePair()
        defer { host.close() }
        let served = InProcessRuntime.Widgets(principalClasses: [
            "Tests.InProcessToday": InProcessTodayController.self, "Tests.Silent": SilentController.self
        ])
        let before = InProcessTodayController.viewDidLoadCalls.load(ordering: .relaxed)
        let runtime = InProcessRuntime(
            widgets: served, bundleIdentifier: "com.example.today", environment: ["SANDGLASS_PRINCIPAL_CLASS": "Tests.InProcessToday"],
            fd: fd
        ) { _ in }
        runtime.start()
        guard case .hello(let hello) = try host.receive() else {
            Issue.record("the first frame is not hello")
            return
        }
        #expect(hello.role == .today)
        #expect(hello.widgets.isEmpty)
        #expect(InProcessTodayController.viewDidLoadCalls.load(ordering: .relaxed) == before + 1, "viewDidLoad() before hello")
        try host.send(
            .welcome(Welcome(version: .current, clockMode: .real, clockEpoch: 1_700_000_000, containerPath: NSTemporaryDirectory())))
        try host.send(.performUpdateRequest(RequestID(7)))
        let (id, result) = try host.expectUpdateResult()
        #expect(id == RequestID(7))
        #expect(result == .newData, "the update reached the class, and its SDK calls reach its runtime")
        try host.expectNothingMore()
    }

    @Test("an in-process Today runtime whose class is not among its own ends as NSExtensionMain() exits (78), before hello")
    func inProcessTodayUnknownClass() async throws {
        let (host, fd) = try HostEnd.makePair()
        defer { host.close() }
        let ended = Ended()
        let runtime = InProcessRuntime(
            widgets: InProcessRuntime.Widgets(principalClasses: ["Tests.InProcessToday": InProcessTodayController.self]),
            bundleIdentifier: "com.example.today", environment: ["SANDGLASS_PRINCIPAL_CLASS": "Tests.Missing"], fd: fd
        ) { ending in
            ended.ending.withLock { $0 = ending }
            ended.signal.signal()
        }
        runtime.start()
        #expect(host.receivesEndOfStream(), "no hello: the descriptor is closed")
        #expect(ended.signal.wait(timeout: .now() + HostEnd.patience) == .success)
        let ending = try #require(ended.ending.withLock { $0 })
        #expect(ending.exitStatus == 78)
        guard case .principalClassProblem(let reason) = ending else {
            Issue.record("ended \(ending)")
            return
        }
        #expect(reason.contains("\"Tests.Missing\"") && reason.contains("finds no such class"), "\(reason)")
    }
}
