package blocks

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// buyElsewhere buys a p5.48xlarge block in the region with a client of its own journal:
// another machine's purchase.
func buyElsewhere(t *testing.T, url, region string) string {
	t.Helper()
	c := cmdtest.Client(t, url)
	q := model.Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 1, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
		Start: cmdtest.SimStart, End: cmdtest.SimStart.AddDate(0, 0, 14), Regions: []string{region}}
	var offer *model.Offering
	for ev := range capacityblocks.New(c).Search(context.Background(), q) {
		if len(ev.Offerings) > 0 && offer == nil {
			offer = &ev.Offerings[0]
		}
	}
	if offer == nil {
		t.Fatalf("nothing to buy in %s", region)
	}
	res, err := capacityblocks.New(c).Purchase(context.Background(), *offer, "", nil)
	if err != nil {
		t.Fatal(err)
	}
	return res.Block.ReservationID
}

// Blocks bought in three regions by another process appear on a fresh start (an empty
// state directory, no --region), with what the screen shows: tags, the countdown, the
// warnings, and the fee paid only where this machine bought the block.
func TestBlocksEveryRegionOnAFreshStart(t *testing.T) {
	cs := cmdtest.StartSim(t)
	want := map[string]string{}
	for _, r := range []string{"eu-north-1", "ap-south-1", "us-east-2"} {
		want[buyElsewhere(t, cs.URL, r)] = r
	}
	mine := cli.BoughtBlock(t, cs) // this machine's, in us-east-1

	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "-o", "json")
	var rows []printers.BlockJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	if len(rows) != 4 {
		t.Fatalf("%d blocks listed, want 4:\n%s", len(rows), out)
	}
	for _, r := range rows {
		if r.CapacityReservationId == mine.CapacityReservationId {
			if r.FeePaid == "" || !strings.HasPrefix(r.Countdown, "starts in") || len(r.Tags) == 0 || r.Warnings == nil {
				t.Errorf("this machine's block: fee %q, countdown %q, tags %v, warnings %v", r.FeePaid, r.Countdown, r.Tags, r.Warnings)
			}
			continue
		}
		if want[r.CapacityReservationId] != r.Region {
			t.Errorf("%s listed in %s, want %s", r.CapacityReservationId, r.Region, want[r.CapacityReservationId])
		}
		if r.FeePaid != "" {
			t.Errorf("%s bought elsewhere shows a fee paid: %s", r.CapacityReservationId, r.FeePaid)
		}
	}
	// The same in the table: every region, a WARNING column.
	code, table, _ := cli.Run("blocks", "--endpoint-url", cs.URL)
	for id := range want {
		if code != 0 || !strings.Contains(table, id) || !strings.Contains(table, "WARNING") {
			t.Errorf("the table lacks %s or its WARNING column (exit %d):\n%s", id, code, table)
		}
	}
}

// Run by cron through a block's last day, `blocks` sends every warning once, at its lead,
// to the command and to the webhook; a run with nothing new sends nothing.
func TestBlocksNotifyEachWarningOnce(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
	end := cmdtest.MustTime(t, b.EndDate)
	h := &cmdtest.Hook{}
	srv := httptest.NewServer(h)
	defer srv.Close()
	log := filepath.Join(t.TempDir(), "notify.log")
	args := []string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--warn-leads", "24h,2h",
		"--notify-url", srv.URL + "/services/T0/B0/SECRETTOKEN", "--notify-cmd", `echo "$GPUBLOCK_WARNING $GPUBLOCK_LEAD" >> ` + log}
	steps := []struct {
		before time.Duration
		news   []string
	}{
		{25 * time.Hour, []string{"idle"}},
		{23 * time.Hour, []string{"extend-by/24h"}},
		{22 * time.Hour, nil},
		{90 * time.Minute, []string{"extend-by/2h"}},
		{50 * time.Minute, []string{"cant-extend"}},
		{35 * time.Minute, []string{"expiring"}},
		{20 * time.Minute, []string{"terminating"}},
		{10 * time.Minute, nil},
	}
	var wantAll []string
	for _, st := range steps {
		cs.Emulator.SetTime(end.Add(-st.before))
		h.Mu.Lock()
		before := len(h.Kinds)
		h.Mu.Unlock()
		code, _, errs := cli.Run(args...)
		if code != 0 || strings.Contains(errs, "SECRETTOKEN") {
			t.Fatalf("%s before the end: exit %d, stderr %q", st.before, code, errs)
		}
		h.Mu.Lock()
		got := append([]string(nil), h.Kinds[before:]...)
		h.Mu.Unlock()
		sort.Strings(got)
		if strings.Join(got, ",") != strings.Join(st.news, ",") {
			t.Errorf("%s before the end the webhook got %v, want %v", st.before, got, st.news)
		}
		wantAll = append(wantAll, st.news...)
	}
	lines, _ := os.ReadFile(log)
	var cmdKinds []string
	for _, l := range strings.Split(strings.TrimSpace(string(lines)), "\n") {
		k, lead, _ := strings.Cut(l, " ")
		if lead != "" {
			k += "/" + lead
		}
		cmdKinds = append(cmdKinds, k)
	}
	if strings.Join(cmdKinds, ",") != strings.Join(wantAll, ",") {
		t.Errorf("the command ran for %v, want %v", cmdKinds, wantAll)
	}
	h.Mu.Lock()
	defer h.Mu.Unlock()
	for _, text := range h.Texts {
		if !strings.Contains(text, b.CapacityReservationId) {
			t.Errorf("text without the reservation: %q", text)
		}
	}
}

// A webhook that cannot be reached is reported on stderr without its secret, and the
// listing is printed and exits as it would without it.
func TestBlocksNotifyFailureReportedWithoutSecret(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ExpiringBlock(t, cs)
	srv := httptest.NewServer(http.NotFoundHandler())
	url := srv.URL
	srv.Close()
	cli.Tweak(t, func(f *cmdutil.Factory) { f.Notify.Backoff = time.Millisecond })
	code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--notify-url", url+"/hooks/SECRETTOKEN")
	if code != 0 || !strings.Contains(out, b.CapacityReservationId) {
		t.Errorf("exit %d\n%s", code, out)
	}
	if !strings.Contains(errs, "notify:") || strings.Contains(errs, "SECRETTOKEN") || strings.Contains(errs, "/hooks") {
		t.Errorf("stderr %q: want the failure reported without the URL's path", errs)
	}
	for _, bad := range [][]string{{"--notify-url", "ftp://x/SECRET"}, {"--warn-leads", "soon"}, {"--warn-leads", "24h,"}} {
		code, _, errs := cli.Run(append([]string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1"}, bad...)...)
		if code != 2 || strings.Contains(errs, "SECRET") {
			t.Errorf("%v: exit %d, %q", bad, code, errs)
		}
	}
}

// A watch sends each warning once, however many refreshes see it.
func TestBlocksWatchNotifiesOnce(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.ExpiringBlock(t, cs)
	h := &cmdtest.Hook{}
	srv := httptest.NewServer(h)
	defer srv.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	out := &cmdtest.CancelAfter{N: 3, Cancel: cancel}
	var errb strings.Builder
	code := cli.RunContext(ctx, out, &errb, "blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--watch", "--interval", "1s", "--notify-url", srv.URL+"/x")
	if code != 0 || strings.Count(out.Buf.String(), "block(s) in us-east-1") < 3 {
		t.Fatalf("exit %d, stderr %q\n%s", code, errb.String(), out.Buf.String())
	}
	if got := h.SortedKinds(); got != "cant-extend,expiring" {
		t.Errorf("the webhook got %s over 3 refreshes, want can't extend and expiring once each", got)
	}
}

// A record of warnings sent that cannot be written (a directory in its place) is said on
// stderr and fails the run (exit 1), and the warning still goes out once.
func TestBlocksNotifyRecordUnwritable(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ExpiringBlock(t, cs)
	h := &cmdtest.Hook{}
	srv := httptest.NewServer(h)
	defer srv.Close()
	state := filepath.Join(filepath.Dir(cmdtest.StateFile(t, "journal.jsonl")), "notified.json")
	if err := os.MkdirAll(state, 0o700); err != nil {
		t.Fatal(err)
	}
	args := []string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--notify-url", srv.URL + "/x"}
	code, out, errs := cli.Run(args...)
	if code != 1 || !strings.Contains(out, b.CapacityReservationId) || !strings.Contains(errs, "cannot be kept") || !strings.Contains(errs, "notified.json") {
		t.Fatalf("exit %d (want 1), stderr %q", code, errs)
	}
	if got := h.SortedKinds(); got != "cant-extend,expiring" {
		t.Errorf("the webhook got %s, want each warning once", got)
	}
}

// A webhook that hangs holds a one-shot run up for the one-shot bound only; the failure
// says it timed out, and the next run sends the warning again.
func TestBlocksHungWebhookBounded(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.ExpiringBlock(t, cs)
	var hang atomic.Bool
	hang.Store(true)
	h := &cmdtest.Hook{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if hang.Load() {
			io.Copy(io.Discard, r.Body) // so that the server notices the client giving up
			<-r.Context().Done()
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	cli.Tweak(t, func(f *cmdutil.Factory) {
		f.Notify = cmdutil.NotifyTimings{Backoff: 50 * time.Millisecond, OneShotTimeout: 200 * time.Millisecond, OneShotGrace: 700 * time.Millisecond}
	})
	args := []string{"blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "--notify-url", srv.URL + "/x"}
	start := time.Now()
	code, _, errs := cli.Run(args...)
	if took := time.Since(start); took > 5*time.Second || code != 0 || !strings.Contains(errs, "timed out") || !strings.Contains(errs, "next run") {
		t.Fatalf("took %s, exit %d, stderr %q", took, code, errs)
	}
	hang.Store(false)
	if code, _, errs := cli.Run(args...); code != 0 {
		t.Fatalf("the next run: exit %d, %q", code, errs)
	}
	if got := h.SortedKinds(); got != "cant-extend,expiring" {
		t.Errorf("the next run delivered %s, want the warnings that timed out", got)
	}
}

// Instances terminated at a block's end stay in its listing while AWS lists them (about an
// hour), with when they stopped; the ids of the live ones are InstanceIds.
func TestBlocksKeepTerminatedInstances(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.BoughtBlock(t, cs)
	cli.Activate(t, cs, b)
	if code, _, errs := cli.Run(cmdtest.LaunchArgs(cs.URL, b.CapacityReservationId, "--yes", "--count", "1")...); code != 0 {
		t.Fatalf("launch: exit %d\n%s", code, errs)
	}
	end := cmdtest.MustTime(t, b.EndDate)
	list := func() printers.BlockJSON {
		t.Helper()
		code, out, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "json")
		var rows []printers.BlockJSON
		if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 {
			t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
		}
		return rows[0]
	}
	if r := list(); len(r.Instances) != 1 || (r.Instances[0].State != "running" && r.Instances[0].State != "pending") || r.Instances[0].StoppedTime != "" || len(r.InstanceIds) != 1 {
		t.Fatalf("running: %+v / %v", r.Instances, r.InstanceIds)
	}
	cs.Emulator.SetTime(end.Add(-10 * time.Minute))
	r := list()
	stopped := end.Add(-30 * time.Minute).UTC().Format(time.RFC3339)
	if len(r.Instances) != 1 || r.Instances[0].State != "terminated" || r.Instances[0].StoppedTime != stopped || len(r.InstanceIds) != 0 {
		t.Errorf("after the termination: %+v / %v; want it terminated at %s, and no live id", r.Instances, r.InstanceIds, stopped)
	}
}
