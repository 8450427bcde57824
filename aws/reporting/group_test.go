package reporting

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/paid"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// segmented buys an offering the emulator makes of segments (a count no single zone
// holds) and returns it with the reservations it made.
func (e env) segmented(t *testing.T) (model.Offering, []model.Block) {
	t.Helper()
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 60, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: simtest.Start, End: simtest.Start.Add(14 * 24 * time.Hour), Regions: []string{"us-east-1"}}
	for ev := range e.cb.Search(ctx, q) {
		for _, o := range ev.Offerings {
			if !o.Segmented() {
				continue
			}
			res, err := e.cb.Purchase(ctx, o, "", nil)
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Blocks) != len(o.Parts) {
				t.Fatalf("%d reservations for %d segments", len(res.Blocks), len(o.Parts))
			}
			return o, res.Blocks
		}
	}
	t.Fatal("the emulator offered no segmented offering for 60 p5.48xlarge in us-east-1")
	return model.Offering{}, nil
}

// The reservations of one purchase of a segmented offering are one group in the report:
// each names the others (PURCHASE in the table, PurchaseGroup in JSON and CSV), each is
// given its own segment's fee, and the purchase's fee is counted once.
func TestReportOfASegmentedPurchase(t *testing.T) {
	e := newEnv(t)
	o, bought := e.segmented(t)
	in, err := Gather(ctx, e.api, e.srcs, []string{"us-east-1"}, simtest.Start.Add(-24*time.Hour), simtest.Start.Add(30*24*time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, b := range bought {
		ids = append(ids, b.ReservationID)
	}
	slices.Sort(ids)
	var sum model.Money
	for _, b := range bought {
		r := reservation(t, in, b.ReservationID)
		got := slices.Clone(r.Group)
		slices.Sort(got)
		if !slices.Equal(got, ids) {
			t.Errorf("%s: group %v, want %v", b.ReservationID, r.Group, ids)
		}
		for _, p := range payments(r, report.Purchase) {
			if !p.Known {
				t.Errorf("%s: purchase of unknown amount", b.ReservationID)
			}
			sum = sum.Add(p.Amount)
		}
	}
	if sum.Cmp(o.Fee) != 0 {
		t.Errorf("the reservations' purchases add up to %s, the purchase's fee is %s", sum, o.Fee)
	}
	rep := report.Build(in)
	if rep.Paid.Known.Cmp(o.Fee) != 0 || rep.Paid.Payments != len(bought) {
		t.Errorf("paid %s in %d payments, want %s in %d", rep.Paid.Known, rep.Paid.Payments, o.Fee, len(bought))
	}

	var table bytes.Buffer
	if err := report.WriteTable(&table, rep); err != nil {
		t.Fatal(err)
	}
	mark := model.GroupMark(bought, bought[0])
	if !strings.Contains(table.String(), "PURCHASE") || !strings.Contains(table.String(), mark) ||
		!strings.Contains(table.String(), "One purchase made "+strconv.Itoa(len(bought))+" reservations") {
		t.Errorf("the table does not show the group (%q):\n%s", mark, table.String())
	}
	var js bytes.Buffer
	if err := report.WriteJSON(&js, rep); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Reservations []struct {
			ReservationId string
			PurchaseGroup []string
		}
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	for _, r := range doc.Reservations {
		if len(r.PurchaseGroup) != len(bought) || !slices.Contains(r.PurchaseGroup, r.ReservationId) {
			t.Errorf("JSON %s: PurchaseGroup %v", r.ReservationId, r.PurchaseGroup)
		}
	}
	var cs bytes.Buffer
	if err := report.WriteCSV(&cs, rep); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := slices.Index(recs[0], "PurchaseGroup")
	if col < 0 || len(recs) != len(bought)+1 {
		t.Fatalf("CSV header %v, %d rows", recs[0], len(recs)-1)
	}
	for _, rec := range recs[1:] {
		if len(strings.Fields(rec[col])) != len(bought) {
			t.Errorf("CSV PurchaseGroup %q, want %d ids", rec[col], len(bought))
		}
	}
}

// A purchase of consecutive segments whose reservations AWS no longer lists, in whole or
// in part: those it does not list are one row, over the segments the listed ones are not,
// with the purchase's fee less the listed ones' (counted once), and every id in its group.
func TestUnlistedReservationsOfAPurchaseAreOneRow(t *testing.T) {
	day := 24 * time.Hour
	s0 := simtest.Start.Add(-40 * day)
	segs := []source.JournalSegment{
		{Zone: "us-east-1a", Type: "p5.48xlarge", Count: 2, Start: s0, End: s0.Add(7 * day), Fee: "1000"},
		{Zone: "us-east-1b", Type: "p5.48xlarge", Count: 2, Start: s0.Add(7 * day), End: s0.Add(14 * day), Fee: "1200"},
		{Zone: "us-east-1a", Type: "p5.48xlarge", Count: 2, Start: s0.Add(14 * day), End: s0.Add(21 * day), Fee: "1300"},
	}
	end := s0.Add(21 * day)
	bt := s0.Add(-day)
	entries := []source.JournalEntry{
		{Time: bt, BackendTime: &bt, Phase: "intent", Action: "PurchaseCapacityBlock", RequestID: "gpb-1", Account: ec2sim.DemoAccount,
			Region: "us-east-1", Type: "p5.48xlarge", Count: 2, Start: &s0, End: &end, Fee: "3500", Segments: segs},
		{Time: bt, Phase: "outcome", Action: "PurchaseCapacityBlock", RequestID: "gpb-1", Account: ec2sim.DemoAccount,
			Region: "us-east-1", Type: "p5.48xlarge", Count: 2, Start: &s0, End: &end, Fee: "3500", Outcome: string(source.Bought),
			Result: "cr-a,cr-b,cr-c"},
	}
	e := newEnv(t)
	j := journalIndex{paid.Read(entries, e.cb.Intents())}
	now := simtest.Start

	rows := j.unlisted(awsapi.CloudAWS, ec2sim.DemoAccount, []string{"us-east-1"}, nil, now)
	if len(rows) != 1 {
		t.Fatalf("%d rows of a purchase none of whose reservations is listed, want 1", len(rows))
	}
	r := rows[0].res
	if r.ID != "cr-a" || !slices.Equal(r.Group, []string{"cr-a", "cr-b", "cr-c"}) || r.ReservedHours != 3*2*7*24 ||
		!r.Start.Equal(s0) || !r.End.Equal(end) || len(r.Payments) != 1 || r.Payments[0].Amount.Cmp(model.MustMoney("3500")) != 0 {
		t.Errorf("row %+v", r)
	}
	if rows[0].metric != nil {
		t.Error("the use of three reservations is read as one's")
	}

	// The last segment's reservation is still listed: it is given its own segment's fee,
	// and the row of the other two has the rest, over their two segments.
	listed := model.Block{ReservationID: "cr-c", Region: "us-east-1", AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge",
		TotalCount: 2, Start: segs[2].Start, End: segs[2].End, Tags: map[string]string{model.PurchaseTag: "gpb-1"}}
	rows = j.unlisted(awsapi.CloudAWS, ec2sim.DemoAccount, []string{"us-east-1"}, []model.Block{listed}, now)
	if len(rows) != 1 {
		t.Fatalf("%d rows, want 1", len(rows))
	}
	r = rows[0].res
	if own := j.Of(listed); own == nil || own.Purchase == nil || own.Purchase.Fee.Cmp(model.MustMoney("1300")) != 0 {
		t.Fatalf("the listed reservation's own fee: %+v", own)
	}
	if !slices.Equal(r.Group, []string{"cr-c", "cr-a", "cr-b"}) {
		t.Errorf("group %v: want the listed one first, then the journal's others", r.Group)
	}
	if r.ID != "cr-a" || r.ReservedHours != 2*2*7*24 || !r.End.Equal(segs[1].End) || r.Payments[0].Amount.Cmp(model.MustMoney("2200")) != 0 {
		t.Errorf("row of the unlisted two: %s, %v hours, to %v, fee %s; want cr-a, 672, %v, 2200", r.ID, r.ReservedHours, r.End, r.Payments[0].Amount, segs[1].End)
	}
}
