/// The kinds of fault `sandglass stress --faults LIST` injects (all by default).
public enum ChaosFault: String, Sendable, Hashable, CaseIterable, Comparable {
    /// SIGKILL of an extension at a random moment of an activation (launch, request, reply …).
    case kill
    /// SIGKILL of an extension at each named ``ProtocolStep``, systematically.
    case steps
    /// SIGSTOP, then SIGCONT a while later (suspension).
    case suspend
    /// SIGKILL of the host, which is then restarted on the same data directory (its journal).
    case host
    /// The fixture server answers downloads with 503s, dropped connections and slow bodies.
    case network
    /// An extension's memory limit lowered during the run, then restored.
    case memory

    public static func < (a: ChaosFault, b: ChaosFault) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }

    /// `kill,steps,host` → the set; an unknown name is an error naming the known ones.
    public static func parse(_ list: String) throws(ChaosPlanError) -> Set<ChaosFault> {
        var faults: Set<ChaosFault> = []
        for name in list.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !name.isEmpty {
            if name == "all" { return Set(allCases) }
            guard let fault = ChaosFault(rawValue: name) else {
                throw ChaosPlanError(
                    description: "unknown fault \"\(name)\"; the faults are \(allCases.map(\.rawValue).joined(separator: ", ")) (or all)")
            }
            faults.insert(fault)
        }
        guard !faults.isEmpty else {
            throw ChaosPlanError(description: "--faults names no fault; the faults are \(allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return faults
    }
}
