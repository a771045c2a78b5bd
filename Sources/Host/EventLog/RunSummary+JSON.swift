extension RunSummary {
    /// The counts as one JSON object (what `run.end` records), for `--json` output.
    public var json: String {
        JSONValue.object(fields + [("durationMs", .double(durationMs))]).serialized
    }
}
