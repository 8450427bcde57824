package aws

import (
	"errors"
	"fmt"
	"testing"
)

func TestOfferingSold(t *testing.T) {
	refused := func(o Outcome, code string) error {
		return fmt.Errorf("purchase: %w", &PurchaseError{Outcome: o, Explanation: Explanation{Code: code}})
	}
	for _, tc := range []struct {
		err  error
		want bool
	}{
		{refused(NotBought, "InvalidCapacityBlockOfferingIdExpired"), true},
		{refused(NotBought, "InvalidCapacityBlockOfferingIdNotFound"), true},
		{refused(NotBought, "ResourceNotFound"), true},
		{refused(Unknown, "InvalidCapacityBlockOfferingIdExpired"), false}, // it may have bought
		{refused(NotBought, "UnauthorizedOperation"), false},
		{errors.New("InvalidCapacityBlockOfferingIdExpired"), false},
		{nil, false},
	} {
		if got := OfferingSold(tc.err); got != tc.want {
			t.Errorf("OfferingSold(%v) = %v, want %v", tc.err, got, tc.want)
		}
	}
}
