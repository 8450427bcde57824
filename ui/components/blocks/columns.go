package blocks

import (
	"cmp"
	"fmt"
	"strings"
	"time"

	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/table"
)

// Column is a column of the blocks table.
type Column int

const (
	ColWarning Column = iota
	ColState
	ColAccount // the AWS account: shown while several accounts are listed
	ColRegion
	ColAZ
	ColType
	ColStart
	ColEnd
	ColCountdown
	ColTermination
	ColRunning
	ColInterconnect
	ColFee
	ColID
	numColumns
)

type columnDef struct {
	title, name, sortKey string
	width, keep          int
	right                bool
}

// Keep orders what a narrow table drops: the warning, the time to termination and the
// region go last, and the interconnect, mostly "insufficient-data" or "ok", first.
var columns = [numColumns]columnDef{
	ColWarning:      {"Warning", "warning", "W", 26, 12, false},
	ColState:        {"State", "state", "X", 15, 7, false},
	ColAccount:      {"Account", "account", "A", 12, 8, false},
	ColRegion:       {"Region", "region", "R", 14, 10, false},
	ColAZ:           {"AZ", "availability zone", "Z", 15, 0, false},
	ColType:         {"Type × N", "type and count", "T", 21, 9, false},
	ColStart:        {"Start UTC", "start", "S", 12, 1, false},
	ColEnd:          {"End UTC", "end", "E", 12, 6, false},
	ColCountdown:    {"To start/end", "time to start or end", "U", 17, 5, false},
	ColTermination:  {"Terminates in", "time to termination", "K", 14, 11, true},
	ColRunning:      {"Running", "instances running", "N", 7, 3, true},
	ColInterconnect: {"Interconnect", "interconnect status", "C", 17, -1, false},
	ColFee:          {"Fee paid", "fee paid", "F", 14, 4, true},
	ColID:           {"Reservation", "reservation id", "I", 20, 2, false},
}

// core are the columns an on-call person reads a block by; at 80 columns they are narrowed
// to what they hold rather than one of them dropped. The end is among them: two blocks of
// one type, count and region read alike without it (the reservation id, which always
// differs, is 20 cells that an 80-column table has no room for; the detail shows it). The
// countdown is the first core column dropped at 80 columns, then the end, before the state,
// should the warnings held be long.
var core = [numColumns]bool{ColWarning: true, ColState: true, ColRegion: true, ColType: true, ColEnd: true, ColCountdown: true, ColTermination: true}

// specs are the columns as the generic table reads them.
func specs() []table.Spec {
	out := make([]table.Spec, numColumns)
	for c, d := range columns {
		out[c] = table.Spec{Title: d.title, Name: d.name, SortKey: d.sortKey, Width: d.width, Right: d.right, Keep: d.keep, Core: core[c],
			Hidden: Column(c) == ColAccount}
	}
	return out
}

// ColumnName names a column for people.
func ColumnName(c Column) string { return columns[c].name }

const timeLayout = "Jan 02 15:04"

// row is one block with its time-free cells formatted when the list arrives; the countdown,
// termination and warning cells are drawn from the clock of each frame.
type row struct {
	b      model.Block
	fee    model.Money
	hasFee bool
	cells  [numColumns]string
	text   string // lower-case cells, for the filter
}

func newRow(b model.Block, fee model.Money, hasFee bool) row {
	r := row{b: b, fee: fee, hasFee: hasFee}
	feeCell := "—"
	if hasFee {
		feeCell = fee.Dollars()
	}
	ic := b.Interconnect
	if ic == "" {
		ic = "—"
	}
	r.cells = [numColumns]string{
		ColState:        string(b.State),
		ColAccount:      b.Account,
		ColRegion:       b.Region,
		ColAZ:           b.AvailabilityZone,
		ColType:         fmt.Sprintf("%s × %d", b.InstanceType, b.TotalCount),
		ColStart:        b.Start.UTC().Format(timeLayout),
		ColEnd:          b.End.UTC().Format(timeLayout),
		ColRunning:      fmt.Sprintf("%d/%d", b.RunningCount, b.TotalCount),
		ColInterconnect: ic,
		ColFee:          feeCell,
		ColID:           b.ReservationID,
	}
	r.text = strings.ToLower(strings.Join(r.cells[:], " ") + " " + b.BlockID)
	return r
}

// schema is how the generic table reads the rows: the cells of the warning and the
// countdowns, the order by them and what the filter finds follow the clock and the rules.
type schema struct {
	now   time.Time
	rules model.WarnRules
}

func (s schema) Cell(r *row, c int) string { return r.cell(Column(c), s.now, s.rules) }
func (s schema) ID(r *row) string          { return r.b.ReservationID }
func (s schema) Tie(a, b *row) int         { return tieBreak(a, b) }
func (s schema) Compare(a, b *row, c int) int {
	return compare(a, b, Column(c), s.now, s.rules)
}

// Group puts, by time to termination, the blocks that have none last in either direction.
func (s schema) Group(r *row, c int) int {
	if Column(c) == ColTermination {
		return terminationGroup(r.b, s.now)
	}
	return 0
}

// Text is the row's cells and every warning in force now: /idle finds "◌ IDLE, PAID",
// /failed "✖ EXT FAILED" as well as "payment-failed".
func (s schema) Text(r *row) string {
	parts := []string{r.text}
	for _, w := range s.rules.Warnings(r.b, s.now) {
		parts = append(parts, strings.ToLower(w.Cell(r.b, s.now)), w.Kind.Name())
	}
	return strings.Join(parts, " ")
}

// cell is a row's text in a column at now.
func (r *row) cell(c Column, now time.Time, rules model.WarnRules) string {
	switch c {
	case ColWarning:
		return rules.Top(r.b, now).Cell(r.b, now)
	case ColCountdown:
		return r.b.Countdown(now)
	case ColTermination:
		return ToTermination(r.b, now)
	}
	return r.cells[c]
}

// compare orders two rows by a column at now; ties go by end, then reservation id, so
// that the order never depends on the order of the listing.
func compare(a, b *row, c Column, now time.Time, rules model.WarnRules) int {
	switch c {
	case ColWarning:
		wa, wb := rules.Top(a.b, now), rules.Top(b.b, now)
		if r := cmp.Compare(wa.Kind, wb.Kind); r != 0 {
			return r
		}
		return cmp.Compare(wb.Lead, wa.Lead) // a nearer lead is the more urgent
	case ColTermination:
		// Within its group (see terminationGroup): active blocks by their termination,
		// the others by their start.
		if a.b.State == model.StateActive {
			return a.b.End.Compare(b.b.End)
		}
		if r := a.b.Start.Compare(b.b.Start); r != 0 {
			return r
		}
		return a.b.End.Compare(b.b.End)
	case ColState:
		return strings.Compare(string(a.b.State), string(b.b.State))
	case ColAccount:
		return strings.Compare(a.b.Account, b.b.Account)
	case ColRegion:
		return strings.Compare(a.b.Region, b.b.Region)
	case ColAZ:
		return strings.Compare(a.b.AvailabilityZone, b.b.AvailabilityZone)
	case ColType:
		if r := strings.Compare(a.b.InstanceType, b.b.InstanceType); r != 0 {
			return r
		}
		return cmp.Compare(a.b.TotalCount, b.b.TotalCount)
	case ColStart:
		return a.b.Start.Compare(b.b.Start)
	case ColEnd:
		return a.b.End.Compare(b.b.End)
	case ColCountdown:
		return nextEvent(a.b, now).Compare(nextEvent(b.b, now))
	case ColRunning:
		return cmp.Compare(a.b.RunningCount, b.b.RunningCount)
	case ColInterconnect:
		return strings.Compare(a.b.Interconnect, b.b.Interconnect)
	case ColFee:
		if a.hasFee != b.hasFee {
			if a.hasFee {
				return -1
			}
			return 1
		}
		return a.fee.Cmp(b.fee)
	case ColID:
		return strings.Compare(a.b.ReservationID, b.b.ReservationID)
	}
	return 0
}

// terminationGroup orders blocks by time to termination whichever the direction: active
// blocks first, then those still to start, then those that have none (ended, failed).
func terminationGroup(b model.Block, now time.Time) int {
	switch {
	case !b.HasTermination(now):
		return 2
	case b.State == model.StateActive:
		return 0
	}
	return 1
}

// nextEvent is the start of a block not yet started, else its end.
func nextEvent(b model.Block, now time.Time) time.Time {
	if now.Before(b.Start) {
		return b.Start
	}
	return b.End
}

func tieBreak(a, b *row) int {
	if r := a.b.End.Compare(b.b.End); r != 0 {
		return r
	}
	return strings.Compare(a.b.ReservationID, b.b.ReservationID)
}
