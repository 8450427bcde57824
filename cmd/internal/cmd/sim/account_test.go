package sim

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sts"
)

// `gpublock sim --account ID` stands for that account: two emulators are two accounts.
func TestSimAccountFlag(t *testing.T) {
	for _, account := range []string{"111122223333", "444455556666"} {
		base, out, cancel, wait := cli.ServeSim(t, "--account", account)
		if !strings.Contains(out.String(), "account "+account+".") {
			t.Errorf("--account %s: the instructions do not name it:\n%s", account, out.String())
		}
		c := sts.NewFromConfig(aws.Config{Region: "us-east-1", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "x", "")},
			func(o *sts.Options) { o.BaseEndpoint = aws.String(base); o.RetryMaxAttempts = 1 })
		id, err := c.GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
		if err != nil || aws.ToString(id.Account) != account {
			t.Errorf("--account %s: STS says %v (%v)", account, id, err)
		}
		cancel()
		if code := wait(); code != 0 {
			t.Errorf("exit %d after cancel", code)
		}
	}
	var out, errb bytes.Buffer
	if code := cli.RunContext(context.Background(), &out, &errb, "sim", "--account", "12-34"); code != 2 || !strings.Contains(errb.String(), "12 digits") {
		t.Errorf("--account 12-34: exit %d, %q", code, errb.String())
	}
}
