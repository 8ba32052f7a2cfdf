extension InAppPurchase: CustomReflectable {
    /// Shows the values the public properties return, not how a decoded record stores them.
    public var customMirror: Mirror {
        Mirror(
            self,
            children: [
                "quantity": self.quantity as Any,
                "productIdentifier": self.productIdentifier as Any,
                "transactionIdentifier": self.transactionIdentifier as Any,
                "purchaseDate": self.purchaseDate as Any,
                "originalTransactionIdentifier": self.originalTransactionIdentifier as Any,
                "originalPurchaseDate": self.originalPurchaseDate as Any,
                "productType": self.productType as Any,
                "expiresDate": self.expiresDate as Any,
                "webOrderLineItemIdentifier": self.webOrderLineItemIdentifier as Any,
                "cancellationDate": self.cancellationDate as Any,
                "isTrialPeriod": self.isTrialPeriod as Any,
                "isInIntroOfferPeriod": self.isInIntroOfferPeriod as Any,
                "promotionalOfferIdentifier": self.promotionalOfferIdentifier as Any,
                "otherAttributes": self.otherAttributes,
            ],
            displayStyle: .struct
        )
    }
}
