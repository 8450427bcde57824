package config_test

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/cmdtest"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

func TestConfigReadsAccountsAndOrganization(t *testing.T) {
	p := cmdtest.TempFile(t, "config.yaml", `organization: true
accounts:
  - profile: ml-prod
    regions: [us-east-1, us-west-2]
  - {profile: research, endpoint_url: "http://127.0.0.1:4566"}
`)
	c, err := config.Load(p)
	if err != nil {
		t.Fatal(err)
	}
	want := []config.Account{{Profile: "ml-prod", Regions: []string{"us-east-1", "us-west-2"}}, {Profile: "research", EndpointURL: "http://127.0.0.1:4566"}}
	if !c.Organization || !reflect.DeepEqual(c.Accounts, want) {
		t.Fatalf("read organization %v, accounts %+v", c.Organization, c.Accounts)
	}
	// config show and config init write them back as they read.
	b, err := config.Marshal(c)
	if err != nil {
		t.Fatal(err)
	}
	var back config.File
	if _, err := config.DecodeYAML(b, &back); err != nil || !back.Organization || !reflect.DeepEqual(back.Accounts, want) {
		t.Errorf("written %q, read back %+v (%v)", b, back, err)
	}
}

// Each mistake in the accounts names the file and the line it is on.
func TestConfigAccountsMistakesNameFileAndLine(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"organization: yes please\n", `line 1: organization: want true or false, not "yes please"`},
		{"organization: 1\n", `line 1: organization: want true or false`},
		{"accounts: ml-prod,research\n", "line 1: accounts: want a list"},
		{"accounts: []\n", "line 1: accounts: the list is empty"},
		{"accounts:\n  - ml-prod\n", "line 2: accounts, entry 1: want {profile: NAME"},
		{"accounts:\n  - profile: a\n  - regions: [us-east-1]\n", "line 3: accounts, entry 2: profile is missing"},
		{"accounts:\n  - profile: \"a,b\"\n", `line 2: accounts, entry 1: profile "a,b": one profile name`},
		{"accounts:\n  - profile: \"\"\n", "line 2: accounts, entry 1: profile is empty"},
		{"accounts:\n  - profile: a\n  - profile: b\n  - profile: a\n", "line 4: accounts, entry 3: profile a is listed twice (first on line 2)"},
		{"accounts:\n  - profile: a\n    region: us-east-1\n", "line 3: accounts, entry 1: unknown key region (allowed: profile, regions, endpoint_url)"},
		{"accounts:\n  - profile: a\n    regions: [us-east-1, mars-1]\n", `line 3: accounts, entry 1: regions: "mars-1" is not a Capacity Block region`},
		{"accounts:\n  - profile: a\n    regions: us-east-1\n", "line 3: accounts, entry 1: regions: want a list"},
		{"accounts:\n  - profile: a\n    endpoint_url: localhost:4566\n", `line 3: accounts, entry 1: endpoint_url "localhost:4566"`},
		{"accounts:\n  - profile: a\n    profile: b\n", "line 3: accounts, entry 1: key profile given twice"},
		{"accounts:\n  - profile: a\n    endpoint_url:\n", "line 3: accounts, entry 1: key endpoint_url is null"},
		{"read_only: true\nacounts: []\n", "line 2: unknown key acounts (allowed: read_only"},
	} {
		p := cmdtest.TempFile(t, "config.yaml", tc.body)
		_, err := config.Load(p)
		if err == nil || !strings.Contains(err.Error(), p+", ") || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want the file and %q", tc.body, err, tc.want)
		}
	}
}
