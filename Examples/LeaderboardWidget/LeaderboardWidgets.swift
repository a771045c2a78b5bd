//
//  LeaderboardWidgets.swift
//  LeaderboardWidget
//
//  The widget extension's entry point: both widgets of the league app.
//

import WidgetKit

@main
struct LeaderboardWidgets: WidgetBundle {
    var body: some Widget {
        LeaderboardWidget()
        NextMatchWidget()
    }
}
