package source

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
)

// JournalEntry is one line of the purchase journal. It holds what was bought, where and
// for how much, never credentials: the client has no field that could carry them here.
type JournalEntry struct {
	Time      time.Time         `json:"time"`
	Phase     string            `json:"phase"`  // "intent" before the call, "outcome" after; "decision" of a policy
	Action    string            `json:"action"` // PurchaseCapacityBlock, PurchaseCapacityBlockExtension, RunInstances
	RequestID string            `json:"request_id"`
	Account   string            `json:"account,omitempty"`
	Region    string            `json:"region"`
	Zone      string            `json:"availability_zone,omitempty"`
	Offering  string            `json:"offering_id,omitempty"`
	Type      string            `json:"instance_type,omitempty"`
	Count     int               `json:"instance_count,omitempty"`
	Start     *time.Time        `json:"start,omitempty"`
	End       *time.Time        `json:"end,omitempty"`
	Fee       string            `json:"upfront_fee,omitempty"`
	Currency  string            `json:"currency,omitempty"`
	Platform  string            `json:"platform,omitempty"`
	Target    string            `json:"capacity_reservation_id,omitempty"` // the block extended or launched into
	Tags      map[string]string `json:"tags,omitempty"`
	// Segments are a segmented Capacity Block offering's, each to become a reservation;
	// the outcome's Result then names every reservation, comma-separated.
	Segments  []JournalSegment `json:"segments,omitempty"`
	Outcome   string           `json:"outcome,omitempty"` // bought, not-bought, unknown, launched, not-launched
	Recovered bool             `json:"recovered,omitempty"`
	// SettledLater marks the outcome of an intent left open by a crash and settled by a
	// later run, from what AWS lists.
	SettledLater bool `json:"settled_later,omitempty"`
	// BackendTime is the backend's clock at the intent (the emulator's may differ from
	// this machine's); an extension is settled against it.
	BackendTime *time.Time `json:"backend_time,omitempty"`
	// Hours is an extension's length.
	Hours  int    `json:"duration_hours,omitempty"`
	Result string `json:"result_id,omitempty"` // reservation id, instance ids
	Error  string `json:"error,omitempty"`
	// Cloud is what the entry was made against (Config.Cloud): "aws", "demo" or
	// "emulator" (gpublock sim). The simulated journal is shared by --demo and gpublock sim, whose
	// ids can be the same, so a run reads and settles only its own cloud's entries.
	Cloud string `json:"backend,omitempty"`
	// Key is an auto-extension decision's (phase "decision"): once per block and lead, read
	// back so that a restarted watch does not decide again.
	Key string `json:"key,omitempty"`
}

// JournalSegment is one segment of a purchase's intent, in the journal's names.
type JournalSegment struct {
	Zone  string    `json:"availability_zone"`
	Type  string    `json:"instance_type"`
	Count int       `json:"instance_count"`
	Start time.Time `json:"start"`
	End   time.Time `json:"end"`
	Fee   string    `json:"upfront_fee"`
}

// ResultIDs are the ids the outcome's Result names (several reservations of one purchase,
// the instances of a launch), in order.
func (e JournalEntry) ResultIDs() []string {
	if e.Result == "" {
		return nil
	}
	return strings.Split(e.Result, ",")
}

// DurationHours is an extension intent's length: its Hours, or its window.
func (e JournalEntry) DurationHours() int {
	if e.Hours > 0 {
		return e.Hours
	}
	if e.Start != nil && e.End != nil {
		return int(e.End.Sub(*e.Start) / time.Hour)
	}
	return 0
}

// Settled is an intent that a crash (or a look-up that failed) left without an outcome,
// and what AWS now says became of it.
type Settled struct {
	Intent    JournalEntry
	Outcome   Outcome         // Bought or NotBought
	Block     model.Block     // the reservation of a purchase that went through (its first)
	Blocks    []model.Block   // every reservation of that purchase (one per segment)
	Extension model.Extension // the extension that went through
	// Result is what the journal records of what was bought (a reservation id, a training
	// plan's ARN).
	Result string
	// By is the source that settled it, whose words Sentence uses.
	By IntentSource
}

// Sentence says what became of the interrupted attempt, plainly.
func (s Settled) Sentence() string {
	e := s.Intent
	when := e.Time.UTC().Format(model.LayoutMinuteUTC)
	fee := e.Fee
	if m, err := model.ParseMoney(fee); err == nil {
		fee = m.Dollars()
	}
	if s.By.Source != model.SourceCapacityBlock {
		return s.otherSentence(s.By, when, fee)
	}
	switch {
	case e.Action == s.By.Extend && s.Outcome == Bought:
		return fmt.Sprintf("The extension of %s interrupted at %s (journal id %s) went through: %s added, fee %s.",
			e.Target, when, e.RequestID, model.FormatDays(max(1, e.DurationHours()/24)), fee)
	case e.Action == s.By.Extend:
		return fmt.Sprintf("The extension of %s interrupted at %s (journal id %s) did not go through: the block's extension history does not list it.",
			e.Target, when, e.RequestID)
	case s.Outcome == Bought && len(s.Blocks) > 1:
		ids := make([]string, len(s.Blocks))
		for i, b := range s.Blocks {
			ids[i] = b.ReservationID
		}
		return fmt.Sprintf("The purchase interrupted at %s (request id %s) went through: %d reservations (%s), %s × %d, fee %s.",
			when, e.RequestID, len(s.Blocks), strings.Join(ids, ", "), e.Type, e.Count, fee)
	case s.Outcome == Bought:
		return fmt.Sprintf("The purchase interrupted at %s (request id %s) went through: reservation %s, %s × %d in %s, fee %s.",
			when, e.RequestID, s.Block.ReservationID, e.Type, e.Count, e.Zone, fee)
	}
	return fmt.Sprintf("The purchase interrupted at %s (request id %s) did not go through: no reservation in %s carries its request tag.",
		when, e.RequestID, e.Region)
}

// otherSentence is Sentence for an intent of a source other than the Capacity Blocks.
func (s Settled) otherSentence(is IntentSource, when, fee string) string {
	e := s.Intent
	switch {
	case e.Action == is.Extend && s.Outcome == Bought:
		return fmt.Sprintf("The extension of %s %s interrupted at %s (journal id %s) went through: %s added, fee %s.",
			is.Noun, e.Target, when, e.RequestID, model.FormatDays(max(1, e.DurationHours()/24)), fee)
	case e.Action == is.Extend:
		return fmt.Sprintf("The extension of %s %s interrupted at %s (journal id %s) did not go through: the %s's extension history does not list it.",
			is.Noun, e.Target, when, e.RequestID, is.Noun)
	case s.Outcome == Bought:
		return fmt.Sprintf("The %s purchase interrupted at %s (request id %s) went through: %s %s, %s × %d in %s, fee %s.",
			is.Noun, when, e.RequestID, is.Noun, s.Result, e.Type, e.Count, e.Zone, fee)
	}
	return fmt.Sprintf("The %s purchase interrupted at %s (request id %s) did not go through: AWS knows no %s of that purchase in %s.",
		is.Noun, when, e.RequestID, is.Noun, e.Region)
}

// IntentSource is a source's part in settling the journal: the journal actions of its
// purchases and extensions, and how to learn what became of one whose outcome a crash
// left unwritten.
type IntentSource struct {
	Source   model.Source
	Purchase string // the journal action of a purchase (CreateTrainingPlan)
	Extend   string // the journal action of an extension (ExtendTrainingPlan)
	Noun     string // what the source sells, in a sentence ("training plan")
	// Settle asks AWS what became of one of the source's intents: Outcome Bought or
	// NotBought, and Result, what the journal records of what was bought.
	Settle func(ctx context.Context, e JournalEntry) (Settled, error)
	// AskAgain, when set, is the Lookup of a listed offering older than FreshFor: the
	// source asks for it again, so that its fee and its being on sale are of now.
	AskAgain func(ctx context.Context, in *Intent) error
}

// FreshFor is how long a listed offering of a source with AskAgain is bought as listed;
// an older one (a cached row, or a screen left open) is asked again first.
const FreshFor = time.Minute
