import Dispatch
import Foundation
import SandglassIPC
import Synchronization
import Testing

@testable import WidgetKit

extension RuntimeTests {
    /// A session the host offers (protocol 4.2): its `sessionAttached` and events sent once the
    /// handler accepted, before the process made the session.
    @Suite("offered background sessions")
    struct SessionOfferTests {
        /// Sends the request for `identifier` and returns the handler's call once it accepted.
        private func accept(_ identifier: String, on harness: RuntimeHarness) throws -> BackgroundEventsProbe.Call {
            let request = harness.makeID()
            try harness.host.send(.backgroundEventsRequest(request, identifier: identifier))
            let accepted = try harness.host.expect("backgroundEventsReply") { message -> Bool? in
                if case .backgroundEventsReply(request, let accepted) = message { return accepted }
                return nil
            }
            #expect(accepted)
            return try BackgroundEventsProbe.shared.nextCall()
        }

        /// The host's side of an offer of `identifier` with task 5: `sessionAttached`, a finished
        /// download (event `eventID`, its body passed as a descriptor), then the ping that proves
        /// the runtime read them all — and made no delegate call: nothing but the pong comes back.
        private func offer(_ identifier: String, eventID: UInt64, on harness: RuntimeHarness) throws -> String {
            let url = "http://127.0.0.1:8080/bytes/5"
            let snapshot = TaskSnapshot(
                taskIdentifier: 5, kind: .download, state: .completed, request: HTTPRequestPayload(url: url),
                taskDescription: "offered")
            try harness.host.send(.sessionAttached(identifier: identifier, tasks: [snapshot]))
            let body = try downloadedFile("fresh")
            defer { try? FileManager.default.removeItem(atPath: body) }
            let name = "CFNetworkDownload_\(eventID).tmp"
            try harness.host.send(
                .downloadFinished(
                    session: identifier, taskIdentifier: 5, EventStamp(eventID: eventID, attempt: 1), file: name,
                    okResponse(url, length: 5)),
                passingFileAt: body)
            try harness.host.expectNothingMore(eventID)
            return materialisedDownload(name, session: identifier, container: harness.welcome.containerPath)
        }

        @Test("what the host offers before the handler re-creates the session reaches it, in order, after attachSession")
        func offerKept() async throws {
            let harness = try await RuntimeHarness.network()
            let identifier = backgroundIdentifier("offered")
            let delegate = RecordingDelegate()
            let call = try accept(identifier, on: harness)
            let path = try offer(identifier, eventID: 80, on: harness)
            try harness.host.send(
                .taskCompleted(
                    session: identifier, taskIdentifier: 5, EventStamp(eventID: 81, attempt: 1), error: nil,
                    okResponse("http://127.0.0.1:8080/bytes/5", length: 5)))
            try harness.host.send(.allEventsDelivered(identifier: identifier))
            try harness.host.expectNothingMore(81)
            #expect(FileManager.default.fileExists(atPath: path), "the offered download is kept for the session")

            // The handler's session, made now: it confirms, and gets what was offered without an answer.
            let completion = try #require(call.completion)
            delegate.onFinishEvents.withLock { $0 = { DispatchQueue.main.async { completion() } } }
            let session = URLSession(configuration: .background(withIdentifier: identifier), delegate: delegate, delegateQueue: nil)
            try harness.host.expectAttach(identifier)
            for eventID: UInt64 in [80, 81] {
                try harness.host.expectHandled(identifier, eventID)
            }
            try harness.host.expectEventsFinished(identifier)
            #expect(
                try delegate.waitForCalls(3) == [
                    .didFinishDownloading(task: 5, contents: "fresh", path: path),
                    .didComplete(task: 5, errorCode: nil, statusCode: 200),
                    .didFinishEvents
                ])
            #expect(session.state.withLock { $0.tasks[identifier: 5] }?.taskDescription == "offered")
            #expect(!FileManager.default.fileExists(atPath: path))
            session.finishTasksAndInvalidate()
            _ = harness.finish()
        }

        @Test("the completion before the session withdraws the offer: its file removed, its events never delivered")
        func offerWithdrawn() async throws {
            let harness = try await RuntimeHarness.network()
            let identifier = backgroundIdentifier("withdrawn")
            let delegate = RecordingDelegate()
            let call = try accept(identifier, on: harness)
            let path = try offer(identifier, eventID: 82, on: harness)
            #expect(FileManager.default.fileExists(atPath: path))

            let completion = try #require(call.completion)
            completion()
            try harness.host.expectEventsFinished(identifier)
            #expect(!FileManager.default.fileExists(atPath: path), "the withdrawn offer's file is removed")
            // Late, with no handler running: dropped, not kept.
            try harness.host.send(.sessionAttached(identifier: identifier, tasks: []))
            try harness.host.expectNothingMore(83)

            // A session made afterwards attaches as usual; the host's answer and a new event reach
            // it — and nothing from the offer, which its serial delivery would have handled first.
            let session = URLSession(configuration: .background(withIdentifier: identifier), delegate: delegate, delegateQueue: nil)
            try harness.host.expectAttach(identifier)
            try harness.host.send(.sessionAttached(identifier: identifier, tasks: []))
            try harness.host.send(
                .taskCompleted(
                    session: identifier, taskIdentifier: 5, EventStamp(eventID: 84, attempt: 1), error: nil,
                    okResponse("http://127.0.0.1:8080/bytes/5", length: 5)))
            try harness.host.expectHandled(identifier, 84)
            #expect(try delegate.waitForCalls(1) == [.didComplete(task: 5, errorCode: nil, statusCode: 200)])
            session.finishTasksAndInvalidate()
            _ = harness.finish()
        }
    }
}
