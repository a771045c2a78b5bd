import Foundation
import SandglassIPC
import Testing

@testable import SandglassHost

/// A session's list of tasks (`getAllTasks`, a relaunch's `sessionAttached`) fits in one frame
/// whatever the servers answered: the requests are bounded when the tasks are created
/// (`MessageLimits.sessionTaskBytes`), the responses when the list is made.
@Suite("Task lists")
struct TaskListTests {
    /// A session's worth of tasks within the request budget, each answered with `headerBytes`
    /// of headers and an error message of `errorBytes`.
    private func tasks(count: Int, headerBytes: Int, errorBytes: Int = 0) -> [TaskRecord] {
        let limits = MessageLimits()
        // Made once and shared by every task (copies of a string share its storage): the test's
        // time goes to the list, not to making its text.
        let url = "http://127.0.0.1/" + String(repeating: "r", count: limits.sessionTaskBytes / limits.sessionTasks - 64)
        let headers =
            [HeaderField("Content-Type", "text/plain; charset=utf-8"), HeaderField("Content-Length", "10")]
            + (0..<(headerBytes / 100)).map { HeaderField("X-Filler-\($0)", String(repeating: "h", count: 88)) }
        let message = String(repeating: "e", count: errorBytes)
        return (0..<count).map { n in
            var task = TaskRecord(
                app: "com.example.app", session: "feed", bundle: "com.example.app.widget", taskIdentifier: n + 1, kind: .download,
                state: .finished, request: HTTPRequestPayload(url: url), taskDescription: nil, expectsSend: 0, expectsReceive: 0,
                createdAt: 0)
            task.response = HTTPResponsePayload(url: url, statusCode: 200, headers: headers, expectedContentLength: 10)
            if errorBytes > 0 { task.error = TaskErrorPayload(code: -1011, message: message) }
            return task
        }
    }

    @Test(
        "a full session whose servers each sent 8 KiB of headers: its list fits in a frame; the first responses whole, the rest with their status, length and type"
    )
    func responsesFit() throws {
        let tasks = tasks(count: MessageLimits().sessionTasks, headerBytes: 8 << 10)
        let snapshots = TaskRecord.snapshots(of: tasks, omittingResponseURLs: true)
        let frame = Frame.encode(.taskList(RequestID(1), snapshots))
        #expect(frame.count <= Frame.defaultMaximumLength, "a list of \(frame.count) bytes")
        #expect(snapshots.count == tasks.count)
        let first = try #require(snapshots.first?.response)
        #expect(first.url == "", "the request's URL is not sent twice")
        #expect(first.headers == tasks.first?.response?.headers, "the first responses are whole")
        let last = try #require(snapshots.last?.response)
        #expect(last.statusCode == 200 && last.expectedContentLength == 10)
        #expect(last.headers == [HeaderField("Content-Type", "text/plain; charset=utf-8")])
        #expect(last.url == "")
    }

    @Test("error messages of a list are cut too, past the first that fit; each keeps its code")
    func errorsFit() {
        let snapshots = TaskRecord.snapshots(
            of: tasks(count: MessageLimits().sessionTasks, headerBytes: 0, errorBytes: 64 << 10), omittingResponseURLs: true)
        let frame = Frame.encode(.taskList(RequestID(1), snapshots))
        #expect(frame.count <= Frame.defaultMaximumLength, "a list of \(frame.count) bytes")
        #expect(snapshots.allSatisfy { $0.error?.code == -1011 })
        #expect(snapshots.first?.error?.message.utf8.count == 64 << 10)
        #expect(snapshots.last.map { $0.error!.message.utf8.count < 100 } == true)
    }

    @Test(
        "the worst a session can hold: requests at their budget, every response with a long type and many headers, every task with a long error; the list fits, for an SDK before 4.3 too",
        arguments: [true, false])
    func worstFits(omittingURLs: Bool) throws {
        var tasks = tasks(count: MessageLimits().sessionTasks, headerBytes: 4 << 10, errorBytes: 4 << 10)
        let long = HeaderField(String(repeating: "T", count: 1024), String(repeating: "t", count: 4096))
        let type = HeaderField("Content-Type", String(repeating: "c", count: 4096))
        for index in tasks.indices {
            tasks[index].response?.headers[0] = long
            tasks[index].response?.headers.insert(type, at: 0)
            tasks[index].taskDescription = nil
            tasks[index].bytesReceived = .max
            tasks[index].bytesExpected = .max
        }
        let frame = Frame.encode(.taskList(RequestID(.max), TaskRecord.snapshots(of: tasks, omittingResponseURLs: omittingURLs)))
        #expect(frame.count <= Frame.defaultMaximumLength, "a list of \(frame.count) bytes")
    }

    @Test(
        "a server's headers are kept with a task whole up to 16 KiB, while its app's kept responses are under 16 MiB; past either, only its type, cut, and its length"
    )
    func keptHeaders() {
        let few = HTTPResponsePayload(
            url: "http://127.0.0.1/", statusCode: 200,
            headers: [HeaderField("Content-Type", "text/plain"), HeaderField("ETag", "\"v\"")], expectedContentLength: 10)
        #expect(few.kept() == few)
        #expect(few.kept(keptByApp: HTTPResponsePayload.appKeptBytes) == few)
        #expect(few.kept(keptByApp: HTTPResponsePayload.appKeptBytes + 1).headers.map(\.name) == ["Content-Type"])
        let filler = (0..<2900).map { HeaderField("X-Filler-\($0)", String(repeating: "h", count: 88)) }
        let many = HTTPResponsePayload(
            url: "http://127.0.0.1/", statusCode: 206,
            headers: [HeaderField("Content-Type", String(repeating: "c", count: 4096)), HeaderField("Content-Length", "10")] + filler,
            expectedContentLength: 10)
        let kept = many.kept()
        #expect(kept.statusCode == 206 && kept.expectedContentLength == 10 && kept.url == many.url)
        #expect(kept.headers.map(\.name) == ["Content-Type", "Content-Length"])
        #expect(kept.headers.reduce(0) { $0 + $1.name.utf8.count + $1.value.utf8.count } < 256)
    }

    @Test("a listed response leaves out its URL when it is the request's, for an SDK that speaks 4.3")
    func urlLeftOut() {
        let task = tasks(count: 1, headerBytes: 0)[0]
        #expect(TaskRecord.snapshots(of: [task], omittingResponseURLs: true)[0].response?.url == "")
        #expect(TaskRecord.snapshots(of: [task], omittingResponseURLs: false)[0].response?.url == task.request.url, "an SDK before 4.3")
        var other = task
        other.response?.url = "http://127.0.0.1/elsewhere"
        #expect(TaskRecord.snapshots(of: [other], omittingResponseURLs: true)[0].response?.url == "http://127.0.0.1/elsewhere")
    }
}
