// Package apitest makes the real AWS adapter (awsapi) that the tests of the packages built
// on it point at the emulator. Only tests import it; awsapi's own tests cannot (it imports
// awsapi) and keep a copy that reaches the client's private fields.
package apitest

import (
	"context"
	"encoding/json"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/internal/simtest"
	"github.com/gpublock/gpublock/aws/source"
)

// Config is the adapter's configuration for the emulator at url: the static test keys, a
// journal directory of the test's own, and short backoff so that retries do not slow the
// tests. The host's AWS configuration is cleared so that it never leaks in.
func Config(t testing.TB, url string) awsapi.Config {
	t.Helper()
	simtest.ClearAWSEnv(t)
	return awsapi.Config{
		Region:      "us-east-1",
		EndpointURL: url,
		Version:     "test",
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(simtest.AccessKey, simtest.SecretKey, "")),
		JournalDir:  t.TempDir(),
		MaxBackoff:  2 * time.Millisecond,
	}
}

// Client is the adapter of Config(t, url), edited first by tweak when not nil, that looks
// a lost reply up 4 times a millisecond apart.
func Client(t testing.TB, url string, tweak func(*awsapi.Config)) *awsapi.Client {
	t.Helper()
	cfg := Config(t, url)
	if tweak != nil {
		tweak(&cfg)
	}
	api, err := awsapi.New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	api.SetConfirmPace(4, time.Millisecond)
	return api
}

// Journal is api's local journal, entry by entry. A line the journal cannot read, or either
// of the static test keys anywhere in it, fails the test.
func Journal(t testing.TB, api *awsapi.Client) []source.JournalEntry {
	t.Helper()
	p, entries := readJournal(t, api)
	raw, err := os.ReadFile(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{simtest.AccessKey, simtest.SecretKey} {
		if strings.Contains(string(raw), key) {
			t.Fatalf("the journal holds a credential: %q", key)
		}
	}
	return entries
}

func readJournal(t testing.TB, api *awsapi.Client) (path string, entries []source.JournalEntry) {
	t.Helper()
	p, err := api.JournalPath()
	if err != nil {
		t.Fatal(err)
	}
	entries, bad, err := awsapi.ReadJournal(p)
	if err != nil || bad != 0 {
		t.Fatalf("journal: %v, %d bad lines", err, bad)
	}
	return p, entries
}

// RewriteJournal rewrites api's local journal entry by entry: keep edits an entry, and drops
// it when it returns false. A line the journal cannot read fails the test, as the rewrite
// would lose it.
func RewriteJournal(t testing.TB, api *awsapi.Client, keep func(*source.JournalEntry) bool) {
	t.Helper()
	p, entries := readJournal(t, api)
	var kept []byte
	for _, e := range entries {
		if keep(&e) {
			line, err := json.Marshal(e)
			if err != nil {
				t.Fatal(err)
			}
			kept = append(append(kept, line...), '\n')
		}
	}
	if err := os.WriteFile(p, kept, 0o600); err != nil {
		t.Fatal(err)
	}
}

// DropOutcomes leaves api's journal as a process killed between a call and its outcome
// line would: the outcome lines of requestID ("" for every request) are removed. It
// returns how many were.
func DropOutcomes(t testing.TB, api *awsapi.Client, requestID string) int {
	t.Helper()
	removed := 0
	RewriteJournal(t, api, func(e *source.JournalEntry) bool {
		if e.Phase == "outcome" && (requestID == "" || e.RequestID == requestID) {
			removed++
			return false
		}
		return true
	})
	return removed
}

// S3Bucket is an SDK S3 client of the emulator at url (path-style, the static test keys)
// with bucket made; a bucket the emulator's state already holds is kept.
func S3Bucket(t testing.TB, url, bucket string) *s3.Client {
	t.Helper()
	c := s3.New(s3.Options{Region: "us-east-1", BaseEndpoint: aws.String(url), UsePathStyle: true,
		Credentials: credentials.NewStaticCredentialsProvider(simtest.AccessKey, simtest.SecretKey, "")})
	if _, err := c.CreateBucket(context.Background(), &s3.CreateBucketInput{Bucket: aws.String(bucket)}); err != nil &&
		!strings.Contains(err.Error(), "BucketAlreadyOwnedByYou") {
		t.Fatal(err)
	}
	return c
}
