package ui

import (
	"os"
	"strings"
	"testing"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/x/ansi"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/ui/dialog/purchase"
	"github.com/gpublock/gpublock/ui/program"
)

// The TUI's purchase goes through the one spend path: after a crash between a purchase's
// commit and its outcome line, buying the same block again buys nothing and says which
// reservation the interrupted run bought.
func TestPurchaseDialogAfterACrashBuysNothingNew(t *testing.T) {
	b, _ := emulatorBackend(t, ec2sim.Faults{})
	c := clientOf(t, b)
	o, bought := boughtBlock(t, c)
	p, err := c.JournalPath()
	if err != nil {
		t.Fatal(err)
	}
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	var kept []string
	for _, l := range strings.Split(strings.TrimSpace(string(raw)), "\n") {
		if !strings.Contains(l, `"phase":"outcome"`) { // killed after the commit
			kept = append(kept, l)
		}
	}
	if err := os.WriteFile(p, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	m := update(New(actionTestOptions(b)), tea.WindowSizeMsg{Width: 160, Height: 48})
	env := m.actionEnv()
	env.Identity = program.Identity{Identity: source.Identity{Account: "123456789012"}, Known: true}
	// The dialog as a person drives it: the spend path's preparation finds the purchase the
	// interrupted run made, so the dry run already says so, and the word buys nothing. (The
	// same answer at the call itself is the purchase package's TestAlreadyBoughtAtTheCall.)
	d, cmd := purchase.New(env, o)
	var got dialog = d
	got, _, _ = got.Update(cmd())
	got.View(160, 45)
	for _, k := range []string{"b", "u", "y"} {
		if got, cmd, _ = got.Update(keyMsg(k)); cmd != nil || got.(purchase.Model).Busy() {
			t.Fatalf("%q after the crash sent something", k)
		}
	}
	v := strings.Join(strings.Fields(ansi.Strip(got.View(160, 45))), " ")
	for _, want := range []string{"Already bought", bought.ReservationID, "Nothing new was bought"} {
		if !strings.Contains(v, want) {
			t.Errorf("the dialog lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "Nothing was charged") {
		t.Errorf("the dialog says nothing was charged for a block that was bought:\n%s", v)
	}
	// enter closes the dialog with a word; it buys nothing.
	if got, cmd, _ = got.Update(keyMsg("enter")); got.(purchase.Model).Busy() {
		t.Fatal("enter after the crash sent a purchase")
	} else if cmd != nil {
		if msg, ok := cmd().(rootMsg); !ok {
			t.Errorf("enter after the crash sent %T, want only a word to the root", msg)
		}
	}
	if n := len(reservations(t, c, "us-east-1")); n != 1 {
		t.Errorf("%d reservations, want 1", n)
	}
}
