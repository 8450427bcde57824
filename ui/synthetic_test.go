package ui

import (
	"fmt"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// syntheticOfferings makes n varied offerings, for the tests of sizes and the benchmarks
// that need more rows than a search of the emulator returns.
func syntheticOfferings(n int) []model.Offering {
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

// withResults returns m after the form's search delivered offs, without any backend: the
// search's messages are given to Update as the stream would.
func withResults(m Model, offs []model.Offering) Model {
	m, id := startedSearch(m, submitted)
	st := model.RegionStatus{Region: "us-east-1", State: model.RegionOK, Offerings: len(offs)}
	var events []source.SearchEvent
	for i := 0; i < len(offs); i += 6 {
		events = append(events, source.SearchEvent{Region: "us-east-1", Offerings: offs[i:min(i+6, len(offs))], CallsDone: 1, CallsTotal: 1})
	}
	events = append(events, source.SearchEvent{Region: "us-east-1", Status: &st, CallsDone: 1, CallsTotal: 1})
	mm, _ := m.Update(searchEventsMsg{ID: id, Events: events, Closed: true})
	return mm.(Model)
}

func update(m Model, msgs ...tea.Msg) Model {
	for _, msg := range msgs {
		mm, _ := m.Update(msg)
		m = mm.(Model)
	}
	return m
}
