/// The metadata of a response: URL, MIME type, expected length and text encoding.
///
/// Responses of HTTP requests are ``HTTPURLResponse``s; check with `as?`:
///
/// ```swift
/// guard let http = task.response as? HTTPURLResponse, http.statusCode == 200 else { return }
/// ```
open class URLResponse: NSObject, @unchecked Sendable {
    /// The URL of the response.
    public let url: URL?
    /// The MIME type of the body (`application/json`), from `Content-Type`.
    public let mimeType: String?
    /// The expected length of the body, or -1 (`NSURLResponseUnknownLength`) when unknown.
    public let expectedContentLength: Int64
    /// The name of the text encoding of the body (`utf-8`), from the `charset` parameter.
    public let textEncodingName: String?

    /// A response with the given metadata.
    public init(url: URL, mimeType: String?, expectedContentLength: Int, textEncodingName: String?) {
        self.url = url
        self.mimeType = mimeType
        self.expectedContentLength = Int64(expectedContentLength)
        self.textEncodingName = textEncodingName
        super.init()
    }

    init(url: URL?, mimeType: String?, expectedLength: Int64, textEncodingName: String?) {
        self.url = url
        self.mimeType = mimeType
        self.expectedContentLength = expectedLength
        self.textEncodingName = textEncodingName
        super.init()
    }

    /// A file name for the body: the URL's last path component, or `Unknown`.
    open var suggestedFilename: String? {
        let last = url?.lastPathComponent ?? ""
        return last.isEmpty || last == "/" ? "Unknown" : last
    }
}
