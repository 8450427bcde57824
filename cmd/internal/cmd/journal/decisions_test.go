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
	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// The auto-extension decisions the watcher journals are listed by `journal`, as the README
// says: a declined one with its reason.
func TestJournalListsAutoExtendDecisions(t *testing.T) {
	cs := cmdtest.StartSim(t)
	c, err := awsapi.New(context.Background(), awsapi.Config{Region: "us-east-1", EndpointURL: cs.URL, Backend: awsapi.BackendEmulator,
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
