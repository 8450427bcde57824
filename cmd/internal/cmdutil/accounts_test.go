package cmdutil

import (
	"reflect"
	"strings"
	"testing"

	"github.com/gpublock/gpublock/cmd/internal/config"
)

func TestAccountSpecs(t *testing.T) {
	file := config.File{Organization: true, Accounts: []config.Account{
		{Profile: "prod", Regions: []string{"us-east-1"}, EndpointURL: "http://127.0.0.1:1"},
		{Profile: "research"},
	}}
	// No list anywhere: the one account the flags reach.
	f := &AWSFlags{Profile: "solo"}
	if got := f.AccountSpecs(); len(got) != 1 || got[0].Profile != "solo" || f.SeveralAccounts() {
		t.Errorf("one profile: %+v", got)
	}
	// The configuration's accounts, when --profile names none.
	f = &AWSFlags{}
	f.SetAccounts(file)
	want := []AccountSpec{{Profile: "prod", EndpointURL: "http://127.0.0.1:1", Regions: []string{"us-east-1"}}, {Profile: "research"}}
	if got := f.AccountSpecs(); !reflect.DeepEqual(got, want) || !f.Organization() {
		t.Errorf("configuration's accounts: %+v", got)
	}
	// The one that searches and pays is the first: its endpoint and region reach the client.
	if cfg := f.ClientConfig(); cfg.Profile != "prod" || cfg.EndpointURL != "http://127.0.0.1:1" || cfg.Region != "us-east-1" {
		t.Errorf("client of the first account: %+v", cfg)
	}
	// --profile wins, and a profile the file lists keeps the file's endpoint and regions.
	f = &AWSFlags{Profile: "research, prod"}
	f.SetAccounts(file)
	if got := f.AccountSpecs(); len(got) != 2 || got[0].Profile != "research" || got[1].EndpointURL != "http://127.0.0.1:1" {
		t.Errorf("--profile research,prod: %+v", got)
	}
	if cfg := f.ClientConfig(); cfg.Profile != "research" || cfg.EndpointURL != "" {
		t.Errorf("client: %+v", cfg)
	}
	if err := f.OneAccount(); err == nil || !strings.Contains(err.Error(), "give one profile") {
		t.Errorf("OneAccount: %v", err)
	}
	// --endpoint-url and --region win over the file's for every account.
	f = &AWSFlags{Profile: "prod", EndpointURL: "http://127.0.0.1:2", Region: "us-west-2"}
	f.SetAccounts(file)
	if g := f.ForAccount(f.AccountSpecs()[0]); g.EndpointURL != "http://127.0.0.1:2" || g.Region != "us-west-2" {
		t.Errorf("flags over the file: %+v", g)
	}
	// The organization's accounts are the payer's and every other of the file.
	f = &AWSFlags{Profile: "research"}
	f.SetAccounts(file)
	if got := f.OrganizationSpecs(); len(got) != 2 || got[0].Profile != "research" || got[1].Profile != "prod" {
		t.Errorf("organization: %+v", got)
	}
	// Listed alone, the payer is only some of the organization; with every account, all of it.
	if f.ListsOrganization() {
		t.Error("--profile research alone lists the whole organization")
	}
	for _, whole := range []string{"", "prod,research"} {
		f = &AWSFlags{Profile: whole}
		f.SetAccounts(file)
		if !f.ListsOrganization() {
			t.Errorf("--profile %q: not the whole organization", whole)
		}
	}
	f = &AWSFlags{Profile: "elsewhere"}
	f.SetAccounts(file)
	if got := f.OrganizationSpecs(); len(got) != 3 || got[0].Profile != "elsewhere" {
		t.Errorf("organization of a payer the file does not list: %+v", got)
	}
	// --demo is one simulated account.
	f = &AWSFlags{Demo: true}
	f.SetAccounts(file)
	if f.SeveralAccounts() {
		t.Error("--demo lists several accounts")
	}
	for _, bad := range []AWSFlags{{Profile: "a,"}, {Profile: "a,b,a"}, {Profile: "a,b", Demo: true}} {
		if err := bad.checkProfiles(); err == nil {
			t.Errorf("%+v: no error", bad)
		}
	}
}
