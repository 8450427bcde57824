package trainingplans

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/internal/apitest"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

func TestSearchStreamsPerRegion(t *testing.T) {
	_, rc, c := simClient(t)
	regions := []string{"us-east-1", "us-east-2", "us-west-2"}
	offs, st := collect(t, c.Search(ctx, query(regions...)))
	if len(offs) == 0 {
		t.Fatal("no offerings in three regions and three lengths")
	}
	if got := rc.Of("SearchTrainingPlanOfferings"); got != len(regions)*3 {
		t.Fatalf("%d searches; want one per region and length (%d)", got, len(regions)*3)
	}
	seen := map[string]bool{}
	for _, o := range offs {
		if seen[o.Region+o.ID] {
			t.Fatalf("offering %s delivered twice", o.ID)
		}
		seen[o.Region+o.ID] = true
		if o.Fee.Micros() <= 0 || o.Hours%24 != 0 || o.Hours < 48 || len(o.Capacities) == 0 {
			t.Fatalf("offering %+v", o)
		}
		var h int64
		for _, cp := range o.Capacities {
			h += cp.Hours
			if cp.Count != 2 || cp.InstanceType != "ml.p5.48xlarge" {
				t.Fatalf("capacity %+v", cp)
			}
		}
		if h != o.Hours || o.InstanceHours() != 2*h {
			t.Fatalf("hours %d, capacities %d, instance-hours %d", o.Hours, h, o.InstanceHours())
		}
	}
	for _, r := range regions {
		if s := st[r]; !s.State.Done() || s.State == model.RegionError {
			t.Fatalf("%s ended %v", r, s)
		}
	}
}

func TestSearchRefusesBrokenRulesWithoutCalls(t *testing.T) {
	_, rc, c := simClient(t)
	for _, tc := range []struct {
		q    Query
		want string
	}{
		{Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 3, Days: []int{2}}, "1, 2, 4, 8, 16, 32 or 64"},
		{Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 2, Days: []int{200}}, "1 to 182"},
		{Query{InstanceTypes: []string{"g6.48xlarge"}, Count: 2, Days: []int{2}}, "do not reserve ml.g6.48xlarge"},
		{Query{InstanceTypes: []string{"p5.48xlarge"}, Count: 2, Days: []int{2}, Targets: []string{"notebook"}}, "target resource"},
	} {
		_, st := collect(t, c.Search(ctx, tc.q))
		s := st["us-east-1"]
		if s.State != model.RegionError || !strings.Contains(s.Message, tc.want) {
			t.Fatalf("%+v: %v; want an error naming %q", tc.q, s, tc.want)
		}
	}
	if n := rc.Of("SearchTrainingPlanOfferings"); n != 0 {
		t.Fatalf("%d calls for queries that break the rules", n)
	}
}

func TestSearchTypeNotOfferedIsEmpty(t *testing.T) {
	_, _, c := simClient(t)
	tt, r := simtest.TypeNotSoldIn(t, ec2sim.Regions())
	q := query(r)
	q.InstanceTypes = []string{tt}
	_, st := collect(t, c.Search(ctx, q))
	if s := st[r]; s.State != model.RegionEmpty || !strings.Contains(s.Message, "not offered") {
		t.Fatalf("%s %s: %v; want empty, not offered", r, tt, s)
	}
}

func TestSearchRegionDownIsAnError(t *testing.T) {
	_, url, _ := newSim(t, ec2sim.Faults{Down: []string{"us-east-2"}})
	c := newClient(t, url, nil)
	_, st := collect(t, c.Search(ctx, query("us-east-1", "us-east-2")))
	if s := st["us-east-2"]; s.State != model.RegionError || !strings.Contains(s.Message, "SageMaker is unavailable") {
		t.Fatalf("down region: %v", s)
	}
	if s := st["us-east-1"]; s.State == model.RegionError {
		t.Fatalf("a healthy region failed: %v", s)
	}
}

func TestPurchaseJournalsAndFollowsLifecycle(t *testing.T) {
	sim, rc, c := simClient(t)
	o := someOffering(t, c)
	res, err := c.Purchase(ctx, o, map[string]string{"team": "ml"})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != source.Bought || res.Recovered || res.Plan.Name != PlanName(res.RequestID) || !strings.HasPrefix(res.RequestID, "gpb-") {
		t.Fatalf("result %+v", res)
	}
	if res.Plan.Status != StatusPending || res.Plan.Fee != o.Fee || len(res.Plan.Capacities) != len(o.Capacities) {
		t.Fatalf("plan just bought: %+v", res.Plan)
	}
	if n := rc.Of("CreateTrainingPlan"); n != 1 {
		t.Fatalf("%d CreateTrainingPlan calls", n)
	}
	j := apitest.Journal(t, c.Base())
	if len(j) != 2 || j[0].Phase != "intent" || j[1].Phase != "outcome" || j[1].Outcome != "bought" ||
		j[0].Action != ActionCreate || j[1].Result != res.Plan.ARN || j[0].Offering != o.ID || j[0].RequestID != res.RequestID {
		t.Fatalf("journal %+v", j)
	}
	sim.Advance(10 * time.Minute)
	p, err := c.Describe(ctx, o.Region, res.Plan.ARN)
	if err != nil || p.Status != StatusScheduled {
		t.Fatalf("after payment: %v %v", p.Status, err)
	}
	sim.SetTime(o.Start().Add(time.Minute))
	if p, _ := c.Describe(ctx, o.Region, res.Plan.Name); p.Status != StatusActive || p.Available != o.Capacities[0].Count {
		t.Fatalf("after the start: %s, %d available", p.Status, p.Available)
	}
}

func TestLostReplySettlesToExactlyOnePlan(t *testing.T) {
	sim, rc, c := simClient(t)
	o := someOffering(t, c)
	sim.SetFaults(ec2sim.Faults{LostReply: 1})
	res, err := c.Purchase(ctx, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != source.Bought || !res.Recovered || res.Plan.Name != res.RequestID {
		t.Fatalf("after a lost reply: %+v", res)
	}
	if n := rc.Of("CreateTrainingPlan"); n != 1 {
		t.Fatalf("CreateTrainingPlan sent %d times; a purchase is never retried", n)
	}
	sim.SetFaults(ec2sim.Faults{})
	plans, err := c.Plans(ctx, []string{o.Region})
	if err != nil || len(plans) != 1 || plans[0].Name != res.RequestID {
		t.Fatalf("plans after a lost reply: %+v %v", plans, err)
	}
	j := apitest.Journal(t, c.Base())
	if last := j[len(j)-1]; last.Outcome != "bought" || !last.Recovered {
		t.Fatalf("journal outcome %+v", last)
	}
}

func TestServerErrorWithFailedLookupIsUnknown(t *testing.T) {
	sim, rc, c := simClient(t)
	o := someOffering(t, c)
	// Whose records these are is learnt before the fault (a failing STS refuses the
	// purchase before anything is sent: its intent could not be kept).
	if _, err := c.Base().StateStore(ctx); err != nil {
		t.Fatal(err)
	}
	sim.SetFaults(ec2sim.Faults{Error: 1})
	res, err := c.Purchase(ctx, o, nil)
	var pe *source.ActionError
	if !errors.As(err, &pe) || pe.Outcome != source.Unknown || res.Outcome != source.Unknown {
		t.Fatalf("want Unknown, got %+v %v", res, err)
	}
	if !strings.Contains(pe.Explanation.Hint, "Do not buy again") || !strings.Contains(pe.Explanation.Hint, res.RequestID) {
		t.Fatalf("hint %q", pe.Explanation.Hint)
	}
	if n := rc.Of("CreateTrainingPlan"); n != 1 {
		t.Fatalf("CreateTrainingPlan sent %d times under 5xx; want once", n)
	}
}

func TestRefusalsBuyNothing(t *testing.T) {
	_, url, rc := newSim(t, ec2sim.Faults{})
	c := newClient(t, url, nil)
	o := someOffering(t, c)
	ro := newClient(t, url, func(cfg *awsapi.Config) { cfg.ReadOnly = true })
	if _, err := ro.Purchase(ctx, o, nil); !errors.Is(err, source.ErrReadOnly) {
		t.Fatalf("read-only: %v", err)
	}
	low := model.MoneyFromCents(100)
	capped := newClient(t, url, func(cfg *awsapi.Config) { cfg.MaxSpend = &low })
	if _, err := capped.Purchase(ctx, o, nil); !errors.Is(err, source.ErrOverSpendCap) {
		t.Fatalf("cap: %v", err)
	}
	if n := rc.Of("CreateTrainingPlan"); n != 0 {
		t.Fatalf("%d CreateTrainingPlan calls after refusals", n)
	}
	if _, err := c.Purchase(ctx, o, map[string]string{"aws:x": "y"}); err == nil {
		t.Fatal("a reserved tag key was accepted")
	}
	if _, err := c.Purchase(ctx, o, nil); err != nil {
		t.Fatal(err)
	}
	// The same offering again: spent, a 4xx, not bought, and said so.
	res, err := c.Purchase(ctx, o, nil)
	var pe *source.ActionError
	if !errors.As(err, &pe) || res.Outcome != source.NotBought || pe.Outcome != source.NotBought || pe.Explanation.Code != "ResourceNotFound" {
		t.Fatalf("spent offering: %+v %v", res, err)
	}
	j := apitest.Journal(t, c.Base())
	if last := j[len(j)-1]; last.Outcome != "not-bought" || last.Error == "" {
		t.Fatalf("journal %+v", last)
	}
}

func TestExtendAndLostExtensionReply(t *testing.T) {
	sim, rc, c := simClient(t)
	o := someOffering(t, c)
	res, err := c.Purchase(ctx, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ExtensionOfferings(ctx, res.Plan, 1); err == nil {
		t.Fatal("a pending plan offered extensions")
	}
	if _, err := c.ExtensionOfferings(ctx, res.Plan, 15); err == nil {
		t.Fatal("15 days accepted; extensions go by weeks past 14 days")
	}
	sim.Advance(10 * time.Minute)
	p, _ := c.Describe(ctx, o.Region, res.Plan.Name)
	var off ExtensionOffering
	for _, d := range []int{1, 2, 3, 4, 5, 6, 7, 14, 21} {
		offs, err := c.ExtensionOfferings(ctx, p, d)
		if err != nil {
			t.Fatal(err)
		}
		if len(offs) > 0 {
			off = offs[0]
			break
		}
	}
	if off.ID == "" {
		t.Fatal("no extension offered at any length")
	}
	if !off.Start.Equal(p.End) || off.Fee.Micros() <= 0 {
		t.Fatalf("extension %+v for a plan ending %s", off, p.End)
	}
	sim.SetFaults(ec2sim.Faults{LostReply: 1})
	x, err := c.Extend(ctx, p, off)
	if err != nil {
		t.Fatal(err)
	}
	if x.Outcome != source.Bought || !x.Recovered || x.Extension.OfferingID != off.ID {
		t.Fatalf("extension after a lost reply: %+v", x)
	}
	if n := rc.Of("ExtendTrainingPlan"); n != 1 {
		t.Fatalf("ExtendTrainingPlan sent %d times", n)
	}
	sim.SetFaults(ec2sim.Faults{})
	sim.Advance(10 * time.Minute)
	p2, _ := c.Describe(ctx, o.Region, p.Name)
	if !p2.End.Equal(off.End) {
		t.Fatalf("plan ends %s after the extension to %s was paid", p2.End, off.End)
	}
}

func TestPlansPagesAndSettleIntent(t *testing.T) {
	_, _, c := simClient(t)
	c.pageSize = 1
	offs, _ := collect(t, c.Search(ctx, query("us-east-1", "us-east-2", "us-west-2")))
	bought := map[string]bool{}
	for _, o := range offs {
		if len(bought) == 3 {
			break
		}
		res, err := c.Purchase(ctx, o, nil)
		if err != nil {
			continue // offerings overlapping one bought share its capacity
		}
		bought[res.Plan.Name] = true
	}
	if len(bought) < 2 {
		t.Fatalf("bought %d plans", len(bought))
	}
	plans, err := c.Plans(ctx, []string{"us-east-1", "us-east-2", "us-west-2"})
	if err != nil || len(plans) != len(bought) {
		t.Fatalf("listed %d plans of %d (%v)", len(plans), len(bought), err)
	}
	for _, p := range plans {
		if !bought[p.Name] {
			t.Fatalf("listed a plan not bought: %s", p.Name)
		}
	}
	// A journalled intent settles by the plan's name.
	for _, line := range apitest.Journal(t, c.Base()) {
		if line.Phase != "intent" || !bought[line.RequestID] {
			continue
		}
		ok, arn, err := c.SettleIntent(ctx, source.JournalEntry{Action: line.Action, RequestID: line.RequestID, Region: line.Region})
		if err != nil || !ok || !strings.HasSuffix(arn, "/"+line.RequestID) {
			t.Fatalf("settle %s: %v %s %v", line.RequestID, ok, arn, err)
		}
	}
	ok, _, err := c.SettleIntent(ctx, source.JournalEntry{Action: ActionCreate, RequestID: "gpb-000000000000000000000000", Region: "us-east-1"})
	if err != nil || ok {
		t.Fatalf("an intent never sent settled as bought: %v %v", ok, err)
	}
}

func TestEndpointFromEnvironment(t *testing.T) {
	_, url, rc := newSim(t, ec2sim.Faults{})
	c := newClient(t, "", nil)
	if c.Endpoint() != "" {
		t.Fatalf("endpoint %q without any setting", c.Endpoint())
	}
	t.Setenv("AWS_ENDPOINT_URL_SAGEMAKER", url)
	c = New(c.Base())
	if c.Endpoint() != url {
		t.Fatalf("endpoint %q; AWS_ENDPOINT_URL_SAGEMAKER is %s", c.Endpoint(), url)
	}
	collect(t, c.Search(ctx, query("us-east-1")))
	if rc.Of("SearchTrainingPlanOfferings") == 0 {
		t.Fatal("the search did not reach AWS_ENDPOINT_URL_SAGEMAKER")
	}
}

func TestCallLogCarriesThePlansRequestID(t *testing.T) {
	sim, url, _ := newSim(t, ec2sim.Faults{})
	var buf strings.Builder
	log := awsapi.NewCallLog(&lockedWriter{w: &buf})
	c := newClient(t, url, func(cfg *awsapi.Config) { cfg.CallLog = log })
	o := someOffering(t, c)
	sim.SetFaults(ec2sim.Faults{LostReply: 1})
	res, err := c.Purchase(ctx, o, nil)
	if err != nil {
		t.Fatal(err)
	}
	text := buf.String()
	for _, action := range []string{"CreateTrainingPlan", "DescribeTrainingPlan"} {
		found := false
		for _, line := range strings.Split(text, "\n") {
			if strings.Contains(line, "action="+action+" ") && strings.Contains(line, "gpublock_request_id="+res.RequestID) {
				found = true
			}
		}
		if !found {
			t.Errorf("no %s line with gpublock_request_id=%s in:\n%s", action, res.RequestID, text)
		}
	}
	if strings.Contains(text, simtest.SecretKey) {
		t.Fatal("the call log holds the secret key")
	}
}

type lockedWriter struct {
	mu sync.Mutex
	w  *strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

func TestSearchThrottledThenError(t *testing.T) {
	_, url, rc := newSim(t, ec2sim.Faults{Throttle: 1})
	c := newClient(t, url, nil)
	q := query("us-east-1")
	q.Days = []int{2}
	sawThrottled := false
	var last model.RegionStatus
	for ev := range c.Search(ctx, q) {
		if ev.Status != nil {
			last = *ev.Status
			sawThrottled = sawThrottled || ev.Status.State == model.RegionThrottled
		}
	}
	if !sawThrottled || last.State != model.RegionError || !strings.Contains(last.Message, "throttling") {
		t.Fatalf("throttled search: saw throttled %v, ended %v", sawThrottled, last)
	}
	if n := rc.Of("SearchTrainingPlanOfferings"); n < 2 {
		t.Fatalf("a throttled read was tried %d times; the SDK retries reads", n)
	}
}

func TestDeniedPurchaseNamesTheAction(t *testing.T) {
	sim, _, c := simClient(t)
	o := someOffering(t, c)
	var f ec2sim.Faults
	if err := ec2sim.ParseFault("deny=sagemaker:CreateTrainingPlan", &f); err != nil {
		t.Fatal(err)
	}
	sim.SetFaults(f)
	res, err := c.Purchase(ctx, o, nil)
	var pe *source.ActionError
	if !errors.As(err, &pe) || res.Outcome != source.NotBought || !strings.Contains(pe.Error(), "sagemaker:CreateTrainingPlan") {
		t.Fatalf("denied purchase: %+v %v", res, err)
	}
	sim.SetFaults(ec2sim.Faults{})
	if plans, err := c.Plans(ctx, []string{o.Region}); err != nil || len(plans) != 0 {
		t.Fatalf("a denied purchase left %d plans (%v)", len(plans), err)
	}
}

// A purchase interrupted while its call is in flight (the person pressed ctrl+c, a
// timeout) may still be carried out: it is settled by describing the plan's name.
func TestInterruptedPurchaseIsSettled(t *testing.T) {
	_, rc, c := simClient(t)
	o := someOffering(t, c)
	interrupted, cancel := context.WithCancel(ctx)
	defer cancel()
	// Cancelled once the call has reached AWS, which carries it out all the same.
	rc.SetIntercept(func(_ http.ResponseWriter, r simtest.Recorded, _ *http.Request) bool {
		if r.Action == "CreateTrainingPlan" {
			cancel()
		}
		return false
	})
	res, err := c.Purchase(interrupted, o, nil)
	if err != nil {
		t.Fatalf("interrupted purchase: %v", err)
	}
	// Whether the answer still got through before the cancel is a race; either way the
	// plan is bought, once.
	if res.Outcome != source.Bought || res.Plan.Name != res.RequestID {
		t.Fatalf("interrupted purchase: %+v", res)
	}
	if n := rc.Of("CreateTrainingPlan"); n != 1 {
		t.Fatalf("CreateTrainingPlan sent %d times", n)
	}
	if plans, err := c.Plans(ctx, []string{o.Region}); err != nil || len(plans) != 1 {
		t.Fatalf("%d plans after an interrupted purchase (%v)", len(plans), err)
	}
}
