package source

// soldCodes are the codes with which a source refuses an offering id it no longer offers:
// sold to someone else, or expired, between the search and the purchase. EC2 names both
// cases; SageMaker answers ResourceNotFound for a training plan offering id it no longer has.
var soldCodes = map[string]bool{
	"InvalidCapacityBlockOfferingIdExpired":  true,
	"InvalidCapacityBlockOfferingIdNotFound": true,
	"ResourceNotFound":                       true,
}
