import Foundation
import Testing

@testable import WidgetKit

/// The SDK merges an extension's changes to an app group's defaults into the group's suite key
/// by key: what the app (or another extension) changed meanwhile stays.
@Suite("App group defaults: the merge")
struct GroupDefaultsMergeTests {
    @Test("only the keys the extension changed are taken from it; a key it removed is removed")
    func merge() {
        let base: [String: Any] = ["relayData": "leg 1", "widgetReads": 1, "old": true]
        let mine: [String: Any] = ["relayData": "leg 1", "widgetReads": 2]
        let latest: [String: Any] = ["relayData": "leg 2 (the app, meanwhile)", "widgetReads": 1, "old": true, "teamCode": "X"]
        let merged = GroupDefaultsSync.merge(base: base, mine: mine, into: latest)
        #expect(merged["relayData"] as? String == "leg 2 (the app, meanwhile)")
        #expect(merged["widgetReads"] as? Int == 2)
        #expect(merged["old"] == nil)
        #expect(merged["teamCode"] as? String == "X")
    }

    @Test("nested values compare by content")
    func nested() {
        let base: [String: Any] = ["list": [1, 2], "map": ["a": "b"]]
        let mine: [String: Any] = ["list": [1, 2], "map": ["a": "c"]]
        let merged = GroupDefaultsSync.merge(base: base, mine: mine, into: ["list": [9], "map": ["a": "b"]])
        #expect(merged["list"] as? [Int] == [9])
        #expect(merged["map"] as? [String: String] == ["a": "c"])
    }

    @Test("the containers the host declares are parsed; anything else is none")
    func declared() {
        #expect(AppGroupContainers.parse(#"{"group.a": "/data/AppGroups/app/group.a"}"#) == ["group.a": "/data/AppGroups/app/group.a"])
        #expect(AppGroupContainers.parse("not json").isEmpty)
        #expect(AppGroupContainers.parse(nil).isEmpty)
    }
}
