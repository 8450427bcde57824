package extend

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// extend --list shows every length the emulator offers, with the fee and the new end, in
// JSON and in a table; each listed offering is the one `extend --duration` then shows.
func TestExtendList(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	end := cmdtest.MustTime(t, b.EndDate)
	code, out, errs := cli.Run("extend", b.CapacityReservationId, "--endpoint-url", cs.URL, "--region", "us-east-1", "--list", "-o", "json")
	var rows []ExtendChoiceJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	seen := map[int]bool{}
	for _, r := range rows {
		if seen[r.DurationDays] || r.UpfrontFee == "" || r.CapacityBlockExtensionOfferingId == "" || r.BreakEven == "" {
			t.Errorf("row %+v", r)
		}
		seen[r.DurationDays] = true
		if got := cmdtest.MustTime(t, r.NewEndDate); !got.Equal(end.Add(time.Duration(r.DurationDays) * 24 * time.Hour)) {
			t.Errorf("%s: new end %s, want %s", r.Length, got, end.Add(time.Duration(r.DurationDays)*24*time.Hour))
		}
	}
	// The first length listed is what extend --duration offers for it.
	first := rows[0]
	code, _, errs = cli.Run("extend", b.CapacityReservationId, "--endpoint-url", cs.URL, "--region", "us-east-1", "--duration", first.Length, "--dry-run")
	if code != 0 || !strings.Contains(errs, first.CapacityBlockExtensionOfferingId) {
		t.Errorf("--duration %s: exit %d, want offering %s in:\n%s", first.Length, code, first.CapacityBlockExtensionOfferingId, errs)
	}
	code, table, _ := cli.Run("extend", b.CapacityReservationId, "--endpoint-url", cs.URL, "--region", "us-east-1", "--list")
	if code != 0 || !strings.Contains(table, "NEW END (UTC)") || !strings.Contains(table, first.CapacityBlockExtensionOfferingId) {
		t.Errorf("table: exit %d\n%s", code, table)
	}
	if code, _, _ := cli.Run("extend", b.CapacityReservationId, "--endpoint-url", cs.URL, "--list", "--duration", "1d"); code != 2 {
		t.Errorf("--list with --duration: exit %d, want 2", code)
	}
}

// extend --list says on stderr what it learns as it comes: a line per length asked, each
// offering found, what is left, and the last line says it is done; the table on stdout
// lists exactly the offerings announced.
func TestExtendListStreamsProgress(t *testing.T) {
	cs := cmdtest.StartSim(t)
	b := cli.ActiveBlock(t, cs)
	code, out, errs := cli.Run("extend", b.CapacityReservationId, "--endpoint-url", cs.URL, "--region", "us-east-1", "--list", "-o", "json")
	var rows []ExtendChoiceJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
		t.Fatalf("exit %d, stderr %q\n%s", code, errs, out)
	}
	var progress, offered []string
	for _, l := range strings.Split(strings.TrimSpace(errs), "\n") {
		switch {
		case strings.HasPrefix(l, "Asked "):
			progress = append(progress, l)
		case strings.Contains(l, " offered: until "):
			offered = append(offered, l)
		}
	}
	if len(offered) != len(rows) {
		t.Errorf("%d offerings announced, %d listed:\n%s", len(offered), len(rows), errs)
	}
	for _, r := range rows {
		if !strings.Contains(errs, "  "+r.Length+" offered: until ") {
			t.Errorf("%s listed but not announced", r.Length)
		}
	}
	if len(progress) < 2 || !strings.HasSuffix(progress[len(progress)-1], "; done.") || !strings.Contains(progress[0], " left") {
		t.Fatalf("progress lines:\n%s", strings.Join(progress, "\n"))
	}
	if want := fmt.Sprintf("(%d offered", len(rows)); !strings.Contains(progress[len(progress)-1], want) {
		t.Errorf("the last progress line %q does not count %d offered", progress[len(progress)-1], len(rows))
	}
}
