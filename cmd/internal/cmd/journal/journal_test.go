package journal

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/gpublock/gpublock/aws/autoextend"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmd/blocks"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmd/purchase"
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// cli runs `gpublock journal` as the program does, with the commands its tests run to buy what
// it acts on and to list what it did.
var cli = cmdtest.NewCLI(NewCmdJournal, cmdtest.Cmd(purchase.NewCmdPurchase), cmdtest.Cmd(offerings.NewCmdOfferings), cmdtest.Cmd(blocks.NewCmdBlocks))

// The --demo simulator and gpublock sim hand out the same reservation ids: each keeps its
// own journal (by backend and account), each run lists and settles only its own, and an
// entry still names its backend.
func TestJournalKeepsBackendsApart(t *testing.T) {
	cs := cmdtest.StartSim(t)
	simBlock := cli.BoughtBlock(t, cs)
	search := []string{"--demo", "--region", "us-east-1", "--type", "p5.48xlarge", "--count", "1", "--duration", "2d", "--to", "+2w"}
	offs := cli.ListOfferings(t, search...)
	if code, _, errs := cli.Run(append([]string{"purchase", offs[0].CapacityBlockOfferingId, "--yes"}, search...)...); code != 0 {
		t.Fatalf("purchase --demo: exit %d, %q", code, errs)
	}
	// An intent of the demo's left open by a crash: the emulator's run must not settle it.
	var path string // the demo's
	for _, p := range cmdtest.StateFiles(t, "journal.jsonl") {
		if strings.Contains(p, "/demo/") {
			path = p
		}
	}
	open := source.JournalEntry{Time: time.Now().UTC(), Phase: "intent", Action: "PurchaseCapacityBlock", RequestID: "demo-open-1",
		Region: "us-east-1", Offering: "cb-x", Type: "p5.48xlarge", Count: 1, Cloud: awsapi.CloudDemo}
	line, _ := json.Marshal(open)
	f, err := os.OpenFile(path, os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	f.Write(append(line, '\n'))
	f.Close()

	rows := func(args ...string) ([]Row, string) {
		t.Helper()
		code, out, errs := cli.Run(append([]string{"journal", "-o", "json", "--region", "us-east-1"}, args...)...)
		var rs []Row
		if json.Unmarshal([]byte(out), &rs) != nil {
			t.Fatalf("journal %v: exit %d, stderr %q\n%s", args, code, errs, out)
		}
		return rs, errs
	}
	simRows, simErrs := rows("--endpoint-url", cs.URL)
	if len(simRows) != 1 || simRows[0].CapacityReservationId != simBlock.CapacityReservationId || simRows[0].Outcome != "bought" {
		t.Errorf("journal against gpublock sim lists %+v, want its one purchase", simRows)
	}
	// Each backend's journal is its own file: the demo's lines are not even read.
	if strings.Contains(simErrs, "settled") || strings.Contains(simErrs, "not shown") {
		t.Errorf("journal against gpublock sim: stderr %q; want nothing of the demo's, nothing settled", simErrs)
	}
	demoRows, demoErrs := rows("--demo", "--no-settle")
	if len(demoRows) != 2 || demoRows[0].Outcome != "bought" || demoRows[1].RequestId != "demo-open-1" || demoRows[1].Outcome != "open" {
		t.Errorf("journal --demo lists %+v, want its purchase and its open intent", demoRows)
	}
	if strings.Contains(demoErrs, "not shown") {
		t.Errorf("journal --demo: stderr %q, want nothing of the emulator's", demoErrs)
	}
	b, _ := os.ReadFile(path)
	for _, l := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		var e source.JournalEntry
		if json.Unmarshal([]byte(l), &e) != nil || (e.Cloud != awsapi.CloudDemo && e.Cloud != awsapi.CloudEmulator) {
			t.Errorf("a journal line without its backend: %s", l)
		}
	}
}

// The auto-extension decisions the watcher journals are listed by `journal`, as the README
// says: a declined one with its reason.
func TestJournalListsAutoExtendDecisions(t *testing.T) {
	cs := cmdtest.StartSim(t)
	c, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1", EndpointURL: cs.URL, Cloud: awsapi.CloudEmulator,
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(os.Getenv("AWS_ACCESS_KEY_ID"), os.Getenv("AWS_SECRET_ACCESS_KEY"), "")),
		JournalDir:  filepath.Join(os.Getenv("XDG_STATE_HOME"), "gpublock", "simulated")})
	if err != nil {
		t.Fatal(err)
	}
	e := source.JournalEntry{Time: time.Now().UTC(), Phase: "decision", Action: autoextend.Action, Key: "auto-extend/cr-0aaaaaaaaaaaaaaa1/12h0m0s",
		Region: "us-east-1", Type: "p5.48xlarge", Count: 1, Target: "cr-0aaaaaaaaaaaaaaa1", Outcome: "declined", Error: "over the spending cap"}
	if err := c.WriteJournal(e); err != nil {
		t.Fatal(err)
	}
	code, out, errs := cli.Run("journal", "--endpoint-url", cs.URL, "--region", "us-east-1", "--no-settle", "-o", "json")
	var rows []Row
	if code != 0 || json.Unmarshal([]byte(out), &rows) != nil || len(rows) != 1 || rows[0].Action != autoextend.Action ||
		rows[0].Outcome != "declined" || rows[0].CapacityReservationId != "cr-0aaaaaaaaaaaaaaa1" || rows[0].Error != "over the spending cap" {
		t.Fatalf("journal: exit %d, rows %+v\n%s", code, rows, errs)
	}
	code, out, _ = cli.Run("journal", "--endpoint-url", cs.URL, "--region", "us-east-1", "--no-settle")
	if code != 0 || !strings.Contains(out, "auto-extend decision") || !strings.Contains(out, "declined") {
		t.Errorf("journal table:\n%s", out)
	}
}
