//
//  CharacterDetail.swift
//  AppleStyleWidget
//
//  In the spirit of Apple's Emoji Rangers sample: the heroes whose health the widget shows.
//  Not Codable, as in much real widget code: the SDK records entries through Mirror.
//

import Foundation

struct CharacterDetail: Hashable {
    let name: String
    let avatar: String
    let healthLevel: Double
    let heroType: String
    let healthRecoveryRatePerHour: Double

    var fullHealthDate: Date {
        let healthNeeded = min(1 - healthLevel, 1)
        let hoursUntilFullHealth = healthNeeded / healthRecoveryRatePerHour
        let minutesUntilFullHealth = (hoursUntilFullHealth * 60)
        let date = Calendar.current.date(byAdding: .minute, value: Int(minutesUntilFullHealth), to: Date())

        return date ?? Date()
    }

    static let panda = CharacterDetail(
        name: "Power Panda", avatar: "🐼", healthLevel: 0.14, heroType: "Forest Dweller", healthRecoveryRatePerHour: 1.25
    )
    static let egghead = CharacterDetail(
        name: "Egghead", avatar: "🦄", healthLevel: 0.67, heroType: "Sorcerer", healthRecoveryRatePerHour: 0.85
    )
    static let spouty = CharacterDetail(
        name: "Spouty", avatar: "🐳", healthLevel: 0.83, heroType: "Journeyer", healthRecoveryRatePerHour: 0.7
    )

    static let availableCharacters = [panda, egghead, spouty]

    /// The hero a player picked in the app; the sample reads nothing and takes the first.
    static var selectedCharacter: CharacterDetail {
        availableCharacters[0]
    }

    /// The health of a hero at `date`, recovering from its current level.
    func health(at date: Date) -> Double {
        let hours = max(0, date.timeIntervalSinceNow / 3600)
        return min(1, healthLevel + hours * healthRecoveryRatePerHour)
    }
}
