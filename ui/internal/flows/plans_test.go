package flows

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources/sourcestest"
	"github.com/gpublock/gpublock/aws/trainingplans"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

// searchPlans moves the form to its source field, chooses Training Plans (n=1) or both
// (n=2), with every region that sells the type, and runs the search (searchFound).
func searchPlans(s *screen, n int) int {
	s.T.Helper()
	// Down to the regions, then back up to the source at the top of the form.
	s.Press("tab", "tab", "tab", "tab", "tab", "a", "shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab", "shift+tab")
	for range n {
		s.Press("right")
	}
	s.WaitText([]string{1: "‹ Training Plans ›", 2: "‹ Blocks and Plans ›"}[n])
	return searchFound(s)
}

// A search of training plans alone, against the emulator's SageMaker: the rows are plans,
// the Source column says so, and the detail shows the parts with their honest hours.
func TestPlanSearchFlow(t *testing.T) {
	atSizes(t, goldenSizes, func(t *testing.T, w, h int) {
		b, _ := emulatorBackend(t, ec2sim.Faults{})
		s := readyScreen(t, testOptions(b), w, h)
		searchPlans(s, 1)
		s.Press("g", "d")
		s.WaitText("Part 1")
		m := final(s)
		sel, ok := m.Inspect().Search.Table().Selected()
		if !ok {
			t.Fatal("no row selected")
		}
		for i := range m.Inspect().Search.Table().Len() {
			if o := m.Inspect().Search.Table().Row(i); o.Source != model.SourceTrainingPlan || !strings.HasPrefix(o.InstanceType, "ml.") {
				t.Errorf("row %d is a %s of %s, in a search of training plans alone", i, o.Source.Label(), o.InstanceType)
			}
		}
		view := s.Emu.String()
		hours := model.PartsHours(sel.Parts)
		wants := []string{sel.ID[:40], fmt.Sprintf("%d hours reserved", hours)}
		if w == 160 {
			wants = append(wants, "aws sagemaker search-training-plan-offerings")
		}
		for _, want := range wants {
			if !strings.Contains(view, want) {
				t.Errorf("the detail lacks %q:\n%s", want, view)
			}
		}
		if w == 160 && !strings.Contains(view, "Plan ") {
			t.Errorf("the table has no Source column saying Plan:\n%s", view)
		}
		golden.RequireEqual(t, []byte(view))
	})
}

// Buying a training plan: the confirmation says what a block's says, with the target, each
// part and that there is no dry run; the typed word buys exactly one plan; the receipt
// follows it from Pending to Scheduled on the emulator's clock.
func TestPlanPurchaseFlow(t *testing.T) {
	atSizes(t, goldenSizes, func(t *testing.T, w, h int) {
		b, sim := emulatorBackend(t, ec2sim.Faults{})
		tp := trainingplans.New(sourcestest.ClientOf(t, b))
		s := readyScreen(t, actionTestOptions(b), w, h)
		searchPlans(s, 1)
		s.Press("g", "enter")
		text := s.WaitText("no dry run for")
		flat := flatText(text)
		uitest.MustContain(t, flat, "Buy a Training Plan", "123456789012", "training job", "Part 1", "Upfront fee",
			"cannot be cancelled or modified", "there is no dry run for training plans", "Type buy")
		if strings.Contains(flat, "✓ allowed") || strings.Contains(flat, "Platform") {
			t.Errorf("a plan's dialog speaks of a dry run's answer or a platform:\n%s", text)
		}
		golden.RequireEqual(t, []byte(text))
		if plans, err := tp.Plans(context.Background(), model.Regions()); err != nil || len(plans) != 0 {
			t.Fatalf("before the typed word: %d plans (%v)", len(plans), err)
		}
		s.Type("buy")
		s.Press("enter")
		s.WaitText("BOUGHT: the training plan is yours.")
		s.WaitText("Pending")
		sim.Advance(2 * time.Hour)
		s.WaitText("Scheduled · starts in")
		final(s)
		plans, err := tp.Plans(context.Background(), model.Regions())
		if err != nil || len(plans) != 1 {
			t.Fatalf("after buying: %d plans (%v), want exactly one", len(plans), err)
		}
		if p := plans[0]; !strings.HasPrefix(p.Name, "gpb-") || p.Status != trainingplans.StatusScheduled {
			t.Errorf("the plan bought: %s %s, want a gpb- name, Scheduled", p.Name, p.Status)
		}
	})
}

// buyPlan buys, through the adapter, the first 2-day ml.p5.48xlarge plan in region.
func buyPlan(t *testing.T, b source.Backend, region string) trainingplans.Plan {
	t.Helper()
	tp := trainingplans.New(sourcestest.ClientOf(t, b))
	first := firstPlanOffering(t, tp, region)
	res, err := tp.Purchase(context.Background(), first, nil)
	if err != nil {
		t.Fatalf("buying a plan: %v", err)
	}
	return res.Plan
}

// The reservations screen lists a plan beside a block, with its status, capacity and
// countdown; the plan's detail shows its parts, its ARN and how to pass it, and y copies it.
func TestReservationsPlanAndBlock(t *testing.T) {
	atSizes(t, goldenSizes, func(t *testing.T, w, h int) {
		b, sim := emulatorBackend(t, ec2sim.Faults{})
		sourcestest.BuyBlock(t, b, testNow.Add(24*time.Hour))
		plan := buyPlan(t, b, "us-east-2")
		at := testNow.Add(time.Hour) // paid, before the plan's start
		sim.SetTime(at)
		list, err := b.Blocks(context.Background(), []string{"us-east-1", "us-east-2"})
		if err != nil || len(list.Blocks) != 2 {
			t.Fatalf("%d reservations (%+v), %v", len(list.Blocks), list.Problems, err)
		}
		var sources []model.Source
		for _, r := range list.Blocks {
			sources = append(sources, r.Source)
		}
		if !slices.Contains(sources, model.SourceTrainingPlan) || !slices.Contains(sources, model.SourceCapacityBlock) {
			t.Fatalf("the list holds %v, want a block and a plan", sources)
		}
		// The plan's name is its purchase's random request id: a fixed one keeps the golden.
		for i, r := range list.Blocks {
			if r.Source == model.SourceTrainingPlan {
				list.Blocks[i].ReservationID = fixedPlanName
				list.Blocks[i].ARN = strings.ReplaceAll(r.ARN, plan.Name, fixedPlanName)
				plan.ARN = list.Blocks[i].ARN
			}
		}
		list.Now = at
		opts := testOptions(b)
		opts.Now = func() time.Time { return at }
		m := blocksListed(opts, list, w, h)
		view := requestIDRE.ReplaceAllString(ansi.Strip(m.View().Content), "gpb-REQUEST-ID")
		if !strings.Contains(view, "ml.p5.48xlarge ×") || !strings.Contains(view, " p5.48xlarge ×") || !strings.Contains(view, "Reservations") {
			t.Errorf("the screen lacks the plan or the block:\n%s", view)
		}
		golden.RequireEqual(t, []byte(view))

		// The plan's detail, whichever row it is on.
		for i := 0; i < 2; i++ {
			if sel, ok := m.Inspect().Blocks.Table().Selected(); ok && sel.Source == model.SourceTrainingPlan {
				break
			}
			m = update(m, uitest.Key("j"))
		}
		m = update(m, uitest.Key("enter"))
		detail := ansi.Strip(m.View().Content)
		flat := flatText(detail)
		wants := []string{"Scheduled", "ResourceConfig.TrainingPlanArn", "SageMaker stops the jobs"}
		if w == 160 {
			wants = append(wants, "aws sagemaker create-training-job")
		}
		for _, want := range wants {
			if !strings.Contains(flat, want) {
				t.Errorf("the plan's detail lacks %q:\n%s", want, detail)
			}
		}
		if !strings.Contains(strings.ReplaceAll(flat, " ", ""), plan.ARN) {
			t.Errorf("the plan's detail lacks its ARN %s:\n%s", plan.ARN, detail)
		}
		_, cmd := m.Update(uitest.Key("y"))
		if cmd == nil {
			t.Fatal("y copied nothing")
		}
	})
}

// Extending a training plan from the reservations screen: e lists the lengths its extension
// offerings have, the confirmation says there is no dry run, the typed word extends it once,
// and its end moves as SageMaker lists it.
func TestPlanExtensionFlow(t *testing.T) {
	atSizes(t, goldenSizes, func(t *testing.T, w, h int) {
		b, sim := emulatorBackend(t, ec2sim.Faults{})
		plan := createPlanNamed(t, b, sim, "us-east-2", "tpui-golden-plan")
		sim.SetTime(plan.Start.Add(time.Hour))
		s := blocksScreen(t, actionTestOptions(b), w, h)
		s.WaitFor("the active plan", func(text string) bool {
			return strings.Contains(text, "ml.p5.48xlarge ×") && strings.Contains(text, "1 training plan")
		})
		s.Press("e")
		s.WaitLengths()  // the lengths stream in: the shortest is first once all have answered
		s.Press("enter") // the shortest length offered
		text := s.WaitText("no dry run for")
		flat := flatText(text)
		uitest.MustContain(t, flat, "Plan", plan.Name, "there is no dry run for training plans", "Type extend")
		if strings.Contains(flat, "✓ allowed") || strings.Contains(flat, "instances terminate") {
			t.Errorf("a plan's extension speaks of a dry run's answer or of terminated instances:\n%s", text)
		}
		golden.RequireEqual(t, []byte(text))
		s.Type("extend")
		s.Press("enter")
		s.WaitFor("the extension bought", func(text string) bool {
			return strings.Contains(text, "EXTENSION BOUGHT") || strings.Contains(text, "EXTENDED:")
		})
		sim.Advance(10 * time.Minute)
		s.WaitText("EXTENDED:")
		final(s)
		tp := trainingplans.New(sourcestest.ClientOf(t, b))
		after, err := tp.Describe(context.Background(), "us-east-2", plan.Name)
		if err != nil {
			t.Fatal(err)
		}
		if !after.End.After(plan.End) {
			t.Errorf("the plan ends %s after the extension, as before (%s)", after.End, plan.End)
		}
		hist, err := tp.ExtensionHistory(context.Background(), "us-east-2", plan.ARN)
		if err != nil || len(hist) != 1 {
			t.Errorf("the plan's extension history: %d (%v), want exactly one", len(hist), err)
		}
	})
}

// firstPlanOffering is the 2-day ml.p5.48xlarge plan offering in region that starts first.
func firstPlanOffering(t *testing.T, tp *trainingplans.Client, region string) trainingplans.Offering {
	t.Helper()
	q := trainingplans.Query{InstanceTypes: []string{"ml.p5.48xlarge"}, Count: 1, Days: []int{2}, Start: testNow,
		End: testNow.Add(28 * 24 * time.Hour), Regions: []string{region}}
	var first trainingplans.Offering
	for ev := range tp.Search(context.Background(), q) {
		for _, o := range ev.Offerings {
			if first.ID == "" || o.Start().Before(first.Start()) {
				first = o
			}
		}
	}
	if first.ID == "" {
		t.Fatalf("no plan offering in %s", region)
	}
	return first
}

// createPlanNamed buys the first 2-day plan offering in region under a name of the test's,
// as another tool would: the emulator's extension market follows a plan's name, which
// gpublock's purchases draw at random.
func createPlanNamed(t *testing.T, b source.Backend, sim *ec2sim.Server, region, name string) trainingplans.Plan {
	t.Helper()
	tp := trainingplans.New(sourcestest.ClientOf(t, b))
	first := firstPlanOffering(t, tp, region)
	sm := sagemaker.New(sagemaker.Options{Region: region, BaseEndpoint: aws.String(tp.Endpoint()),
		Credentials: credentials.NewStaticCredentialsProvider("AKIAUITEST0000000000", "ui-test-secret", "")})
	if _, err := sm.CreateTrainingPlan(context.Background(), &sagemaker.CreateTrainingPlanInput{
		TrainingPlanName: aws.String(name), TrainingPlanOfferingId: aws.String(first.ID)}); err != nil {
		t.Fatalf("creating plan %s: %v", name, err)
	}
	sim.Advance(10 * time.Minute) // paid
	p, err := tp.Describe(context.Background(), region, name)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// fixedPlanName stands for a plan's random name in goldens.
const fixedPlanName = "gpb-000000000000000000000000"

// A search of both sources streams blocks and plans into one table, comparable on fee and
// rates, each row saying its source; a region's line counts both.
func TestBothSourcesSearch(t *testing.T) {
	atSizes(t, goldenSizes, func(t *testing.T, w, h int) {
		b, _ := emulatorBackend(t, ec2sim.Faults{})
		s := readyScreen(t, testOptions(b), w, h)
		found := searchPlans(s, 2)
		s.Press("F")
		s.WaitText("Upfront fee▲")
		m := final(s)
		bySource := map[model.Source]int{}
		for i := range m.Inspect().Search.Table().Len() {
			o := m.Inspect().Search.Table().Row(i)
			bySource[o.Source]++
			if i > 0 && o.Fee.Cmp(m.Inspect().Search.Table().Row(i-1).Fee) < 0 {
				t.Errorf("row %d (%s) is cheaper than the row before it in a fee sort", i, o.Source.Label())
			}
		}
		if bySource[model.SourceCapacityBlock] == 0 || bySource[model.SourceTrainingPlan] == 0 || found != m.Inspect().Search.Table().Len() {
			t.Fatalf("found %d: %v by source, want both in the one table", found, bySource)
		}
		view := s.Emu.String()
		if !strings.Contains(view, "Source") || !strings.Contains(view, "Block ") || w == 160 && !strings.Contains(view, "Plan ") {
			t.Errorf("the table does not say each row's source:\n%s", view)
		}
		golden.RequireEqual(t, []byte(view))
	})
}
