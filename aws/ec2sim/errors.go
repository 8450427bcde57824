package ec2sim

import (
	"fmt"
	"net/http"
)

// apiError is an error answered to the client in EC2's <Response><Errors> shape.
type apiError struct {
	status  int
	code    string
	message string
}

func (e *apiError) Error() string { return e.code + ": " + e.message }

func errf(status int, code, format string, args ...any) *apiError {
	return &apiError{status: status, code: code, message: fmt.Sprintf(format, args...)}
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
	// An unsigned request: EC2's common errors give MissingAuthenticationToken, HTTP 403
	// (docs.aws.amazon.com/AWSEC2/latest/APIReference/CommonErrors.html); the message is
	// the one of the EC2 error-codes page. STS answers the same code in its own shape.
	errMissingAuth = errf(http.StatusForbidden, "MissingAuthenticationToken",
		"The request must contain either a valid (registered) AWS access key ID or X.509 certificate.")
	errThrottled = errf(http.StatusServiceUnavailable, "RequestLimitExceeded", "Request limit exceeded.")
	errInternal  = errf(http.StatusInternalServerError, "InternalError",
		"An internal error has occurred.")
)
