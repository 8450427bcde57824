package stssim_test

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	awsmiddleware "github.com/aws/aws-sdk-go-v2/aws/middleware"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sts"
	"github.com/aws/smithy-go"
	smithyhttp "github.com/aws/smithy-go/transport/http"

	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/aws/stssim"
)

// serve is a core with STS alone, and a handler for what STS does not claim.
func serve(t *testing.T, f simcore.Faults) string {
	t.Helper()
	_, url := serveCore(t, f)
	return url
}

func serveCore(t *testing.T, f simcore.Faults) (*simcore.Core, string) {
	t.Helper()
	rest := simcore.Protocol{Name: "rest", Mount: func(*simcore.Core) simcore.Handler {
		return other{}
	}}
	c, err := simcore.New(simcore.Options{Faults: f}, stssim.Protocol(), rest)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(c)
	t.Cleanup(srv.Close)
	return c, srv.URL
}

type other struct{ simcore.Stateless }

func (other) ServeHTTP(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "not STS") }

func client(url string) *sts.Client {
	return sts.NewFromConfig(aws.Config{Region: "us-east-2", Credentials: credentials.NewStaticCredentialsProvider("AKIDEXAMPLE", "secret", "")},
		func(o *sts.Options) { o.BaseEndpoint = aws.String(url); o.RetryMaxAttempts = 1 })
}

func TestGetCallerIdentityThroughTheSDK(t *testing.T) {
	out, err := client(serve(t, simcore.Faults{})).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	if aws.ToString(out.Account) != simcore.DemoAccount || !strings.HasSuffix(aws.ToString(out.Arn), ":user/gpublock-demo") {
		t.Errorf("identity %s %s", aws.ToString(out.Account), aws.ToString(out.Arn))
	}
}

// The answer names the emulator in a header beside the account, so that a client keys
// what it did by the emulator, not by the URL that reached it.
func TestGetCallerIdentityNamesTheEmulator(t *testing.T) {
	c, url := serveCore(t, simcore.Faults{})
	out, err := client(url).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
	if err != nil {
		t.Fatal(err)
	}
	raw, ok := awsmiddleware.GetRawResponse(out.ResultMetadata).(*smithyhttp.Response)
	if !ok || c.ID() == "" || raw.Header.Get(simcore.IDHeader) != c.ID() {
		t.Fatalf("answer's %s header: want the emulator's identity %q", simcore.IDHeader, c.ID())
	}
}

// The faults every protocol shares reach STS, in its error shape.
func TestFaultsInSTSShape(t *testing.T) {
	_, err := client(serve(t, simcore.Faults{Down: []string{"us-east-2"}})).GetCallerIdentity(context.Background(), &sts.GetCallerIdentityInput{})
	var api smithy.APIError
	if !errors.As(err, &api) || api.ErrorCode() != "Unavailable" {
		t.Fatalf("down region: %v", err)
	}
}

// An unsigned STS request is told apart from EC2's by its Version, and refused in STS's
// shape; a form without STS's marks goes to the other handler.
func TestRecognisedUnsigned(t *testing.T) {
	url := serve(t, simcore.Faults{})
	post := func(body string) (int, string) {
		resp, err := http.Post(url, "application/x-www-form-urlencoded", strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, body := post("Action=GetCallerIdentity&Version=2011-06-15"); code != 403 || !strings.Contains(body, "<ErrorResponse") || !strings.Contains(body, "<Code>MissingAuthenticationToken</Code>") {
		t.Errorf("unsigned STS: %d %s", code, body)
	}
	if code, body := post("Action=DescribeRegions&Version=2016-11-15"); code != 200 || body != "not STS" {
		t.Errorf("an EC2 form: %d %s", code, body)
	}
}
