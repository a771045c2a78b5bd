import Testing

@testable import SandglassHost

/// Who may receive location: the seed's matrix of the app's authorization × the widget's
/// approval, and the extension's key.
@Suite("Location authorization for widgets")
struct LocationRuleTests {
    @Test("authorized for widget updates: always, or whenInUse extended — and only with NSWidgetWantsLocation")
    func matrix() {
        for authorization in LocationAuthorization.allCases {
            for approval in WidgetLocationApproval.allCases {
                let expected = authorization == .always || (authorization == .whenInUse && approval == .extended)
                #expect(
                    LocationService.authorizesWidgetUpdates(wantsLocation: true, authorization: authorization, approval: approval)
                        == expected,
                    "\(authorization) × \(approval)")
                #expect(
                    !LocationService.authorizesWidgetUpdates(wantsLocation: false, authorization: authorization, approval: approval),
                    "without the key: never (\(authorization) × \(approval))")
            }
        }
    }

    @Test("the app's status on the wire is CLAuthorizationStatus's raw value")
    func statusCodes() {
        #expect(LocationAuthorization.allCases.map(\.statusCode.rawValue) == [0, 2, 1, 4, 3])
    }
}
