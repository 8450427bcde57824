package source

import "errors"

// soldCodes are the codes with which a source refuses an offering id it no longer offers:
// sold to someone else, or expired, between the search and the purchase. EC2 names both
// cases; SageMaker answers ResourceNotFound for a training plan offering id it no longer has.
var soldCodes = map[string]bool{
	"InvalidCapacityBlockOfferingIdExpired":  true,
	"InvalidCapacityBlockOfferingIdNotFound": true,
	"ResourceNotFound":                       true,
}

// OfferingSold reports whether a purchase or an extension was refused because its offering
// was sold or expired meanwhile, so that the front ends say so and search again.
func OfferingSold(err error) bool {
	var ae *ActionError
	return errors.As(err, &ae) && ae.Sold()
}
