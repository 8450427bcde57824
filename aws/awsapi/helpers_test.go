package awsapi

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/gpublock/gpublock/aws/internal/simtest"
)

// newTestClient points the real adapter at an emulator URL with static credentials, and
// with short waits so that retries and confirmations do not slow the tests.
func newTestClient(t testing.TB, url string, tweak func(*Config)) *Client {
	t.Helper()
	simtest.ClearAWSEnv(t)
	cfg := Config{
		Region:      "us-east-1",
		EndpointURL: url,
		Version:     "test",
		Credentials: aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(simtest.AccessKey, simtest.SecretKey, "")),
		JournalDir:  t.TempDir(),
		MaxBackoff:  2 * time.Millisecond,
	}
	if tweak != nil {
		tweak(&cfg)
	}
	c, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.confirmDelay = time.Millisecond
	return c
}
