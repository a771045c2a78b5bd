/// The response of an HTTP request: status code and header fields.
///
/// The only errors a task reports through its `error` are client-side errors (no connection,
/// timeout, cancelled); a 404 or a 500 is a response — check ``statusCode``.
///
/// ```swift
/// if let http = response as? HTTPURLResponse, !(200..<300).contains(http.statusCode) {
///     print(HTTPURLResponse.localizedString(forStatusCode: http.statusCode))
/// }
/// ```
open class HTTPURLResponse: URLResponse, @unchecked Sendable {
    /// The HTTP status code (200, 404, …).
    public let statusCode: Int
    private let headers: HTTPHeaderFields

    /// A response with `statusCode` and `headerFields`; `httpVersion` is recorded nowhere.
    public init?(url: URL, statusCode: Int, httpVersion: String?, headerFields: [String: String]?) {
        guard (0..<1000).contains(statusCode) else { return nil }
        let fields = (headerFields ?? [:]).sorted { $0.key < $1.key }.map { HTTPHeaderFields.Field(name: $0.key, value: $0.value) }
        self.statusCode = statusCode
        self.headers = HTTPHeaderFields(fields)
        super.init(
            url: url, mimeType: Self.mimeType(headers), expectedLength: Self.contentLength(headers),
            textEncodingName: Self.charset(headers))
    }

    init(url: URL?, statusCode: Int, fields: [HTTPHeaderFields.Field], expectedContentLength: Int64) {
        self.statusCode = statusCode
        self.headers = HTTPHeaderFields(fields)
        super.init(
            url: url, mimeType: Self.mimeType(headers), expectedLength: expectedContentLength,
            textEncodingName: Self.charset(headers))
    }

    /// Every header field, keyed by name as the server spelled it.
    public var allHeaderFields: [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for field in headers.fields {
            result[field.name] = field.value
        }
        return result
    }

    /// The value of a header field, compared without regard to case.
    public func value(forHTTPHeaderField field: String) -> String? {
        headers.value(for: field)
    }

    /// The file name from `Content-Disposition`, else the URL's last path component.
    open override var suggestedFilename: String? {
        if let disposition = headers.value(for: "Content-Disposition"),
            let name = Self.parameter("filename", in: disposition), !name.isEmpty
        {
            return name
        }
        return super.suggestedFilename
    }

    /// The reason phrase of a status code, lowercased as Apple gives it (`not found`).
    public class func localizedString(forStatusCode statusCode: Int) -> String {
        if let phrase = reasonPhrases[statusCode] { return phrase }
        switch statusCode {
        case 100..<200: return "informational"
        case 200..<300: return "success"
        case 300..<400: return "redirected"
        case 400..<500: return "client error"
        case 500..<600: return "server error"
        default: return "unknown"
        }
    }

    private static let reasonPhrases: [Int: String] = [
        100: "continue", 101: "switching protocols",
        200: "no error", 201: "created", 202: "accepted", 203: "non-authoritative information",
        204: "no content", 205: "reset content", 206: "partial content",
        300: "multiple choices", 301: "moved permanently", 302: "found", 303: "see other",
        304: "not modified", 305: "needs proxy", 307: "temporarily redirected", 308: "permanent redirect",
        400: "bad request", 401: "unauthorized", 402: "payment required", 403: "forbidden", 404: "not found",
        405: "method not allowed", 406: "unacceptable", 407: "proxy authentication required",
        408: "request timed out", 409: "conflict", 410: "no longer exists", 411: "length required",
        412: "precondition failed", 413: "request too large", 414: "requested URL too long",
        415: "unsupported media type", 416: "requested range not satisfiable", 417: "expectation failed",
        429: "too many requests",
        500: "internal server error", 501: "unimplemented", 502: "bad gateway", 503: "service unavailable",
        504: "gateway timed out", 505: "unsupported version"
    ]

    private static func mimeType(_ headers: HTTPHeaderFields) -> String? {
        guard let contentType = headers.value(for: "Content-Type") else { return nil }
        let type = contentType.split(separator: ";", maxSplits: 1).first.map(HTTPHeaderFields.trimmed)
        return type.flatMap { $0.isEmpty ? nil : $0.lowercased() }
    }

    private static func charset(_ headers: HTTPHeaderFields) -> String? {
        headers.value(for: "Content-Type").flatMap { parameter("charset", in: $0) }?.lowercased()
    }

    private static func contentLength(_ headers: HTTPHeaderFields) -> Int64 {
        headers.value(for: "Content-Length").flatMap { Int64(HTTPHeaderFields.trimmed($0)) } ?? -1
    }

    /// The value of `name=value` (quoted or not) among the `;`-separated parameters of a field.
    private static func parameter(_ name: String, in field: String) -> String? {
        for part in field.split(separator: ";").dropFirst() {
            let pair = part.split(separator: "=", maxSplits: 1)
            guard pair.count == 2,
                HTTPHeaderFields.sameName(HTTPHeaderFields.trimmed(pair[0]), name)
            else { continue }
            var value = HTTPHeaderFields.trimmed(pair[1])
            if value.count >= 2, value.hasPrefix("\""), value.hasSuffix("\"") {
                value = String(value.dropFirst().dropLast())
            }
            return value
        }
        return nil
    }
}
