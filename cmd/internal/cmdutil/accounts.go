package cmdutil

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/gpublock/gpublock/aws/accounts"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/aws/sources"
	"github.com/gpublock/gpublock/cmd/internal/config"
)

// AccountSpec is one account a listing reads: the profile that reaches it, and the endpoint
// and regions the configuration file gives it.
type AccountSpec struct {
	Profile     string
	EndpointURL string
	Regions     []string
}

// SetAccounts takes the configuration file's accounts and organization key. --profile,
// when given, names the accounts instead; a profile it names that the file lists keeps the
// file's endpoint and regions.
func (f *AWSFlags) SetAccounts(c config.File) {
	f.accounts, f.organization = c.Accounts, c.Organization
}

// Organization reports the file's organization: true, which says the accounts listed are
// the organization's whole set, so that its 256-instance cap can be stated.
func (f *AWSFlags) Organization() bool { return f.organization }

// Profiles are --profile's names, nil when it was not given.
func (f *AWSFlags) Profiles() []string {
	v := strings.TrimSpace(f.Profile)
	if v == "" {
		return nil
	}
	var out []string
	for _, p := range strings.Split(v, ",") {
		out = append(out, strings.TrimSpace(p))
	}
	return out
}

// checkProfiles refuses a list of profiles with a blank name or a name given twice.
func (f *AWSFlags) checkProfiles() error {
	ps := f.Profiles()
	for i, p := range ps {
		switch {
		case p == "":
			return Usagef("--profile %q: empty name in the list; want NAME or a list A,B,C", f.Profile)
		case slices.Contains(ps[:i], p):
			return Usagef("--profile %q: %s is given twice; list each account once", f.Profile, p)
		}
	}
	if len(ps) > 1 && f.Demo {
		return Usagef("--profile %q with --demo: the built-in simulator is one account; give one profile, or none", f.Profile)
	}
	return nil
}

// AccountSpecs are the accounts the listings read, the one that pays first: --profile's,
// else the configuration file's accounts, else the one account the flags reach. With
// --demo it is the simulator's one account.
func (f *AWSFlags) AccountSpecs() []AccountSpec {
	if f.Demo {
		return []AccountSpec{{Profile: f.Profile}}
	}
	profiles := f.Profiles()
	if len(profiles) == 0 {
		if len(f.accounts) == 0 {
			return []AccountSpec{{Profile: f.Profile}}
		}
		for _, a := range f.accounts {
			profiles = append(profiles, a.Profile)
		}
	}
	out := make([]AccountSpec, len(profiles))
	for i, p := range profiles {
		out[i] = AccountSpec{Profile: p}
		if j := slices.IndexFunc(f.accounts, func(a config.Account) bool { return a.Profile == p }); j >= 0 {
			out[i].EndpointURL, out[i].Regions = f.accounts[j].EndpointURL, f.accounts[j].Regions
		}
	}
	return out
}

// SeveralAccounts reports whether the listings read more than one account.
func (f *AWSFlags) SeveralAccounts() bool { return len(f.AccountSpecs()) > 1 }

// OneAccount refuses a list of profiles for a command that spends: searches, purchases,
// extensions and launches are made in one account, which must be named alone.
func (f *AWSFlags) OneAccount() error {
	if ps := f.Profiles(); len(ps) > 1 {
		return Usagef("--profile %s: this command spends in one account; give one profile (the one that pays)", f.Profile)
	}
	return nil
}

// ListsOrganization reports whether the accounts listed are all of the organization's
// (OrganizationSpecs), so that what they hold is what it holds; false when --profile
// names fewer than the configuration file.
func (f *AWSFlags) ListsOrganization() bool {
	listed := f.AccountSpecs()
	for _, o := range f.OrganizationSpecs() {
		if !slices.ContainsFunc(listed, func(a AccountSpec) bool { return a.Profile == o.Profile }) {
			return false
		}
	}
	return true
}

// CheckSpending checks the AWS flags of a command that spends in one reservation's or
// offering's place (purchase, extend, launch): one account, flags that read, one region.
func (f *AWSFlags) CheckSpending() error {
	if err := f.OneAccount(); err != nil {
		return err
	}
	if err := f.Validate(); err != nil {
		return err
	}
	return SingleRegion(f)
}

// ForAccount is a copy of the flags that reach one account: its profile, and the file's
// endpoint and regions for it unless --endpoint-url and --region say otherwise.
func (f *AWSFlags) ForAccount(a AccountSpec) *AWSFlags {
	g := *f
	g.Profile, g.accounts = a.Profile, nil
	if g.EndpointURL == "" {
		g.EndpointURL = a.EndpointURL
	}
	if strings.TrimSpace(g.Region) == "" && len(a.Regions) > 0 {
		g.Region = strings.Join(a.Regions, ",")
	}
	return &g
}

// home is the flags of the account that searches and pays.
func (f *AWSFlags) home() *AWSFlags { return f.ForAccount(f.AccountSpecs()[0]) }

// BackendOver makes one account's backend over its client; home is true for the account
// that pays (whose backend may take options the others do not, a notifier).
type BackendOver func(c *awsapi.Client, home bool) source.Backend

// SourcesBackend is the BackendOver of the usual backend: sources.New over srcs' sources.
func SourcesBackend(srcs func(*awsapi.Client) []source.Source) BackendOver {
	return func(c *awsapi.Client, _ bool) source.Backend { return sources.New(c, srcs(c)) }
}

// OpenAccounts opens every account the flags list (AccountSpecs) through open, each with
// its own client (its profile, endpoint, regions and journal, as OpenBackend makes them),
// each account's backend made by over; with several it returns the accounts.Backend over
// them, home first, and with one that account's backend alone. The home account's client
// and what it talks to are returned too: its clock, the record of the notifications, the
// launches attached on this machine are the home account's. An account other than the
// home one that cannot be opened is named failed by every listing.
func OpenAccounts(ctx context.Context, f *AWSFlags, open BackendFunc, over BackendOver) (source.Backend, *awsapi.Client, BackendInfo, error) {
	return OpenAccountsOf(ctx, f, f.AccountSpecs(), open, over)
}

// OrganizationSpecs are the accounts whose blocks count toward the organization's cap: the
// one that pays, then every other account of the configuration file.
func (f *AWSFlags) OrganizationSpecs() []AccountSpec {
	home := f.AccountSpecs()[0]
	out := []AccountSpec{home}
	for _, a := range f.accounts {
		if a.Profile != home.Profile {
			out = append(out, AccountSpec{Profile: a.Profile, EndpointURL: a.EndpointURL, Regions: a.Regions})
		}
	}
	return out
}

// OpenAccountsOf is OpenAccounts over the accounts specs, the first the home account.
func OpenAccountsOf(ctx context.Context, f *AWSFlags, specs []AccountSpec, open BackendFunc, over BackendOver) (source.Backend, *awsapi.Client, BackendInfo, error) {
	if err := f.Validate(); err != nil {
		return nil, nil, BackendInfo{}, err
	}
	type opened struct {
		c    *awsapi.Client
		info BackendInfo
		err  error
	}
	all := make([]opened, len(specs))
	var wg sync.WaitGroup
	for i, a := range specs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			all[i].c, all[i].info, all[i].err = open(ctx, f.ForAccount(a))
		}()
	}
	wg.Wait()
	home := all[0]
	if home.err != nil {
		return nil, nil, BackendInfo{}, home.err
	}
	if len(specs) == 1 {
		return over(home.c, true), home.c, home.info, nil
	}
	members := make([]accounts.Member, len(specs))
	for i, o := range all {
		members[i] = accounts.Member{Profile: specs[i].Profile, Regions: specs[i].Regions, Err: o.err}
		if o.err == nil {
			members[i].Backend = over(o.c, i == 0)
		} else {
			members[i].Err = source.Explained(awsapi.ExplainError, o.err)
		}
	}
	be, err := accounts.New(members)
	if err != nil {
		return nil, nil, BackendInfo{}, err
	}
	return be, home.c, home.info, nil
}
