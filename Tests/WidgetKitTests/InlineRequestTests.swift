import Dispatch
import SandglassIPC
import Synchronization
import Testing

@testable import WidgetKit

extension RuntimeTests {
    @Suite("inline requests")
    struct InlineRequestTests {
        @Test("data(from:) on the shared session is assembled from taskResponse, taskData and taskCompleted")
        func sharedData() async throws {
            let harness = try await RuntimeHarness.network()
            let url = "http://127.0.0.1:8080/bytes/10"
            let fetch = Task(executorPreference: offThePool) { try await URLSession.shared.data(from: URL(string: url)!) }
            let payload = try harness.answerCreateTask(with: 301)
            #expect(payload.session == "")
            #expect(payload.kind == .data)
            #expect(payload.request.url == url)
            #expect(payload.request.timeout == 60)
            try harness.host.expect("resumeTask") { message -> Void? in
                if case .resumeTask("", 301) = message { return () }
                return nil
            }
            let response = HTTPResponsePayload(
                url: url, statusCode: 200,
                headers: [HeaderField("Content-Type", "application/json; charset=UTF-8"), HeaderField("X-Score", "42")],
                expectedContentLength: 10
            )
            try harness.host.send(.taskResponse(session: "", taskIdentifier: 301, response))
            try harness.host.send(.taskData(session: "", taskIdentifier: 301, Array("01234".utf8)))
            try harness.host.send(.taskData(session: "", taskIdentifier: 301, Array("56789".utf8)))
            try harness.host.send(.taskCompleted(session: "", taskIdentifier: 301, nil, error: nil, response))
            let (data, urlResponse) = try await fetch.value
            #expect(String(decoding: data, as: UTF8.self) == "0123456789")
            let http = try #require(urlResponse as? HTTPURLResponse)
            #expect(http.statusCode == 200)
            #expect(http.url == URL(string: url))
            #expect(http.mimeType == "application/json")
            #expect(http.textEncodingName == "utf-8")
            #expect(http.expectedContentLength == 10)
            #expect(http.value(forHTTPHeaderField: "x-score") == "42")
            #expect(http.allHeaderFields["X-Score"] as? String == "42")
            // Late events of a completed task are dropped.
            try harness.host.send(.taskData(session: "", taskIdentifier: 301, Array("late".utf8)))
            try harness.host.expectNothingMore()
            _ = harness.finish()
        }

        @Test("resume() from Swift concurrency returns before the host's taskCreated; tasks register in the order resumed")
        func resumeFromConcurrency() async throws {
            let harness = try await RuntimeHarness.network()
            let first = URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:8080/first")!)
            let second = URLSession.shared.dataTask(with: URL(string: "http://127.0.0.1:8080/second")!)
            // In an async context, and the host has answered nothing yet: waiting here for
            // taskCreated would hold this thread of the cooperative pool until the request's
            // deadline, and the tasks would fail instead of running.
            first.resume()
            second.resume()
            for (identifier, path) in [(401, "/first"), (402, "/second")] {
                let payload = try harness.answerCreateTask(with: identifier)
                #expect(payload.request.url.hasSuffix(path))
                try harness.host.expect("resumeTask \(identifier)") { message -> Void? in
                    if case .resumeTask("", identifier) = message { return () }
                    return nil
                }
            }
            #expect(first.state == .running && second.state == .running)
            #expect(first.taskIdentifier == 401 && second.taskIdentifier == 402)
            _ = harness.finish()
        }

        @Test("data(for:) carries method, headers, body and the session's additional headers; failures throw URLError")
        func dataForRequestFails() async throws {
            let harness = try await RuntimeHarness.network()
            let configuration = URLSessionConfiguration.ephemeral
            configuration.httpAdditionalHeaders = ["User-Agent": "Sandglass-Tests", "Accept": "text/plain"]
            configuration.timeoutIntervalForRequest = 5
            let session = URLSession(configuration: configuration)
            var request = URLRequest(url: URL(string: "http://127.0.0.1:8080/scores")!)
            request.httpMethod = "POST"
            request.setValue("application/json", forHTTPHeaderField: "Accept")
            request.httpBody = Data(#"{"week":7}"#.utf8)
            let fetch = Task(executorPreference: offThePool) { try await session.data(for: request) }
            let payload = try harness.answerCreateTask(with: 302)
            #expect(payload.request.method == "POST")
            #expect(
                payload.request.headers == [
                    HeaderField("Accept", "application/json"), HeaderField("User-Agent", "Sandglass-Tests")
                ])
            #expect(payload.request.body == Array(#"{"week":7}"#.utf8))
            #expect(payload.request.timeout == 5)
            try harness.host.expect("resumeTask") { message -> Void? in
                if case .resumeTask("", 302) = message { return () }
                return nil
            }
            try harness.host.send(
                .taskCompleted(
                    session: "", taskIdentifier: 302, nil,
                    error: TaskErrorPayload(code: -1004, message: "Could not connect to the server."), nil
                ))
            let error = try await #require(throws: URLError.self) { try await fetch.value }
            #expect(error.code == .cannotConnectToHost)
            #expect(error.localizedDescription == "Could not connect to the server.")
            #expect(error.failingURL == URL(string: "http://127.0.0.1:8080/scores"))
            _ = harness.finish()
        }

        @Test("a completion-handler data task gets the body on the session's delegate queue")
        func completionHandlerDataTask() async throws {
            let harness = try await RuntimeHarness.network()
            let session = URLSession(configuration: .default)
            let url = "http://127.0.0.1:8080/hello"
            let outcome = Mutex<(String?, Int?, Bool)?>(nil)
            let done = DispatchSemaphore(value: 0)
            let task = session.dataTask(with: URL(string: url)!) { data, response, error in
                let onQueue = OperationQueue.current === session.delegateQueue
                outcome.withLock {
                    $0 = (
                        data.map { String(decoding: $0, as: UTF8.self) }, (response as? HTTPURLResponse)?.statusCode,
                        error == nil && onQueue
                    )
                }
                done.signal()
            }
            try await harness.answerResume(of: task, with: 303)
            try harness.host.send(.taskResponse(session: "", taskIdentifier: 303, okResponse(url, length: 5)))
            try harness.host.send(.taskData(session: "", taskIdentifier: 303, Array("hello".utf8)))
            try harness.host.send(.taskCompleted(session: "", taskIdentifier: 303, nil, error: nil, okResponse(url, length: 5)))
            #expect(done.wait(timeout: .now() + HostEnd.patience) == .success)
            let (text, status, cleanAndOnQueue) = try #require(outcome.withLock { $0 })
            #expect(text == "hello")
            #expect(status == 200)
            #expect(cleanAndOnQueue)
            #expect(task.state == .completed)
            #expect(task.countOfBytesReceived == 5)
            #expect(task.countOfBytesExpectedToReceive == 5)
            _ = harness.finish()
        }

        @Test("a delegate's inline data task: didReceive data per chunk, then didCompleteWithError")
        func delegateDataTask() async throws {
            let harness = try await RuntimeHarness.network()
            let delegate = RecordingDelegate()
            let session = URLSession(configuration: .default, delegate: delegate, delegateQueue: nil)
            let url = "http://127.0.0.1:8080/chunks"
            let task = session.dataTask(with: URL(string: url)!)
            try await harness.answerResume(of: task, with: 304)
            try harness.host.send(.taskResponse(session: "", taskIdentifier: 304, okResponse(url)))
            try harness.host.send(.taskData(session: "", taskIdentifier: 304, Array("ab".utf8)))
            try harness.host.send(.taskData(session: "", taskIdentifier: 304, Array("cd".utf8)))
            try harness.host.send(.taskCompleted(session: "", taskIdentifier: 304, nil, error: nil, okResponse(url)))
            #expect(
                try delegate.waitForCalls(3) == [
                    .didReceiveData(task: 304, text: "ab"),
                    .didReceiveData(task: 304, text: "cd"),
                    .didComplete(task: 304, errorCode: nil, statusCode: 200)
                ])
            #expect(delegate.misplacedCalls.isEmpty)
            _ = harness.finish()
        }

        @Test("a completion-handler download task gets a readable file, deleted when the handler returns")
        func completionHandlerDownload() async throws {
            let harness = try await RuntimeHarness.network()
            let url = "http://127.0.0.1:8080/file"
            let outcome = Mutex<(String?, String?)?>(nil)
            let done = DispatchSemaphore(value: 0)
            let task = URLSession.shared.downloadTask(with: URL(string: url)!) { location, _, _ in
                outcome.withLock { $0 = (location.flatMap { try? String(contentsOf: $0, encoding: .utf8) }, location?.path) }
                done.signal()
            }
            let payload = try await harness.answerResume(of: task, with: 305)
            #expect(payload.kind == .download)
            let body = try downloadedFile("file body")
            defer { try? FileManager.default.removeItem(atPath: body) }
            let path = materialisedDownload("CFNetworkDownload_inline_1_305.tmp", session: "", container: harness.welcome.containerPath)
            try harness.host.send(
                .downloadFinished(session: "", taskIdentifier: 305, nil, file: "CFNetworkDownload_inline_1_305.tmp", okResponse(url)),
                passingFileAt: body)
            try harness.host.send(.taskCompleted(session: "", taskIdentifier: 305, nil, error: nil, okResponse(url)))
            #expect(done.wait(timeout: .now() + HostEnd.patience) == .success)
            let (contents, location) = try #require(outcome.withLock { $0 })
            #expect(contents == "file body")
            #expect(location == path)
            // The handler has returned; the file goes right after.
            let deadline = ContinuousClock.now + .seconds(10)
            while FileManager.default.fileExists(atPath: path), ContinuousClock.now < deadline {
                await Task.yield()
            }
            #expect(!FileManager.default.fileExists(atPath: path))
            _ = harness.finish()
        }

        @Test("download(from:) returns the file, which stays for the caller")
        func asyncDownload() async throws {
            let harness = try await RuntimeHarness.network()
            let url = "http://127.0.0.1:8080/archive"
            let fetch = Task(executorPreference: offThePool) { try await URLSession.shared.download(from: URL(string: url)!) }
            try harness.answerCreateTask(with: 306)
            let body = try downloadedFile("archive body")
            defer { try? FileManager.default.removeItem(atPath: body) }
            let path = materialisedDownload("CFNetworkDownload_inline_1_306.tmp", session: "", container: harness.welcome.containerPath)
            try harness.host.send(
                .downloadFinished(session: "", taskIdentifier: 306, nil, file: "CFNetworkDownload_inline_1_306.tmp", okResponse(url)),
                passingFileAt: body)
            try harness.host.send(.taskCompleted(session: "", taskIdentifier: 306, nil, error: nil, okResponse(url)))
            let (location, response) = try await fetch.value
            #expect(location.path == path)
            #expect(try String(contentsOf: location, encoding: .utf8) == "archive body")
            #expect((response as? HTTPURLResponse)?.statusCode == 200)
            try FileManager.default.removeItem(at: location)
            _ = harness.finish()
        }

        @Test("cancelling the calling Task sends cancelTask; the host's completion throws URLError.cancelled")
        func cancellation() async throws {
            let harness = try await RuntimeHarness.network()
            let fetch = Task(executorPreference: offThePool) {
                try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:8080/slow")!)
            }
            try harness.answerCreateTask(with: 307)
            try harness.host.expect("resumeTask") { message -> Void? in
                if case .resumeTask("", 307) = message { return () }
                return nil
            }
            fetch.cancel()
            try harness.host.expect("cancelTask") { message -> Void? in
                if case .cancelTask("", 307) = message { return () }
                return nil
            }
            try harness.host.send(
                .taskCompleted(
                    session: "", taskIdentifier: 307, nil, error: TaskErrorPayload(code: -999, message: "cancelled"), nil
                ))
            let error = try await #require(throws: URLError.self) { try await fetch.value }
            #expect(error.code == .cancelled)
            _ = harness.finish()
        }

        @Test("a task cancelled before resume completes with -999 and never reaches the host")
        func cancelledBeforeResume() async throws {
            let harness = try await RuntimeHarness.network()
            let delegate = RecordingDelegate()
            let session = URLSession(configuration: .default, delegate: delegate, delegateQueue: nil)
            let task = session.dataTask(with: URL(string: "http://127.0.0.1:8080/never")!)
            task.cancel()
            #expect(try delegate.waitForCalls(1) == [.didComplete(task: task.taskIdentifier, errorCode: -999, statusCode: nil)])
            task.resume()
            try harness.host.expectNothingMore()
            #expect(task.state == .completed)
            _ = harness.finish()
        }

        @Test("the host refusing createTask fails the task instead of waiting")
        func refusedByHost() async throws {
            let harness = try await RuntimeHarness.network()
            let fetch = Task(executorPreference: offThePool) {
                try await URLSession.shared.data(from: URL(string: "ftp://127.0.0.1/file")!)
            }
            let id = try harness.host.expect("createTask") { message -> RequestID? in
                if case .createTask(let id, _) = message { return id }
                return nil
            }
            try harness.host.send(.error(ErrorReport(requestID: id, code: .unsupportedRequest, message: "only http and https")))
            do {
                _ = try await fetch.value
                Issue.record("the request succeeded")
            } catch let error as URLError {
                #expect(error.code == .unknown)
                #expect(error.localizedDescription.contains("only http and https"))
            }
            try harness.host.expectNothingMore()
            _ = harness.finish()
        }

        @Test("not under the host, a request fails with notConnectedToInternet")
        func notUnderHost() async {
            await #expect(processExitsWith: .success) {
                do {
                    _ = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:8080/")!)
                    exit(1)
                } catch let error as URLError where error.code == .notConnectedToInternet {
                    exit(0)
                } catch {
                    exit(2)
                }
            }
        }
    }
}
