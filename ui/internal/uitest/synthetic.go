package uitest

import (
	"fmt"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// SyntheticOfferings makes n varied offerings, for the tests of sizes and the benchmarks
// that need more rows than a search of the emulator returns.
func SyntheticOfferings(n int) []model.Offering {
	cat := model.Catalog()
	out := make([]model.Offering, n)
	for i := range out {
		t := cat[i%len(cat)]
		r := t.Regions[i%len(t.Regions)]
		days := model.ValidDurationDays()[i%20]
		start := time.Date(2026, 12, 2+i%50, 11, 30, 0, 0, time.UTC)
		count := 1 + i%64
		fee := model.MoneyFromCents(int64(3000+i%997) * int64(count) * int64(days) * int64(t.Accelerators))
		out[i] = model.Offering{
			ID: fmt.Sprintf("cbr-%017x", i), Region: r, AvailabilityZone: r + string(rune('a'+i%4)),
			InstanceType: t.Name, Count: count, Start: start, End: start.AddDate(0, 0, days),
			DurationHours: days * 24, Fee: fee, Currency: "USD", Tenancy: "default",
		}
	}
	return out
}

// SearchEvents are the events of a search of us-east-1 that found offs: six offerings a
// page, as a stream delivers them, then the region's status.
func SearchEvents(offs []model.Offering) []source.SearchEvent {
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	var events []source.SearchEvent
	for i := 0; i < len(offs); i += 6 {
		events = append(events, source.SearchEvent{Region: "us-east-1", Offerings: offs[i:min(i+6, len(offs))], CallsDone: 1, CallsTotal: 1})
	}
	return append(events, source.SearchEvent{Region: "us-east-1", Status: &st, CallsDone: 1, CallsTotal: 1})
}

// SyntheticBlocks makes n blocks in every state, for the tests of sizes and the cursor.
func SyntheticBlocks(n int) []model.Block {
	states := []model.BlockState{model.StateActive, model.StateScheduled, model.StatePaymentPending, model.StateExpired, model.StatePaymentFailed}
	out := make([]model.Block, n)
	for i := range out {
		start := Now.Add(time.Duration(i-2) * 24 * time.Hour).Truncate(time.Hour)
		out[i] = model.Block{ReservationID: fmt.Sprintf("cr-%017x", i+1), BlockID: fmt.Sprintf("cb-%017x", i+1), Region: "us-east-1",
			AvailabilityZone: "us-east-1a", InstanceType: "p5.48xlarge", TotalCount: 1 + i%4, RunningCount: i % 2, State: states[i%len(states)],
			Start: start, End: start.Add(48 * time.Hour), Interconnect: "ok", Tags: map[string]string{"project": "llm"},
			Instances: []model.Instance{{ID: fmt.Sprintf("i-%017x", i), State: "running", LaunchTime: start}}}
	}
	return out
}

// LongBlocks are n blocks whose detail is longer than any pane below 120×40: ten instances,
// three extensions and four tags each, the last tag sorting last.
func LongBlocks(n int) []model.Block {
	bs := SyntheticBlocks(n)
	for i := range bs {
		b := &bs[i]
		for j := 0; j < 10; j++ {
			b.Instances = append(b.Instances, model.Instance{ID: fmt.Sprintf("i-%02d%015x", j, i), State: "running", LaunchTime: b.Start})
		}
		for j := 0; j < 3; j++ {
			b.Extensions = append(b.Extensions, model.Extension{DurationHours: 24, Start: b.End.Add(time.Duration(j) * 24 * time.Hour),
				End: b.End.Add(time.Duration(j+1) * 24 * time.Hour), Fee: model.MustMoney("1000"), Status: model.ExtensionPaymentSucceeded})
		}
		b.Tags = map[string]string{"project": "llm", "owner": "ml-team", "cost-center": "42", "zz-last": "the end " + b.ReservationID}
	}
	return bs
}
