import Dispatch
import SandglassIPC
import Synchronization
import Testing

@testable import WidgetKit

extension RuntimeTests {
    @Suite("background URL sessions")
    struct BackgroundSessionTests {
        @Test("hello names the String and .urlSession(_:) identifiers and says a closure matches others")
        func helloDeclaresSessions() async throws {
            let widgets = await MainActor.run { descriptors(of: BackgroundEventsWidget()) }
            let harness = try RuntimeHarness(widgets: widgets)
            let hello = try harness.start()
            #expect(hello.sessionIdentifiers == [BackgroundEventsWidget.namedIdentifier, BackgroundEventsWidget.taskIdentifier])
            #expect(hello.matchesSessionsByClosure)
            _ = harness.finish()
        }

        @Test("creating a session attaches it; a task is created at resume with its description, date and hints")
        func attachAndCreate() async throws {
            let harness = try await RuntimeHarness.network()
            let identifier = backgroundIdentifier("create")
            let delegate = RecordingDelegate()
            let configuration = URLSessionConfiguration.background(withIdentifier: identifier)
            configuration.isDiscretionary = true
            configuration.sharedContainerIdentifier = "group.com.example.tests"
            configuration.timeoutIntervalForRequest = 30
            let session = URLSession(configuration: configuration, delegate: delegate, delegateQueue: nil)

            let attached = try harness.host.expect("attachSession") { message -> SessionConfigurationPayload? in
                if case .attachSession(let payload) = message { return payload }
                return nil
            }
            #expect(
                attached
                    == SessionConfigurationPayload(
                        identifier: identifier, sessionSendsLaunchEvents: true, isDiscretionary: true,
                        timeoutIntervalForRequest: 30, timeoutIntervalForResource: 604_800,
                        sharedContainerIdentifier: "group.com.example.tests"
                    ))
            try harness.host.send(.sessionAttached(identifier: identifier, tasks: []))

            var request = URLRequest(url: URL(string: "http://127.0.0.1:8080/bytes/65536")!)
            request.setValue("token", forHTTPHeaderField: "Authorization")
            let task = session.downloadTask(with: request)
            let begin = Date(timeIntervalSince1970: 1_750_000_900)
            task.taskDescription = #"{"version":1,"place":"Hanstholm"}"#
            task.earliestBeginDate = begin
            task.countOfBytesClientExpectsToSend = 200
            task.countOfBytesClientExpectsToReceive = 65_536
            #expect(task.state == .suspended)

            let resumed = OwnThread { task.resume() }
            let payload = try harness.answerCreateTask(with: 42)
            #expect(payload.session == identifier)
            #expect(payload.kind == .download)
            #expect(payload.request.url == "http://127.0.0.1:8080/bytes/65536")
            #expect(payload.request.method == "GET")
            #expect(payload.request.headers == [HeaderField("Authorization", "token")])
            #expect(payload.request.timeout == 30)
            #expect(payload.taskDescription == #"{"version":1,"place":"Hanstholm"}"#)
            #expect(payload.earliestBeginDate == begin.timeIntervalSince1970)
            #expect(payload.countOfBytesClientExpectsToSend == 200)
            #expect(payload.countOfBytesClientExpectsToReceive == 65_536)
            try harness.host.expect("resumeTask") { message -> Void? in
                if case .resumeTask(identifier, 42) = message { return () }
                return nil
            }
            await resumed.value
            #expect(task.taskIdentifier == 42)
            #expect(task.state == .running)
            // A second resume does nothing.
            task.resume()
            try harness.host.expectNothingMore()
            session.invalidateAndCancel()
            _ = harness.finish()
        }

        @Test("sessionAttached re-associates the host's tasks: identifiers, descriptions, states and byte counts")
        func reassociation() async throws {
            let harness = try await RuntimeHarness.network()
            let identifier = backgroundIdentifier("reassociate")
            let session = URLSession(
                configuration: .background(withIdentifier: identifier), delegate: RecordingDelegate(), delegateQueue: nil
            )
            _ = try harness.host.expect("attachSession") { message -> Void? in
                if case .attachSession = message { return () }
                return nil
            }
            let running = TaskSnapshot(
                taskIdentifier: 7, kind: .download, state: .running,
                request: HTTPRequestPayload(url: "http://127.0.0.1:8080/feed"), taskDescription: "token-7",
                earliestBeginDate: 1_750_000_000, countOfBytesClientExpectsToReceive: 4096,
                countOfBytesReceived: 1024, countOfBytesExpectedToReceive: 4096,
                // The host leaves out a response's URL when it is the request's.
                response: okResponse("", length: 4096)
            )
            let waiting = TaskSnapshot(
                taskIdentifier: 8, kind: .download, state: .suspended,
                request: HTTPRequestPayload(url: "http://127.0.0.1:8080/later"), taskDescription: "token-8"
            )
            try harness.host.send(.sessionAttached(identifier: identifier, tasks: [running, waiting]))

            let listed = Task(executorPreference: offThePool) { await session.allTasks }
            let id = try harness.host.expect("getTasks") { message -> RequestID? in
                if case .getTasks(let id, identifier) = message { return id }
                return nil
            }
            #expect(id.rawValue >= HostRequests.firstID)
            try harness.host.send(.taskList(id, [running, waiting]))
            let tasks = await listed.value
            #expect(tasks.map(\.taskIdentifier) == [7, 8])
            #expect(tasks.map(\.taskDescription) == ["token-7", "token-8"])
            #expect(tasks.map(\.state) == [.running, .suspended])
            #expect(tasks.allSatisfy { $0 is URLSessionDownloadTask })
            let first = try #require(tasks.first)
            #expect(first.countOfBytesReceived == 1024)
            #expect(first.countOfBytesExpectedToReceive == 4096)
            #expect(first.countOfBytesClientExpectsToReceive == 4096)
            #expect(first.earliestBeginDate == Date(timeIntervalSince1970: 1_750_000_000))
            #expect(first.originalRequest?.url == URL(string: "http://127.0.0.1:8080/feed"))
            #expect((first.response as? HTTPURLResponse)?.statusCode == 200)
            #expect(first.response?.url == URL(string: "http://127.0.0.1:8080/feed"))

            // getTasksWithCompletionHandler splits them by kind, on the delegate queue.
            let split = Task(executorPreference: offThePool) {
                await withCheckedContinuation { continuation in
                    session.getTasksWithCompletionHandler { data, uploads, downloads in
                        continuation.resume(returning: (data.count, uploads.count, downloads.map(\.taskIdentifier)))
                    }
                }
            }
            let again = try harness.host.expect("getTasks") { message -> RequestID? in
                if case .getTasks(let id, identifier) = message { return id }
                return nil
            }
            try harness.host.send(.taskList(again, [running]))
            let (dataCount, uploadCount, downloads) = await split.value
            #expect(dataCount == 0)
            #expect(uploadCount == 0)
            // Task 8 is still this process's, not completed: it stays listed.
            #expect(downloads == [7, 8])
            session.invalidateAndCancel()
            _ = harness.finish()
        }

        @Test("relaunch by identifier: handler, attach, progress, file, completion, duplicates, finish events, eventsFinished")
        func relaunchFlow() async throws {
            let harness = try await RuntimeHarness.network()
            let identifier = backgroundIdentifier("relaunch")
            let delegate = RecordingDelegate()
            let sessions = Mutex<[String: URLSession]>([:])
            // The seed's advice: the handler looks up — or lazily recreates — the session.
            BackgroundEventsProbe.shared.onEvents.withLock { onEvents in
                onEvents = { identifier in
                    sessions.withLock { sessions in
                        if sessions[identifier] == nil {
                            sessions[identifier] = URLSession(
                                configuration: .background(withIdentifier: identifier), delegate: delegate, delegateQueue: nil
                            )
                        }
                    }
                }
            }

            let request = harness.makeID()
            try harness.host.send(.backgroundEventsRequest(request, identifier: identifier))
            let accepted = try harness.host.expect("backgroundEventsReply") { message -> Bool? in
                if case .backgroundEventsReply(request, let accepted) = message { return accepted }
                return nil
            }
            #expect(accepted)
            let call = try BackgroundEventsProbe.shared.nextCall()
            #expect(call.identifier == identifier)
            #expect(call.onMainQueue)
            try harness.host.expectAttach(identifier)

            let url = "http://127.0.0.1:8080/bytes/11"
            let snapshot = TaskSnapshot(
                taskIdentifier: 5, kind: .download, state: .running,
                request: HTTPRequestPayload(url: url), taskDescription: "leaderboard"
            )
            try harness.host.send(.sessionAttached(identifier: identifier, tasks: [snapshot]))
            try harness.host.send(.taskProgress(session: identifier, taskIdentifier: 5, received: 4, expected: 11))
            try harness.host.send(.taskProgress(session: identifier, taskIdentifier: 5, received: 11, expected: 11))
            let body = try downloadedFile("hello world")
            defer { try? FileManager.default.removeItem(atPath: body) }
            let path = materialisedDownload("CFNetworkDownload_70.tmp", session: identifier, container: harness.welcome.containerPath)
            try harness.host.send(
                .downloadFinished(
                    session: identifier, taskIdentifier: 5, EventStamp(eventID: 70, attempt: 1), file: "CFNetworkDownload_70.tmp",
                    okResponse(url, length: 11, contentType: "text/plain; charset=utf-8")
                ), passingFileAt: body)
            try harness.host.expectHandled(identifier, 70)
            // The delegate read the file during the call; it is gone now that the call returned.
            #expect(!FileManager.default.fileExists(atPath: path))

            try harness.host.send(
                .taskCompleted(
                    session: identifier, taskIdentifier: 5, EventStamp(eventID: 71, attempt: 1), error: nil,
                    okResponse(url, length: 11, contentType: "text/plain; charset=utf-8")
                ))
            try harness.host.expectHandled(identifier, 71)

            // Duplicates of handled events: no delegate call, still acknowledged, the file removed.
            let duplicatePath = materialisedDownload(
                "CFNetworkDownload_70.tmp", session: identifier, container: harness.welcome.containerPath)
            try harness.host.send(
                .downloadFinished(
                    session: identifier, taskIdentifier: 5, EventStamp(eventID: 70, attempt: 2), file: "CFNetworkDownload_70.tmp",
                    okResponse(url, length: 11)
                ), passingFileAt: body)
            try harness.host.expectHandled(identifier, 70)
            #expect(!FileManager.default.fileExists(atPath: duplicatePath))
            try harness.host.send(
                .taskCompleted(
                    session: identifier, taskIdentifier: 5, EventStamp(eventID: 71, attempt: 2), error: nil, okResponse(url)
                ))
            try harness.host.expectHandled(identifier, 71)

            // All delivered: the app calls its stored completion from urlSessionDidFinishEvents.
            let completion = try #require(call.completion)
            delegate.onFinishEvents.withLock { $0 = { DispatchQueue.main.async { completion() } } }
            try harness.host.send(.allEventsDelivered(identifier: identifier))
            try harness.host.expectEventsFinished(identifier)
            // The second call of the stored completion is ignored.
            completion()
            try harness.host.expectNothingMore()

            #expect(
                try delegate.waitForCalls(5) == [
                    .didWriteData(task: 5, written: 4, total: 4, expected: 11),
                    .didWriteData(task: 5, written: 7, total: 11, expected: 11),
                    .didFinishDownloading(task: 5, contents: "hello world", path: path),
                    .didComplete(task: 5, errorCode: nil, statusCode: 200),
                    .didFinishEvents
                ])
            #expect(delegate.misplacedCalls.isEmpty)
            let session = try #require(sessions.withLock { $0[identifier] })
            let task = try #require(session.state.withLock { $0.tasks[identifier: 5] })
            #expect(task.taskDescription == "leaderboard")
            #expect(task.state == .completed)
            #expect(task.countOfBytesReceived == 11)
            #expect(task.response?.mimeType == "text/plain")
            #expect(task.response?.textEncodingName == "utf-8")
            #expect(task.error == nil)
            session.finishTasksAndInvalidate()
            _ = harness.finish()
        }

        @Test("a failed background download: didCompleteWithError with the URLError, and no file")
        func failedDownload() async throws {
            let harness = try await RuntimeHarness.network()
            let identifier = backgroundIdentifier("failed")
            let delegate = RecordingDelegate()
            let session = URLSession(configuration: .background(withIdentifier: identifier), delegate: delegate, delegateQueue: nil)
            _ = try harness.host.expect("attachSession") { message -> Void? in
                if case .attachSession = message { return () }
                return nil
            }
            let task = session.downloadTask(with: URL(string: "http://127.0.0.1:8080/reset")!)
            try await harness.answerResume(of: task, with: 9)
            try harness.host.send(
                .taskCompleted(
                    session: identifier, taskIdentifier: 9, EventStamp(eventID: 90, attempt: 1),
                    error: TaskErrorPayload(code: -1005, message: "The network connection was lost."), nil
                ))
            try harness.host.expectHandled(identifier, 90)
            #expect(try delegate.waitForCalls(1) == [.didComplete(task: 9, errorCode: -1005, statusCode: nil)])
            let error = try #require(task.error as? URLError)
            #expect(error.code == .networkConnectionLost)
            #expect(error.failingURL == URL(string: "http://127.0.0.1:8080/reset"))
            #expect(error.localizedDescription == "The network connection was lost.")
            session.finishTasksAndInvalidate()
            #expect(try delegate.waitForCalls(2).last == .didBecomeInvalid(errorCode: nil))
            _ = harness.finish()
        }

        @Test("a matching block that declines the identifier: accepted false, no handler runs")
        func declinedIdentifier() async throws {
            let harness = try await RuntimeHarness.network()
            let request = harness.makeID()
            try harness.host.send(.backgroundEventsRequest(request, identifier: "com.other.app.session"))
            let accepted = try harness.host.expect("backgroundEventsReply") { message -> Bool? in
                if case .backgroundEventsReply(request, let accepted) = message { return accepted }
                return nil
            }
            #expect(!accepted)
            // The decision and the reply are made together on the main actor: no handler ran before it.
            #expect(BackgroundEventsProbe.shared.pendingCalls == 0)
            _ = harness.finish()
        }

        @Test("onBackgroundURLSessionEvents(matching: String) takes exactly its identifier")
        func namedIdentifier() async throws {
            let harness = try await RuntimeHarness.network()
            let request = harness.makeID()
            try harness.host.send(.backgroundEventsRequest(request, identifier: BackgroundEventsWidget.namedIdentifier))
            let accepted = try harness.host.expect("backgroundEventsReply") { message -> Bool? in
                if case .backgroundEventsReply(request, let accepted) = message { return accepted }
                return nil
            }
            #expect(accepted)
            let call = try BackgroundEventsProbe.shared.nextCall()
            #expect(call.identifier == BackgroundEventsWidget.namedIdentifier)
            // The completion may be called from any thread.
            let completion = try #require(call.completion)
            DispatchQueue.global().async { completion() }
            try harness.host.expectEventsFinished(BackgroundEventsWidget.namedIdentifier)
            _ = harness.finish()
        }

        @Test("backgroundTask(.urlSession(_:)): the action runs; its return is the completion")
        func backgroundTaskAction() async throws {
            let harness = try await RuntimeHarness.network()
            let request = harness.makeID()
            try harness.host.send(.backgroundEventsRequest(request, identifier: BackgroundEventsWidget.taskIdentifier))
            let accepted = try harness.host.expect("backgroundEventsReply") { message -> Bool? in
                if case .backgroundEventsReply(request, let accepted) = message { return accepted }
                return nil
            }
            #expect(accepted)
            let call = try BackgroundEventsProbe.shared.nextCall()
            #expect(call.identifier == BackgroundEventsWidget.taskIdentifier)
            #expect(call.completion == nil)
            // Nothing is finished while the action runs.
            try harness.host.expectNothingMore(1)
            BackgroundEventsProbe.shared.actionMayReturn.signal()
            try harness.host.expectEventsFinished(BackgroundEventsWidget.taskIdentifier)
            _ = harness.finish()
        }

        @Test("sessionInvalidated: didBecomeInvalidWithError with -996; later tasks fail with it")
        func invalidatedByHost() async throws {
            let harness = try await RuntimeHarness.network()
            let identifier = backgroundIdentifier("conflict")
            let delegate = RecordingDelegate()
            let session = URLSession(configuration: .background(withIdentifier: identifier), delegate: delegate, delegateQueue: nil)
            _ = try harness.host.expect("attachSession") { message -> Void? in
                if case .attachSession = message { return () }
                return nil
            }
            try harness.host.send(
                .sessionInvalidated(
                    identifier: identifier,
                    error: TaskErrorPayload(code: -996, message: "another process holds background session '\(identifier)'")
                ))
            #expect(try delegate.waitForCalls(1) == [.didBecomeInvalid(errorCode: -996)])
            #expect(session.delegate == nil)

            let task = session.downloadTask(with: URL(string: "http://127.0.0.1:8080/feed")!)
            task.resume()
            // The task never reaches the host; its failure goes to no delegate (released), but it is recorded.
            try harness.host.expectNothingMore()
            let deadline = ContinuousClock.now + .seconds(Int(HostEnd.patience))
            while task.state != .completed, ContinuousClock.now < deadline {
                await Task.yield()
            }
            #expect((task.error as? URLError)?.code == .backgroundSessionInUseByAnotherProcess)
            // The identifier is free again: a new session attaches.
            let again = URLSession(configuration: .background(withIdentifier: identifier), delegate: delegate, delegateQueue: nil)
            try harness.host.expectAttach(identifier)
            again.invalidateAndCancel()
            _ = harness.finish()
        }

        @Test("invalidateAndCancel: running tasks complete cancelled, then the session is invalid")
        func invalidateAndCancel() async throws {
            let harness = try await RuntimeHarness.network()
            let identifier = backgroundIdentifier("cancel")
            let delegate = RecordingDelegate()
            let session = URLSession(configuration: .background(withIdentifier: identifier), delegate: delegate, delegateQueue: nil)
            _ = try harness.host.expect("attachSession") { message -> Void? in
                if case .attachSession = message { return () }
                return nil
            }
            let task = session.downloadTask(with: URL(string: "http://127.0.0.1:8080/slow")!)
            try await harness.answerResume(of: task, with: 12)
            session.invalidateAndCancel()
            try harness.host.expect("invalidateSession") { message -> Void? in
                if case .invalidateSession(identifier, cancelTasks: true) = message { return () }
                return nil
            }
            #expect(
                try delegate.waitForCalls(2) == [
                    .didComplete(task: 12, errorCode: -999, statusCode: nil),
                    .didBecomeInvalid(errorCode: nil)
                ])
            _ = harness.finish()
        }

        @Test("a completion handler on a background session stops the process, as on Apple platforms")
        func completionHandlerInBackgroundSession() async throws {
            let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
                let session = URLSession(configuration: .background(withIdentifier: "com.example.tests.trap"))
                _ = session.dataTask(with: URL(string: "http://127.0.0.1:8080/")!) { _, _, _ in }
            }
            let standardError = String(decoding: try #require(result).standardErrorContent, as: UTF8.self)
            #expect(
                standardError.contains(
                    "Completion handler blocks are not supported in background sessions. Use a delegate instead."
                ))
        }

        @Test("an in-process runtime beside the process's: its session events never reach the process's sessions")
        func inProcessRuntimeIsApart() async throws {
            let harness = try await RuntimeHarness.network()
            let identifier = backgroundIdentifier("apart")
            let delegate = RecordingDelegate()
            let session = URLSession(configuration: .background(withIdentifier: identifier), delegate: delegate, delegateQueue: nil)
            _ = try harness.host.expect("attachSession") { message -> Void? in
                if case .attachSession = message { return () }
                return nil
            }
            try harness.host.send(.sessionAttached(identifier: identifier, tasks: []))

            // A second runtime in this process, as the host's embedded backend runs one; it
            // made no session of that identifier.
            let (other, otherFD) = try HostEnd.makePair()
            defer { other.close() }
            let widgets = await MainActor.run { InProcessRuntime.Widgets(bundle: TestBundle.self) }
            let inProcess = InProcessRuntime(widgets: widgets, bundleIdentifier: "com.example.other", environment: [:], fd: otherFD) { _ in
            }
            inProcess.start()
            _ = try other.receive() // hello
            try other.send(.welcome(harness.welcome))
            try other.send(.allEventsDelivered(identifier: identifier))
            // Its own service answers (`expect` skips log lines: read them here).
            guard case .log(let dropped) = try other.receive() else {
                Issue.record("the other runtime did not log the session it does not know")
                return
            }
            #expect(dropped.message.contains("'\(identifier)', which this process has not created"))

            // The process's session hears only its own runtime.
            try harness.host.send(.allEventsDelivered(identifier: identifier))
            #expect(try delegate.waitForCalls(1) == [.didFinishEvents])
            session.invalidateAndCancel()
            _ = harness.finish()
        }
    }
}
