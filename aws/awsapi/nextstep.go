package awsapi

import "strings"

// NextStep is a gpublock command line for the person to run next: the command and its
// arguments, then the flags in force that choose what it runs against, so that the step
// reaches the same backend and account: --demo (the built-in simulator), or --endpoint-url
// as given (an endpoint from the environment is still in force), --profile, and the region
// the step is about. A source is one of args (--source training-plans). Every printed
// next step is built here.
func (c *Client) NextStep(command, region string, args ...string) string {
	parts := append([]string{"gpublock", command}, args...)
	switch {
	case c.journal.cloud == CloudDemo:
		parts = append(parts, "--demo")
	case c.endpointFlag != "":
		parts = append(parts, "--endpoint-url", c.endpointFlag)
	}
	if c.profile != "" && c.journal.cloud != CloudDemo {
		parts = append(parts, "--profile", c.profile)
	}
	if region != "" {
		parts = append(parts, "--region", region)
	}
	return strings.Join(parts, " ")
}

// SettleCommand is the command that settles the journal's open intents in region.
func (c *Client) SettleCommand(region string) string {
	return "`" + c.NextStep("journal", region) + "`"
}
