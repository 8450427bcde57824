package source_test

import (
	"errors"
	"fmt"
	"testing"

	"github.com/gpublock/gpublock/aws/source"
)

func TestOfferingSold(t *testing.T) {
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
		if got := source.OfferingSold(tc.err); got != tc.want {
			t.Errorf("OfferingSold(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
