package report

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/model"
)

func at(s string) time.Time {
	t, err := time.Parse(time.RFC3339, s)
	if err != nil {
		panic(err)
	}
	return t
}

func money(s string) model.Money { return model.MustMoney(s) }

const hostile = `<script>alert("x")</script>&'"`

// sample is a quarter with a block used half, one bought elsewhere (its fee unknown), a
// training plan that straddles the window's end (its use unknown), one from before the
// window and one paid for in it that starts after.
func sample() Input {
	return Input{
		From: at("2026-09-01T00:00:00Z"), To: at("2026-12-01T00:00:00Z"), Now: at("2026-12-01T00:00:00Z"),
		TagKeys: []string{"team", "project"},
		Reservations: []Reservation{
			{Account: "111111111111", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-aaa", InstanceType: "p5.48xlarge", Count: 2,
				Start: at("2026-10-01T11:30:00Z"), End: at("2026-10-04T11:30:00Z"), ReservedHours: 144, State: model.StateExpired,
				Tags: map[string]string{"team": "ml", "project": "llm"},
				Payments: []Payment{
					{At: at("2026-09-20T10:00:00Z"), Kind: Purchase, Amount: money("7000"), Known: true, Origin: FromBoth},
					{At: at("2026-10-02T09:00:00Z"), Kind: Extension, Amount: money("3000.50"), Known: true, Origin: FromAWS,
						Mismatch: "the journal says 3000.00"},
				},
				Use:            Use{Known: true, ReservedHours: 144, UsedHours: 72},
				OnDemandHourly: money("55.04"), OnDemandKnown: true},
			{Account: "222222222222", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-bbb", InstanceType: "u-p6e-gb200x72", Count: 1,
				Start: at("2026-11-10T11:30:00Z"), End: at("2026-11-11T11:30:00Z"), ReservedHours: 24, State: model.StateExpired,
				Tags:     map[string]string{"team": "research"},
				Payments: []Payment{{At: at("2026-11-05T08:00:00Z"), Kind: Purchase}},
				Use:      Use{Known: true, ReservedHours: 24, UsedHours: 12}},
			{Account: "333333333333", Region: "us-west-2", Source: model.SourceTrainingPlan, ID: "arn:aws:sagemaker:us-west-2:333333333333:training-plan/plan-x",
				Name: "plan-x", InstanceType: "ml.p5.48xlarge", Count: 4,
				Start: at("2026-11-20T00:00:00Z"), End: at("2026-12-10T00:00:00Z"), ReservedHours: 1920, State: model.StateActive,
				Tags:     map[string]string{"project": hostile},
				Payments: []Payment{{At: at("2026-11-15T12:00:00Z"), Kind: Purchase, Amount: money("50000"), Known: true, Origin: FromAWS}},
				Use:      Use{Known: false, Why: "SageMaker does not publish a training plan's use", ReservedHours: 1056}},
			{Account: "111111111111", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-old", InstanceType: "p5.48xlarge", Count: 1,
				Start: at("2026-06-01T11:30:00Z"), End: at("2026-06-03T11:30:00Z"), ReservedHours: 48,
				Payments: []Payment{{At: at("2026-05-30T10:00:00Z"), Kind: Purchase, Amount: money("2000"), Known: true}},
				Use:      Use{Known: true}},
			{Account: "111111111111", Region: "us-east-1", Source: model.SourceCapacityBlock, ID: "cr-next", InstanceType: "p5.48xlarge", Count: 1,
				Start: at("2027-01-05T11:30:00Z"), End: at("2027-01-06T11:30:00Z"), ReservedHours: 24, State: model.StateScheduled,
				Payments: []Payment{{At: at("2026-11-30T10:00:00Z"), Kind: Purchase, Amount: money("1234.56"), Known: true, Origin: FromJournal}},
				Use:      Use{Known: true}},
		},
		Problems: []string{"eu-north-1: could not be read: RequestExpired"},
	}
}

func amountIs(t *testing.T, what string, a Amount, known string, payments, unknown int) {
	t.Helper()
	if a.Known.Cmp(money(known)) != 0 || a.Payments != payments || a.Unknown != unknown {
		t.Errorf("%s = %s in %d payments, %d unknown; want %s in %d, %d unknown", what, a.Known, a.Payments, a.Unknown, known, payments, unknown)
	}
}

func rowOf(t *testing.T, r Report, id string) Row {
	t.Helper()
	for _, row := range r.Reservations {
		if row.ID == id {
			return row
		}
	}
	t.Fatalf("no row %s among %d", id, len(r.Reservations))
	return Row{}
}

func TestBuildSpend(t *testing.T) {
	r := Build(sample())
	amountIs(t, "paid", r.Paid, "61235.06", 5, 1)
	var labels []string
	for _, m := range r.Months {
		labels = append(labels, m.Label)
	}
	if !slices.Equal(labels, []string{"2026-09", "2026-10", "2026-11"}) {
		t.Fatalf("months %v", labels)
	}
	amountIs(t, "September", r.Months[0].Amount, "7000", 1, 0)
	amountIs(t, "October", r.Months[1].Amount, "3000.50", 1, 0)
	amountIs(t, "November", r.Months[2].Amount, "51234.56", 3, 1)
	nov := r.Months[2].BySource
	if len(nov) != 2 || nov[0].Source != model.SourceCapacityBlock || nov[1].Source != model.SourceTrainingPlan {
		t.Fatalf("November by source %+v", nov)
	}
	amountIs(t, "November's blocks", nov[0].Amount, "1234.56", 2, 1)
	amountIs(t, "November's plans", nov[1].Amount, "50000", 1, 0)
	amountIs(t, "September's plans", r.Months[0].BySource[1].Amount, "0", 0, 0)

	groups := func(gs []Group) string {
		var out []string
		for _, g := range gs {
			k := g.Key
			if g.Untagged {
				k = "[" + k + "]"
			}
			out = append(out, k+"="+g.Amount.String())
		}
		return strings.Join(out, "; ")
	}
	for _, tc := range []struct {
		what string
		got  []Group
		want string
	}{
		{"by account", r.ByAccount, "111111111111=$11,235.06; 222222222222=unknown (1 payment); 333333333333=$50,000.00"},
		{"by source", r.BySource, "capacity-blocks=$11,235.06 + 1 unknown; training-plans=$50,000.00"},
		{"by team", r.ByTag[0].Values, "ml=$10,000.50; research=unknown (1 payment); [(untagged)]=$51,234.56"},
		{"by project", r.ByTag[1].Values, hostile + "=$50,000.00; llm=$10,000.50; [(untagged)]=$1,234.56 + 1 unknown"},
	} {
		if got := groups(tc.got); got != tc.want {
			t.Errorf("%s:\n got %s\nwant %s", tc.what, got, tc.want)
		}
	}
	if r.ByTag[0].Key != "team" || r.ByTag[1].Key != "project" {
		t.Errorf("tag keys out of order: %+v", r.ByTag)
	}
	if len(r.UnknownAmounts) != 1 || r.UnknownAmounts[0].ReservationID != "cr-bbb" {
		t.Errorf("unknown amounts %+v", r.UnknownAmounts)
	}
	if w := r.UnknownWords(); !strings.Contains(w, "1 payment of unknown amount") || !strings.Contains(w, "cr-bbb (purchase, 2026-11-05)") {
		t.Errorf("UnknownWords %q", w)
	}
	if len(r.Payments) != 5 || r.Payments[0].ReservationID != "cr-aaa" || r.Payments[4].ReservationID != "cr-next" {
		t.Errorf("payments not in time order: %+v", r.Payments)
	}
	if !slices.Equal(r.Problems, sample().Problems) {
		t.Errorf("problems %q", r.Problems)
	}
}

func TestBuildReservations(t *testing.T) {
	r := Build(sample())
	var ids []string
	for _, row := range r.Reservations {
		ids = append(ids, row.ID)
	}
	// by start; the one before the window is left out, the one paid for in it is in
	if want := []string{"cr-aaa", "cr-bbb", sample().Reservations[2].ID, "cr-next"}; !slices.Equal(ids, want) {
		t.Fatalf("rows %v, want %v", ids, want)
	}

	a := rowOf(t, r, "cr-aaa")
	if a.ReservedHours != 144 || a.UsedHours != knownHours(72) || a.IdleHours != knownHours(72) || a.AcceleratorHours != knownHours(576) {
		t.Errorf("cr-aaa hours: %+v", a)
	}
	for what, got := range map[string]Cost{
		"cost": a.Cost, "cost per accelerator-hour": a.CostPerAcceleratorHour, "on-demand": a.OnDemandCost,
		"saving": a.Saving, "idle cost": a.IdleCost,
	} {
		want := map[string]string{"cost": "10000.50", "cost per accelerator-hour": "17.361979", "on-demand": "3962.88",
			"saving": "-6037.62", "idle cost": "5000.25"}[what]
		if !got.Known || got.Value.Cmp(money(want)) != 0 {
			t.Errorf("cr-aaa %s = %+v, want %s", what, got, want)
		}
	}
	amountIs(t, "cr-aaa paid", a.Paid, "10000.50", 2, 0)

	// an UltraServer counts per UltraServer; bought elsewhere, so its fee and what is
	// made of it are unknown, while its hours are known
	b := rowOf(t, r, "cr-bbb")
	if b.Unit != "UltraServer" || b.AcceleratorsPerUnit != 72 || b.AcceleratorHours != knownHours(864) || b.IdleHours != knownHours(12) {
		t.Errorf("cr-bbb: %+v", b)
	}
	if b.Cost.Known || b.CostPerAcceleratorHour.Known || b.IdleCost.Known || b.Saving.Known || b.OnDemandCost.Known {
		t.Errorf("cr-bbb: a figure made of an unknown fee or price is known: %+v", b)
	}

	// the plan straddles the window's end: its cost is the whole fee × 1056/1920 hours
	p := rowOf(t, r, sample().Reservations[2].ID)
	if p.ReservedHours != 1056 || p.UsedHours.Known || p.IdleHours.Known || p.AcceleratorHours.Known || p.UseWhy == "" {
		t.Errorf("plan: %+v", p)
	}
	if !p.Cost.Known || p.Cost.Value.Cmp(money("27500")) != 0 || p.CostPerAcceleratorHour.Known || p.IdleCost.Known {
		t.Errorf("plan cost %+v, per accelerator-hour %+v, idle %+v", p.Cost, p.CostPerAcceleratorHour, p.IdleCost)
	}
	if p.Label() != "plan-x" || p.AcceleratorsPerUnit != 8 {
		t.Errorf("plan label %q, accelerators %d", p.Label(), p.AcceleratorsPerUnit)
	}

	n := rowOf(t, r, "cr-next")
	if n.ReservedHours != 0 || !n.Cost.Known || !n.Cost.Value.IsZero() || n.CostPerAcceleratorHour.Known {
		t.Errorf("cr-next (starts after the window): %+v", n)
	}
	amountIs(t, "cr-next paid", n.Paid, "1234.56", 1, 0)

	u := r.Use
	if u.ReservedHours != 144+24+0 || u.UsedHours != 84 || u.UnknownReservedHours != 1056 || u.UnknownReservations != 1 {
		t.Errorf("use summary %+v", u)
	}
}

// A member type counts instances, each its share of the UltraServer's accelerators; a type
// the catalog lacks has no accelerator figure, which is unknown, not zero.
func TestUnits(t *testing.T) {
	for _, tc := range []struct {
		typ  string
		unit string
		acc  int
	}{
		{"p5.48xlarge", "instance", 8},
		{"ml.p5.48xlarge", "instance", 8},
		{"u-p6e-gb200x36", "UltraServer", 36},
		{"p6e-gb200.36xlarge", "instance", 4},
		{"ml.p6e-gb200.36xlarge", "instance", 4},
		{"x9.huge", "instance", 0},
	} {
		if unit, acc := unitOf(tc.typ); unit != tc.unit || acc != tc.acc {
			t.Errorf("unitOf(%s) = %s, %d; want %s, %d", tc.typ, unit, acc, tc.unit, tc.acc)
		}
	}
	in := Input{From: at("2026-11-01T00:00:00Z"), To: at("2026-12-01T00:00:00Z"), Reservations: []Reservation{{
		ID: "cr-x", InstanceType: "x9.huge", Count: 1, Start: at("2026-11-02T00:00:00Z"), End: at("2026-11-03T00:00:00Z"),
		Payments: []Payment{{At: at("2026-11-01T00:00:00Z"), Kind: Purchase, Amount: money("100"), Known: true}},
		Use:      Use{Known: true, UsedHours: 10},
	}}}
	row := Build(in).Reservations[0]
	if row.AcceleratorHours.Known || row.CostPerAcceleratorHour.Known {
		t.Errorf("accelerator figures of an unknown type: %+v", row)
	}
	// the backend gave no hours in the window: the whole reservation's, spread over it
	if row.ReservedHours != 24 || row.WholeReservedHours != 24 || row.IdleHours != knownHours(14) {
		t.Errorf("hours %+v", row)
	}
}

// Hours do not run past the backend's now: a window that ends later has no idle hours yet.
func TestHoursStopAtNow(t *testing.T) {
	in := Input{From: at("2026-11-01T00:00:00Z"), To: at("2026-12-01T00:00:00Z"), Now: at("2026-11-02T12:00:00Z"),
		Reservations: []Reservation{{ID: "cr-x", InstanceType: "p5.48xlarge", Count: 2,
			Start: at("2026-11-02T00:00:00Z"), End: at("2026-11-04T00:00:00Z"), ReservedHours: 96,
			Payments: []Payment{{At: at("2026-11-01T00:00:00Z"), Kind: Purchase, Amount: money("9600"), Known: true}},
			Use:      Use{Known: true, UsedHours: 12}}}}
	row := Build(in).Reservations[0]
	if row.ReservedHours != 24 || row.IdleHours != knownHours(12) || row.Cost.Value.Cmp(money("2400")) != 0 || row.IdleCost.Value.Cmp(money("1200")) != 0 {
		t.Errorf("row %+v", row)
	}
}

// A window without anything in it still has its months, at zero, and writes in every format.
func TestEmpty(t *testing.T) {
	r := Build(Input{From: at("2026-01-15T00:00:00Z"), To: at("2026-03-01T00:00:00Z")})
	if len(r.Months) != 2 || r.Months[0].Label != "2026-01" || r.Paid.Payments != 0 {
		t.Fatalf("%+v", r)
	}
	var tb, jb, cb, sb bytes.Buffer
	if err := WriteTable(&tb, r); err != nil || !strings.Contains(tb.String(), "no reservations in this window") {
		t.Errorf("table (%v):\n%s", err, tb.String())
	}
	if err := WriteJSON(&jb, r); err != nil || !strings.Contains(jb.String(), `"Reservations": []`) || !strings.Contains(jb.String(), `"Problems": []`) {
		t.Errorf("json (%v):\n%s", err, jb.String())
	}
	if err := WriteCSV(&cb, r); err != nil || strings.Count(cb.String(), "\n") != 1 {
		t.Errorf("csv (%v):\n%s", err, cb.String())
	}
	if err := WriteSVG(&sb, r); err != nil || !strings.Contains(sb.String(), "no reservations in this window") {
		t.Errorf("svg (%v)", err)
	}
}

func TestWriteTable(t *testing.T) {
	var b bytes.Buffer
	if err := WriteTable(&b, Build(sample())); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"Paid: $61,235.06 in 5 payments; 1 payment of unknown amount, not counted",
		"Used: 84.0 of 168.0 reserved hours (50%); use unknown for 1 reservation (1,056.0 reserved hours)",
		"2026-11        $1,234.56 + 1 unknown",
		"PAID BY TAG project",
		"(untagged)",
		"PAYMENTS OF UNKNOWN AMOUNT (1, not counted in any total)",
		"the journal says 3000.00",
		"plan-x: use unknown: SageMaker does not publish a training plan's use",
		"eu-north-1: could not be read",
		"$17.362",
		"-$6,037.62",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("the table lacks %q:\n%s", want, out)
		}
	}
}

func TestWriteJSON(t *testing.T) {
	var b bytes.Buffer
	if err := WriteJSON(&b, Build(sample())); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paid            *string
		PaidKnown       string
		UnknownPayments int
		Reservations    []map[string]any
		ByTag           []struct {
			Key    string
			Values []struct {
				Value     *string
				Paid      *string
				PaidKnown string
			}
		}
		UnknownAmounts []map[string]any
		Problems       []string
	}
	if err := json.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	// some payment is of unknown amount: the total is not known, the known part is
	if doc.Paid != nil || doc.PaidKnown != "61235.06" || doc.UnknownPayments != 1 || len(doc.Problems) != 1 || len(doc.UnknownAmounts) != 1 || doc.UnknownAmounts[0]["Amount"] != nil {
		t.Errorf("totals: %+v", doc)
	}
	a, plan := doc.Reservations[0], doc.Reservations[2]
	if a["UsedHours"] != 72.0 || a["Cost"] != "10000.5" && a["Cost"] != "10000.50" || a["Saving"] != "-6037.62" || a["AcceleratorsPerUnit"] != 8.0 {
		t.Errorf("cr-aaa: %v", a)
	}
	if b := doc.Reservations[1]; b["PaidInWindow"] != nil || b["PaidInWindowKnown"] != "0.00" || b["UnknownPaymentsInWindow"] != 1.0 {
		t.Errorf("cr-bbb's payment of unknown amount: %v", b)
	}
	if plan["UsedHours"] != nil || plan["IdleCost"] != nil || plan["UseUnknownReason"] == "" || plan["Cost"] != "27500.00" {
		t.Errorf("the plan's unknowns are not null: %v", plan)
	}
	if v := doc.ByTag[0].Values[2]; v.Value != nil || v.Paid == nil || *v.Paid != "51234.56" {
		t.Errorf("the untagged group: %+v", v)
	}
}

func TestWriteCSV(t *testing.T) {
	var b bytes.Buffer
	if err := WriteCSV(&b, Build(sample())); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 5 || !slices.Equal(recs[0], CSVHeader([]string{"team", "project"})) {
		t.Fatalf("records %q", recs)
	}
	col := func(name string) int { return slices.Index(recs[0], name) }
	if recs[1][col("ReservationId")] != "cr-aaa" || recs[1][col("Tag:team")] != "ml" || recs[1][col("Cost")] != "10000.50" || recs[1][col("UsedHours")] != "72" {
		t.Errorf("cr-aaa: %q", recs[1])
	}
	if recs[2][col("PaidInWindow")] != "" || recs[2][col("PaidInWindowKnown")] != "0.00" || recs[2][col("UnknownPaymentsInWindow")] != "1" {
		t.Errorf("cr-bbb: %q", recs[2])
	}
	if recs[3][col("UsedHours")] != "" || recs[3][col("Tag:project")] != hostile {
		t.Errorf("the plan: %q", recs[3])
	}
}

// The order of the input changes nothing in any output.
func TestDeterministic(t *testing.T) {
	write := func(in Input) string {
		r := Build(in)
		var b bytes.Buffer
		for _, w := range []func(*bytes.Buffer, Report) error{
			func(b *bytes.Buffer, r Report) error { return WriteTable(b, r) },
			func(b *bytes.Buffer, r Report) error { return WriteJSON(b, r) },
			func(b *bytes.Buffer, r Report) error { return WriteCSV(b, r) },
			func(b *bytes.Buffer, r Report) error { return WriteSVG(b, r) },
		} {
			if err := w(&b, r); err != nil {
				t.Fatal(err)
			}
		}
		return b.String()
	}
	in := sample()
	first := write(in)
	slices.Reverse(in.Reservations)
	for i := range in.Reservations {
		slices.Reverse(in.Reservations[i].Payments)
	}
	if write(in) != first {
		t.Error("the outputs depend on the input's order")
	}
}
