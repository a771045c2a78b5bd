extension RunSummary {
    /// The counts as one JSON object (what `run.end` records), for `--json` output.
    public var json: String {
        json(adding: [])
    }

    /// The counts as one JSON object with `extra` fields after them.
    public func json(adding extra: [(String, JSONValue)]) -> String {
        JSONValue.object(fields + [("durationMs", .double(durationMs))] + extra).serialized
    }
}
