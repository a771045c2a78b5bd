import Foundation
import SandglassIPC

/// What the host agrees to fetch for an extension, inline or in the background. The host makes
/// the request with its own privileges, so the request is checked before anything is created:
/// only `http` and `https` (never `http+unix`, `unix` or `file`, which would reach the host's
/// own sockets and files), a method that is an HTTP token, header names that are tokens and
/// values without line breaks or control characters, at most ``maximumHeaderFields`` of them in
/// ``maximumHeaderBytes``. Where the host then connects is ``ConnectPolicy``'s, checked
/// on each address it connects to.
enum RequestPolicy {
    /// Why `request` is refused, or `nil` when the host may make it.
    static func refusal(of request: HTTPRequestPayload) -> String? {
        guard let components = URLComponents(string: request.url), let scheme = components.scheme?.lowercased() else {
            return "\(quoted(request.url)) is not a URL"
        }
        guard scheme == "http" || scheme == "https" else {
            return "the URL scheme \(quoted(scheme)) is not supported: only http and https"
        }
        guard let host = components.host, !host.isEmpty else {
            return "\(quoted(request.url)) has no host"
        }
        guard isToken(request.method) else {
            return "the method \(quoted(request.method)) is not an HTTP token"
        }
        guard request.headers.count <= maximumHeaderFields else {
            return "the request has \(request.headers.count) header fields, over the \(maximumHeaderFields) a server takes"
        }
        var headerBytes = 0
        for header in request.headers {
            guard isToken(header.name) else { return "the header name \(quoted(header.name)) is not an HTTP token" }
            // RFC 9110 §5.5: a field value is visible characters, spaces, tabs and obs-text.
            if let control = header.value.utf8.first(where: { ($0 < 0x20 && $0 != 0x09) || $0 == 0x7F }) {
                let what = control == 0x0D || control == 0x0A || control == 0 ? "a line break or NUL" : "a control character"
                return "the value of header \(quoted(header.name)) holds \(what)"
            }
            headerBytes += header.name.utf8.count + header.value.utf8.count + 4
        }
        guard headerBytes <= maximumHeaderBytes else {
            return
                "the request has \(headerBytes) bytes of header fields, over the \(maximumHeaderBytes >> 10) KiB of header fields a server takes"
        }
        return nil
    }

    /// The most header fields a request may have: Apache's default (`LimitRequestFields`).
    /// Each is an object the journal decodes whenever its task is read.
    static let maximumHeaderFields = 100

    /// The most bytes of header fields a request may have, each counted as `Name: value` with
    /// its line break: 64 KiB, past nginx's 32 KiB and Apache's 100 × 8 KiB lines.
    static let maximumHeaderBytes = 64 << 10

    /// Headers the host sets itself and never sends as an extension gave them: the message's
    /// framing and the connection's (hop-by-hop) headers. Apple reserves the same: the system
    /// "may ignore the value you set". A `Content-Length: 0` before a body that is a whole
    /// second request would otherwise end the request early on a connection the host then
    /// reuses, whose next request — another app's, with its credentials — becomes that second
    /// request's body.
    static let reservedHeaders: Set<String> = [
        "content-length", "transfer-encoding", "connection", "keep-alive", "upgrade", "te", "trailer",
        "proxy-connection", "proxy-authorization", "proxy-authenticate"
    ]

    /// The headers of `request` the host sends: all but ``reservedHeaders``.
    static func headersSent(_ request: HTTPRequestPayload) -> [HeaderField] {
        request.headers.filter { !reservedHeaders.contains($0.name.lowercased()) }
    }

    /// The reserved headers `request` gave (lowercased, each once, sorted): those the host does
    /// not send as given.
    static func headersNotSent(_ request: HTTPRequestPayload) -> [String] {
        Set(request.headers.map { $0.name.lowercased() }.filter { reservedHeaders.contains($0) }).sorted()
    }

    /// `task.created`'s `headersNotSent` field, nil when the request gave none of them.
    static func headersNotSentField(_ request: HTTPRequestPayload) -> (String, JSONValue)? {
        let names = headersNotSent(request)
        return names.isEmpty ? nil : ("headersNotSent", .array(names.map { .string($0) }))
    }

    /// RFC 9110 `token`: one or more of `!#$%&'*+-.^_`|~`, digits and letters.
    static func isToken(_ text: String) -> Bool {
        !text.isEmpty
            && text.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"):
                    true
                default:
                    "!#$%&'*+-.^_`|~".utf8.contains(byte)
                }
            }
    }

    /// At most 80 characters of `text`, quoted (an extension's text in a log line stays short).
    private static func quoted(_ text: String) -> String {
        (text.count > 80 ? String(text.prefix(80)) + "…" : text).debugDescription
    }
}
