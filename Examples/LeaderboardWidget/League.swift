//
//  League.swift
//  LeaderboardWidget
//
//  The league's data as the widgets see it. A real app would read it from its App Group
//  container; the sample computes it from the date so every reload shows movement.
//

import Foundation

struct Player: Codable, Hashable {
    let name: String
    let points: Int
}

struct Match: Codable, Hashable {
    let home: String
    let away: String
    let kickoff: Date
    let venue: String
}

enum League {
    static let players = ["Ada", "Grace", "Linus", "Barbara", "Ken", "Margaret"]

    static let venues = ["North Court", "Riverside Arena", "Old Gym"]

    /// Sample standings for placeholders and the widget gallery.
    static let sampleStandings = [
        Player(name: "Ada", points: 42),
        Player(name: "Grace", points: 39),
        Player(name: "Linus", points: 31)
    ]

    /// A sample match for placeholders and the widget gallery, 20 minutes after `date`.
    static func sampleMatch(at date: Date) -> Match {
        Match(home: "Ada", away: "Grace", kickoff: date.addingTimeInterval(20 * 60), venue: "North Court")
    }

    /// The standings as they will be at `date`: each player scores at their own pace.
    static func standings(at date: Date) -> [Player] {
        let minutes = Int(date.timeIntervalSince1970 / 60)
        return players.enumerated()
            .map { index, name in
                Player(name: name, points: 20 + (minutes / (5 + index * 3)) % 40)
            }
            .sorted { $0.points > $1.points || ($0.points == $1.points && $0.name < $1.name) }
    }

    /// The round being played at `date`: a new round every hour.
    static func round(at date: Date) -> Int {
        Int(date.timeIntervalSince1970 / 3600) % 38 + 1
    }

    /// The next match after `date`: one every half hour.
    static func nextMatch(after date: Date) -> Match {
        let slot = Int(date.timeIntervalSince1970 / 1800) + 1
        let home = players[slot % players.count]
        let away = players[(slot + 1 + slot / players.count) % players.count]
        return Match(
            home: home,
            away: away == home ? players[(slot + 2) % players.count] : away,
            kickoff: Date(timeIntervalSince1970: Double(slot) * 1800),
            venue: venues[slot % venues.count]
        )
    }
}
