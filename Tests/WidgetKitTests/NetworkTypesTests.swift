import Testing

@testable import WidgetKit

@Suite("URLRequest, URLResponse and configurations")
struct NetworkTypesTests {
    @Test("URLRequest: GET by default, header fields without regard to case, nil fields when none")
    func request() throws {
        var request = URLRequest(url: URL(string: "https://example.com/a")!)
        #expect(request.httpMethod == "GET")
        #expect(request.allHTTPHeaderFields == nil)
        #expect(request.timeoutInterval == 60)
        #expect(request.cachePolicy == .useProtocolCachePolicy)
        request.setValue("text/html", forHTTPHeaderField: "Accept")
        request.addValue("application/json", forHTTPHeaderField: "accept")
        #expect(request.value(forHTTPHeaderField: "ACCEPT") == "text/html, application/json")
        request.setValue(nil, forHTTPHeaderField: "Accept")
        #expect(request.allHTTPHeaderFields == nil)
        request.allHTTPHeaderFields = ["X-A": "1"]
        #expect(request.allHTTPHeaderFields == ["X-A": "1"])
        request.httpMethod = nil
        #expect(request.httpMethod == "GET")
        #expect(request.description == "https://example.com/a")
        #expect(URLRequest(url: URL(string: "https://example.com/a")!) != request)
    }

    @Test("HTTPURLResponse: MIME type, charset, length and file name from the header fields")
    func response() throws {
        let response = try #require(
            HTTPURLResponse(
                url: URL(string: "https://example.com/files/report")!, statusCode: 404, httpVersion: "HTTP/1.1",
                headerFields: [
                    "Content-Type": "Text/HTML; charset=\"ISO-8859-1\"", "Content-Length": "120",
                    "Content-Disposition": "attachment; filename=\"week 7.html\""
                ]
            ))
        #expect(response.statusCode == 404)
        #expect(response.mimeType == "text/html")
        #expect(response.textEncodingName == "iso-8859-1")
        #expect(response.expectedContentLength == 120)
        #expect(response.suggestedFilename == "week 7.html")
        #expect(response.value(forHTTPHeaderField: "content-length") == "120")
        #expect(HTTPURLResponse.localizedString(forStatusCode: 404) == "not found")
        #expect(HTTPURLResponse.localizedString(forStatusCode: 299) == "success")
        let plain = URLResponse(url: URL(string: "https://example.com/")!, mimeType: nil, expectedContentLength: -1, textEncodingName: nil)
        #expect(plain.suggestedFilename == "Unknown")
    }

    @Test("HTTPURLResponse: spaces and tabs around values and parameters, names in any case, other bytes exactly")
    func responseWhitespaceAndCase() throws {
        let response = try #require(
            HTTPURLResponse(
                url: URL(string: "https://example.com/")!, statusCode: 200, httpVersion: nil,
                headerFields: [
                    "content-TYPE": " \tApplication/JSON \t;\tCharSet = UTF-8 ", "Content-Length": "\t42 ",
                    "X-Straße": "1"
                ]
            ))
        #expect(response.mimeType == "application/json")
        #expect(response.textEncodingName == "utf-8")
        #expect(response.expectedContentLength == 42)
        #expect(response.value(forHTTPHeaderField: "CONTENT-type") == " \tApplication/JSON \t;\tCharSet = UTF-8 ")
        #expect(response.value(forHTTPHeaderField: "x-straße") == "1")
        #expect(response.value(forHTTPHeaderField: "X-STRASSE") == nil)
        #expect(response.value(forHTTPHeaderField: "Content-Lengt") == nil)
    }

    @Test("configurations: Apple's defaults, copies, the background identifier")
    func configurations() {
        let background = URLSessionConfiguration.background(withIdentifier: "com.example.feed")
        #expect(background.identifier == "com.example.feed")
        #expect(background.sessionSendsLaunchEvents)
        #expect(!background.isDiscretionary)
        #expect(background.timeoutIntervalForRequest == 60)
        #expect(background.timeoutIntervalForResource == 604_800)
        #expect(!background.waitsForConnectivity)
        #expect(URLSessionConfiguration.default.identifier == nil)
        background.isDiscretionary = true
        let copy = background.copy() as! URLSessionConfiguration
        #expect(copy.isDiscretionary)
        #expect(copy !== background)
        #expect(URLSessionConfiguration.default !== URLSessionConfiguration.default)
        let session = URLSession(configuration: .ephemeral)
        #expect(session.configuration !== session.configuration)
        #expect(URLSession.shared === URLSession.shared)
    }
}
