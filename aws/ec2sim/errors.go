package ec2sim

import (
	"net/http"

	"github.com/gpublock/gpublock/aws/simcore"
)

// apiError is an error answered to the client, in EC2's <Response><Errors> shape here.
type apiError = simcore.APIError

func errf(status int, code, format string, args ...any) *apiError {
	return simcore.Errf(status, code, format, args...)
}

func badParam(format string, args ...any) *apiError {
	return errf(http.StatusBadRequest, "InvalidParameterValue", format, args...)
}

func missingParam(name string) *apiError {
	return errf(http.StatusBadRequest, "MissingParameter",
		"The request must contain the parameter %s", name)
}

// The codes below, and every other code the emulator answers, are on EC2's list of error
// codes (docs.aws.amazon.com/AWSEC2/latest/APIReference/errors-overview.html), among them
// InvalidCapacityBlockOfferingIdExpired, InvalidCapacityReservationState.PendingActivation
// and InvalidLaunchTargets; TestErrorCodesAreDocumented keeps it so.
var (
	errDryRun = errf(http.StatusPreconditionFailed, "DryRunOperation",
		"Request would have succeeded, but DryRun flag is set.")
	errOfferingExpired = errf(http.StatusBadRequest, "InvalidCapacityBlockOfferingIdExpired",
		"The Capacity Block offering ID is no longer available.")
	errOfferingMalformed = errf(http.StatusBadRequest, "InvalidCapacityBlockOfferingIdMalformed",
		"The Capacity Block offering ID is malformed.")
	errOfferingNotFound = errf(http.StatusBadRequest, "InvalidCapacityBlockOfferingIdNotFound",
		"The Capacity Block offering ID cannot be found for this account.")
	// An unsigned request, a throttled one and a failure of the emulator, in the core's
	// words, which are EC2's.
	errThrottled = simcore.ErrThrottled
	errInternal  = simcore.ErrInternal
)
