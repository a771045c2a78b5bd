/// Encodings of the network and location payloads.
extension MessageCodec {
    static func encode(_ h: HTTPRequestPayload, into w: inout BinaryWriter) {
        w.write(h.url)
        w.write(h.method)
        encode(h.headers, into: &w)
        w.write(h.body) { $0.write(bytes: $1) }
        w.write(h.timeout)
    }

    static func readRequest(_ r: inout BinaryReader) throws(PayloadError) -> HTTPRequestPayload {
        HTTPRequestPayload(
            url: try r.readString("request url"), method: try r.readString("request method"),
            headers: try readHeaders(&r),
            body: try r.readOptional("request body") { (r) throws(PayloadError) in try r.readBytes("request body") },
            timeout: try r.readDouble("request timeout"))
    }

    static func encode(_ headers: [HeaderField], into w: inout BinaryWriter) {
        w.write(array: headers) { w, h in
            w.write(h.name)
            w.write(h.value)
        }
    }

    static func readHeaders(_ r: inout BinaryReader) throws(PayloadError) -> [HeaderField] {
        try r.readArray("headers") { (r) throws(PayloadError) in
            HeaderField(try r.readString("header name"), try r.readString("header value"))
        }
    }

    static func encode(_ h: HTTPResponsePayload, into w: inout BinaryWriter) {
        w.write(h.url)
        w.writeVarint(UInt64(max(0, h.statusCode)))
        encode(h.headers, into: &w)
        w.writeSigned(h.expectedContentLength)
    }

    static func readResponse(_ r: inout BinaryReader) throws(PayloadError) -> HTTPResponsePayload {
        let url = try r.readString("response url")
        let status = try r.readVarint("status code")
        guard status < 1000 else { throw PayloadError(reason: "status code \(status) is not an HTTP status", offset: r.offset) }
        return HTTPResponsePayload(
            url: url, statusCode: Int(status), headers: try readHeaders(&r),
            expectedContentLength: try r.readSigned("expected content length"))
    }

    static func encode(_ e: TaskErrorPayload, into w: inout BinaryWriter) {
        w.writeSigned(Int64(e.code))
        w.write(e.domain)
        w.write(e.message)
    }

    static func readError(_ r: inout BinaryReader) throws(PayloadError) -> TaskErrorPayload {
        TaskErrorPayload(
            code: Int(try r.readSigned("error code")), domain: try r.readString("error domain"),
            message: try r.readString("error message"))
    }

    static func encode(_ c: SessionConfigurationPayload, into w: inout BinaryWriter) {
        w.write(c.identifier)
        w.write(c.sessionSendsLaunchEvents)
        w.write(c.isDiscretionary)
        w.write(c.timeoutIntervalForRequest)
        w.write(c.timeoutIntervalForResource)
        w.write(c.sharedContainerIdentifier) { $0.write($1) }
    }

    static func readConfiguration(_ r: inout BinaryReader) throws(PayloadError) -> SessionConfigurationPayload {
        SessionConfigurationPayload(
            identifier: try r.readString("session identifier"),
            sessionSendsLaunchEvents: try r.readBool("sessionSendsLaunchEvents"),
            isDiscretionary: try r.readBool("isDiscretionary"),
            timeoutIntervalForRequest: try r.readDouble("timeoutIntervalForRequest"),
            timeoutIntervalForResource: try r.readDouble("timeoutIntervalForResource"),
            sharedContainerIdentifier: try r.readOptional("sharedContainerIdentifier") { (r) throws(PayloadError) in
                try r.readString("sharedContainerIdentifier")
            })
    }

    static func encode(_ t: TaskRequestPayload, into w: inout BinaryWriter) {
        w.write(t.session)
        w.write(t.kind.rawValue)
        encode(t.request, into: &w)
        w.write(t.taskDescription) { $0.write($1) }
        w.write(t.earliestBeginDate) { $0.write($1) }
        w.writeSigned(t.countOfBytesClientExpectsToSend)
        w.writeSigned(t.countOfBytesClientExpectsToReceive)
    }

    static func readTaskRequest(_ r: inout BinaryReader) throws(PayloadError) -> TaskRequestPayload {
        TaskRequestPayload(
            session: try r.readString("session"),
            kind: try r.readEnum("task kind", TaskKind.self),
            request: try readRequest(&r),
            taskDescription: try r.readOptional("taskDescription") { (r) throws(PayloadError) in try r.readString("taskDescription") },
            earliestBeginDate: try r.readOptional("earliestBeginDate") { (r) throws(PayloadError) in try r.readDouble("earliestBeginDate")
            },
            countOfBytesClientExpectsToSend: try r.readSigned("countOfBytesClientExpectsToSend"),
            countOfBytesClientExpectsToReceive: try r.readSigned("countOfBytesClientExpectsToReceive"))
    }

    static func encode(_ t: TaskSnapshot, into w: inout BinaryWriter) {
        w.writeVarint(UInt64(max(0, t.taskIdentifier)))
        w.write(t.kind.rawValue)
        w.write(t.state.rawValue)
        encode(t.request, into: &w)
        w.write(t.taskDescription) { $0.write($1) }
        w.write(t.earliestBeginDate) { $0.write($1) }
        w.writeSigned(t.countOfBytesClientExpectsToSend)
        w.writeSigned(t.countOfBytesClientExpectsToReceive)
        w.writeSigned(t.countOfBytesReceived)
        w.writeSigned(t.countOfBytesExpectedToReceive)
        w.write(t.response) { w, v in encode(v, into: &w) }
        w.write(t.error) { w, v in encode(v, into: &w) }
    }

    static func readSnapshot(_ r: inout BinaryReader) throws(PayloadError) -> TaskSnapshot {
        TaskSnapshot(
            taskIdentifier: try r.readInt("task identifier"),
            kind: try r.readEnum("task kind", TaskKind.self),
            state: try r.readEnum("task state", TaskState.self),
            request: try readRequest(&r),
            taskDescription: try r.readOptional("taskDescription") { (r) throws(PayloadError) in try r.readString("taskDescription") },
            earliestBeginDate: try r.readOptional("earliestBeginDate") { (r) throws(PayloadError) in try r.readDouble("earliestBeginDate")
            },
            countOfBytesClientExpectsToSend: try r.readSigned("countOfBytesClientExpectsToSend"),
            countOfBytesClientExpectsToReceive: try r.readSigned("countOfBytesClientExpectsToReceive"),
            countOfBytesReceived: try r.readSigned("countOfBytesReceived"),
            countOfBytesExpectedToReceive: try r.readSigned("countOfBytesExpectedToReceive"),
            response: try r.readOptional("response") { (r) throws(PayloadError) in try readResponse(&r) },
            error: try r.readOptional("error") { (r) throws(PayloadError) in try readError(&r) })
    }

    static func encode(_ s: EventStamp?, into w: inout BinaryWriter) {
        w.write(s) { w, s in
            w.writeVarint(s.eventID)
            w.writeVarint(s.attempt)
        }
    }

    static func readStamp(_ r: inout BinaryReader) throws(PayloadError) -> EventStamp? {
        try r.readOptional("event stamp") { (r) throws(PayloadError) in
            EventStamp(eventID: try r.readVarint("event id"), attempt: try r.readInt("attempt"))
        }
    }

    static func encode(_ l: LocationPayload, into w: inout BinaryWriter) {
        w.write(l.latitude)
        w.write(l.longitude)
        w.write(l.altitude)
        w.write(l.horizontalAccuracy)
        w.write(l.verticalAccuracy)
        w.write(l.timestamp)
    }

    static func readLocation(_ r: inout BinaryReader) throws(PayloadError) -> LocationPayload {
        LocationPayload(
            latitude: try r.readDouble("latitude"), longitude: try r.readDouble("longitude"),
            altitude: try r.readDouble("altitude"), horizontalAccuracy: try r.readDouble("horizontal accuracy"),
            verticalAccuracy: try r.readDouble("vertical accuracy"), timestamp: try r.readDouble("timestamp"))
    }

    /// The payloads of the background-session, task and location messages.
    static func encodeNetworkPayload(_ message: Message, into w: inout BinaryWriter) {
        switch message {
        case .attachSession(let c):
            encode(c, into: &w)
        case .sessionAttached(let identifier, let tasks):
            w.write(identifier)
            w.write(array: tasks) { w, t in encode(t, into: &w) }
        case .sessionInvalidated(let identifier, let error):
            w.write(identifier)
            w.write(error) { w, e in encode(e, into: &w) }
        case .invalidateSession(let identifier, let cancel):
            w.write(identifier)
            w.write(cancel)
        case .backgroundEventsRequest(let id, let identifier):
            w.writeVarint(id.rawValue)
            w.write(identifier)
        case .backgroundEventsReply(let id, let accepted):
            w.writeVarint(id.rawValue)
            w.write(accepted)
        case .eventHandled(let identifier, let eventID, let delegateStartedNs):
            w.write(identifier)
            w.writeVarint(eventID)
            w.writeVarint(delegateStartedNs)
        case .eventsFinished(let identifier), .allEventsDelivered(let identifier):
            w.write(identifier)
        case .createTask(let id, let request):
            w.writeVarint(id.rawValue)
            encode(request, into: &w)
        case .taskCreated(let id, let task):
            w.writeVarint(id.rawValue)
            w.writeVarint(task)
        case .resumeTask(let session, let task), .cancelTask(let session, let task):
            w.write(session)
            w.writeVarint(task)
        case .getTasks(let id, let session):
            w.writeVarint(id.rawValue)
            w.write(session)
        case .taskList(let id, let tasks):
            w.writeVarint(id.rawValue)
            w.write(array: tasks) { w, t in encode(t, into: &w) }
        case .taskProgress(let session, let task, let received, let expected):
            w.write(session)
            w.writeVarint(task)
            w.writeSigned(received)
            w.writeSigned(expected)
        case .taskResponse(let session, let task, let response):
            w.write(session)
            w.writeVarint(task)
            encode(response, into: &w)
        case .taskData(let session, let task, let bytes):
            w.write(session)
            w.writeVarint(task)
            w.write(bytes: bytes)
        case .downloadFinished(let session, let task, let stamp, let file, let response):
            w.write(session)
            w.writeVarint(task)
            encode(stamp, into: &w)
            w.write(file)
            encode(response, into: &w)
        case .taskCompleted(let session, let task, let stamp, let error, let response):
            w.write(session)
            w.writeVarint(task)
            encode(stamp, into: &w)
            w.write(error) { w, e in encode(e, into: &w) }
            w.write(response) { w, r in encode(r, into: &w) }
        case .locationAuthorization(let a):
            w.write(a.status.rawValue)
            w.write(a.widgetApproved)
        case .locationRequest(let mode):
            w.write(mode.rawValue)
        case .locationUpdate(let locations):
            w.write(array: locations) { w, l in encode(l, into: &w) }
        case .locationFailure(let code):
            w.write(code.rawValue)
        default:
            preconditionFailure("\(message.type) is not a network or location message")
        }
    }

    /// Decodes the payload of a background-session, task or location message.
    static func decodeNetwork(_ type: MessageType, _ r: inout BinaryReader) throws(PayloadError) -> Message {
        func id() throws(PayloadError) -> RequestID { RequestID(try r.readVarint("request id")) }
        func task() throws(PayloadError) -> Int { try r.readInt("task identifier") }
        switch type {
        case .attachSession:
            return .attachSession(try readConfiguration(&r))
        case .sessionAttached:
            let identifier = try r.readString("session identifier")
            return .sessionAttached(
                identifier: identifier, tasks: try r.readArray("tasks") { (r) throws(PayloadError) in try readSnapshot(&r) })
        case .sessionInvalidated:
            let identifier = try r.readString("session identifier")
            return .sessionInvalidated(
                identifier: identifier, error: try r.readOptional("error") { (r) throws(PayloadError) in try readError(&r) })
        case .invalidateSession:
            return .invalidateSession(identifier: try r.readString("session identifier"), cancelTasks: try r.readBool("cancel tasks"))
        case .backgroundEventsRequest:
            return .backgroundEventsRequest(try id(), identifier: try r.readString("session identifier"))
        case .backgroundEventsReply:
            return .backgroundEventsReply(try id(), accepted: try r.readBool("accepted"))
        case .eventHandled:
            return .eventHandled(
                identifier: try r.readString("session identifier"), eventID: try r.readVarint("event id"),
                delegateStartedNs: try r.readVarint("delegate start"))
        case .eventsFinished:
            return .eventsFinished(identifier: try r.readString("session identifier"))
        case .allEventsDelivered:
            return .allEventsDelivered(identifier: try r.readString("session identifier"))
        case .createTask:
            return .createTask(try id(), try readTaskRequest(&r))
        case .taskCreated:
            return .taskCreated(try id(), taskIdentifier: try task())
        case .resumeTask:
            return .resumeTask(session: try r.readString("session"), taskIdentifier: try task())
        case .cancelTask:
            return .cancelTask(session: try r.readString("session"), taskIdentifier: try task())
        case .getTasks:
            return .getTasks(try id(), session: try r.readString("session"))
        case .taskList:
            return .taskList(try id(), try r.readArray("tasks") { (r) throws(PayloadError) in try readSnapshot(&r) })
        case .taskProgress:
            return .taskProgress(
                session: try r.readString("session"), taskIdentifier: try task(),
                received: try r.readSigned("bytes received"), expected: try r.readSigned("bytes expected"))
        case .taskResponse:
            return .taskResponse(session: try r.readString("session"), taskIdentifier: try task(), try readResponse(&r))
        case .taskData:
            return .taskData(session: try r.readString("session"), taskIdentifier: try task(), try r.readBytes("task data"))
        case .downloadFinished:
            return .downloadFinished(
                session: try r.readString("session"), taskIdentifier: try task(), try readStamp(&r),
                file: try r.readString("file name"), try readResponse(&r))
        case .taskCompleted:
            return .taskCompleted(
                session: try r.readString("session"), taskIdentifier: try task(), try readStamp(&r),
                error: try r.readOptional("error") { (r) throws(PayloadError) in try readError(&r) },
                try r.readOptional("response") { (r) throws(PayloadError) in try readResponse(&r) })
        case .locationAuthorization:
            return .locationAuthorization(
                LocationAuthorizationPayload(
                    status: try r.readEnum("authorization status", AuthorizationStatusCode.self),
                    widgetApproved: try r.readBool("widget approved")))
        case .locationRequest:
            return .locationRequest(try r.readEnum("location request", LocationRequestMode.self))
        case .locationUpdate:
            return .locationUpdate(try r.readArray("locations") { (r) throws(PayloadError) in try readLocation(&r) })
        case .locationFailure:
            return .locationFailure(try r.readEnum("location error", LocationErrorCode.self))
        default:
            preconditionFailure("\(type) is not a network or location message")
        }
    }
}
