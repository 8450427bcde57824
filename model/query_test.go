package model

import (
	"errors"
	"strings"
	"testing"
	"time"
)

var now = time.Date(2026, 11, 29, 19, 44, 0, 0, time.UTC)

func goodQuery() Query {
	return Query{
		InstanceTypes: []string{"p5.48xlarge"},
		Count:         1,
		Durations:     DurationRange{2, 2},
		Start:         now,
		End:           now.AddDate(0, 0, 28),
		Regions:       []string{"us-east-1"},
	}
}

func TestValidateAcceptsGoodQueries(t *testing.T) {
	if err := goodQuery().Validate(now); err != nil {
		t.Fatalf("good query rejected: %v", err)
	}
	q := goodQuery()
	q.Count, q.Durations, q.End = 64, DurationRange{1, 182}, now.Add(MaxLeadTime)
	q.InstanceTypes = []string{"p5.48xlarge", "u-p6e-gb200x72"}
	if err := q.Validate(now); err != nil {
		t.Fatalf("edge query rejected: %v", err)
	}
	// A 26-week block starting at the last moment AWS allows ends 26 weeks after it: the
	// 8-week rule is on the start, so the window may end that late.
	q = goodQuery()
	q.Durations = DurationRange{182, 182}
	q.Start, q.End = now.Add(MaxLeadTime-time.Hour), now.Add(MaxLeadTime+182*24*time.Hour)
	if err := q.Validate(now); err != nil {
		t.Fatalf("a 26-week block starting within 8 weeks rejected: %v", err)
	}
}

func TestValidateNamesFieldValueAndRule(t *testing.T) {
	cases := []struct {
		name   string
		mutate func(*Query)
		field  string
		value  string
	}{
		{"no types", func(q *Query) { q.InstanceTypes = nil }, FieldTypes, "none"},
		{"unknown type", func(q *Query) { q.InstanceTypes = []string{"g5.xlarge"} }, FieldTypes, `"g5.xlarge"`},
		{"count 0", func(q *Query) { q.Count = 0 }, FieldCount, "0"},
		{"count 65", func(q *Query) { q.Count = 65 }, FieldCount, "65"},
		{"15 days", func(q *Query) { q.Durations = DurationRange{15, 15} }, FieldDuration, "15d"},
		{"22 days", func(q *Query) { q.Durations = DurationRange{22, 22} }, FieldDuration, "22d"},
		{"range backwards", func(q *Query) { q.Durations = DurationRange{7, 2} }, FieldDuration, "7d-2d"},
		{"empty range", func(q *Query) { q.Durations = DurationRange{15, 20} }, FieldDuration, "15d-20d"},
		{"zero duration", func(q *Query) { q.Durations = DurationRange{} }, FieldDuration, "0-0 days"},
		{"start in past", func(q *Query) { q.Start = now.Add(-time.Hour) }, FieldStart, "2026-11-29T18:44:00Z"},
		{"start beyond 8 weeks", func(q *Query) { q.Start = now.AddDate(0, 0, 57); q.End = q.Start.Add(time.Hour) }, FieldStart, "2027-01-25T19:44:00Z"},
		{"no start", func(q *Query) { q.Start = time.Time{} }, FieldStart, "empty"},
		{"end beyond 8 weeks and the length", func(q *Query) { q.End = LatestEnd(now, q.Durations.MaxDays).Add(time.Minute) }, FieldEnd, LatestEnd(now, goodQuery().Durations.MaxDays).Add(time.Minute).Format(time.RFC3339)},
		{"end before start", func(q *Query) { q.Start = now.AddDate(0, 0, 5); q.End = now.AddDate(0, 0, 4) }, FieldEnd, "2026-12-03T19:44:00Z"},
		{"window too short", func(q *Query) { q.Durations = DurationRange{7, 7}; q.End = now.AddDate(0, 0, 3) }, FieldEnd, "2026-12-02T19:44:00Z"},
		{"no regions", func(q *Query) { q.Regions = nil }, FieldRegions, "none"},
		{"unknown region", func(q *Query) { q.Regions = []string{"mars-1"} }, FieldRegions, `"mars-1"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			q := goodQuery()
			c.mutate(&q)
			err := q.Validate(now)
			var verrs ValidationErrors
			if !errors.As(err, &verrs) {
				t.Fatalf("want ValidationErrors, got %v", err)
			}
			fe, ok := verrs.For(c.field)
			if !ok {
				t.Fatalf("no error for %s in %v", c.field, err)
			}
			if fe.Value != c.value || fe.Allowed == "" {
				t.Fatalf("error %+v: want value %q and a rule", fe, c.value)
			}
			if !strings.Contains(err.Error(), c.field) || !strings.Contains(err.Error(), c.value) {
				t.Fatalf("message %q does not name field and value", err)
			}
		})
	}
}

func TestValidateReportsEveryField(t *testing.T) {
	err := Query{Count: 100}.Validate(now)
	var verrs ValidationErrors
	if !errors.As(err, &verrs) {
		t.Fatal(err)
	}
	for _, f := range []string{FieldTypes, FieldCount, FieldDuration, FieldStart, FieldEnd, FieldRegions} {
		if _, ok := verrs.For(f); !ok {
			t.Errorf("no error for %s", f)
		}
	}
}

func FuzzQueryValidate(f *testing.F) {
	f.Add("p5.48xlarge", 1, 2, 2, int64(0), int64(28*24), "us-east-1")
	f.Add("", -5, 30, 1, int64(-100), int64(5000), "")
	f.Fuzz(func(t *testing.T, typ string, count, minD, maxD int, startH, endH int64, region string) {
		q := Query{
			InstanceTypes: []string{typ},
			Count:         count,
			Durations:     DurationRange{minD, maxD},
			Start:         now.Add(time.Duration(startH%100000) * time.Hour),
			End:           now.Add(time.Duration(endH%100000) * time.Hour),
			Regions:       []string{region},
		}
		err := q.Validate(now)
		if err == nil {
			// Anything accepted must really satisfy AWS's rules.
			if _, ok := LookupType(typ); !ok || count < 1 || count > 64 || len(q.Durations.Days()) == 0 ||
				q.Start.Before(now.Add(-time.Minute)) || !q.Start.Before(now.Add(MaxLeadTime)) || q.End.After(LatestEnd(now, maxD)) || !q.End.After(q.Start) {
				t.Fatalf("accepted an invalid query: %+v", q)
			}
			return
		}
		var verrs ValidationErrors
		if !errors.As(err, &verrs) || len(verrs) == 0 {
			t.Fatalf("error of the wrong kind: %v", err)
		}
		for _, e := range verrs {
			if e.Field == "" || e.Value == "" || e.Allowed == "" {
				t.Fatalf("incomplete error %+v", e)
			}
		}
	})
}
