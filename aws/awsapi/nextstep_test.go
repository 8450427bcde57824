package awsapi

import "testing"

// A next step keeps the flags that choose the backend and the account: --demo for the
// built-in simulator (never its loopback URL, nor a profile it does not use), the
// --endpoint-url given, the profile, and the step's region.
func TestNextStepKeepsTheFlagsInForce(t *testing.T) {
	for _, c := range []struct {
		client *Client
		want   string
	}{
		{&Client{journal: &journal{cloud: CloudDemo}, endpointFlag: "http://127.0.0.1:39999"}, "gpublock extend cr-1 --duration LENGTH --demo --region us-east-1"},
		{&Client{journal: &journal{cloud: CloudEmulator}, endpointFlag: "http://127.0.0.1:4566"}, "gpublock extend cr-1 --duration LENGTH --endpoint-url http://127.0.0.1:4566 --region us-east-1"},
		{&Client{journal: &journal{cloud: CloudAWS}, profile: "oncall"}, "gpublock extend cr-1 --duration LENGTH --profile oncall --region us-east-1"},
		{&Client{journal: &journal{cloud: CloudAWS}}, "gpublock extend cr-1 --duration LENGTH --region us-east-1"},
	} {
		if got := c.client.NextStep("extend", "us-east-1", "cr-1", "--duration", "LENGTH"); got != c.want {
			t.Errorf("NextStep = %q, want %q", got, c.want)
		}
	}
	c := &Client{journal: &journal{cloud: CloudDemo}}
	if got := c.SettleCommand("eu-north-1"); got != "`gpublock journal --demo --region eu-north-1`" {
		t.Errorf("SettleCommand = %q", got)
	}
}
