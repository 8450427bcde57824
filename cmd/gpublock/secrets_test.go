package main

// What the commands write: no credential in any output, journal or call log, and the call
// log (--log-file) itself.

import (
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
)

// assertNothingBought puts back the static keys of cmdtest.StartSim, to look at the emulator
// after a test of broken credentials, and fails the test if the account holds any block.
func assertNothingBought(t *testing.T, cs *cmdtest.Sim) {
	t.Helper()
	if err := os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIATESTCLI000000001")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "cli-test-secret")
	t.Setenv("AWS_SESSION_TOKEN", "")
	cli.AssertNothingBought(t, cs.URL)
}

// The credential values of these tests: none may reach stdout, stderr, the journal or
// the call log.
var leakable = []string{"helperSecretLEAK", "helperTokenLEAK", "ASIAHELPERLEAK", "helperSecretOK", "ssoTokenLEAK", "envSecretLEAK", "envTokenLEAK"}

// helperProfile writes a shared config whose profile "helper" gets its credentials from a
// credential_process script. The script prints valid, already expired credentials (so
// the SDK runs it again for every call) until the file fail exists in dir; then it prints
// JSON cut off in the middle, secrets and all, which the SDK's error carries whole.
func helperProfile(t *testing.T) (dir string) {
	t.Helper()
	dir = t.TempDir()
	script := filepath.Join(dir, "helper.sh")
	body := `#!/bin/sh
if [ -e "` + dir + `/fail" ]; then
  printf '{"Version": 1, "AccessKeyId": "ASIAHELPERLEAK000001", "SecretAccessKey": "helperSecretLEAK/abc+def", "SessionToken": "helperTokenLEAK0123456789'
  exit 0
fi
printf '{"Version": 1, "AccessKeyId": "ASIAHELPEROK00000001", "SecretAccessKey": "helperSecretOKabcdef", "Expiration": "2000-01-01T00:00:00Z"}'
`
	if err := os.WriteFile(script, []byte(body), 0o700); err != nil {
		t.Fatal(err)
	}
	cfg := "[profile helper]\ncredential_process = " + script + "\nregion = us-east-1\n"
	if err := os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	return dir
}

// assertNoSecret checks the outputs and every file under the state directory and dir.
func assertNoSecret(t *testing.T, what string, texts map[string]string, dirs ...string) {
	t.Helper()
	for _, d := range append(dirs, os.Getenv("XDG_STATE_HOME")) {
		_ = filepath.Walk(d, func(p string, info os.FileInfo, err error) error {
			if err == nil && info.Mode().IsRegular() && !strings.HasSuffix(p, ".sh") {
				b, _ := os.ReadFile(p)
				texts[p] = string(b)
			}
			return nil
		})
	}
	for name, text := range texts {
		for _, s := range leakable {
			if strings.Contains(text, s) {
				t.Errorf("%s: %s holds the secret %s:\n%s", what, name, s, text)
			}
		}
	}
}

func TestSecretsOfABrokenCredentialHelperNeverPrinted(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)
	dir := helperProfile(t)
	logDir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "fail"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	for _, args := range [][]string{
		cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--profile", "helper", "--log-file", filepath.Join(logDir, "calls.log")),
		{"offerings", "--endpoint-url", cs.URL, "--profile", "helper", "--region", "us-east-1", "--type", "p5.48xlarge", "--duration", "2d", "--log-file", filepath.Join(logDir, "calls.log")},
		{"blocks", "--endpoint-url", cs.URL, "--profile", "helper", "--region", "us-east-1", "-o", "json"},
		{"journal", "--endpoint-url", cs.URL, "--profile", "helper"},
	} {
		code, out, errs := cli.Run(args...)
		if code == 0 && args[0] != "journal" {
			t.Errorf("%s: exit 0 with broken credentials\n%s", args[0], errs)
		}
		if errs == "" {
			t.Errorf("%s: said nothing on stderr", args[0])
		}
		assertNoSecret(t, args[0], map[string]string{"stdout": out, "stderr": errs}, logDir)
	}
	assertNothingBought(t, cs)
}

// The helper works for the search and the dry run and breaks just before the purchase is
// sent: the purchase is "not sent" (exit 1), not "outcome unknown", and no output or file
// holds a secret.
func TestCredentialHelperFailingAtThePurchaseIsNotSent(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)
	dir := helperProfile(t)
	var dryRuns atomic.Int64
	url := inFront(t, cs.Emulator, func(_ http.ResponseWriter, _ *http.Request, body string) bool {
		// The spend service's one dry run: the helper breaks after it.
		if strings.Contains(body, "Action=PurchaseCapacityBlock&") && strings.Contains(body, "DryRun=true") && dryRuns.Add(1) == 1 {
			_ = os.WriteFile(filepath.Join(dir, "fail"), nil, 0o600)
		}
		return false
	})
	logFile := filepath.Join(t.TempDir(), "calls.log")
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(url, off.CapacityBlockOfferingId, "--yes", "--profile", "helper", "--log-file", logFile)...)
	if code != 1 || !strings.Contains(errs, "Not sent") || strings.Contains(errs, "UNKNOWN") {
		t.Errorf("exit %d\n%s", code, errs)
	}
	lines := cmdtest.JournalLines(t)
	if len(lines) != 2 || lines[1].Outcome != "not-bought" || lines[1].Error == "" {
		t.Errorf("journal %+v", lines)
	}
	assertNoSecret(t, "purchase", map[string]string{"stdout": out, "stderr": errs}, filepath.Dir(logFile))
	assertNothingBought(t, cs)
}

// An SSO profile without a signed-in session, and environment credentials whose session
// token an answer repeats: the advice is given, the token never.
func TestSSOAndEnvironmentCredentialsNeverPrinted(t *testing.T) {
	cs := cmdtest.StartSim(t)
	cli.AsPerson(t, false, "")
	off := cli.PickOffering(t, cs.URL)

	cfg := "[profile sso]\nsso_session = corp\nsso_account_id = 123456789012\nsso_role_name = ML\nregion = us-east-1\n" +
		"[sso-session corp]\nsso_start_url = https://corp.awsapps.com/start\nsso_region = us-east-1\n"
	if err := os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), []byte(cfg), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("HOME", t.TempDir())
	cache := filepath.Join(os.Getenv("HOME"), ".aws", "sso", "cache")
	if err := os.MkdirAll(cache, 0o700); err != nil {
		t.Fatal(err)
	}
	// An expired token in the cache.
	_ = os.WriteFile(filepath.Join(cache, "0e0ec4a2b25a1e1e06b2bd4fb88ff2a4d0ea5d3e.json"),
		[]byte(`{"accessToken":"ssoTokenLEAK0123456789","expiresAt":"2000-01-01T00:00:00Z","region":"us-east-1","startUrl":"https://corp.awsapps.com/start"}`), 0o600)
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	code, out, errs := cli.Run(cmdtest.PurchaseArgs(cs.URL, off.CapacityBlockOfferingId, "--yes", "--profile", "sso")...)
	if code != 1 || !strings.Contains(errs, "aws sso login") {
		t.Errorf("sso: exit %d\n%s", code, errs)
	}
	assertNoSecret(t, "sso", map[string]string{"stdout": out, "stderr": errs})

	// Environment credentials; the endpoint refuses the purchase quoting the token.
	if err := os.WriteFile(os.Getenv("AWS_CONFIG_FILE"), nil, 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIAENVTEST000000001")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "envSecretLEAK0123456789")
	t.Setenv("AWS_SESSION_TOKEN", "envTokenLEAK0123456789")
	url := inFront(t, cs.Emulator, func(w http.ResponseWriter, r *http.Request, body string) bool {
		if !carriesOut(body, "PurchaseCapacityBlock") {
			return false
		}
		w.WriteHeader(http.StatusBadRequest)
		io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?><Response><Errors><Error><Code>AuthFailure</Code><Message>token `+
			r.Header.Get("X-Amz-Security-Token")+` with secret envSecretLEAK0123456789 was refused</Message></Error></Errors><RequestID>x</RequestID></Response>`)
		return true
	})
	code, out, errs = cli.Run(cmdtest.PurchaseArgs(url, off.CapacityBlockOfferingId, "--yes")...)
	if code != 1 || !strings.Contains(errs, "AuthFailure") {
		t.Errorf("env: exit %d\n%s", code, errs)
	}
	assertNoSecret(t, "env", map[string]string{"stdout": out, "stderr": errs})
	assertNothingBought(t, cs)
}

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
