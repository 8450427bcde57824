package purchase

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// No line of a confirmation is wider than 80 columns, where a terminal would cut a word of
// what is agreed to; only a line holding a word too long for any line (an id) may be.
func TestConfirmationFitsEightyColumns(t *testing.T) {
	cs := cmdtest.StartPlanSim(t)
	off := cli.PickOffering(t, cs.URL)
	plan := listPlans(t, cs.URL)[0]
	for _, c := range []struct {
		name string
		args []string
	}{
		{"block", cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId)},
		// Minutes later: the plan is found by its listing's window, which is said too.
		{"plan", append([]string{"purchase", plan.TrainingPlanOfferingId, "--endpoint-url", cs.URL}, planFlags...)},
	} {
		name, args := c.name, c.args
		if name == "plan" {
			cs.Emulator.Advance(3 * time.Minute)
		}
		cli.AsPerson(t, true, "buy it\n\n")
		_, _, errs := cli.Run(args...)
		if !strings.Contains(errs, "is not buy") || !strings.Contains(errs, "cancelled; nothing was bought") {
			t.Fatalf("%s: not the confirmation, a wrong word and a cancel:\n%s", name, errs)
		}
		assertFits(t, name, errs)
	}
}

// assertFits fails the test for a line of a confirmation (errs) wider than 80 columns,
// unless it holds a word too long for any line.
func assertFits(t *testing.T, name, errs string) {
	t.Helper()
	// A terminal echoes the line typed at each prompt, enter included.
	shown := strings.NewReplacer("cancels: ", "cancels:\n", "to cancel: ", "to cancel:\n").Replace(errs)
	for _, l := range strings.Split(shown, "\n") {
		if utf8.RuneCountInString(l) <= 80 || longestWord(l) > 60 {
			continue
		}
		t.Errorf("%s: a line of %d columns:\n%s", name, utf8.RuneCountInString(l), l)
	}
}

func longestWord(s string) int {
	n := 0
	for _, w := range strings.Fields(s) {
		n = max(n, utf8.RuneCountInString(w))
	}
	return n
}
