package simcore

import (
	"fmt"
	"strings"
	"time"
)

// PaymentDelay is how long a purchase (of a block or an extension) stays payment-pending:
// a time drawn, per purchase and deterministically from the seed, between Min and Max.
// AWS takes "5 minutes to 12 hours" and fails a payment not processed within 12 hours;
// the default is 1 to 5 minutes, so that demos move. The zero value is the default.
type PaymentDelay struct{ Min, Max time.Duration }

// maxPayment is AWS's deadline: a payment not processed within 12 hours fails.
const maxPayment = 12 * time.Hour

// PaymentDelayHelp says what ParsePaymentDelay accepts.
const PaymentDelayHelp = "DURATION (e.g. 12h: every payment takes that long), MIN-MAX (e.g. 5m-12h: each payment a time between), " +
	"or aws (5m-12h, AWS's documented range); at most 12h, AWS's deadline"

// ParsePaymentDelay reads a payment delay: a duration, a range MIN-MAX, or "aws".
func ParsePaymentDelay(s string) (PaymentDelay, error) {
	s = strings.TrimSpace(s)
	if strings.EqualFold(s, "aws") {
		return PaymentDelay{5 * time.Minute, maxPayment}, nil
	}
	lo, hi, isRange := strings.Cut(s, "-")
	min, err := time.ParseDuration(strings.TrimSpace(lo))
	if err != nil {
		return PaymentDelay{}, fmt.Errorf("payment delay %q: want %s", s, PaymentDelayHelp)
	}
	max := min
	if isRange {
		if max, err = time.ParseDuration(strings.TrimSpace(hi)); err != nil {
			return PaymentDelay{}, fmt.Errorf("payment delay %q: want %s", s, PaymentDelayHelp)
		}
	}
	d := PaymentDelay{min, max}
	return d, d.Check()
}

// Check says why d cannot be used, if it cannot.
func (d PaymentDelay) Check() error {
	switch {
	case d.Min < 0 || d.Max < 0:
		return fmt.Errorf("payment delay %s: it cannot be negative", d)
	case d.Min > d.Max:
		return fmt.Errorf("payment delay %s: the shortest is longer than the longest", d)
	case d.Max > maxPayment:
		return fmt.Errorf("payment delay %s: AWS fails a payment not processed within 12 hours; give at most 12h", d)
	}
	return nil
}

func (d PaymentDelay) String() string {
	if d.Min == d.Max {
		return d.Min.String()
	}
	return d.Min.String() + "-" + d.Max.String()
}

// orDefault is d, or the default when d is the zero value.
func (d PaymentDelay) orDefault() PaymentDelay {
	if d == (PaymentDelay{}) {
		return PaymentDelay{DefaultMinPaymentDelay, DefaultMaxPaymentDelay}
	}
	return d
}

// Lifecycle timings of payments on the emulator's clock.
const (
	DefaultMinPaymentDelay = 1 * time.Minute // the default PaymentDelay, from this
	DefaultMaxPaymentDelay = 5 * time.Minute // to this
)

// PaymentLead is how long before a block's start AWS must have taken its payment, and
// ExtensionPaymentLead how long before the end of the block an extension lengthens.
const (
	PaymentLead          = 5 * time.Minute
	ExtensionPaymentLead = 35 * time.Minute
)

// PaidAt is when a purchase made at now is paid, before deadline: AWS fails a payment not
// processed by 5 minutes before a block's start (35 minutes before its end, for an
// extension), so a payment that would come later comes at that deadline instead; a block
// bought to start within minutes is not left payment-pending past its start. parts make
// the delay deterministic per purchase.
func (c *Core) PaidAt(now, deadline time.Time, parts ...any) time.Time {
	d := c.opts.PaymentDelay.orDefault()
	secs := c.hash.Between(int(d.Min/time.Second), int(d.Max/time.Second), parts...)
	paid := now.Add(time.Duration(secs) * time.Second)
	if paid.After(deadline) {
		paid = deadline
	}
	if paid.Before(now) {
		paid = now
	}
	return paid
}

// Payment is how a purchase's payment goes, for a block, a plan or an extension of
// either: taken at PaidAt, or failed then (the payfail fault), and once failed its
// capacity goes back to the market. It is saved inline in the purchase's JSON.
type Payment struct {
	PaidAt time.Time `json:"paidAt"`
	// Fails: the payment fails at PaidAt; Released: its capacity has gone back since.
	PaymentFails bool `json:"paymentFails,omitempty"`
	Released     bool `json:"released,omitempty"`
}

// Pay is the payment of a purchase made at now: when it is taken (PaidAt, by deadline) and
// whether it is one the payfail fault makes fail. Call inside Lock or Update.
func (c *Core) Pay(now, deadline time.Time, parts ...any) Payment {
	return Payment{PaidAt: c.PaidAt(now, deadline, parts...), PaymentFails: c.TakePayFail()}
}

// Pending reports whether the payment is still to be taken at now.
func (p Payment) Pending(now time.Time) bool { return now.Before(p.PaidAt) }

// Failed reports whether the payment has failed by now; failure is final.
func (p Payment) Failed(now time.Time) bool { return p.PaymentFails && !p.Pending(now) }

// Paid reports whether the payment has been taken by now.
func (p Payment) Paid(now time.Time) bool { return !p.PaymentFails && !p.Pending(now) }

// Release reports, once, that a failed payment's capacity is to go back to the market,
// as AWS releases it, and marks it released.
func (p *Payment) Release(now time.Time) bool {
	if !p.Failed(now) || p.Released {
		return false
	}
	p.Released = true
	return true
}
