package launch

import (
	"strings"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/internal/uitest"
)

func testForm(t *testing.T, state model.BlockState) Model {
	t.Helper()
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	b := model.Block{ReservationID: "cr-0123456789abcdef0", Region: "us-east-1", AvailabilityZone: "us-east-1a",
		InstanceType: "p5.48xlarge", State: state, TotalCount: 2, AvailableCount: 2,
		Start: now.Add(time.Hour), End: now.Add(24 * time.Hour)}
	d, _ := New(uitest.EnvAt(now), b)
	return d
}

// The footer and the help name the keys the form takes in its state, and no other.
func TestKeysFollowTheFormsState(t *testing.T) {
	form := testForm(t, model.StateActive)
	attached := testForm(t, model.StateScheduled)
	attached.spend.Settle(nil)
	attached.attached = &source.AttachedLaunch{ReservationID: "cr-0123456789abcdef0", State: "pending"}
	sending := testForm(t, model.StateActive)
	sending.spend.Send()
	done := testForm(t, model.StateActive)
	done.spend.Settle(nil)
	done.result = &source.LaunchResult{SubnetID: "subnet-1", Instances: []model.Instance{{ID: "i-1", State: "running"}}}
	done.instances = done.result.Instances
	failed := testForm(t, model.StateActive)
	failed.spend.Settle(&source.ActionError{Explanation: source.Explanation{Summary: "RunInstances failed."}})

	for name, c := range map[string]struct {
		d    Model
		want string
	}{
		"form":     {form, "type launch then enter to launch • tab next field • esc cancels"},
		"attached": {attached, "attached: launched at the start • esc, enter or q closes"},
		"sending":  {sending, "waiting for the launch's answer • ctrl+c twice quits anyway"},
		"done":     {done, "y copy the instance ids • esc, enter or q closes"},
		"failed":   {failed, "esc, enter or q closes"},
	} {
		if got := c.d.Footer(); got != c.want {
			t.Errorf("%s: footer %q, want %q", name, got, c.want)
		}
		var full []string
		for _, col := range c.d.Keys().FullHelp() {
			for _, b := range col {
				full = append(full, b.Help().Key)
			}
		}
		for _, b := range c.d.Keys().ShortHelp() {
			if !strings.Contains(strings.Join(full, "|"), b.Help().Key) {
				t.Errorf("%s: the full help lacks %q", name, b.Help().Key)
			}
		}
	}
	// With subnets listed, the help names the picker the footer leaves out.
	form.subnetsIn, form.subnets = true, []source.Subnet{{ID: "subnet-1", AvailabilityZone: "us-east-1a"}}
	if cols := form.Keys().FullHelp(); len(cols) != 1 || cols[0][len(cols[0])-1].Help().Key != "↑/↓" {
		t.Errorf("the full help does not name the subnet picker: %v", cols)
	}
}

// A closed form's answers never reach a newer one: each form has its own number.
func TestAnswersOfAnotherFormAreIgnored(t *testing.T) {
	a, b := testForm(t, model.StateActive), testForm(t, model.StateActive)
	if a.id == b.id {
		t.Fatal("two forms share a number")
	}
	got, _, _ := b.Update(launchedMsg{dialog: a.id, res: source.LaunchResult{SubnetID: "subnet-1"}})
	if got.(Model).result != nil {
		t.Fatal("a form took another form's launch answer")
	}
	if _, _, closed := b.Update(tea.KeyPressMsg{Code: tea.KeyEscape}); !closed {
		t.Fatal("esc does not close the form")
	}
}

// A word typed for the form as it was does not carry over an edit: the form is checked
// again, and the word must be typed again for what it now says.
func TestAnEditClearsTheTypedWord(t *testing.T) {
	d := testForm(t, model.StateActive)
	typeWord(&d, "launch")
	d.focus = lfCount
	m, _, _ := d.Update(tea.KeyPressMsg{Code: '2', Text: "2"})
	got := m.(Model)
	if got.fields[lfCount].Value() == d.fields[lfCount].Value() {
		t.Fatalf("the count did not change: %q", got.fields[lfCount].Value())
	}
	if got.spend.Typed() != "" {
		t.Errorf("the word %q typed before the edit is still there", got.spend.Typed())
	}
}

// typeWord focuses the confirmation and types w in it.
func typeWord(d *Model, w string) {
	d.focus = lfConfirm
	d.spend.Field.SetValue(w)
}
