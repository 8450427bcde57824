package blocks

import (
	"fmt"
	"time"

	"github.com/gpublock/gpublock/model"
)

// Warning is what needs an on-call person's attention about a block. A block has at most
// one: the most urgent.
type Warning int

const (
	NoWarning Warning = iota
	// Idle: active and paid for, with no instance running in it.
	Idle
	PaymentPending
	PaymentFailed
	// Expiring: within 40 minutes of its end, when AWS sends its expiration warning.
	Expiring
	// Terminating: within 30 minutes of its end AWS terminates its instances.
	Terminating
	// ExtensionFailed: the payment of an extension failed, so the block still ends when it
	// did; someone counting on the added time must know before the end comes.
	ExtensionFailed
)

// WarningOf is the block's warning at now. A payment-failed block is warned of until the
// end it would have had: while its capacity was counted on, someone must know it is not
// there; afterwards it is history, as an expired block is.
func WarningOf(b model.Block, now time.Time) Warning {
	switch b.State {
	case model.StatePaymentPending:
		return PaymentPending
	case model.StatePaymentFailed:
		if now.Before(b.End) {
			return PaymentFailed
		}
		return NoWarning
	case model.StateActive:
		switch {
		case !now.Before(b.TerminationAt()):
			return Terminating
		case extensionFailed(b):
			return ExtensionFailed
		case !now.Before(b.WarningAt()):
			return Expiring
		case b.RunningCount == 0:
			return Idle
		}
	case model.StateScheduled:
		if extensionFailed(b) {
			return ExtensionFailed
		}
	}
	return NoWarning
}

// extensionFailed reports an extension of the block's present end whose payment failed,
// with no other attempt on that end paid or being paid for. AWS leaves the end where it
// was, so a failed extension starts at it; once another is paid the end moves past it.
func extensionFailed(b model.Block) bool {
	failed := false
	for _, e := range b.Extensions {
		if !e.Start.Equal(b.End) {
			continue
		}
		if e.Status != model.ExtensionPaymentFailed {
			return false
		}
		failed = true
	}
	return failed
}

// Word is the warning in a table cell: it says it without colour, a symbol first.
func (w Warning) Word() string {
	switch w {
	case Idle:
		return "◌ IDLE, PAID"
	case PaymentPending:
		return "$ PAY PENDING"
	case PaymentFailed:
		return "✖ PAY FAILED"
	case Expiring:
		return "▲ EXPIRING"
	case Terminating:
		return "✖ TERMINATING"
	case ExtensionFailed:
		return "✖ EXT FAILED"
	}
	return ""
}

// Red reports whether the warning is drawn red; the others are amber.
func (w Warning) Red() bool { return w == Terminating || w == PaymentFailed || w == ExtensionFailed }

// rank orders warnings by urgency, for sorting.
func (w Warning) rank() int {
	switch w {
	case Terminating:
		return 6
	case ExtensionFailed:
		return 5
	case Expiring:
		return 4
	case PaymentFailed:
		return 3
	case PaymentPending:
		return 2
	case Idle:
		return 1
	}
	return 0
}

// Sentence is the warning as a notification says it.
func (w Warning) Sentence(b model.Block, now time.Time) string {
	what := fmt.Sprintf("%s (%s × %d, %s)", b.ReservationID, b.InstanceType, b.TotalCount, b.AvailabilityZone)
	switch w {
	case Idle:
		return what + " is active and paid for, but no instance is running in it"
	case PaymentPending:
		return what + ": payment pending"
	case PaymentFailed:
		return what + ": payment failed, the block will not start and nothing can run in it; its capacity went back on sale"
	case Expiring:
		return fmt.Sprintf("%s ends in %s (%s UTC); instances terminate from %s UTC", what, Span(b.End.Sub(now)),
			b.End.UTC().Format("15:04"), b.TerminationAt().UTC().Format("15:04"))
	case Terminating:
		return fmt.Sprintf("%s: instances terminating; the block ends in %s (%s UTC)", what, Span(b.End.Sub(now)), b.End.UTC().Format("15:04"))
	case ExtensionFailed:
		return fmt.Sprintf("%s: the extension's payment failed, so the block still ends in %s (%s UTC); instances terminate from %s UTC. Check the account's payment method, then extend again",
			what, Span(b.End.Sub(now)), b.End.UTC().Format("Jan 02 15:04"), b.TerminationAt().UTC().Format("Jan 02 15:04"))
	}
	return what
}

// Span writes a duration as an on-call person reads a countdown: 2d 3h, 5h 20m, 39m 12s
// (seconds only under an hour, where they matter).
func Span(d time.Duration) string {
	if d < 0 {
		d = -d
	}
	d = d.Round(time.Second) // the clock may be a few nanoseconds past a whole second
	days, hours := int(d/(24*time.Hour)), int(d%(24*time.Hour)/time.Hour)
	mins, secs := int(d%time.Hour/time.Minute), int(d%time.Minute/time.Second)
	switch {
	case days > 0:
		return fmt.Sprintf("%dd %dh", days, hours)
	case hours > 0:
		return fmt.Sprintf("%dh %02dm", hours, mins)
	}
	return fmt.Sprintf("%dm %02ds", mins, secs)
}

// WillNotRun reports a block that never starts whatever the clock says: its payment
// failed, or AWS failed or cancelled it. It has no countdown and no termination time.
func WillNotRun(b model.Block) bool {
	switch b.State {
	case model.StatePaymentFailed, model.StateFailed, model.StateCancelled:
		return true
	}
	return false
}

// Countdown is the time to the start of a block not yet started, to the end of one running,
// or how long ago it ended (the CLI's "time to start / to end"); for a block that will not
// run, that it will not (or did not) start.
func Countdown(b model.Block, now time.Time) string {
	switch {
	case WillNotRun(b) && now.Before(b.Start):
		return "will not start"
	case WillNotRun(b):
		return "never started"
	case now.Before(b.Start):
		return "starts in " + Span(b.Start.Sub(now))
	case now.Before(b.End):
		return "ends in " + Span(b.End.Sub(now))
	}
	return "ended " + Span(now.Sub(b.End)) + " ago"
}

// ToTermination is the time until AWS starts terminating the block's instances (30 minutes
// before the end); "—" where there is none to terminate ever.
func ToTermination(b model.Block, now time.Time) string {
	t := b.TerminationAt()
	switch {
	case WillNotRun(b), !now.Before(b.End):
		return "—"
	case !now.Before(t):
		return "terminating"
	}
	return Span(t.Sub(now))
}

// ConsoleURL is the reservation's page in the AWS console.
func ConsoleURL(b model.Block) string {
	return fmt.Sprintf("https://%s.console.aws.amazon.com/ec2/home?region=%s#CapacityReservationDetails:crId=%s", b.Region, b.Region, b.ReservationID)
}
