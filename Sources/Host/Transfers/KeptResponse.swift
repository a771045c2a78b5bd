import SandglassIPC

extension HTTPResponsePayload {
    /// What of a server's response headers the host keeps with a background task — in its
    /// journal row, in each of its events, in every list of its session's tasks. A server
    /// chooses them (up to 512 KiB a transfer): a session of a thousand tasks would otherwise
    /// keep hundreds of MB, read again at each attach and delivery.
    static let keptHeaderBytes = 16 << 10

    /// What the responses of one app's tasks may keep in the journal in all: past it, the next
    /// response is kept in its smallest form. With the two copies its events keep, at most three
    /// times this (and a response's whole headers) for each app, where a server that sends
    /// 16 KiB of headers to each of 64 sessions × 1,000 tasks would have made it 3 GiB.
    static let appKeptBytes = 16 << 20

    /// The response as the host keeps it: its headers in order while they fit in
    /// ``keptHeaderBytes`` (each counted with 8 bytes of framing), and while the app's kept
    /// responses (`keptByApp` bytes) have not passed ``appKeptBytes``; past either, only its
    /// `Content-Type`, cut, and its `Content-Length`. Status, URL and expected length stay.
    func kept(keptByApp: Int = 0) -> HTTPResponsePayload {
        var total = 0
        for header in headers {
            total += header.name.utf8.count + header.value.utf8.count + 8
            if total > Self.keptHeaderBytes { break }
        }
        guard total > Self.keptHeaderBytes || keptByApp > Self.appKeptBytes else { return self }
        var kept = self
        kept.headers =
            cutType
            + (headers.last { $0.name.lowercased() == "content-length" }.map {
                [HeaderField("Content-Length", MessageBudget.cut($0.value, to: 32))]
            } ?? [])
        return kept
    }

    /// Its `Content-Type`, cut to ``TaskRecord/listDetailCut`` bytes (none when it has none):
    /// the one header of a response's smallest forms.
    var cutType: [HeaderField] {
        headers.last { $0.name.lowercased() == "content-type" }.map {
            [HeaderField("Content-Type", MessageBudget.cut($0.value, to: TaskRecord.listDetailCut))]
        } ?? []
    }
}
