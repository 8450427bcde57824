package report

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"unicode"

	"github.com/gpublock/gpublock/model"
)

// WriteTable writes the report for people: the totals, what was paid by month, account,
// source and tag, one line per reservation, the payments of unknown amount and the
// problems.
func WriteTable(w io.Writer, r Report) error {
	ew := &errWriter{w: w}
	r.writeHeadline(ew)
	tw := tabwriter.NewWriter(ew, 0, 0, 2, ' ', 0)
	line := func(cells ...string) { fmt.Fprintln(tw, strings.Join(cells, "\t")) }

	fmt.Fprintln(ew)
	head := []string{"PAID BY MONTH"}
	for _, s := range model.Sources() {
		head = append(head, strings.ToUpper(s.Plural()))
	}
	line(append(head, "TOTAL")...)
	for _, m := range r.Months {
		cells := []string{m.Label}
		for _, s := range m.BySource {
			cells = append(cells, s.Amount.String())
		}
		line(append(cells, m.Amount.String())...)
	}
	tw.Flush()

	groupTable := func(title string, gs []Group, empty string) {
		fmt.Fprintln(ew)
		line(title, "PAID", "PAYMENTS")
		if len(gs) == 0 {
			line("(none)", "$0.00", "0")
		}
		for _, g := range gs {
			k := cell(g.Key)
			if g.Key == "" {
				k = empty
			}
			line(k, g.Amount.String(), fmt.Sprint(g.Payments))
		}
		tw.Flush()
	}
	groupTable("PAID BY ACCOUNT", r.ByAccount, "(account not known)")
	groupTable("PAID BY SOURCE", r.BySource, unknownCell)
	for _, t := range r.ByTag {
		groupTable("PAID BY TAG "+cell(t.Key), t.Values, `""`)
	}

	fmt.Fprintln(ew)
	if len(r.Reservations) == 0 {
		fmt.Fprintln(ew, "RESERVATIONS: none in this window")
	} else {
		accounts, grouped := r.accountCount() > 1, r.grouped()
		fmt.Fprintln(ew, "RESERVATIONS (hours inside the window: instance-hours, UltraServer-hours for an UltraServer type; — is unknown)")
		head := []string{"RESERVATION"}
		if accounts {
			head = append(head, "ACCOUNT")
		}
		if grouped {
			head = append(head, "PURCHASE")
		}
		line(append(head, "REGION", "CAPACITY", "RESERVED H", "USED H", "USED", "ACCEL-H USED", "PAID IN WINDOW", "COST", "COST/ACCEL-H",
			"ON-DEMAND", "SAVING", "IDLE H", "IDLE COST")...)
		for _, row := range r.Reservations {
			cells := []string{cell(row.Label())}
			if accounts {
				cells = append(cells, cell(row.Account))
			}
			if grouped {
				cells = append(cells, cell(row.GroupMark()))
			}
			used := unknownCell
			if s, ok := row.UsedShare(); ok {
				used = percent(s)
			}
			line(append(cells, cell(row.Region), cell(row.Capacity()), formatHours(row.ReservedHours), row.UsedHours.String(), used,
				row.AcceleratorHours.String(), row.Paid.String(), row.Cost.String(), row.CostPerAcceleratorHour.Rate(),
				row.OnDemandCost.String(), row.Saving.String(), row.IdleHours.String(), row.IdleCost.String())...)
		}
		tw.Flush()
		for _, g := range r.purchaseGroups() {
			fmt.Fprintf(ew, "  One purchase made %d reservations: %s; its fee is counted once.\n", len(g), cell(strings.Join(g, ", ")))
		}
		notes := r.rowNotes()
		for _, n := range notes {
			fmt.Fprintln(ew, "  "+n)
		}
	}

	if len(r.UnknownAmounts) > 0 {
		fmt.Fprintln(ew)
		fmt.Fprintf(ew, "PAYMENTS OF UNKNOWN AMOUNT (%d, not counted in any total)\n", len(r.UnknownAmounts))
		for _, p := range r.UnknownAmounts {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", utc(p.At), cell(p.ReservationID), p.Kind, cell(p.Region))
		}
		tw.Flush()
	}
	var mismatches []PaymentRow
	for _, p := range r.Payments {
		if p.Mismatch != "" {
			mismatches = append(mismatches, p)
		}
	}
	if len(mismatches) > 0 {
		fmt.Fprintln(ew)
		fmt.Fprintln(ew, "AWS AND THE JOURNAL DISAGREE (AWS's amount is counted)")
		for _, p := range mismatches {
			fmt.Fprintf(ew, "%s %s %s: %s\n", utc(p.At), cell(p.ReservationID), p.Kind, cell(p.Mismatch))
		}
	}
	if len(r.Problems) > 0 {
		fmt.Fprintln(ew)
		fmt.Fprintln(ew, "NOT READ (the report leaves these out)")
		for _, p := range r.Problems {
			fmt.Fprintln(ew, "- "+cell(p))
		}
	}
	return ew.err
}

func (r Report) writeHeadline(w io.Writer) {
	fmt.Fprintf(w, "What was paid and what was used, %s\n", r.windowWords())
	fmt.Fprintf(w, "Paid: %s in %s", r.Paid.Known.Dollars(), model.Plural(r.Paid.Payments, "payment", "payments"))
	if r.Paid.Unknown > 0 {
		fmt.Fprintf(w, "; %s of unknown amount, not counted", model.Plural(r.Paid.Unknown, "payment", "payments"))
	}
	fmt.Fprintln(w)
	u := r.Use
	switch {
	case u.ReservedHours > 0:
		fmt.Fprintf(w, "Used: %s of %s reserved hours (%s)", formatHours(u.UsedHours), formatHours(u.ReservedHours), percent(u.UsedHours/u.ReservedHours))
	case len(r.Reservations) == 0:
		fmt.Fprint(w, "Used: no reservations in this window")
	default:
		fmt.Fprint(w, "Used: no reservation of known use")
	}
	if u.UnknownReservations > 0 {
		fmt.Fprintf(w, "; use unknown for %s (%s reserved hours)", model.Plural(u.UnknownReservations, "reservation", "reservations"), formatHours(u.UnknownReservedHours))
	}
	fmt.Fprintln(w)
}

// rowNotes say, under the reservations, why figures are unknown.
func (r Report) rowNotes() []string {
	var notes []string
	for _, row := range r.Reservations {
		if why := row.Unknowns(); len(why) > 0 {
			notes = append(notes, cell(row.Label())+": "+cell(strings.Join(why, "; ")))
		}
	}
	return notes
}

// Unknowns say why the row's unknown figures are unknown, one phrase each; none when every
// figure is known.
func (row Row) Unknowns() []string {
	var why []string
	if !row.UsedHours.Known {
		why = append(why, "use unknown: "+row.UseWhy)
	}
	if !row.Cost.Known {
		switch {
		case row.Fee.Payments == 0:
			why = append(why, "no fee on record")
		case !row.Fee.Complete():
			why = append(why, "fee unknown ("+model.Plural(row.Fee.Unknown, "payment", "payments")+" of unknown amount)")
		}
	}
	if !row.OnDemandHourly.Known {
		why = append(why, "no on-demand price")
	}
	if row.AcceleratorsPerUnit == 0 {
		why = append(why, "accelerators of "+row.InstanceType+" not in the catalog")
	}
	return why
}

// grouped: a reservation of the report is one of several its purchase made.
func (r Report) grouped() bool {
	for _, row := range r.Reservations {
		if len(row.Group) > 1 {
			return true
		}
	}
	return false
}

// purchaseGroups are the groups of reservations one purchase made, once each, in the
// order of their first row.
func (r Report) purchaseGroups() [][]string {
	seen := map[string]bool{}
	var out [][]string
	for _, row := range r.Reservations {
		if k := strings.Join(row.Group, ","); len(row.Group) > 1 && !seen[k] {
			seen[k] = true
			out = append(out, row.Group)
		}
	}
	return out
}

func (r Report) accountCount() int {
	seen := map[string]bool{}
	for _, row := range r.Reservations {
		seen[row.Account] = true
	}
	return len(seen)
}

// cell is user data (ids, tags, messages) made safe for one table cell: no tab, newline or
// other control character may break the columns or the terminal.
func cell(s string) string {
	if s == "" {
		return unknownCell
	}
	return strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return ' '
		}
		return r
	}, s)
}

// errWriter keeps the first write error, so that the writers check once at the end.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}
