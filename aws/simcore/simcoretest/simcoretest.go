// Package simcoretest is what the emulator's handlers' tests share to reach it as clients
// other than the Go SDK do: the AWS CLI, and requests written by hand. It imports none of
// the handlers, so that each handler's own tests can use it. Only tests import it.
package simcoretest

import (
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// AWSCLI runs the AWS CLI against the emulator at url with throwaway credentials, in
// us-east-1, answering JSON; it skips the test when the CLI is not installed.
func AWSCLI(t *testing.T, url string, args ...string) (string, error) {
	t.Helper()
	if _, err := exec.LookPath("aws"); err != nil {
		t.Skip("the AWS CLI is not installed")
	}
	cmd := exec.Command("aws", append([]string{"--endpoint-url", url, "--region", "us-east-1", "--output", "json"}, args...)...)
	home := t.TempDir()
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "AWS_") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, "AWS_ACCESS_KEY_ID=AKIDEXAMPLE", "AWS_SECRET_ACCESS_KEY=secret", "AWS_MAX_ATTEMPTS=1",
		"AWS_CONFIG_FILE="+filepath.Join(home, "config"), "AWS_SHARED_CREDENTIALS_FILE="+filepath.Join(home, "credentials"))
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// Post sends body to url signed for service in us-east-1, in scope only: the emulator
// reads the region and service from the scope and checks no signature. A header given an
// empty value is left out. It returns the answer's status, header and body.
func Post(t testing.TB, url, service, body string, header map[string]string) (int, http.Header, []byte) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Authorization", "AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20261201/us-east-1/"+service+"/aws4_request, SignedHeaders=host, Signature=0")
	for k, v := range header {
		if v == "" {
			req.Header.Del(k)
			continue
		}
		req.Header.Set(k, v)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, resp.Header, b
}
