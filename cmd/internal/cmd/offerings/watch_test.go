package offerings

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// watchRun is one gpublock offerings --watch run whose waits between searches are faked.
type watchRun struct {
	waits []time.Duration // what each wait was asked to wait
}

// fakeWatch replaces the wait between searches: after search n it calls between(n) (which
// changes the emulator's market, clock or faults) and goes on at once; after search stopAt
// it ends the watch as Ctrl-C does. Nothing sleeps.
func fakeWatch(t *testing.T, stopAt int, between func(n int)) (*watchRun, context.Context) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	wr := &watchRun{}
	wait := func(ctx context.Context, d time.Duration) bool {
		wr.waits = append(wr.waits, d)
		n := len(wr.waits)
		if n >= stopAt {
			cancel()
			return false
		}
		if between != nil {
			between(n)
		}
		return ctx.Err() == nil
	}
	cli.Tweak(t, func(f *cmdutil.Factory) { f.Wait = wait })
	return wr, ctx
}

// withBell makes stderr count as a terminal (or not), where the bell rings.
func withBell(t *testing.T, terminal bool) {
	cli.Tweak(t, func(f *cmdutil.Factory) { f.IOStreams.SetStderrTTY(terminal) })
}

// watchArgs searches p5.48xlarge in a window relative to the emulator's clock, so that it
// moves when the clock does.
func watchArgs(url string, extra ...string) []string {
	return append([]string{"offerings", "--endpoint-url", url, "--type", "p5.48xlarge", "--duration", "2d",
		"--from", "now", "--to", "+4d", "--watch", "--interval", "5m"}, extra...)
}

// jsonRounds reads the one array per line that --watch -o json prints.
func jsonRounds(t *testing.T, out string) [][]printers.OfferingJSON {
	t.Helper()
	var rounds [][]printers.OfferingJSON
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if l == "" {
			continue
		}
		var r []printers.OfferingJSON
		if err := json.Unmarshal([]byte(l), &r); err != nil || !strings.HasPrefix(l, "[") {
			t.Fatalf("line %q is not a JSON array: %v", l, err)
		}
		rounds = append(rounds, r)
	}
	return rounds
}

func idsOf(rows []printers.OfferingJSON) map[string]printers.OfferingJSON {
	m := map[string]printers.OfferingJSON{}
	for _, r := range rows {
		m[r.CapacityBlockOfferingId] = r
	}
	return m
}

// onOfferNow is what a plain search (no --watch) finds at the emulator's clock now.
func onOfferNow(t *testing.T, url string, regions string) map[string]printers.OfferingJSON {
	t.Helper()
	return idsOf(cmdtest.RunJSON[[]printers.OfferingJSON](t, cli, "offerings", "--endpoint-url", url, "--type", "p5.48xlarge", "--duration", "2d",
		"--from", "now", "--to", "+4d", "--region", regions, "-o", "json"))
}

// The second search, a day later on the emulator's clock, prints in one compact line only
// the offerings the first did not: exactly what is on offer then less what was printed.
// Its window was read again: it holds blocks that end after the first window's end.
func TestOfferingsWatchJSONPrintsOnlyNewOfferings(t *testing.T) {
	cs := cmdtest.StartSim(t)
	wr, ctx := fakeWatch(t, 2, func(int) { cs.Emulator.Advance(24 * time.Hour) })
	code, out, errs := cli.RunIn(ctx, watchArgs(cs.URL, "--region", "us-east-1", "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d after Ctrl-C, want 0; stderr %q", code, errs)
	}
	if len(wr.waits) != 2 || wr.waits[0] != 5*time.Minute || wr.waits[1] != 5*time.Minute {
		t.Errorf("waits %v, want 5m twice", wr.waits)
	}
	if strings.Count(out, "\n") != 2 || strings.Contains(out, "\n ") {
		t.Fatalf("stdout is not two compact lines:\n%s", out)
	}
	rounds := jsonRounds(t, out)
	first, second := idsOf(rounds[0]), idsOf(rounds[1])
	if len(first) == 0 || len(second) == 0 {
		t.Fatalf("first search %d offerings, second %d new; the test needs both", len(first), len(second))
	}
	now := onOfferNow(t, cs.URL, "us-east-1")
	kept := 0
	for id := range now {
		_, old := first[id]
		_, printed := second[id]
		if old {
			kept++
		}
		if old == printed {
			t.Errorf("%s: in the first search %v, printed again %v", id, old, printed)
		}
	}
	for id := range second {
		if _, ok := now[id]; !ok {
			t.Errorf("%s printed as new but not on offer", id)
		}
	}
	firstEnd := cmdtest.SimStart.Add(4 * 24 * time.Hour)
	later := false
	for _, r := range rounds[1] {
		if cmdtest.MustTime(t, r.EndDate).After(firstEnd) {
			later = true
		}
		if cmdtest.MustTime(t, r.StartDate).Before(cmdtest.SimStart.Add(24 * time.Hour)) {
			t.Errorf("%s starts %s, before the second search's now", r.CapacityBlockOfferingId, r.StartDate)
		}
	}
	if !later {
		t.Errorf("no new offering ends after %s: the window did not move with now", firstEnd)
	}
	// The lines of each search are on stderr, stdout holding only the arrays.
	want1 := "gpublock offerings: 2026-12-01 08:00 UTC: " + model.Plural(len(first), "offering", "offerings") + "; next search in 5m, Ctrl-C stops"
	want2 := "gpublock offerings: 2026-12-02 08:00 UTC: " + model.Plural(len(second), "new offering", "new offerings")
	if !strings.Contains(errs, want1+"\n") || !strings.Contains(errs, want2+" (") {
		t.Errorf("stderr %q\nwant %q and %q", errs, want1, want2)
	}
	if kept > 0 && !strings.Contains(errs, "("+strconv.Itoa(len(now))+" on offer)") {
		t.Errorf("stderr %q: want %d on offer", errs, len(now))
	}
}

// A table: the first search prints the table as without --watch, then its line; a later
// search with new offerings prints its line, the header and only the new rows; one with
// nothing new prints only its line. The bell rings on stderr, once, for the new rows.
func TestOfferingsWatchTable(t *testing.T) {
	cs := cmdtest.StartSim(t)
	withBell(t, true)
	_, ctx := fakeWatch(t, 3, func(n int) {
		if n == 1 {
			cs.Emulator.Advance(24 * time.Hour)
		}
	})
	code, out, errs := cli.RunIn(ctx, watchArgs(cs.URL, "--region", "us-east-1")...)
	if code != 0 {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if !strings.HasPrefix(lines[0], "REGION ") {
		t.Fatalf("stdout does not open with the table:\n%s", out)
	}
	var ids1, ids2 []string
	section := 1
	var summaries []string
	for _, l := range lines[1:] {
		switch {
		case strings.HasPrefix(l, "2026-"):
			summaries = append(summaries, l)
			if len(summaries) > 1 {
				section = len(summaries)
			}
		case strings.HasPrefix(l, "us-east-1 "):
			f := strings.Fields(l)
			if section == 1 {
				ids1 = append(ids1, f[len(f)-1])
			} else {
				ids2 = append(ids2, f[len(f)-1])
			}
			if section == 3 {
				t.Errorf("a row after a search with nothing new: %q", l)
			}
		}
	}
	if len(ids1) == 0 || len(ids2) == 0 || len(summaries) != 3 {
		t.Fatalf("%d rows, then %d new, %d lines of searches:\n%s", len(ids1), len(ids2), len(summaries), out)
	}
	for _, id := range ids2 {
		if strings.Count(out, id) != 1 {
			t.Errorf("%s printed %d times", id, strings.Count(out, id))
		}
	}
	for _, id := range ids1 {
		if strings.Count(out, id) != 1 {
			t.Errorf("%s printed %d times", id, strings.Count(out, id))
		}
	}
	now := onOfferNow(t, cs.URL, "us-east-1")
	want := []string{
		"2026-12-01 08:00 UTC: " + model.Plural(len(ids1), "offering", "offerings") + "; next search in 5m, Ctrl-C stops",
		"2026-12-02 08:00 UTC: " + model.Plural(len(ids2), "new offering", "new offerings") + " (" + strconv.Itoa(len(now)) + " on offer); next search in 5m, Ctrl-C stops",
		"2026-12-02 08:00 UTC: no new offerings (" + strconv.Itoa(len(now)) + " on offer); next search in 5m, Ctrl-C stops",
	}
	for i, w := range want {
		if summaries[i] != w {
			t.Errorf("line %d %q, want %q", i+1, summaries[i], w)
		}
	}
	if !strings.Contains(out, "\n\n"+want[1]+"\nREGION ") {
		t.Errorf("the new rows are not under a blank line, their line and the header:\n%s", out)
	}
	if strings.Contains(out, "\a") || strings.Count(errs, "\a") != 1 {
		t.Errorf("BEL on stdout %v, %d on stderr; want one, on stderr", strings.Contains(out, "\a"), strings.Count(errs, "\a"))
	}
}

// The bell rings only where stderr is a terminal.
func TestOfferingsWatchNoBellOffTerminal(t *testing.T) {
	cs := cmdtest.StartSim(t)
	withBell(t, false)
	_, ctx := fakeWatch(t, 2, func(int) { cs.Emulator.Advance(24 * time.Hour) })
	code, out, errs := cli.RunIn(ctx, watchArgs(cs.URL, "--region", "us-east-1", "-o", "csv")...)
	if code != 0 || strings.Contains(out+errs, "\a") || !strings.Contains(errs, " new offering") {
		t.Errorf("exit %d, BEL in output %v; stderr %q", code, strings.Contains(out+errs, "\a"), errs)
	}
}

// csv: one header, then every offering once, the new ones of each search after the others'.
func TestOfferingsWatchCSV(t *testing.T) {
	cs := cmdtest.StartSim(t)
	_, ctx := fakeWatch(t, 3, func(int) { cs.Emulator.Advance(24 * time.Hour) })
	code, out, errs := cli.RunIn(ctx, watchArgs(cs.URL, "--region", "us-east-1", "-o", "csv")...)
	recs, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if code != 0 || err != nil || len(recs) < 3 {
		t.Fatalf("exit %d, %v, stderr %q\n%s", code, err, errs, out)
	}
	if recs[0][0] != "Region" || strings.Count(out, "Region,") != 1 {
		t.Errorf("want one header:\n%s", out)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	seen := map[string]bool{}
	for _, r := range recs[1:] {
		id := r[col["CapacityBlockOfferingId"]]
		if seen[id] {
			t.Errorf("%s twice", id)
		}
		seen[id] = true
	}
	if n := strings.Count(errs, "gpublock offerings: 2026-12-"); n != 3 {
		t.Errorf("%d lines of searches on stderr, want 3:\n%s", n, errs)
	}
	for id := range onOfferNow(t, cs.URL, "us-east-1") {
		if !seen[id] {
			t.Errorf("%s is on offer after the last search but not in the csv", id)
		}
	}
}

// A region that fails is named on stderr in each search and the watch goes on; when it comes
// back its offerings are new. A search in which every region fails prints nothing on stdout.
func TestOfferingsWatchGoesOnThroughFailedRegions(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cs.Emulator.SetFaults(cmdtest.Down("us-east-1", "us-west-2"))
	_, ctx := fakeWatch(t, 3, func(n int) {
		switch n {
		case 1:
			cs.Emulator.SetFaults(cmdtest.Down("us-west-2"))
		case 2:
			cs.Emulator.SetFaults(ec2sim.Faults{})
		}
	})
	code, out, errs := cli.RunIn(ctx, watchArgs(cs.URL, "--region", "us-east-1,us-west-2", "-o", "json")...)
	if code != 0 {
		t.Fatalf("exit %d after Ctrl-C, want 0; stderr %q", code, errs)
	}
	rounds := jsonRounds(t, out)
	if len(rounds) != 2 {
		t.Fatalf("%d arrays, want 2 (none for the search in which every region failed):\n%s", len(rounds), out)
	}
	for _, r := range rounds[0] {
		if r.Region != "us-east-1" {
			t.Errorf("second search printed %s of %s, which was down", r.CapacityBlockOfferingId, r.Region)
		}
	}
	west := 0
	for _, r := range rounds[1] {
		if r.Region != "us-west-2" {
			t.Errorf("third search printed %s of %s again", r.CapacityBlockOfferingId, r.Region)
		}
		west++
	}
	if len(rounds[0]) == 0 || west == 0 {
		t.Fatalf("us-east-1 %d, then us-west-2 %d offerings; want both", len(rounds[0]), west)
	}
	if n := strings.Count(errs, "gpublock offerings: us-west-2: EC2 is unavailable"); n != 2 {
		t.Errorf("us-west-2 named %d times, want 2:\n%s", n, errs)
	}
	for _, want := range []string{"every region failed: us-east-1, us-west-2", "every region failed (see stderr); next search in 5m",
		"FAILED: us-west-2 (see stderr)"} {
		if !strings.Contains(errs, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errs)
		}
	}
}

// --until-found stops at the first search that finds anything, the first included, with
// exit 0; without a find, an interruption is exit 1.
func TestOfferingsWatchUntilFound(t *testing.T) {
	cs := cmdtest.StartSim(t)
	wr, ctx := fakeWatch(t, 5, nil)
	code, out, errs := cli.RunIn(ctx, watchArgs(cs.URL, "--region", "us-east-1", "-o", "json", "--until-found")...)
	if rounds := jsonRounds(t, out); code != 0 || len(rounds) != 1 || len(rounds[0]) == 0 || len(wr.waits) != 0 {
		t.Errorf("found at once: exit %d, %d waits, stdout %s", code, len(wr.waits), out)
	}
	if !strings.Contains(errs, "found, stopping (--until-found)") {
		t.Errorf("stderr %q", errs)
	}

	// Nothing in the first search (its region down), found in the second.
	cs.Emulator.SetFaults(cmdtest.Down("us-east-1"))
	wr, ctx = fakeWatch(t, 5, func(int) { cs.Emulator.SetFaults(ec2sim.Faults{}) })
	code, out, errs = cli.RunIn(ctx, watchArgs(cs.URL, "--region", "us-east-1", "-o", "json", "--until-found")...)
	if rounds := jsonRounds(t, out); code != 0 || len(rounds) != 1 || len(rounds[0]) == 0 || len(wr.waits) != 1 {
		t.Errorf("found in the second search: exit %d, %d waits, stdout %s", code, len(wr.waits), out)
	}
	if !strings.Contains(errs, "until one is found") || !strings.Contains(errs, "us-east-1: EC2 is unavailable") {
		t.Errorf("stderr %q", errs)
	}

	// A window too short for a 2-day block answers nothing, search after search: an empty
	// array each time, and exit 1 when interrupted.
	wr, ctx = fakeWatch(t, 3, nil)
	code, out, errs = cli.RunIn(ctx, "offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "2d",
		"--from", "now", "--to", "+1d", "--region", "us-east-1", "--watch", "--interval", "1m", "--until-found", "-o", "json")
	if code != 1 || out != "[]\n[]\n[]\n" || len(wr.waits) != 3 || wr.waits[0] != time.Minute || !strings.Contains(errs, "stopped before any offering was found") {
		t.Errorf("interrupted with nothing found: exit %d, %d waits %v, stdout %q, stderr %q; want 1", code, len(wr.waits), wr.waits, out, errs)
	}
	if n := strings.Count(errs, "no new offerings (0 on offer); next search in 1m until one is found"); n != 2 {
		t.Errorf("%d searches said they found nothing new, want 2:\n%s", n, errs)
	}
}

// A fixed start that has passed becomes now; a window too short for the block ends the watch.
func TestOfferingsWatchFixedWindowPasses(t *testing.T) {
	cs := cmdtest.StartSim(t)
	wr, ctx := fakeWatch(t, 5, func(n int) { cs.Emulator.Advance(36 * time.Hour) })
	code, out, errs := cli.RunIn(ctx, "offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "2d",
		"--from", "2026-12-01T08:00:00Z", "--to", "2026-12-05T11:30:00Z", "--region", "us-east-1", "--watch", "--interval", "5m", "-o", "json")
	if code != 0 || len(wr.waits) != 3 {
		t.Errorf("exit %d after %d waits, want 0 after 3 (72h on, the window still holds a block; 108h on, it has passed)", code, len(wr.waits))
	}
	if rounds := jsonRounds(t, out); len(rounds) != 3 || len(rounds[0]) == 0 {
		t.Errorf("want three searches, the first finding offerings:\n%s", out)
	}
	if !strings.Contains(errs, "the window has passed, the watch is over") || !strings.Contains(errs, "--to") {
		t.Errorf("stderr %q", errs)
	}
}

// Bad --watch and --until-found values are usage errors before any call.
func TestOfferingsWatchBadUsage(t *testing.T) {
	cs := cmdtest.StartSim(t)
	base := []string{"offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge", "--duration", "2d"}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"--watch", "--interval", "30s"}, "--interval \"30s\": allowed 1m to 24h"},
		{[]string{"--watch", "--interval", "25h"}, "1m to 24h"},
		{[]string{"--watch", "--interval", "5"}, "--interval \"5\""},
		{[]string{"--watch", "--interval", "often"}, "--interval \"often\""},
		{[]string{"--watch", "--interval", "-5m"}, "--interval"},
		{[]string{"--until-found"}, "used with --watch"},
		{[]string{"--interval", "5m"}, "used with --watch"},
		{[]string{"--watch", "5m"}, `unexpected argument "5m"`},
	} {
		code, out, errs := cli.Run(append(base, tc.args...)...)
		if code != 2 || out != "" || !strings.Contains(errs, tc.want) {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 naming %q", tc.args, code, out, errs, tc.want)
		}
	}
	if n := cs.Calls.Load(); n != 0 {
		t.Errorf("bad usage made %d calls", n)
	}
}
