package purchase

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// The window of the test's blocks: 2 days from 2026-12-03 11:30, so that every one holds
// its instances on 2026-12-03, 04 and 05.
var (
	capFrom = time.Date(2026, 12, 3, 0, 0, 0, 0, time.UTC)
	capTo   = time.Date(2026, 12, 5, 12, 0, 0, 0, time.UTC)
)

// hold buys, in the account of the emulator at url, blocks of that window until they hold
// at least want instances (and at most want+16), and returns how many they hold.
func hold(t *testing.T, url string, want int) int {
	t.Helper()
	ctx := context.Background()
	c := capacityblocks.New(cmdtest.Client(t, url))
	held := 0
	for _, n := range []int{32, 16} {
		for _, typ := range []string{"p5.48xlarge", "p4d.24xlarge", "trn1.32xlarge", "p5en.48xlarge", "p5e.48xlarge", "p6-b200.48xlarge"} {
			q := model.Query{InstanceTypes: []string{typ}, Count: n, Durations: model.DurationRange{MinDays: 2, MaxDays: 2},
				Start: capFrom, End: capTo, Regions: model.RegionsSelling(typ)}
			var offs []model.Offering
			for ev := range c.Search(ctx, q) {
				offs = append(offs, ev.Offerings...)
			}
			for _, o := range offs {
				if held >= want {
					return held
				}
				if held+o.Count > want+16 {
					continue
				}
				if _, err := c.Purchase(ctx, o, "", nil); err == nil {
					held += o.Count
				}
			}
		}
	}
	if held < want {
		t.Fatalf("the emulator sold only %d instances in the window, want %d", held, want)
	}
	return held
}

// With organization: true, a purchase that would take the organization's Capacity Blocks
// past 256 instances on a date is warned of, with the date and the figures, before the
// typed word; answered no, nothing is bought.
func TestPurchaseWarnsOfTheOrganizationsCap(t *testing.T) {
	accts := cmdtest.StartAccounts(t, "111122223333", "222233334444")
	heldA := hold(t, accts[0].Sim.URL, 200)
	heldB := hold(t, accts[1].Sim.URL, 241-heldA)
	cmdtest.WriteConfig(t, "organization: true\naccounts: [{profile: a}, {profile: b}]\n")

	search := []string{"--region", "all", "--type", "p5.48xlarge", "--count", "16", "--duration", "2d",
		"--from", capFrom.Format(time.RFC3339), "--to", capTo.Format(time.RFC3339)}
	cli.AsPerson(t, false, "")
	o := cli.ListOfferings(t, append([]string{"--profile", "a"}, search...)...)[0]
	search[1] = o.Region // purchase names the offering's one region
	before := len(reservationsAs(t, "a", o.Region))

	cli.AsPerson(t, true, "no\n")
	code, _, errs := cli.Run(append([]string{"purchase", o.CapacityBlockOfferingId}, search...)...)
	warning := strings.Index(errs, "WARNING: ORGANIZATION CAP")
	prompt := strings.Index(errs, "Type buy")
	if code != 1 || warning < 0 || prompt < 0 || warning > prompt {
		t.Fatalf("exit %d; the warning must come before the typed word:\n%s", code, errs)
	}
	total := heldA + heldB
	for _, s := range []string{"on 2026-12-03", "hold " + strconv.Itoa(total) + " instances", "this adds 16", strconv.Itoa(total+16) + " in all", "256"} {
		if !cmdtest.Says(errs, s) {
			t.Errorf("the warning lacks %q:\n%s", s, errs)
		}
	}
	if !strings.Contains(errs, "cancelled; nothing was bought") {
		t.Errorf("stderr:\n%s", errs)
	}
	assertFits(t, "the organization's warning", errs)
	if after := len(reservationsAs(t, "a", o.Region)); after != before {
		t.Errorf("%d reservations after answering no, %d before", after, before)
	}

	// Within the cap it says what is held, and no warning.
	cmdtest.WriteConfig(t, "organization: true\naccounts: [{profile: a}]\n") // b's blocks no longer count
	code, _, errs = cli.Run(append([]string{"purchase", o.CapacityBlockOfferingId}, search...)...)
	if code != 1 || strings.Contains(errs, "WARNING: ORGANIZATION CAP") ||
		!cmdtest.Says(errs, "Organization: at most "+strconv.Itoa(heldA)+" of the organization's 256") {
		t.Errorf("within the cap: exit %d\n%s", code, errs)
	}
	// Without organization: true nothing is said of it.
	cmdtest.WriteConfig(t, "accounts: [{profile: a}, {profile: b}]\n")
	if _, _, errs = cli.Run(append([]string{"purchase", o.CapacityBlockOfferingId}, search...)...); strings.Contains(errs, "rganization") {
		t.Errorf("without organization: true:\n%s", errs)
	}
}

func reservationsAs(t *testing.T, profile, region string) []printers.BlockJSON {
	t.Helper()
	return cmdtest.RunJSON[[]printers.BlockJSON](t, cli, "blocks", "--profile", profile, "--region", region, "-o", "json")
}
