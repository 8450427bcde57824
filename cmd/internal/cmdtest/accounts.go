package cmdtest

import (
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/cmd/internal/printers"
)

// Account is one account of a test of several: its profile and the emulator standing for it.
type Account struct {
	Profile, ID string
	Sim         *Sim
}

// StartAccounts starts one emulator per account (ids in order, profiles a, b, c…), each
// serving as its account with a market of its own, and writes the shared config and credentials files a person
// would: each profile with its region, its own endpoint_url and dummy keys of its own,
// and no keys in the environment, so that each command reaches an account by its profile.
func StartAccounts(t *testing.T, ids ...string) []Account {
	t.Helper()
	var out []Account
	for i, id := range ids {
		// A seed of its own, so that the accounts' reservation ids differ, as AWS's do.
		cs := StartSim(t, func(o *ec2sim.Options) { o.Account, o.Seed = id, int64(i+1) })
		out = append(out, Account{Profile: string(rune('a' + i)), ID: id, Sim: cs})
	}
	// StartSim set the environment anew each time: the last one's files are the ones read.
	var config, creds strings.Builder
	for i, a := range out {
		fmt.Fprintf(&config, "[profile %s]\nregion = us-east-1\nendpoint_url = %s\n\n", a.Profile, a.Sim.URL)
		fmt.Fprintf(&creds, "[%s]\naws_access_key_id = AKIATESTACCOUNT0000%d\naws_secret_access_key = secret-of-%s\n\n", a.Profile, i, a.Profile)
	}
	for path, body := range map[string]string{os.Getenv("AWS_CONFIG_FILE"): config.String(), os.Getenv("AWS_SHARED_CREDENTIALS_FILE"): creds.String()} {
		if err := os.WriteFile(path, []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "")
	return out
}

// WriteConfig writes gpublock's configuration file (config.yaml under $XDG_CONFIG_HOME).
func WriteConfig(t *testing.T, body string) string {
	t.Helper()
	dir := os.Getenv("XDG_CONFIG_HOME") + "/gpublock"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
	p := dir + "/config.yaml"
	if err := os.WriteFile(p, []byte(body), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// BuyAs buys a block of 2 with the profile alone, as a person would in that account (the
// command line run must have offerings and purchase).
func (c *CLI) BuyAs(t *testing.T, profile string) printers.OfferingJSON {
	t.Helper()
	rows := c.ListOfferings(t, append([]string{"--profile", profile}, PurchaseSearch...)...)
	o := rows[0]
	for _, r := range rows {
		if strings.HasSuffix(r.StartDate, "T11:30:00Z") && r.CapacityBlockDurationMinutes == 0 {
			o = r
			break
		}
	}
	args := append([]string{"purchase", o.CapacityBlockOfferingId, "--profile", profile}, PurchaseSearch...)
	if code, _, errs := c.Run(append(args, "--yes")...); code != 0 {
		t.Fatalf("purchase --profile %s: exit %d\n%s", profile, code, errs)
	}
	return o
}
