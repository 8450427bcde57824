// Package apitest makes the real AWS adapter (awsapi) that the tests of the packages built
// on it point at the emulator. Only tests import it; awsapi's own tests cannot (it imports
// awsapi) and keep a copy that reaches the client's private fields.
package apitest

import (
	"context"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/internal/simtest"
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
