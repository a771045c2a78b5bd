import SandglassIPC
import Testing

@testable import WidgetKit

#if canImport(Glibc)
import Glibc
#endif

/// The built `DownloaderWidget` example (`make examples`, or `swift build` in `Examples/`).
private let downloaderExecutable: String? = {
    let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    var candidates = [root.appendingPathComponent("Examples/.build/release/DownloaderWidget").path]
    if let bundles = testEnvironment["SANDGLASS_EXAMPLES"] {
        candidates.insert(bundles + "/Downloader.app/PlugIns/DownloaderWidget.appex/DownloaderWidget", at: 0)
    }
    return candidates.first { FileManager.default.isExecutableFile(atPath: $0) }
}()

/// An extension process on the far end of a socketpair, its end as fd 3, as the host starts it.
private final class ExtensionProcess {
    let host: HostEnd
    let pid: pid_t
    private var isReaped = false

    init(executable: String, environment: [String: String]) throws {
        let (host, extensionFD) = try HostEnd.makePair()
        self.host = host
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, extensionFD, 3)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        let arguments: [UnsafeMutablePointer<CChar>?] = [strdup(executable), nil]
        let variables: [UnsafeMutablePointer<CChar>?] = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            arguments.forEach { free($0) }
            variables.forEach { free($0) }
        }
        var pid: pid_t = 0
        let status = posix_spawn(&pid, executable, &actions, nil, arguments, variables)
        close(extensionFD)
        guard status == 0 else { throw HostEndError(description: "posix_spawn failed: \(status)") }
        self.pid = pid
    }

    deinit {
        kill()
    }

    /// SIGKILL, as the host ends an activation over budget, and reaped.
    func kill() {
        guard !isReaped else { return }
        isReaped = true
        _ = Glibc.kill(pid, SIGKILL)
        var status: Int32 = 0
        _ = waitpid(pid, &status, 0)
    }

    /// The handshake: `hello` checked by the caller, `welcome` sent.
    func handshake(container: String) throws -> Hello {
        let hello = try host.expect("hello") { message -> Hello? in
            if case .hello(let hello) = message { return hello }
            return nil
        }
        try host.send(
            .welcome(
                Welcome(
                    version: .current, clockMode: .real, clockEpoch: Date().timeIntervalSince1970,
                    containerPath: container)))
        return hello
    }
}

@Suite("the Downloader example against a scripted host", .serialized, .runsOffThePool)
struct DownloaderExampleTests {
    static let identifier = "com.example.downloader.feed"

    @Test(
        "getTimeline starts the download; killed; relaunched by identifier it stores the file, reloads and finishes",
        .enabled(if: downloaderExecutable != nil, "the examples are not built")
    )
    func relaunchByIdentifier() throws {
        let executable = try #require(downloaderExecutable)
        let container = FileManager.default.temporaryDirectory.appendingPathComponent("sandglass-downloader-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: container, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: container) }
        let url = "http://127.0.0.1:9/bytes/100"
        let environment = [
            "SANDGLASS_IPC_FD": "3", "SANDGLASS_BUNDLE_IDENTIFIER": "com.example.downloader.widget",
            "SANDGLASS_FIXTURE_URL": url, "HOME": container, "TMPDIR": container
        ]
        let activation = ActivationContext(kind: "Downloader", family: "systemSmall", isPreview: false, displayWidth: 0, displayHeight: 0)
        let identifier = Self.identifier

        // First launch: the timeline request starts a background download.
        let first = try ExtensionProcess(executable: executable, environment: environment)
        let hello = try first.handshake(container: container)
        #expect(hello.sessionIdentifiers == [identifier])
        #expect(!hello.matchesSessionsByClosure)
        try first.host.send(.timelineRequest(RequestID(1), activation))
        let configuration = try first.host.expect("attachSession") { message -> SessionConfigurationPayload? in
            if case .attachSession(let configuration) = message { return configuration }
            return nil
        }
        #expect(configuration.identifier == identifier)
        #expect(configuration.sessionSendsLaunchEvents)
        try first.host.send(.sessionAttached(identifier: identifier, tasks: []))
        let listing = try first.host.expect("getTasks") { message -> RequestID? in
            if case .getTasks(let id, identifier) = message { return id }
            return nil
        }
        try first.host.send(.taskList(listing, []))
        let (creation, request) = try first.host.expect("createTask") { message -> (RequestID, TaskRequestPayload)? in
            if case .createTask(let id, let payload) = message { return (id, payload) }
            return nil
        }
        #expect(request.session == identifier)
        #expect(request.kind == .download)
        #expect(request.request.url == url)
        #expect(request.earliestBeginDate != nil)
        #expect(request.countOfBytesClientExpectsToReceive == 65_536)
        let token = try jsonObject(Array(try #require(request.taskDescription).utf8))
        #expect(token["feed"] as? String == "100")
        try first.host.send(.taskCreated(creation, taskIdentifier: 1))
        try first.host.expect("resumeTask") { message -> Void? in
            if case .resumeTask(identifier, 1) = message { return () }
            return nil
        }
        let waiting = try first.host.expect("timelineReply") { message -> TimelinePayload? in
            if case .timelineReply(RequestID(1), let timeline) = message { return timeline }
            return nil
        }
        #expect(waiting.entries.map(\.text) == ["Waiting for the first download"])
        first.kill()

        // The download finished while the extension was gone: a new process, for the events.
        let second = try ExtensionProcess(executable: executable, environment: environment)
        #expect(second.pid != first.pid)
        _ = try second.handshake(container: container)
        try second.host.send(.backgroundEventsRequest(RequestID(2), identifier: identifier))
        try second.host.expect("backgroundEventsReply") { message -> Void? in
            if case .backgroundEventsReply(RequestID(2), accepted: true) = message { return () }
            return nil
        }
        try second.host.expectAttach(identifier)
        let snapshot = TaskSnapshot(
            taskIdentifier: 1, kind: .download, state: .completed, request: request.request,
            taskDescription: request.taskDescription, countOfBytesReceived: 100, countOfBytesExpectedToReceive: 100
        )
        try second.host.send(.sessionAttached(identifier: identifier, tasks: [snapshot]))
        let body = container + "/download-1.body"
        try Data(repeating: 7, count: 100).write(to: URL(fileURLWithPath: body))
        let path = materialisedDownload("CFNetworkDownload_1.tmp", session: identifier, container: container)
        let response = HTTPResponsePayload(
            url: url, statusCode: 200, headers: [HeaderField("Content-Length", "100")],
            expectedContentLength: 100)
        try second.host.send(
            .downloadFinished(
                session: identifier, taskIdentifier: 1, EventStamp(eventID: 1, attempt: 1),
                file: "CFNetworkDownload_1.tmp", response), passingFileAt: body)
        try second.host.expectHandled(identifier, 1)
        #expect(!FileManager.default.fileExists(atPath: path))
        try second.host.send(
            .taskCompleted(
                session: identifier, taskIdentifier: 1, EventStamp(eventID: 2, attempt: 1),
                error: nil, response))
        try second.host.expectHandled(identifier, 2)
        try second.host.send(.allEventsDelivered(identifier: identifier))
        try second.host.expect("reloadTimelines") { message -> Void? in
            if case .reloadTimelines(kind: "Downloader") = message { return () }
            return nil
        }
        try second.host.expectEventsFinished(identifier)

        // The reload: the cache is fresh, so no new download; the entry has the bytes.
        try second.host.send(.timelineRequest(RequestID(3), activation))
        let fresh = try second.host.expect("timelineReply") { message -> TimelinePayload? in
            if case .timelineReply(RequestID(3), let timeline) = message { return timeline }
            return nil
        }
        #expect(fresh.entries.map(\.text) == ["100 bytes downloaded"])
        #expect(try jsonObject(fresh.entries[0].json)["bytes"] as? Int == 100)
        second.host.close()
        var status: Int32 = 0
        #expect(waitpid(second.pid, &status, 0) == second.pid)
        #expect(status == 0)
    }
}
