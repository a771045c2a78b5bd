extension WidgetConfiguration {
    /// Runs `urlSessionEvent` when events of a background `URLSession` whose identifier
    /// `matchingBlock` accepts (every identifier when `nil`) are waiting: the host relaunched
    /// the extension, or found it running, to deliver them.
    ///
    /// In the closure, look up — or lazily recreate — the session for `identifier` (creating it
    /// is what lets the events reach its delegate) and store `completion`; call it after the
    /// delegate's `urlSessionDidFinishEvents(forBackgroundURLSession:)`:
    ///
    /// ```swift
    /// .onBackgroundURLSessionEvents { identifier in
    ///     identifier.hasPrefix("com.example.")
    /// } _: { identifier, completion in
    ///     Downloads.shared.handleEvents(for: identifier, completion: completion)
    /// }
    /// ```
    @MainActor @preconcurrency
    public func onBackgroundURLSessionEvents(
        matching matchingBlock: ((String) -> Bool)? = nil,
        _ urlSessionEvent: @escaping (String, @escaping () -> Void) -> Void
    ) -> some WidgetConfiguration {
        let handler = BackgroundSessionHandler(matchingBlock: matchingBlock, urlSessionEvent)
        return _ModifiedWidgetConfiguration(base: self) { $0.backgroundSessionHandlers.append(handler) }
    }

    /// Runs `urlSessionEvent` when events of the background `URLSession` named
    /// `matchingString` are waiting.
    ///
    /// ```swift
    /// .onBackgroundURLSessionEvents(matching: "com.example.feed") { identifier, completion in
    ///     Downloads.shared.completion = completion
    ///     _ = Downloads.shared.session
    /// }
    /// ```
    @MainActor @preconcurrency
    public func onBackgroundURLSessionEvents(
        matching matchingString: String,
        _ urlSessionEvent: @escaping (String, @escaping () -> Void) -> Void
    ) -> some WidgetConfiguration {
        let handler = BackgroundSessionHandler(matchingString: matchingString, matchingBlock: nil, urlSessionEvent)
        return _ModifiedWidgetConfiguration(base: self) { $0.backgroundSessionHandlers.append(handler) }
    }

    /// Runs `action` when the system wakes the extension for `task` — in widget extensions,
    /// the events of background URL sessions (``BackgroundTask/urlSession``). The task is
    /// complete when the action returns.
    ///
    /// ```swift
    /// .backgroundTask(.urlSession(matching: { $0.hasPrefix("com.example.") })) { identifier in
    ///     await Downloads.shared.handleEvents(for: identifier)
    /// }
    /// ```
    nonisolated public func backgroundTask<D, R>(
        _ task: BackgroundTask<D, R>,
        action: @escaping @concurrent @Sendable (D) async -> R
    ) -> some WidgetConfiguration where D: Sendable, R: Sendable {
        let handler = BackgroundSessionHandler(task, action: action)
        return _ModifiedWidgetConfiguration(base: self) { $0.backgroundSessionHandlers.append(handler) }
    }
}
