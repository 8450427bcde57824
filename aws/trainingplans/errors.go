package trainingplans

import (
	"errors"

	"github.com/aws/smithy-go"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
)

// Explain turns an error of this source into a sentence and a hint: SageMaker's own codes
// here, the rest (credentials, network, throttling, permissions) by awsapi.ExplainError.
func Explain(err error) source.Explanation { return explain(err, awsapi.ExplainError) }

// explain is Explain with the rest explained by other (a client's, naming its profile).
func explain(err error, other func(error) source.Explanation) source.Explanation {
	var pe *source.ActionError
	if errors.As(err, &pe) && pe.Explanation.Summary != "" {
		return pe.Explanation
	}
	var ae smithy.APIError
	if !errors.As(err, &ae) {
		return other(err)
	}
	ex := source.Explanation{Code: ae.ErrorCode()}
	switch ae.ErrorCode() {
	case "ResourceNotFound":
		ex.Summary, ex.Hint = "SageMaker does not know it: "+ae.ErrorMessage(), "Search again: an offering is gone once bought or when it starts."
	case "ResourceInUse":
		ex.Summary, ex.Hint = "A training plan of that name already exists: "+ae.ErrorMessage(), "Plan names are unique per account and region."
	case "ResourceLimitExceeded":
		ex.Summary, ex.Hint = "The account's quota does not allow it: "+ae.ErrorMessage(), "Ask for a higher reserved-capacity quota in Service Quotas, or reserve fewer instances."
	case "ValidationException":
		ex.Summary, ex.Hint = "SageMaker refused the request: "+ae.ErrorMessage(), "Training plans reserve 1–64 instances (powers of two) for 1–182 whole days."
	case "ServiceUnavailable":
		ex.Summary, ex.Hint, ex.Retryable = "SageMaker is unavailable in this region right now.", "Try again in a moment, or leave the region out.", true
	default:
		return other(err)
	}
	return ex
}
