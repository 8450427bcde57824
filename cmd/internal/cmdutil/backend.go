package cmdutil

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/ec2sim"
	"github.com/gpublock/gpublock/aws/marketcache"
	"github.com/gpublock/gpublock/aws/sagemakersim"
	"github.com/gpublock/gpublock/aws/simcore"
	"github.com/gpublock/gpublock/aws/store"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/model"
)

// AWSFlags are the flags every command that talks to AWS shares.
type AWSFlags struct {
	Profile     string
	Region      string // one region, a list R1,R2, or "all"; the first one is the home region
	EndpointURL string
	Demo        bool
	PerRegion   int
	headroom    float64 // percent
	Overall     int
	MaxSpend    string
	ReadOnly    bool
	logFile     string
	noCache     bool

	// Version is the program's, for the SDK's user agent.
	Version string

	// readOnlyFile and maxSpendFile name the configuration file when the rule came from
	// it rather than from the flag, so that a refusal names what the person has to change.
	readOnlyFile, maxSpendFile string

	// callLog is --log-file, opened by Validate so that a path that cannot be written is
	// reported before any call, and then shared by every client the command makes.
	callLog *awsapi.CallLog

	// AutoDemo is not a flag: the TUI sets it so that a machine without any credentials
	// opens on the simulator. Commands for scripts leave it off, so a script never gets
	// simulated offerings it did not ask for.
	AutoDemo bool
	// SDKLog is not a flag either: the TUI sends the SDK's own warnings there, away from
	// the screen it draws on.
	SDKLog io.Writer
	// State is --state: where the records are kept ("" = the config file's, else local).
	State string
	// DemoSeed is the simulated market's seed.
	DemoSeed int64
	// rateLimits is --rate-limits: the built-in simulator's request buckets ("" = off);
	// demoRateLimitsFile is the configuration file's demo_rate_limits, used when the flag
	// is not given, and only by the simulator (it is no error against AWS).
	rateLimits, demoRateLimitsFile string
	// accounts and organization are the configuration file's (SetAccounts, accounts.go).
	accounts     []config.Account
	organization bool
}

// Register declares the AWS flags: once, as the root command's persistent flags, so that
// they work before or after the command name.
func (f *AWSFlags) Register(fs *pflag.FlagSet) {
	fs.StringVar(&f.Profile, "profile", "", "AWS shared-config profile; for the listings also a list `P[,P...]` of accounts, the first the one that searches and pays (default: $AWS_PROFILE or the default profile)")
	fs.StringVar(&f.Region, "region", "", "AWS region; for searches also a list `R[,R...]` or all (default: $AWS_REGION or the profile's)")
	fs.StringVar(&f.EndpointURL, "endpoint-url", "", "EC2 endpoint `URL`, e.g. http://127.0.0.1:PORT for gpublock sim (default: AWS, or $AWS_ENDPOINT_URL_EC2)")
	fs.BoolVar(&f.Demo, "demo", false, "use the built-in simulator instead of AWS (nothing real is bought)")
	fs.IntVar(&f.PerRegion, "region-concurrency", 0, "at most this many calls in flight per region (1-64); 0: as many as the region's AWS request bucket allows")
	fs.IntVar(&f.Overall, "concurrency", 256, "concurrent calls overall (1-256)")
	fs.Float64Var(&f.headroom, "rate-headroom", awsapi.DefaultHeadroom*100, "`percent` of each AWS request bucket (burst and refill rate) left to the account's other tools (0-90)")
	fs.BoolVar(&f.ReadOnly, "read-only", false, "never buy, extend or launch: every path that spends money is refused")
	fs.StringVar(&f.MaxSpend, "max-spend", "", "refuse any purchase whose fee is above this many `dollars` (e.g. 25000)")
	fs.StringVar(&f.State, "state", "", "where what gpublock has done is kept: `s3://BUCKET/PREFIX` for a team's machines to share, or a directory (default: state in the config file, else $XDG_STATE_HOME/gpublock)")
	fs.BoolVar(&f.noCache, "no-cache", false, "neither show nor keep past search answers (the market cache under $XDG_CACHE_HOME/gpublock)")
	fs.StringVar(&f.logFile, "log-file", "", "append one line per AWS API attempt (action, region, status, error code, request id, timing; never credentials or bodies) to this `file`")
	fs.StringVar(&f.rateLimits, "rate-limits", "", "with --demo: the built-in simulator's request token buckets: aws (AWS's pace: the Capacity Block searches and purchases 10 at once, then 0.15 per second), a number N (AWS's refill rates × N), or off (the default)")
	f.DemoSeed = 1
}

// Validate checks the shared flags before any call.
func (f *AWSFlags) Validate() error {
	if err := f.checkProfiles(); err != nil {
		return err
	}
	if f.EndpointURL != "" {
		u, err := url.Parse(f.EndpointURL)
		if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
			return Usagef("--endpoint-url %q: want an http:// or https:// URL such as http://127.0.0.1:4566", f.EndpointURL)
		}
	}
	if f.Demo && f.EndpointURL != "" {
		return Usagef("--demo and --endpoint-url: give one or the other (--demo starts its own simulator)")
	}
	if f.rateLimits != "" {
		if _, err := ParseRateLimits(f.rateLimits); err != nil {
			return Usagef("%v", err)
		}
		if f.EndpointURL != "" {
			return Usagef("--rate-limits sets the built-in simulator's request buckets (--demo); an emulator at --endpoint-url keeps its own (gpublock sim --rate-limits)")
		}
	}
	if f.PerRegion < 0 || f.PerRegion > 64 {
		return Usagef("--region-concurrency %d: allowed 1 to 64, or 0 for the pace of AWS's request buckets", f.PerRegion)
	}
	if f.headroom < 0 || f.headroom > 90 || f.headroom != f.headroom {
		return Usagef("--rate-headroom %v: allowed 0 to 90 (percent)", f.headroom)
	}
	if f.Overall < 1 || f.Overall > 256 {
		return Usagef("--concurrency %d: allowed 1 to 256", f.Overall)
	}
	if f.MaxSpend != "" {
		if _, err := model.ParseDollars(f.MaxSpend); err != nil {
			// A cap from the configuration file was checked, with its file and line, when
			// the file was read; this one is the flag's.
			where := "--max-spend"
			if f.maxSpendFile != "" {
				where = "max_spend in " + f.maxSpendFile
			}
			return Usagef("%s %q: %s", where, f.MaxSpend, config.MoneyReason(err))
		}
	}
	if _, err := f.RegionList(nil); err != nil {
		return err
	}
	if f.logFile != "" && f.callLog == nil {
		l, err := OpenCallLog(f.logFile)
		if err != nil {
			return err
		}
		f.callLog = l
	}
	return nil
}

// OpenCallLog opens --log-file; a path that cannot be written is bad usage, before any call.
func OpenCallLog(path string) (*awsapi.CallLog, error) {
	l, err := awsapi.OpenCallLog(path)
	if err != nil {
		return nil, Usagef("--log-file %q: cannot append to it: %s", path, PathReason(err))
	}
	return l, nil
}

// PathReason is why a file could not be opened, without the path the message names already.
func PathReason(err error) string {
	var pe *os.PathError
	if errors.As(err, &pe) {
		if pe.Path != "" && pe.Op != "open" {
			return pe.Op + " " + pe.Path + ": " + pe.Err.Error()
		}
		return pe.Err.Error()
	}
	return err.Error()
}

// RegionList reads --region: nil when not given, every region selling one of the types
// for "all" (every Capacity Block region when no type is given).
func (f *AWSFlags) RegionList(types []string) ([]string, error) {
	v := strings.TrimSpace(f.Region)
	if v == "" {
		return nil, nil
	}
	if strings.EqualFold(v, "all") {
		if len(types) > 0 {
			return model.RegionsSelling(types...), nil
		}
		return model.Regions(), nil
	}
	var out []string
	for _, r := range strings.Split(v, ",") {
		r = strings.TrimSpace(r)
		if r == "" {
			return nil, Usagef("--region %q: empty name in the list; want R[,R...] or all", f.Region)
		}
		known := false
		for _, k := range model.Regions() {
			known = known || k == r
		}
		if !known {
			return nil, Usagef("--region %q: %q is not a Capacity Block region; allowed: %s, or all", f.Region, r, strings.Join(model.Regions(), ", "))
		}
		out = append(out, r)
	}
	return out, nil
}

// DefaultRegionError is the usage error of a search that falls back on the SDK's region
// ($AWS_REGION or the profile's) where Capacity Blocks are not sold: the query's
// validation would blame --region, which the person never gave.
func (f *AWSFlags) DefaultRegionError(region string) error {
	if strings.TrimSpace(f.Region) != "" || slices.Contains(model.Regions(), region) {
		return nil
	}
	return Usagef("no --region given, and the default region %q ($AWS_REGION or the profile's) sells no Capacity Blocks; "+
		"give --region R[,R...] or all (sold in %s)", region, strings.Join(model.Regions(), ", "))
}

// HomeRegion is the single region for the client: the first of a list, none for "all".
func (f *AWSFlags) HomeRegion() string {
	v := strings.TrimSpace(f.Region)
	if strings.EqualFold(v, "all") {
		return ""
	}
	first, _, _ := strings.Cut(v, ",")
	return strings.TrimSpace(first)
}

// OneRegion is the region of a command about one block or offering: the flag's, or the
// client's default.
func (f *AWSFlags) OneRegion(client *awsapi.Client) string {
	if r := f.HomeRegion(); r != "" {
		return r
	}
	return client.Region()
}

// BackendInfo says what the client talks to.
type BackendInfo struct {
	Mode     string // "LIVE" or "SIMULATED"
	Reason   string // why this mode, for the status line
	Endpoint string // the endpoint override, "" for AWS's own
	// Sim is the in-process emulator in SIMULATED mode (for its clock), else nil.
	Sim *ec2sim.Server
}

const (
	ModeLive      = "LIVE"
	ModeSimulated = "SIMULATED"
)

// credentialProbe bounds the look for credentials before falling back to the simulator;
// the chain ends with IMDS, which on a laptop only fails after its timeouts.
const credentialProbe = 3 * time.Second

// OpenBackend returns a ready client. With --demo, or (when f.AutoDemo) when no AWS
// credentials can be found, it starts ec2sim in-process on 127.0.0.1:0 and points the same
// adapter at it with static demo credentials. The simulator stops when ctx is done.
func OpenBackend(ctx context.Context, f *AWSFlags, stderr io.Writer) (*awsapi.Client, BackendInfo, error) {
	if err := f.Validate(); err != nil {
		return nil, BackendInfo{}, err
	}
	// One client reaches one account: the first of a list, with the file's endpoint and
	// regions for it.
	f = f.home()
	cfg := f.ClientConfig()
	loc, err := f.StateLocation()
	if err != nil {
		return nil, BackendInfo{}, err
	}
	cfg.State = loc
	if f.Demo {
		return openSimulated(ctx, f, cfg, "--demo: the built-in simulator; nothing real is bought or launched")
	}
	c, err := awsapi.New(ctx, cfg)
	if err != nil {
		return nil, BackendInfo{}, err
	}
	emulator := false // known from the probe below, which need not be asked twice
	u := awsapi.ConfiguredEndpoint()
	if u == "" {
		// The profile's own endpoint_url in the shared config, which the SDK applies.
		u = aws.ToString(c.SDKConfig().BaseEndpoint)
	}
	if c.Endpoint() == "" && u != "" {
		// An endpoint from the environment that is not on loopback (`gpublock sim --addr
		// 0.0.0.0:P`, another machine) may still be the emulator: what it answers decides,
		// so that simulated purchases are never labelled LIVE nor journalled as real.
		probeCfg := cfg
		probeCfg.EndpointURL = u
		if p, err := awsapi.New(ctx, probeCfg); err == nil && p.IsEmulator(ctx) {
			c, cfg, emulator = p, probeCfg, true
		}
	}
	info := BackendInfo{Mode: ModeLive, Endpoint: c.Endpoint(), Reason: "AWS, region " + c.Region()}
	if c.Endpoint() != "" {
		info.Reason = "endpoint " + c.Endpoint() + ", region " + c.Region()
		if emulator || c.IsEmulator(ctx) {
			info.Mode, info.Reason = ModeSimulated, "the emulator at "+c.Endpoint()+" (gpublock sim); nothing real is bought or launched"
			// Purchases from `gpublock sim` are not money spent: they go to the simulated
			// journal, so the live one stays a record of real purchases only.
			if cfg.JournalDir == "" {
				if dir, err := awsapi.DefaultJournalDir(); err == nil {
					cfg.JournalDir = filepath.Join(dir, "simulated")
				}
			}
			// Its entries are told from --demo's, which share the simulated journal.
			cfg.Cloud = awsapi.CloudEmulator
			if c, err = awsapi.New(ctx, cfg); err != nil {
				return nil, BackendInfo{}, err
			}
		}
	}
	if f.AutoDemo && f.EndpointURL == "" && f.Profile == "" {
		probe, cancel := context.WithTimeout(ctx, credentialProbe)
		err := c.CheckCredentials(probe)
		cancel()
		if awsapi.IsNoCredentials(err) {
			fmt.Fprintln(stderr, "gpublock: no AWS credentials found; starting the built-in simulator (--demo). Nothing real can be bought.")
			return openSimulated(ctx, f, cfg, "no AWS credentials found, so the built-in simulator; nothing real is bought or launched")
		}
	}
	if f.rateLimits != "" {
		// AWS's buckets are AWS's: the flag is only the simulator's.
		return nil, BackendInfo{}, Usagef("--rate-limits %s sets the built-in simulator's request buckets; give it with --demo", f.rateLimits)
	}
	return c, info, nil
}

// StateLocation is where the records are kept: --state, else the configuration file's
// state, else the local default (the zero Location). A damaged file is an error: the
// records of a team must not silently go to one machine.
func (f *AWSFlags) StateLocation() (store.Location, error) {
	s := f.State
	if s == "" {
		c, path, err := config.LoadUser()
		if err != nil {
			return store.Location{}, UsageError{err.Error()}
		}
		if c.State == "" {
			return store.Location{}, nil
		}
		loc, err := store.ParseLocation(c.State)
		if err != nil {
			return store.Location{}, Usagef("%s: %v", path, err)
		}
		return loc, nil
	}
	loc, err := store.ParseLocation(s)
	if err != nil {
		return store.Location{}, Usagef("--state: %v", err)
	}
	return loc, nil
}

// ClientConfig is the configuration of the client of the account that searches and pays.
func (f *AWSFlags) ClientConfig() awsapi.Config {
	f = f.home()
	cfg := awsapi.Config{
		Profile:     f.Profile,
		Region:      f.HomeRegion(),
		EndpointURL: f.EndpointURL,
		Version:     f.Version,
		PerRegion:   f.PerRegion,
		Overall:     f.Overall,
		Headroom:    headroomFraction(f.headroom),
		ReadOnly:    f.ReadOnly,
		CallLog:     f.callLog,
		SDKLog:      f.SDKLog,
	}
	if !f.noCache {
		// No cache directory is no cache: the cache is never worth an error.
		cfg.MarketCacheDir, _ = marketcache.DefaultDir()
	}
	cfg.MaxSpend = f.SpendCap()
	cfg.MaxSpendRule, cfg.ReadOnlyRule = f.MaxSpendRule(), f.ReadOnlyRule()
	return cfg
}

// SpendCap is the spending cap (--max-spend, or max_spend in the configuration file), nil
// when there is none. validate refuses a cap that does not read as dollars before anything
// runs; should one get past it, the cap is zero, which refuses every fee.
func (f *AWSFlags) SpendCap() *model.Money {
	if f.MaxSpend == "" {
		return nil
	}
	m, err := model.ParseDollars(f.MaxSpend)
	if err != nil {
		m = model.Money{}
	}
	return &m
}

// headroomFraction turns --rate-headroom's percent into Config.Headroom, where 0 means
// the default and a negative value none.
func headroomFraction(pct float64) float64 {
	if pct == 0 {
		return -1
	}
	return pct / 100
}

// DemoStateFile, under the simulated journal's directory, holds the --demo account.
const DemoStateFile = "demo-state.json"

// Demo credentials: static, obviously fake, and only ever sent to the loopback simulator.
const (
	demoAccessKey = "AKIAGPUBLOCKDEMO0000"
	demoSecretKey = "gpublock-demo-secret-not-a-real-key"
)

func openSimulated(ctx context.Context, f *AWSFlags, cfg awsapi.Config, reason string) (*awsapi.Client, BackendInfo, error) {
	region := cfg.Region
	if region == "" {
		region = awsapi.DefaultRegion
	}
	// Every --demo command keeps the simulated account in one file beside the simulated
	// journal, so that a block bought by `purchase --demo` is listed by `blocks --demo` and
	// by the TUI, as it would be on AWS.
	// The demo's market gets cheaper minute by minute once a watcher sees an open order
	// (OrderFiller), so that an order placed a little under the best price is filled while
	// people watch.
	drop := simcore.DemoPriceDrop
	opts := ec2sim.Options{Seed: f.DemoSeed, DefaultRegion: region, PriceDrop: &drop}
	// Off unless asked: --rate-limits aws runs the demo at AWS's pace, which the client
	// learns from the simulator (GET /_sim/limits) and keeps to.
	if v := cmp.Or(f.rateLimits, f.demoRateLimitsFile); v != "" {
		rl, err := ParseRateLimits(v)
		if err != nil {
			return nil, BackendInfo{}, Usagef("%v", err)
		}
		opts.RateLimits = rl
	}
	if dir, err := awsapi.DefaultJournalDir(); err == nil {
		opts.StateFile = filepath.Join(dir, "simulated", DemoStateFile)
		if err := os.MkdirAll(filepath.Dir(opts.StateFile), 0o700); err != nil {
			return nil, BackendInfo{}, fmt.Errorf("the demo's state directory: %w", err)
		}
	}
	sim, err := ec2sim.New(SimOptions(opts))
	if err != nil {
		return nil, BackendInfo{}, fmt.Errorf("%w (delete %s to start the demo afresh)", err, opts.StateFile)
	}
	u, err := ec2sim.Listen(ctx, "127.0.0.1:0", sim)
	if err != nil {
		return nil, BackendInfo{}, fmt.Errorf("starting the simulator: %w", err)
	}
	cfg.Region, cfg.EndpointURL, cfg.Profile = region, u, ""
	cfg.Credentials = aws.NewCredentialsCache(credentials.NewStaticCredentialsProvider(demoAccessKey, demoSecretKey, ""))
	// Simulated purchases must not mix with real ones in the journal, nor with those made
	// against gpublock sim in the same simulated journal.
	if dir, err := awsapi.DefaultJournalDir(); err == nil {
		cfg.JournalDir = filepath.Join(dir, "simulated")
	}
	cfg.Cloud = awsapi.CloudDemo
	c, err := awsapi.New(ctx, cfg)
	if err != nil {
		return nil, BackendInfo{}, err
	}
	return c, BackendInfo{Mode: ModeSimulated, Reason: reason, Endpoint: u, Sim: sim}, nil
}

// SimOptions completes the options of every emulator gpublock starts (`gpublock sim` and
// the in-process demo backend): the Price List API is served beside EC2, so that
// `gpublock prices --refresh --endpoint-url` works against it as against AWS; and SageMaker
// Training Plans, on the same clock, faults and state file.
func SimOptions(o ec2sim.Options) ec2sim.Options {
	if o.PriceList == nil {
		o.PriceList = ec2sim.NewPriceListHandler()
	}
	if len(o.Protocols) == 0 {
		o.Protocols = []ec2sim.Protocol{sagemakersim.Protocol()}
	}
	return o
}
