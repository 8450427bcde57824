package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// The brief of --log-file: the TUI draws on stdout and scripts read it, so the log goes to
// its own file, one line per attempt, with nothing a thief could use.
func TestLogFileOfferingsAcrossTwoRegions(t *testing.T) {
	cs := cmdtest.StartSim(t)
	const token = "GPUBLOCK-SESSION-TOKEN-MUST-NOT-BE-LOGGED"
	t.Setenv("AWS_SESSION_TOKEN", token)
	path := filepath.Join(t.TempDir(), "new", "gpublock-calls.log")
	code, out, errs := cli.Run(cmdtest.OfferingsArgs(cs.URL, "--region", "us-east-1,us-west-2", "-o", "json", "--log-file", path)...)
	if code != 0 || errs != "" {
		t.Fatalf("exit %d, stderr %q", code, errs)
	}
	var rows []map[string]any
	if err := json.Unmarshal([]byte(out), &rows); err != nil || len(rows) == 0 {
		t.Fatalf("stdout is not the offerings (%v):\n%s", err, out)
	}
	lines := cmdtest.ReadCallLog(t, path)
	if int64(len(lines)) != cs.Calls.Load() {
		t.Fatalf("%d lines for %d API requests", len(lines), cs.Calls.Load())
	}
	regions := map[string]int{}
	for _, r := range lines {
		if r["service"] != "EC2" || r["action"] != "DescribeCapacityBlockOfferings" || r["status"] != "200" ||
			r["attempt"] != "1" || r["request_id"] == "" || !strings.HasPrefix(cs.URL, "http://"+r["host"]) {
			t.Errorf("line %v", r)
		}
		regions[r["region"]]++
	}
	if len(regions) != 2 || regions["us-east-1"] == 0 || regions["us-west-2"] == 0 {
		t.Errorf("lines per region %v, want us-east-1 and us-west-2", regions)
	}

	raw, _ := os.ReadFile(path)
	for _, secret := range []string{"cli-test-secret", token, "Authorization", "Signature=", "X-Amz-Security-Token"} {
		if strings.Contains(string(raw), secret) {
			t.Errorf("the log contains %q", secret)
		}
	}
	if fi, err := os.Stat(path); err != nil || fi.Mode().Perm() != 0o600 {
		t.Errorf("log file mode %v (%v), want 0600", fi.Mode(), err)
	}
	if fi, err := os.Stat(filepath.Dir(path)); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("its directory's mode %v (%v), want 0700", fi.Mode(), err)
	}

	// A second command appends.
	if code, _, errs := cli.Run("blocks", "--endpoint-url", cs.URL, "--region", "us-east-1", "-o", "json", "--log-file", path); code != 0 {
		t.Fatalf("blocks: exit %d, %s", code, errs)
	}
	after := cmdtest.ReadCallLog(t, path)
	if len(after) <= len(lines) || int64(len(after)) != cs.Calls.Load() {
		t.Fatalf("%d lines after blocks (%d before), %d requests", len(after), len(lines), cs.Calls.Load())
	}
	for _, r := range after[len(lines):] {
		if r["region"] != "us-east-1" || r["action"] == "DescribeCapacityBlockOfferings" {
			t.Errorf("blocks line %v", r)
		}
	}
}

func TestLogFilePurchaseMatchesTheJournal(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)
	path := filepath.Join(t.TempDir(), "calls.log")
	code, _, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "-o", "json", "--log-file", path)...)
	if code != 0 {
		t.Fatalf("exit %d, stderr:\n%s", code, errs)
	}
	var intent string
	for _, e := range cmdtest.JournalLines(t) {
		if e.Action == "PurchaseCapacityBlock" && e.RequestID != "" {
			intent = e.RequestID
		}
	}
	if intent == "" {
		t.Fatalf("no purchase in the journal: %+v", cmdtest.JournalLines(t))
	}
	var buys []map[string]string
	for _, r := range cmdtest.ReadCallLog(t, path) {
		if r["action"] == "PurchaseCapacityBlock" && r["code"] == "" {
			buys = append(buys, r)
		}
	}
	if len(buys) != 1 || buys[0]["gpublock_request_id"] != intent || buys[0]["status"] != "200" || buys[0]["region"] != "us-east-1" {
		t.Errorf("purchase lines %v, want one carrying the journal's request id %s", buys, intent)
	}
}

func TestLogFileThatCannotBeWrittenIsAUsageError(t *testing.T) {
	cs := cmdtest.StartSim(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "plain")
	if err := os.WriteFile(file, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ path, reason string }{
		{dir, "is a directory"},
		{filepath.Join(file, "calls.log"), "not a directory"},
	} {
		for _, args := range [][]string{
			cmdtest.OfferingsArgs(cs.URL, "--region", "us-east-1", "--log-file", tc.path),
			{"blocks", "--endpoint-url", cs.URL, "--log-file", tc.path},
			{"--endpoint-url", cs.URL, "--log-file", tc.path}, // the TUI
		} {
			code, out, errs := cli.Run(args...)
			if code != 2 || out != "" || !strings.Contains(errs, "--log-file") || !strings.Contains(errs, tc.path) || !strings.Contains(errs, tc.reason) {
				t.Errorf("%v: exit %d, stdout %q, stderr %q; want 2 and a message naming the path and %q", args, code, out, errs, tc.reason)
			}
		}
	}
	if n := cs.Calls.Load(); n != 0 {
		t.Errorf("%d API calls made despite the bad --log-file", n)
	}
}
