package cmdtest

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

// PurchaseSearch is the search a person ran before buying; purchase is given the same flags.
var PurchaseSearch = []string{"--region", "us-east-1", "--type", "p5.48xlarge", "--count", "2", "--duration", "2d",
	"--from", "2026-12-01T08:00:00Z", "--to", "2026-12-15"}

// ListOfferings is what `gpublock offerings -o json` lists with the flags args; none fails
// the test.
func (c *CLI) ListOfferings(t *testing.T, args ...string) []printers.OfferingJSON {
	t.Helper()
	code, out, errs := c.Run(append([]string{"offerings", "-o", "json"}, args...)...)
	var rows []printers.OfferingJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) == 0 {
		t.Fatalf("offerings %v: exit %d, %d rows, stderr %q\n%s", args, code, len(rows), errs, out)
	}
	return rows
}

// Offerings is ListOfferings of search against the emulator at url.
func (c *CLI) Offerings(t *testing.T, url string, search ...string) []printers.OfferingJSON {
	t.Helper()
	return c.ListOfferings(t, append([]string{"--endpoint-url", url}, search...)...)
}

// PickOffering runs that search with `gpublock offerings -o json` and returns the first
// offering that starts on an 11:30 UTC boundary, so that it is still scheduled for a while.
func (c *CLI) PickOffering(t *testing.T, url string) printers.OfferingJSON {
	t.Helper()
	rows := c.Offerings(t, url, PurchaseSearch...)
	for _, r := range rows {
		if strings.HasSuffix(r.StartDate, "T11:30:00Z") && r.CapacityBlockDurationMinutes == 0 {
			return r
		}
	}
	t.Fatalf("no offering on an 11:30 boundary among %d", len(rows))
	return printers.OfferingJSON{}
}

// PurchaseArgs is `gpublock purchase id` with the flags of PurchaseSearch, then extra.
func PurchaseArgs(url, id string, extra ...string) []string {
	args := append([]string{"purchase", id, "--endpoint-url", url}, PurchaseSearch...)
	return append(args, extra...)
}

// Reservations lists the account's blocks in us-east-1 with `gpublock blocks -o json`.
func (c *CLI) Reservations(t *testing.T, url string) []printers.BlockJSON {
	t.Helper()
	return RunJSON[[]printers.BlockJSON](t, c, "blocks", "--endpoint-url", url, "--region", "us-east-1", "-o", "json")
}

// Orders are the standing orders `gpublock order --list -o json args...` lists with c; a
// failure fails the test.
func (c *CLI) Orders(t *testing.T, args ...string) []model.Order {
	t.Helper()
	return RunJSON[[]model.Order](t, c, append([]string{"order", "--list", "-o", "json"}, args...)...)
}

// AssertNothingBought fails the test when the account has any block in us-east-1.
func (c *CLI) AssertNothingBought(t *testing.T, url string) {
	t.Helper()
	if rows := c.Reservations(t, url); len(rows) != 0 {
		t.Fatalf("%d reservations exist, want none: %+v", len(rows), rows)
	}
}

// StateFiles are the files called name that the commands wrote under $XDG_STATE_HOME,
// in every backend's and account's directory.
func StateFiles(t *testing.T, name string) []string {
	t.Helper()
	var out []string
	root := filepath.Join(os.Getenv("XDG_STATE_HOME"), "gpublock")
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			if os.IsNotExist(err) {
				return filepath.SkipDir
			}
			return err
		}
		if !d.IsDir() && d.Name() == name {
			out = append(out, p)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// StateFile is the one file called name the commands wrote under $XDG_STATE_HOME.
func StateFile(t *testing.T, name string) string {
	t.Helper()
	ps := StateFiles(t, name)
	if len(ps) != 1 {
		t.Fatalf("%d files %s under $XDG_STATE_HOME, want one: %v", len(ps), name, ps)
	}
	return ps[0]
}

// JournalLines reads the journals the commands wrote under $XDG_STATE_HOME, of every
// backend and account.
func JournalLines(t *testing.T) []source.JournalEntry {
	t.Helper()
	var out []source.JournalEntry
	for _, p := range StateFiles(t, "journal.jsonl") {
		f, err := os.Open(p)
		if os.IsNotExist(err) {
			continue
		}
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var e source.JournalEntry
			if err := json.Unmarshal(sc.Bytes(), &e); err != nil {
				t.Fatalf("journal line %q: %v", sc.Text(), err)
			}
			out = append(out, e)
		}
		f.Close()
	}
	return out
}

// BoughtBlock buys a block of 2 with `gpublock purchase --yes` and returns it as listed.
func (c *CLI) BoughtBlock(t *testing.T, cs *Sim) printers.BlockJSON {
	t.Helper()
	off := c.PickOffering(t, cs.URL)
	if code, _, errs := c.Run(PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes")...); code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	rows := c.Reservations(t, cs.URL)
	if len(rows) != 1 || rows[0].TotalInstanceCount != 2 {
		t.Fatalf("after the purchase: %+v", rows)
	}
	return rows[0]
}

// Activate moves the emulator's clock an hour past the block's start.
func (c *CLI) Activate(t *testing.T, cs *Sim, b printers.BlockJSON) {
	t.Helper()
	cs.Emulator.SetTime(MustTime(t, b.StartDate).Add(time.Hour))
	if rows := c.Reservations(t, cs.URL); len(rows) != 1 || rows[0].State != "active" || rows[0].AvailableInstanceCount != 2 {
		t.Fatalf("after moving the clock: %+v", rows)
	}
}

// ActiveBlock is a block bought and active, an hour past its start.
func (c *CLI) ActiveBlock(t *testing.T, cs *Sim) printers.BlockJSON {
	t.Helper()
	b := c.BoughtBlock(t, cs)
	c.Activate(t, cs, b)
	return b
}

// ExpiringBlock is a block bought and active, with the emulator's clock 35 minutes before
// its end: it warns that it expires and can no longer be extended.
func (c *CLI) ExpiringBlock(t *testing.T, cs *Sim) printers.BlockJSON {
	t.Helper()
	b := c.ActiveBlock(t, cs)
	cs.Emulator.SetTime(MustTime(t, b.EndDate).Add(-35 * time.Minute))
	return b
}

// ListedBlock is the one block of the account as `gpublock blocks -o json` lists it.
func (c *CLI) ListedBlock(t *testing.T, url string) printers.BlockJSON {
	t.Helper()
	rows := c.Reservations(t, url)
	if len(rows) != 1 {
		t.Fatalf("%d blocks, want 1: %+v", len(rows), rows)
	}
	return rows[0]
}

// Paid moves the emulator's clock past the extension's payment (1–5 minutes), after
// which the block's end moves, as on AWS.
func Paid(cs *Sim) { cs.Emulator.Advance(6 * time.Minute) }

// SegmentedSearch asks for a count no single zone of the emulator's us-east-1 holds, which
// it answers with offerings made of segments.
var SegmentedSearch = []string{"--region", "us-east-1", "--type", "p5.48xlarge", "--count", "60", "--duration", "2d",
	"--from", "2026-12-01T08:00:00Z", "--to", "2026-12-15"}

// PickSegmented runs SegmentedSearch with `gpublock offerings -o json` and returns its first
// offering made of segments; the test is skipped when the emulator offers none.
func (c *CLI) PickSegmented(t *testing.T, url string) printers.OfferingJSON {
	t.Helper()
	args := append([]string{"offerings", "--endpoint-url", url, "-o", "json"}, SegmentedSearch...)
	code, out, errs := c.Run(args...)
	var rows []printers.OfferingJSON
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil {
		t.Fatalf("offerings: exit %d, stderr %q\n%s", code, errs, out)
	}
	for _, r := range rows {
		if len(r.CapacityBlockOfferingSegments) > 1 {
			return r
		}
	}
	t.Skipf("the emulator offered no segmented offering among %d", len(rows))
	return printers.OfferingJSON{}
}

// BoughtGroup buys a segmented offering with `gpublock purchase --yes` and returns the
// offering and the reservations it made, as `gpublock blocks -o json` lists them.
func (c *CLI) BoughtGroup(t *testing.T, cs *Sim) (printers.OfferingJSON, []printers.BlockJSON) {
	t.Helper()
	off := c.PickSegmented(t, cs.URL)
	args := append([]string{"purchase", off.CapacityBlockOfferingId, "--endpoint-url", cs.URL}, SegmentedSearch...)
	if code, _, errs := c.Run(append(args, "--yes")...); code != 0 {
		t.Fatalf("purchase: exit %d\n%s", code, errs)
	}
	rows := c.Reservations(t, cs.URL)
	if len(rows) != len(off.CapacityBlockOfferingSegments) {
		t.Fatalf("%d reservations after buying %d segments: %+v", len(rows), len(off.CapacityBlockOfferingSegments), rows)
	}
	return off, rows
}

// RunningBlock is a block bought and active, with one instance launched into it.
func (c *CLI) RunningBlock(t *testing.T, cs *Sim) printers.BlockJSON {
	t.Helper()
	b := c.ActiveBlock(t, cs)
	if code, _, errs := c.Run(LaunchArgs(cs.URL, b.CapacityReservationId, "--yes", "--count", "1")...); code != 0 {
		t.Fatalf("launch: exit %d\n%s", code, errs)
	}
	return b
}

// AttachAtStart attaches a launch of 2 instances to the start of the block b with `gpublock
// launch --at-start`, which says it waits for the start.
func (c *CLI) AttachAtStart(t *testing.T, cs *Sim, b printers.BlockJSON) {
	t.Helper()
	code, out, errs := c.Run(LaunchArgs(cs.URL, b.CapacityReservationId, "--at-start", "--count", "2", "--yes", "-o", "json")...)
	if code != 0 || !strings.Contains(out, `"State": "pending"`) || !strings.Contains(errs, "when the block starts") {
		t.Fatalf("attach: exit %d\n%s\n%s", code, out, errs)
	}
}
