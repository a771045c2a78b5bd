//
//  RelayShared.swift
//  RelayWidget
//
//  What the Relay app and its widget share: the app group and the keys of its defaults, as
//  a "Shared" file of an Xcode project declares them for both targets.
//

import Foundation

enum RelayShared {
    /// The app group of Relay.app and its widget (both .entitlements files declare it).
    static let appGroup = "group.com.example.relay"
    /// The relay's state, written by the app.
    static let relayDataKey = "relayData"
    /// How many times the widget read it, written by the widget.
    static let widgetReadsKey = "widgetReads"
    /// The team's join code, written by the app (never shown in logs).
    static let teamCodeKey = "teamCode"
    /// The roster file the app keeps in the group's container.
    static let rosterPath = "Library/Caches/roster.txt"

    static var defaults: UserDefaults? { UserDefaults(suiteName: appGroup) }

    static var container: URL? {
        FileManager.default.containerURL(forSecurityApplicationGroupIdentifier: appGroup)
    }
}
