package source_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gpublock/gpublock/aws/source"
)

// A refusal of an offering sold or expired meanwhile is Sold, by either source's code; one
// whose outcome is unknown never is: it may have bought.
func TestSold(t *testing.T) {
	sold := func(err error) bool {
		var ae *source.ActionError
		return errors.As(err, &ae) && ae.Sold()
	}
	refused := func(o source.Outcome, code string) error {
		return fmt.Errorf("purchase: %w", &source.ActionError{Outcome: o, Explanation: source.Explanation{Code: code}})
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{refused(source.NotBought, "InvalidCapacityBlockOfferingIdExpired"), true},
		{refused(source.NotBought, "InvalidCapacityBlockOfferingIdNotFound"), true},
		{refused(source.NotBought, "ResourceNotFound"), true},
		{refused(source.Unknown, "InvalidCapacityBlockOfferingIdExpired"), false}, // it may have bought
		{refused(source.NotBought, "UnauthorizedOperation"), false},
		{errors.New("InvalidCapacityBlockOfferingIdExpired"), false},
		{nil, false},
	} {
		if got := sold(tc.err); got != tc.want {
			t.Errorf("Sold(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
