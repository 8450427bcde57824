package offerings

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/gpublock/gpublock/aws/apilimit"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// Each source searched is checked by its own rules before any call, and a refusal names
// the rule's source and how to search the other alone.
func TestSourceRulesBeforeAnyCall(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	search := func(extra ...string) []string {
		return append([]string{"offerings", "--endpoint-url", cs.URL, "--type", "p5.48xlarge"}, extra...)
	}
	for _, tc := range []struct {
		args []string
		want []string
	}{
		{search("--source", "training-plans", "--duration", "1d-20d"), []string{"a training plan search sweeps at most 14 lengths"}},
		{search("--source", "all", "--duration", "2d", "--count", "65"),
			[]string{"no source sells this", "EC2 Capacity Blocks hold 1 to 64 instances, not 65", "Training Plans reserve 1, 2, 4, 8, 16, 32 or 64 instances, not 65"}},
		{search("--source", "training-plans", "--duration", "2d", "--type", "g5.xlarge"), []string{"--type g5.xlarge", "training plans do not reserve ml.g5.xlarge"}},
		{search("--source", "training-plans", "--duration", "2d", "--count", "4", "--type", "ml.u-p6e-gb200x72", "--count", "0"), []string{"at least 1 UltraServer"}},
		{search("--source", "training-plans", "--duration", "2d", "-o", "csv"), []string{"-o csv has Capacity Blocks' columns only; list training plans"}},
		{search("--source", "training-plans"), []string{"--duration is required: training plans last 1 to 182 whole days"}},
	} {
		code, out, errs := cli.Run(tc.args...)
		if code != 2 || out != "" {
			t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2", tc.args, code, out, errs)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(errs, w) {
				t.Errorf("%v: stderr %q, want %q", tc.args, errs, w)
			}
		}
	}
	if n := cs.Calls.Load(); n != 0 {
		t.Fatalf("bad usage made %d calls", n)
	}
}

// --watch searches every source: training plans are watched with their own rules, their
// rows under the SOURCE column, and --until-found stops at the first plan found.
func TestOfferingsWatchTrainingPlans(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	args := func(extra ...string) []string {
		return append([]string{"offerings", "--endpoint-url", cs.URL, "--source", "training-plans", "--region", "us-east-1", "--type", "p5.48xlarge",
			"--count", "2", "--duration", "2d-5d", "--from", "now", "--to", "+30d", "--watch", "--interval", "5m", "--until-found"}, extra...)
	}
	wr, ctx := fakeWatch(t, 5, nil)
	code, out, errs := cli.RunIn(ctx, args("-o", "json")...)
	rounds := jsonRounds(t, out)
	if code != 0 || len(rounds) != 1 || len(rounds[0]) == 0 || len(wr.waits) != 0 || !strings.Contains(errs, "found, stopping (--until-found)") {
		t.Fatalf("json: exit %d, %d waits, stdout %s, stderr %q", code, len(wr.waits), out, errs)
	}
	for _, r := range rounds[0] {
		if r.TrainingPlanOfferingId == "" || r.CapacityBlockOfferingId != "" {
			t.Errorf("not a training plan offering: %+v", r)
		}
	}

	_, ctx = fakeWatch(t, 5, nil)
	code, out, errs = cli.RunIn(ctx, args()...)
	if lines := strings.Split(out, "\n"); code != 0 || !strings.HasPrefix(lines[0], "SOURCE") || !strings.Contains(out, "\ntraining-plans ") {
		t.Errorf("table: exit %d, stdout %q, stderr %q", code, out, errs)
	}

	// A fixed window ends the watch when it has passed, by the plans' rule as by the blocks'.
	wr, ctx = fakeWatch(t, 5, func(int) { cs.Emulator.Advance(36 * time.Hour) })
	code, out, errs = cli.RunIn(ctx, "offerings", "--endpoint-url", cs.URL, "--source", "training-plans", "--type", "p5.48xlarge", "--count", "2",
		"--duration", "2d", "--from", "2026-12-01T08:00:00Z", "--to", "2026-12-05T11:30:00Z", "--region", "us-east-1", "--watch", "--interval", "5m", "-o", "json")
	if code != 0 || len(wr.waits) != 3 || len(jsonRounds(t, out)) != 3 {
		t.Errorf("exit %d after %d waits, stdout %s; want 0 after 3 searches (108h on, the window has passed)", code, len(wr.waits), out)
	}
	if !strings.Contains(errs, "the window has passed, the watch is over") || !strings.Contains(errs, "--to") {
		t.Errorf("stderr %q", errs)
	}
}

// A search of both sources is split by model.SplitQuery: a length, a count or a type one
// source does not sell is searched in the other alone, and the skipped source is named
// with why; either form of a type is mapped for each.
func TestBothSourcesSearchWhatEachSells(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	for _, tc := range []struct {
		args          []string
		rows, notRows string
		note          string
	}{
		{[]string{"--type", "p5.48xlarge", "--duration", "15d"}, "training-plans ", "capacity-blocks ", "EC2 Capacity Blocks not searched: EC2 Capacity Blocks last 1d–14d"},
		{[]string{"--type", "p5.48xlarge", "--duration", "2d", "--count", "3"}, "capacity-blocks ", "training-plans ", "SageMaker Training Plans not searched: SageMaker Training Plans reserve 1, 2, 4"},
		{[]string{"--type", "ml.p5.48xlarge", "--duration", "2d"}, "capacity-blocks ", "", ""},
		{[]string{"--type", "ml.p5.48xlarge", "--duration", "2d"}, "training-plans ", "", ""},
	} {
		args := append([]string{"offerings", "--endpoint-url", cs.URL, "--source", "all", "--region", "us-east-1"}, tc.args...)
		code, out, errs := cli.Run(args...)
		if code != 0 || !strings.Contains(out, "\n"+tc.rows) || (tc.notRows != "" && strings.Contains(out, "\n"+tc.notRows)) {
			t.Errorf("%v: exit %d, want rows of %q only:\n%s\n%s", tc.args, code, tc.rows, out, errs)
		}
		if tc.note != "" && !strings.Contains(errs, tc.note) {
			t.Errorf("%v: stderr %q, want %q", tc.args, errs, tc.note)
		}
		if tc.note == "" && strings.Contains(errs, "not searched") {
			t.Errorf("%v: a source was skipped: %q", tc.args, errs)
		}
	}
	// either form for one source too: Capacity Blocks read ml.p5.48xlarge as p5.48xlarge
	code, out, errs := cli.Run("offerings", "--endpoint-url", cs.URL, "--region", "us-east-1", "--type", "ml.p5.48xlarge", "--duration", "2d")
	if code != 0 || !strings.Contains(out, " p5.48xlarge ") {
		t.Errorf("capacity-blocks, ml.p5.48xlarge: exit %d\n%s\n%s", code, out, errs)
	}
}

// A type one source does not sell searches the other and says, on stderr, which source was
// skipped and why (source.Split, as the TUI says on its status line); only a type no source
// sells is refused.
func TestTypeOneSourceDoesNotSellIsSkipped(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	cli.AsPerson(t, false, "")
	base := []string{"offerings", "--endpoint-url", cs.URL, "--source", "all", "--region", "us-east-1", "--duration", "2d"}
	code, out, errs := cli.Run(append(base, "--type", "ml.p6e-gb200.36xlarge")...)
	if code != 0 || strings.Contains(out, "\ncapacity-blocks ") || !strings.Contains(errs, "EC2 Capacity Blocks not searched: Capacity Blocks do not sell p6e-gb200.36xlarge") {
		t.Errorf("a type only the plans sell: exit %d\n%s\n%s", code, out, errs)
	}
	if !strings.Contains(errs, "us-east-1: training plans: ") {
		t.Errorf("the plans were not searched: %q", errs)
	}
	code, _, errs = cli.Run(append(base, "--type", "g6e.48xlarge")...)
	if code != 2 || !strings.Contains(errs, "no source sells this: EC2 Capacity Blocks not searched") || !strings.Contains(errs, "SageMaker Training Plans not searched") {
		t.Errorf("a type no source sells: exit %d, stderr %q", code, errs)
	}
}

// Against the emulator's buckets, a search larger than the burst queues: the progress lines
// on a terminal's stderr name the calls done and left and the wait AWS's rate imposes, the
// final line says every call was made, and stdout is the JSON alone.
func TestOfferingsProgressNamesCallsLeftAndWait(t *testing.T) {
	tty := true
	cli.Tweak(t, func(f *cmdutil.Factory) { f.IOStreams.SetStderrTTY(tty) })
	cmdtest.Env(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIATESTCLI000000001")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "cli-test-secret")
	base, _, cancel, wait := cli.ServeSim(t, "--seed", "5", "--rate-limits", "10")
	defer func() { cancel(); wait() }()
	from, to := time.Now().UTC().AddDate(0, 0, 2).Format("2006-01-02"), time.Now().UTC().AddDate(0, 0, 30).Format("2006-01-02")
	// 1–14 days in one region: 14 calls, more than the burst of 10 (9 with headroom).
	code, out, errs := cli.Run("offerings", "--endpoint-url", base, "--region", "us-east-1", "--type", "p5.48xlarge",
		"--duration", "1d-14d", "--from", from, "--to", to, "-o", "json", "--no-cache")
	if code != 0 {
		t.Fatalf("exit %d\n%s", code, errs)
	}
	if !strings.HasPrefix(strings.TrimSpace(out), "[") || strings.Contains(out, "calls") {
		t.Errorf("stdout is not the JSON alone: %.200q", out)
	}
	if !regexp.MustCompile(`(?m)^gpublock offerings: us-east-1 \d+/14 calls · waiting \d+s for AWS's rate · done in ~\d+s$`).MatchString(errs) {
		t.Errorf("no progress line naming the calls left and the wait:\n%s", errs)
	}
	if !strings.Contains(errs, "gpublock offerings: us-east-1 14/14 calls · done\n") {
		t.Errorf("no progress line at the end:\n%s", errs)
	}
	if !strings.HasSuffix(errs, "gpublock offerings: 14 of 14 calls made (us-east-1 14/14)\n") {
		t.Errorf("final line missing:\n%s", errs)
	}
	// Not a terminal and a small search: stderr stays empty for the scripts.
	tty = false
	_, _, errs = cli.Run("offerings", "--endpoint-url", base, "--region", "us-east-1", "--type", "p5.48xlarge",
		"--duration", "2d", "--from", from, "--to", to, "-o", "json", "--no-cache")
	if errs != "" {
		t.Errorf("stderr not a terminal: %q", errs)
	}
}

// A search that AWS's buckets make long says so on stderr before it starts; a small one
// says nothing.
func TestLargeSearchSaysItsCost(t *testing.T) {
	tab := apilimit.EC2()
	c, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1", EndpointURL: "http://127.0.0.1:1",
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider("AKIATESTCLI000000001", "cli-test-secret", "")),
		JournalDir:  t.TempDir(), RateLimits: &tab, Headroom: -1})
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now().UTC().Add(time.Hour)
	large := model.Query{InstanceTypes: []string{"p5.48xlarge", "p5en.48xlarge"}, Count: 1, Regions: []string{"us-east-1", "us-east-2"},
		Durations: model.DurationRange{MinDays: 1, MaxDays: 182}, Start: start, End: start.Add(28 * 24 * time.Hour)}
	var errs bytes.Buffer
	sayCost(&errs, c, large)
	if got := errs.String(); !strings.HasPrefix(got, "gpublock offerings: ") || !strings.Contains(got, " calls: about ") || !strings.Contains(got, "at AWS's rate in us-east-") {
		t.Fatalf("stderr %q", got)
	}
	small := large
	small.InstanceTypes, small.Regions, small.Durations = []string{"p5.48xlarge"}, []string{"us-east-1"}, model.DurationRange{MinDays: 2, MaxDays: 2}
	errs.Reset()
	sayCost(&errs, c, small)
	if errs.Len() != 0 {
		t.Fatalf("a one-call search said %q", errs.String())
	}
}
