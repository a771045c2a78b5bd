import Dispatch
import SandglassIPC
import Synchronization

/// Serves a widget extension's configurations (or a Today extension's updates) to the host over
/// one IPC descriptor.
///
/// `start()` sends `hello` and starts a reader thread that does blocking reads on the
/// descriptor. The first message must be `welcome`; each timeline request then runs on a
/// concurrent queue, off the main thread; `performUpdate` and location messages go to the
/// ``RuntimeService``s that registered for them. When the host goes away, breaks the protocol or refuses the
/// extension, `onEnd` is called once — the process entry point exits there; tests record it.
final class ExtensionRuntime: Sendable {
    /// Why the runtime stopped serving.
    enum Ending: Sendable, Equatable {
        /// End of stream, or an error, on the descriptor: the host is gone.
        case hostGone(String)
        /// The host sent a frame that does not decode, or a message out of protocol order.
        case protocolViolation(String)
        /// The host answered `hello` with an error instead of `welcome`.
        case refused(String)
    }

    private enum Phase: Sendable {
        case created
        case awaitingWelcome
        case serving
        case ended
    }

    private enum Activation: Sendable {
        case placeholder
        case snapshot
        case timeline
    }

    /// The runtime of this process, used by `WidgetCenter`; `nil` when not running under the host.
    static let current = Mutex<ExtensionRuntime?>(nil)

    /// The runtime whose request the caller is serving (its provider code, on its request
    /// queue), else the process's: `WidgetCenter` and the services reach the runtime that asked,
    /// also where several run in one process (the host's in-process tests).
    static var active: ExtensionRuntime? {
        DispatchQueue.getSpecific(key: servingKey)?.runtime ?? serving ?? current.withLock { $0 }
    }

    /// The runtime a call serves: bound around provider code on the request queue, a Today
    /// extension's `widgetPerformUpdate` and an `onBackgroundURLSessionEvents` block on the main
    /// actor, and the delegate calls and completion handlers of a session made in the runtime —
    /// and so known in the tasks they start.
    @TaskLocal static var serving: ExtensionRuntime?

    /// Marks each runtime's request queue with the runtime.
    private static let servingKey = DispatchSpecificKey<WeakRuntime>()

    /// A runtime, not kept alive by its own queue.
    private final class WeakRuntime: @unchecked Sendable {
        weak var runtime: ExtensionRuntime?
        init(_ runtime: ExtensionRuntime) { self.runtime = runtime }
    }

    let widgets: [WidgetDescriptor]
    let bundleIdentifier: String
    /// The variables the host set for an in-process runtime (``InProcessRuntime``); empty in
    /// an extension's process.
    let environment: [String: String]
    /// What this extension says it is in `hello`: a widget extension or a Today extension.
    let role: ExtensionRole
    /// The background URL-session handlers of every widget, in declaration order.
    let backgroundSessionHandlers: [BackgroundSessionHandler]
    private let widgetsByKind: [String: WidgetDescriptor]
    private let duplicateKinds: [String]
    private let channel: FrameChannel
    private let requests = DispatchQueue(label: "sandglass.requests", attributes: .concurrent)
    private let phase = Mutex(Phase.created)
    private let receivedWelcome = Mutex<Welcome?>(nil)
    private let receivedLocationAuthorization = Mutex<LocationAuthorizationPayload?>(nil)
    /// Served inside another program (``InProcessRuntime``), beside the program's own.
    let isInProcess: Bool
    /// Problems of the app groups' defaults already logged.
    private let reportedProblems = Mutex<Set<String>>([])
    /// Configurations the host sent for activation requests not yet read, by request id.
    private let pendingConfigurations = Mutex<[RequestID: [UInt8]]>([:])
    /// Blocks of its request queue running now (requests, app groups' synchronisation).
    private let runningBlocks = Mutex(0)
    private let onEnd: @Sendable (Ending) -> Void

    /// A runtime that will speak on `fd`, which it closes when it stops reading.
    init(
        widgets: [WidgetDescriptor],
        bundleIdentifier: String,
        role: ExtensionRole = .widgetKit,
        fd: Int32,
        environment: [String: String] = [:],
        isInProcess: Bool = false,
        onEnd: @escaping @Sendable (Ending) -> Void
    ) {
        self.widgets = widgets
        self.isInProcess = isInProcess
        self.environment = environment
        self.bundleIdentifier = bundleIdentifier
        self.role = role
        self.channel = FrameChannel(fd: fd)
        self.onEnd = onEnd
        self.backgroundSessionHandlers = widgets.flatMap(\.backgroundSessionHandlers)
        var byKind: [String: WidgetDescriptor] = [:]
        var duplicates: [String] = []
        for widget in widgets {
            if byKind[widget.kind] == nil {
                byKind[widget.kind] = widget
            } else if !duplicates.contains(widget.kind) {
                duplicates.append(widget.kind)
            }
        }
        self.widgetsByKind = byKind
        self.duplicateKinds = duplicates
        requests.setSpecific(key: Self.servingKey, value: WeakRuntime(self))
    }

    /// True while provider code (or other work of its request queue) runs.
    var isRunningRequests: Bool {
        runningBlocks.withLock { $0 > 0 }
    }

    /// Runs `body` on the request queue, counted in ``isRunningRequests``, bound to this runtime
    /// (``serving``), so that the tasks provider code starts (`Task { … }` in `getTimeline`)
    /// reach it too, off the queue.
    private func onRequestQueue(_ body: @escaping @Sendable () -> Void) {
        runningBlocks.withLock { $0 += 1 }
        requests.async { [self] in
            Self.$serving.withValue(self) { body() }
            runningBlocks.withLock { $0 -= 1 }
        }
    }

    /// The first frame: who this extension is, which widget kinds it serves, and which
    /// background URL sessions it takes events for (by name, or by a matching closure).
    var hello: Hello {
        var identifiers: [String] = []
        for case .identifier(let identifier) in backgroundSessionHandlers.map(\.matching)
        where !identifiers.contains(identifier) {
            identifiers.append(identifier)
        }
        return Hello(
            version: .current,
            bundleIdentifier: bundleIdentifier,
            role: role,
            widgets: widgets.map(\.wireDescription),
            sessionIdentifiers: identifiers,
            matchesSessionsByClosure: backgroundSessionHandlers.contains { $0.matching == .closure }
        )
    }

    /// The host's `welcome` (container path, clock), once it arrived.
    var welcome: Welcome? {
        receivedWelcome.withLock { $0 }
    }

    /// The last location authorization the host sent.
    var locationAuthorization: LocationAuthorizationPayload? {
        receivedLocationAuthorization.withLock { $0 }
    }

    /// Sends `hello` and starts the reader thread. Calls after the first do nothing.
    func start() {
        guard beginStarting() else { return }
        send(.hello(hello))
        startReader(Reading(), handover: nil)
    }

    /// ``start()`` for the process's main thread, before it serves the main queue: sends
    /// `hello`, then reads the host's first frames here (the `welcome` and, on a relaunch, the
    /// activation that woke the process) instead of waiting for a new thread to wake, and
    /// handles them. What they ask the main actor to do — a background-events request's
    /// `onBackgroundURLSessionEvents` block — runs here too, after the reader thread (started
    /// while the host answered `hello`) has taken over the socket, so that the block may wait
    /// for an answer from the host. Returns when that is done; the caller then serves the main
    /// queue. Calls after the first do nothing.
    @MainActor
    func startOnMainThread() {
        guard beginStarting() else { return }
        send(.hello(hello))
        // Made while the host answers.
        let reading = Reading()
        let handover = DispatchSemaphore(value: 0)
        startReader(reading, handover: handover)
        let heldBack = MainThread.holdingBack {
            while readOnce(reading), isAwaitingWelcome {}
        }
        handover.signal()
        for body in heldBack { body() }
    }

    /// Moves the phase from created to awaiting `welcome`; false when the runtime started before.
    private func beginStarting() -> Bool {
        let isFirst = phase.withLock { phase in
            guard case .created = phase else { return false }
            phase = .awaitingWelcome
            return true
        }
        if isFirst { NetworkService.register(for: self) }
        return isFirst
    }

    /// Starts the reader thread; with a `handover`, it reads once that is signalled. A process
    /// that cannot start a thread (its limit reached) says so and exits with status 71.
    private func startReader(_ reading: Reading, handover: DispatchSemaphore?) {
        let started = Syscalls.startThread { [self] in
            // Named here, while the main thread reads the first frames.
            Thread.current.name = "sandglass.ipc-reader"
            DispatchPoolWarmUp.start()
            handover?.wait()
            while readOnce(reading) {}
            reading.closeDescriptors()
            channel.close()
        }
        if case .failure(let error) = started {
            Syscalls.writeStandardError("sandglass: the IPC reader thread could not start: \(error)\n")
            Syscalls.exitProcess(71)
        }
    }

    /// Sends one message to the host; a failed write means the host is gone.
    func send(_ message: Message) {
        switch channel.write(Frame.encode(message)) {
        case .written, .closed:
            break
        case .failed(let error):
            end(.hostGone("writing to the IPC socket failed: \(error)"))
        }
    }

    /// Sends a line for the host's event log.
    func log(_ level: LogLevel, _ message: String) {
        send(.log(LogRecord(level: level, message: message)))
    }

    // MARK: Reading

    /// What has been read and not yet handled: the bytes of an unfinished frame, and the
    /// descriptors received with the first byte of their frame, oldest first — each taken by the
    /// `downloadFinished` it came with; any other closed once every frame before it has been
    /// handled. One thread reads at a time: the main thread's first reads, then the reader's.
    private final class Reading: @unchecked Sendable {
        var decoder = FrameDecoder()
        /// Not zeroed: the pages a read fills are the only ones touched.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 * 1024, alignment: 16)
        var descriptors: [Int32] = []

        deinit { buffer.deallocate() }

        func closeDescriptors() {
            descriptors.forEach(Syscalls.closeDescriptor)
            descriptors.removeAll()
        }
    }

    /// One blocking read and every frame it completes, handled in order; false when reading
    /// stops (the runtime ended).
    private func readOnce(_ reading: Reading) -> Bool {
        guard !isEnded else { return false }
        let result = channel.read(into: reading.buffer, descriptors: &reading.descriptors)
        switch result {
        case .failure(let error):
            end(.hostGone("reading the IPC socket failed: \(error)"))
            return false
        case .success(0):
            end(.hostGone("the host closed the IPC socket"))
            return false
        case .success(let count):
            reading.decoder.append(UnsafeRawBufferPointer(rebasing: reading.buffer[0..<count]))
            do {
                while !isEnded, let message = try reading.decoder.next() {
                    handle(message, descriptors: &reading.descriptors)
                }
                if reading.decoder.bufferedByteCount == 0 { reading.closeDescriptors() }
            } catch {
                end(.protocolViolation("the host sent a frame that does not decode: \(error)"))
                return false
            }
            return !isEnded
        }
    }

    private var isAwaitingWelcome: Bool {
        phase.withLock { phase in
            if case .awaitingWelcome = phase { return true }
            return false
        }
    }

    private var isEnded: Bool {
        phase.withLock { phase in
            if case .ended = phase { return true }
            return false
        }
    }

    private func handle(_ message: Message, descriptors: inout [Int32]) {
        if case .downloadFinished(let session, let task, let stamp, let file, let response) = message {
            let descriptor = descriptors.isEmpty ? nil : descriptors.removeFirst()
            return handle(
                .downloadFinished(
                    session: session, taskIdentifier: task, stamp,
                    file: materialise(descriptor, name: file, session: session), response))
        }
        handle(message)
    }

    /// The path of the file made from a download's descriptor, "" when there is none.
    private func materialise(_ descriptor: Int32?, name: String, session: String) -> String {
        guard let descriptor else {
            log(.warning, "the host sent downloadFinished for \(name) without its file")
            return ""
        }
        guard let container = welcome?.containerPath else {
            Syscalls.closeDescriptor(descriptor)
            return ""
        }
        switch ReceivedDownload.materialise(descriptor, name: name, in: ReceivedDownload.directory(session: session, container: container))
        {
        case .success(let path): return path
        case .failure(let error):
            log(.error, "a finished download could not be delivered: \(error)")
            return ""
        }
    }

    private func handle(_ message: Message) {
        switch message {
        case .welcome(let welcome):
            accept(welcome)
        case .placeholderRequest(let id, let activation):
            serve(id, activation, .placeholder)
        case .snapshotRequest(let id, let activation):
            serve(id, activation, .snapshot)
        case .timelineRequest(let id, let activation):
            serve(id, activation, .timeline)
        case .widgetConfiguration(let id, let configuration):
            // Comes just before the activation request it configures.
            guard isServing(message) else { return }
            pendingConfigurations.withLock { $0[id] = configuration.intent }
        case .currentConfigurations:
            guard isServing(message) else { return }
            if !RuntimeServices.dispatch(message, runtime: self) {
                log(.warning, "the host sent currentConfigurations for no request of this process")
            }
        case .performUpdateRequest(let id):
            guard isServing(message) else { return }
            // A Today extension's service takes it; a widget extension has none.
            if !RuntimeServices.dispatch(message, runtime: self) {
                send(
                    .error(
                        ErrorReport(
                            requestID: id,
                            code: .unsupportedRequest,
                            message: "performUpdate is a Today-extension request; this is a WidgetKit extension"
                        )))
            }
        case .locationAuthorization(let authorization):
            // Kept for location managers made later, then offered to those that exist.
            guard isServing(message) else { return }
            receivedLocationAuthorization.withLock { $0 = authorization }
            if !isInProcess { RuntimeServices.noteLocationAuthorization(authorization) }
            _ = RuntimeServices.dispatch(message, runtime: self)
        case .error(let report):
            let isHandshake = phase.withLock { phase in
                if case .awaitingWelcome = phase { return true }
                return false
            }
            if isHandshake {
                end(.refused("the host refused this extension (\(report.code)): \(report.message)"))
            } else if RuntimeServices.dispatch(message, runtime: self) {
                // The answer to a request a service made (createTask, getTasks).
            } else {
                Syscalls.writeStandardError("sandglass: the host reported an error (\(report.code)): \(report.message)\n")
            }
        case .ping(let n):
            // Answered here on the reader thread: the probe asks whether the channel is alive,
            // not whether extension code is.
            send(.pong(n))
        case .sessionAttached, .sessionInvalidated, .backgroundEventsRequest, .allEventsDelivered, .taskCreated,
            .taskList, .taskProgress, .taskResponse, .taskData, .downloadFinished, .taskCompleted,
            .locationUpdate, .locationFailure:
            // Background sessions, tasks, location: the services that registered for them.
            guard isServing(message) else { return }
            if !RuntimeServices.dispatch(message, runtime: self) {
                if let id = message.requestID {
                    send(
                        .error(
                            ErrorReport(
                                requestID: id, code: .unsupportedRequest,
                                message: "this extension has no handler for \(message.type)")))
                } else {
                    log(.warning, "the host sent \(message.type), which this extension does not handle")
                }
            }
        case .hello, .entryReply, .timelineReply, .updateResultReply, .reloadTimelines, .reloadAllTimelines, .log, .osLog, .pong,
            .diagnostic,
            .currentConfigurationsRequest,
            .attachSession, .invalidateSession, .backgroundEventsReply, .eventHandled, .eventsFinished, .createTask,
            .resumeTask, .cancelTask, .getTasks, .locationRequest:
            end(.protocolViolation("the host sent \(message.type), which only an extension sends"))
        }
    }

    private func accept(_ welcome: Welcome) {
        let accepted = phase.withLock { phase -> Bool? in
            switch phase {
            case .awaitingWelcome:
                phase = .serving
                return true
            case .ended:
                return nil
            case .created, .serving:
                return false
            }
        }
        guard let accepted else { return }
        guard accepted else {
            end(.protocolViolation("the host sent welcome a second time"))
            return
        }
        guard welcome.version.major == ProtocolVersion.current.major else {
            end(.refused("the host speaks protocol \(welcome.version), this SDK speaks \(ProtocolVersion.current)"))
            return
        }
        receivedWelcome.withLock { $0 = welcome }
        if !AppGroupContainers.declared.isEmpty {
            // Off the reader thread: the first block of the request queue starts a thread.
            onRequestQueue { [self] in synchroniseAppGroups() }
        }
        for kind in duplicateKinds {
            log(.warning, "more than one widget declares kind '\(kind)'; requests go to the first")
        }
    }

    /// Whether requests may be served now; a request before `welcome` breaks the protocol.
    private func isServing(_ request: Message) -> Bool {
        let current = phase.withLock { $0 }
        switch current {
        case .serving:
            return true
        case .ended:
            return false
        case .created, .awaitingWelcome:
            end(.protocolViolation("the host sent \(request.type) before welcome"))
            return false
        }
    }

    // MARK: Serving

    private func serve(_ id: RequestID, _ activation: ActivationContext, _ kind: Activation) {
        let request: Message =
            switch kind {
            case .placeholder: .placeholderRequest(id, activation)
            case .snapshot: .snapshotRequest(id, activation)
            case .timeline: .timelineRequest(id, activation)
            }
        guard isServing(request) else { return }
        let configuration = pendingConfigurations.withLock { $0.removeValue(forKey: id) } ?? []
        onRequestQueue { [self] in
            guard let widget = widgetsByKind[activation.kind] else {
                let known = widgets.map { "'\($0.kind)'" }.joined(separator: ", ")
                send(
                    .error(
                        ErrorReport(
                            requestID: id,
                            code: .unknownKind,
                            message: "no widget of kind '\(activation.kind)'; this extension has \(known)"
                        )))
                return
            }
            guard let family = WidgetFamily(rawValue: activation.family) else {
                send(
                    .error(
                        ErrorReport(
                            requestID: id,
                            code: .unsupportedRequest,
                            message: "unknown widget family '\(activation.family)'"
                        )))
                return
            }
            let size =
                activation.displayWidth > 0 && activation.displayHeight > 0
                ? CGSize(width: activation.displayWidth, height: activation.displayHeight)
                : family.displaySize
            let context = TimelineProviderContext(
                family: family, isPreview: activation.isPreview, displaySize: size,
                kind: widget.kind, intentConfiguration: configuration)
            let rendering = WidgetRenderContext(
                family: family, size: size, contentMarginsDisabled: widget.contentMarginsDisabled,
                isPlaceholder: kind == .placeholder)
            synchroniseAppGroups() // what the app wrote to the group's defaults, before the provider reads it
            switch kind {
            case .placeholder:
                replyEntry(id, widget.provider.placeholder(context), widget, rendering)
            case .snapshot:
                let gate = CompletionGate()
                widget.provider.snapshot(context) { [self] entry in
                    guard gate.claim() else {
                        warnSecondCompletion(widget.provider.snapshotCallName, widget.kind)
                        return
                    }
                    replyEntry(id, entry, widget, rendering)
                }
            case .timeline:
                let gate = CompletionGate()
                widget.provider.timeline(context) { [self] timeline in
                    guard gate.claim() else {
                        warnSecondCompletion(widget.provider.timelineCallName, widget.kind)
                        return
                    }
                    replyTimeline(id, timeline, widget, rendering)
                }
            }
        }
    }

    private func warnSecondCompletion(_ call: String, _ kind: String) {
        log(.warning, "\(call) for kind '\(kind)' called its completion a second time; the second call is ignored")
    }

    private func replyEntry(_ id: RequestID, _ entry: AnyEntry, _ widget: WidgetDescriptor, _ rendering: WidgetRenderContext) {
        synchroniseAppGroups() // what the provider wrote, to the app
        payloads(for: [entry], of: widget, rendering) { [self] result in
            switch result {
            case .success(let payloads):
                sendReply(.entryReply(id, payloads[0]), to: id)
            case .failure(let error):
                send(.error(ErrorReport(requestID: id, code: .providerFailed, message: error.description)))
            }
        }
    }

    private func replyTimeline(_ id: RequestID, _ timeline: AnyTimeline, _ widget: WidgetDescriptor, _ rendering: WidgetRenderContext) {
        synchroniseAppGroups()
        guard timeline.entries.count <= TimelinePayload.maximumEntries else {
            let message =
                "the timeline has \(timeline.entries.count) entries, over the limit of \(TimelinePayload.maximumEntries) a timeline; "
                + "give it fewer, and a reload policy to ask for the next ones"
            return send(.error(ErrorReport(requestID: id, code: .providerFailed, message: message)))
        }
        let policy: ReloadPolicyPayload =
            switch timeline.policy.kind {
            case .atEnd: .atEnd
            case .after(let date): .after(date.timeIntervalSince1970)
            case .never: .never
            }
        payloads(for: timeline.entries, of: widget, rendering) { [self] result in
            switch result {
            case .success(let payloads):
                sendReply(.timelineReply(id, TimelinePayload(entries: payloads, policy: policy)), to: id)
            case .failure(let error):
                send(.error(ErrorReport(requestID: id, code: .providerFailed, message: error.description)))
            }
        }
    }

    /// Brings the app groups' defaults in step with the groups' containers (``GroupDefaultsSync``).
    func synchroniseAppGroups() {
        let problems = GroupDefaultsSync.shared.synchronise()
        // Each problem once: it would come again at every activation.
        for problem in problems where reportedProblems.withLock({ $0.insert(problem).inserted }) { log(.warning, problem) }
    }

    /// Sends a reply, or an error when it would not fit in one frame.
    private func sendReply(_ reply: Message, to id: RequestID) {
        let frame = Frame.encode(reply)
        let length = frame.count - Frame.lengthSize
        guard length <= Frame.defaultMaximumLength else {
            send(
                .error(
                    ErrorReport(
                        requestID: id,
                        code: .providerFailed,
                        message: "the reply encodes to \(length) bytes, over the \(Frame.defaultMaximumLength)-byte frame limit"
                    )))
            return
        }
        switch channel.write(frame) {
        case .written, .closed:
            break
        case .failed(let error):
            end(.hostGone("writing to the IPC socket failed: \(error)"))
        }
    }

    /// Encodes entries where the completion was called, then, when the configuration has a
    /// content closure, evaluates and lays out each entry's view on the main actor (the view's
    /// texts become the entry's text rendering).
    private func payloads(
        for entries: [AnyEntry],
        of widget: WidgetDescriptor,
        _ rendering: WidgetRenderContext,
        then deliver: @escaping @Sendable (Result<[EntryPayload], EntryEncodingError>) -> Void
    ) {
        let encoded: [EntryPayload]
        do {
            encoded = try entries.map { entry throws(EntryEncodingError) in try EntryEncoder.payload(for: entry.entry) }
        } catch {
            deliver(.failure(error))
            return
        }
        guard let renderer = widget.renderer else {
            deliver(.success(encoded))
            return
        }
        MainThread.run {
            var rendered = encoded
            for index in rendered.indices {
                let entry = entries[index].entry
                let view = renderer.render(entry, rendering.request(at: entry.date))
                rendered[index].view = view
                rendered[index].text = view.light.plainText
            }
            deliver(.success(rendered))
        }
    }

    // MARK: Ending

    private func end(_ ending: Ending) {
        let isFirst = phase.withLock { phase in
            if case .ended = phase { return false }
            phase = .ended
            return true
        }
        guard isFirst else { return }
        channel.shutdown()
        HostRequests.connectionEnded(self)
        onEnd(ending)
    }
}
