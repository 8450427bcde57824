package prices

import (
	"context"
	"encoding/csv"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/aws/smithy-go/middleware"
	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/filelock"
	"github.com/gpublock/gpublock/aws/pricelist"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

const pricesLong = "Shows on-demand prices, published Capacity Block rates and Savings Plans rates, each with\n" +
	"its source, date and age. --refresh asks the AWS Price List API (served from us-east-1) for\n" +
	"current on-demand prices and keeps them in $XDG_CACHE_HOME/gpublock/prices.json.\n\n" +
	"Exit status: 0 shown (and refreshed), 1 the refresh or the output failed, 2 bad usage."

// Options are the flags of prices. Its --region, --endpoint-url, --profile and --log-file
// are its own (a filter, and the Price List API's), not the AWS flags of the other commands.
type Options struct {
	IO *cmdutil.IOStreams
	// Now is the clock the ages are measured against.
	Now func() time.Time

	Output, Regions, Types, Endpoint, Profile, LogFile string
	Refresh                                            bool
}

// NewCmdPrices is `gpublock prices`; runF, when not nil, is given the options instead of
// running them.
func NewCmdPrices(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams, Now: f.Now}
	cmd := &cobra.Command{
		Use:   "prices",
		Short: "show the price catalog with the age of each figure; --refresh from the AWS Price List API",
		Long:  pricesLong,
		Example: "  gpublock prices --type p5.48xlarge,p5en.48xlarge\n" +
			"  gpublock prices --region us-east-1 -o json\n" +
			"  gpublock prices --refresh --profile prod\n" +
			"  gpublock prices --refresh --endpoint-url http://127.0.0.1:4566",
		Args:              cmdutil.NoArgs,
		Annotations:       map[string]string{cmdutil.AnnotationNoAWS: "true"},
		PersistentPreRunE: cmdutil.RefuseAWSFlags,
		RunE: func(cmd *cobra.Command, _ []string) error {
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(pricesRun(cmd.Context(), a))
		},
	}
	fs := cmd.Flags()
	cmdutil.OutputFlag(cmd, &a.Output, "table", "json", "csv")
	fs.StringVar(&a.Regions, "region", "", "only these regions, `R[,R...]` or all (figures without a region are always shown)")
	fs.StringVar(&a.Types, "type", "", "only these instance types, `T[,T...]`")
	fs.BoolVar(&a.Refresh, "refresh", false, "fetch current on-demand prices from the AWS Price List API into the cache first")
	fs.StringVar(&a.Endpoint, "endpoint-url", "", "Price List API endpoint `URL` for --refresh, e.g. http://127.0.0.1:PORT for gpublock sim (default: AWS); its prices are kept in a cache of their own, never used for AWS")
	fs.StringVar(&a.Profile, "profile", "", "the AWS shared-config profile for --refresh (default: $AWS_PROFILE or the default profile)")
	fs.StringVar(&a.LogFile, "log-file", "", "with --refresh, append one line per AWS API attempt (never credentials or bodies) to this `file`")
	return cmd
}

// pricesRun shows the catalog once cobra has parsed the flags.
func pricesRun(ctx context.Context, a *Options) int {
	stdout, stderr := a.IO.Out, a.IO.ErrOut
	output, regionList, typeList, endpoint, profile, logFile := a.Output, a.Regions, a.Types, a.Endpoint, a.Profile, a.LogFile
	refresh := a.Refresh
	usage := func(format string, a ...any) int {
		return cmdutil.ReportUsage(stderr, "prices", cmdutil.Usagef(format, a...))
	}
	format := strings.ToLower(strings.TrimSpace(output))
	if format != "table" && format != "json" && format != "csv" {
		return usage("-o %q: allowed table, json or csv", output)
	}
	if !refresh && (endpoint != "" || profile != "" || logFile != "") {
		return usage("--endpoint-url, --profile and --log-file are only used with --refresh")
	}
	if endpoint != "" && !strings.HasPrefix(endpoint, "http://") && !strings.HasPrefix(endpoint, "https://") {
		return usage("--endpoint-url %q: want an http:// or https:// URL", endpoint)
	}

	// An endpoint's prices are kept apart from AWS's: refreshed from an emulator, they
	// are shown from its own cache, and never used for AWS.
	path, pathErr := pricing.CachePathFor(endpoint)
	cat, err := pricing.Load(path)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock prices: ignoring the price cache: %v\n", err)
	}
	regions, err := pricesPick("--region", regionList, pricesRegions(cat), true)
	if err != nil {
		return usage("%v", err)
	}
	types, err := pricesPick("--type", typeList, pricesTypes(cat), false)
	if err != nil {
		return usage("%v", err)
	}

	var callLog []func(*middleware.Stack) error
	if logFile != "" {
		l, err := cmdutil.OpenCallLog(logFile)
		if err != nil {
			return cmdutil.ReportUsage(stderr, "prices", err)
		}
		callLog = append(callLog, l.APIOption())
	}
	if refresh {
		if pathErr != nil {
			fmt.Fprintf(stderr, "gpublock prices: %v\n", pathErr)
			return 1
		}
		if code := pricesRefresh(ctx, path, profile, endpoint, types, regions, callLog, a.Now, stderr); code != 0 {
			return code
		}
		if cat, err = pricing.Load(path); err != nil {
			fmt.Fprintf(stderr, "gpublock prices: %v\n", err)
			return 1
		}
	}

	rows := pricesSelect(cat.Rows(), regions, types)
	used := pricesUsed(cat, regions)
	now := a.Now()
	switch format {
	case "json":
		err = pricesJSON(stdout, rows, used, now)
	case "csv":
		err = pricesCSV(stdout, rows, now)
	default:
		err = pricesTable(stdout, rows, used, now)
	}
	if err != nil {
		fmt.Fprintf(stderr, "gpublock prices: %v\n", err)
		return 1
	}
	return 0
}

func pricesRefresh(ctx context.Context, path, profile, endpoint string, types, regions []string, callLog []func(*middleware.Stack) error, now func() time.Time, stderr io.Writer) int {
	client, err := pricelist.NewClient(ctx, profile, endpoint, callLog...)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock prices: --refresh: %v\n", err)
		return 1
	}
	if len(types) == 0 {
		for _, t := range model.Catalog() {
			types = append(types, t.Name)
		}
	}
	note := ""
	if endpoint != "" {
		note = "via " + endpoint
	}
	res, err := pricelist.Fetch(ctx, client, types, regions, now(), note)
	if err != nil {
		fmt.Fprintf(stderr, "gpublock prices: --refresh: %s; the cache is unchanged\n", refreshFailure(err))
		return 1
	}
	if len(res.Rows) == 0 {
		// Also what a wrong endpoint looks like: the SDK reads an unexpected body as no products.
		fmt.Fprintf(stderr, "gpublock prices: --refresh: %v; the cache is unchanged\n", pricelist.ErrNoPrices)
		return 1
	}
	if err := pricing.WriteCache(path, res.Rows, now(), filelock.WriteAtomic); err != nil {
		fmt.Fprintf(stderr, "gpublock prices: --refresh: writing the cache: %v\n", err)
		return 1
	}
	fmt.Fprintf(stderr, "Fetched %s from the AWS Price List API (%s) into %s.\n",
		model.Plural(len(res.Rows), "on-demand price", "on-demand prices"), model.Plural(res.Calls, "request", "requests"), path)
	if len(res.Missing) > 0 {
		fmt.Fprintf(stderr, "No on-demand price returned for: %s.\n", strings.Join(res.Missing, ", "))
	}
	return 0
}

// refreshFailure says why the Price List API failed in the words the other commands use,
// keeping AWS's error code for searching. The generic no-credentials hint offers --demo,
// which prices does not have, so that case has its own.
func refreshFailure(err error) string {
	if awsapi.IsNoCredentials(err) {
		return "No AWS credentials were found: the Price List API needs signed requests, even for its public prices. " +
			"Set up a profile (aws configure / aws configure sso), or point --endpoint-url at gpublock sim"
	}
	ex := awsapi.ExplainError(err)
	s := strings.TrimSuffix(ex.String(), ".")
	if ex.Code != "" && !strings.Contains(s, ex.Code) {
		s += " (" + ex.Code + ")"
	}
	return s
}

// pricesPick parses a comma-separated flag against what is allowed; empty or "all" means
// everything (nil).
func pricesPick(flagName, value string, allowed []string, allowAll bool) ([]string, error) {
	value = strings.TrimSpace(value)
	if value == "" || (allowAll && value == "all") {
		return nil, nil
	}
	ok := map[string]bool{}
	for _, a := range allowed {
		ok[a] = true
	}
	var out []string
	for _, v := range strings.Split(value, ",") {
		v = strings.TrimSpace(v)
		if !ok[v] {
			extra := ""
			if allowAll {
				extra = " or all"
			}
			return nil, fmt.Errorf("%s %q: allowed %s%s", flagName, v, strings.Join(allowed, ", "), extra)
		}
		out = append(out, v)
	}
	return out, nil
}

func pricesRegions(cat *pricing.Catalog) []string {
	seen := map[string]bool{}
	for _, r := range model.Regions() {
		seen[r] = true
	}
	for _, r := range cat.Rows() {
		if r.Region != pricing.AnyRegion {
			seen[r.Region] = true
		}
	}
	return pricesSorted(seen)
}

func pricesTypes(cat *pricing.Catalog) []string {
	seen := map[string]bool{}
	for _, t := range model.Catalog() {
		seen[t.Name] = true
	}
	for _, r := range cat.Rows() {
		seen[r.InstanceType] = true
	}
	return pricesSorted(seen)
}

func pricesSorted(set map[string]bool) []string {
	out := make([]string, 0, len(set))
	for k := range set {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

var pricesKindOrder = map[pricing.Kind]int{pricing.KindOnDemand: 0, pricing.KindCapacityBlock: 1, pricing.KindSavingsPlan1y: 2, pricing.KindSavingsPlan3y: 3}

// pricesSelect keeps the rows of the regions and types asked for (figures without a region
// apply to every region) in a stable order: kind, type, region, newest first.
func pricesSelect(rows []pricing.Row, regions, types []string) []pricing.Row {
	in := func(list []string, v string) bool {
		if len(list) == 0 {
			return true
		}
		for _, x := range list {
			if x == v {
				return true
			}
		}
		return false
	}
	var out []pricing.Row
	for _, r := range rows {
		if (r.Region == pricing.AnyRegion || in(regions, r.Region)) && in(types, r.InstanceType) {
			out = append(out, r)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Kind != b.Kind {
			return pricesKindOrder[a.Kind] < pricesKindOrder[b.Kind]
		}
		if a.InstanceType != b.InstanceType {
			return a.InstanceType < b.InstanceType
		}
		if a.Region != b.Region {
			return a.Region < b.Region
		}
		return a.Time().After(b.Time())
	})
	return out
}

// pricesUsed finds the rows the catalog's lookups pick (for some type and region in scope),
// so the table can show which of several figures gpublock compares offerings with.
func pricesUsed(cat *pricing.Catalog, regions []string) map[string]bool {
	used := map[string]bool{}
	mark := func(r pricing.Row, ok bool) {
		if ok && r.Status != pricing.StatusUnknown { // an unknown figure is used by nothing
			used[pricesKey(r)] = true
		}
	}
	byType := map[string]map[string]bool{}
	add := func(t, r string) {
		if r == pricing.AnyRegion {
			return
		}
		if byType[t] == nil {
			byType[t] = map[string]bool{}
		}
		byType[t][r] = true
	}
	for _, t := range model.Catalog() {
		for _, r := range t.Regions {
			add(t.Name, r)
		}
	}
	for _, r := range cat.Rows() {
		add(r.InstanceType, r.Region)
	}
	for t, rs := range byType {
		for r := range rs {
			if len(regions) > 0 && !slices.Contains(regions, r) {
				continue
			}
			mark(cat.OnDemand(t, r))
			mark(cat.CapacityBlockRate(t, r))
			for _, sp := range cat.SavingsPlans(t, r) {
				mark(sp, true)
			}
		}
	}
	return used
}

func pricesKey(r pricing.Row) string {
	return strings.Join(append(r.Record(), r.Source, r.Date), "\x00")
}

func pricesSource(r pricing.Row) string {
	switch r.Reliability {
	case pricing.ReliabilityThirdParty:
		return r.Source + " (third-party)"
	case pricing.ReliabilityUnconfirmed:
		return r.Source + " (unconfirmed)"
	}
	return r.Source
}

func pricesTable(w io.Writer, rows []pricing.Row, used map[string]bool, now time.Time) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "USED\tKIND\tTYPE\tREGION\tPRICE\tPER ACCEL-H\tSOURCE\tDATE\tAGE\tNOTE")
	for _, r := range rows {
		region := r.Region
		if region == pricing.AnyRegion {
			region = "any"
		}
		acc := "-"
		if m, ok := r.PerAccelerator(); ok {
			acc = m.Rate()
		}
		date := r.Date
		if r.DateNote != "" {
			date += " (" + r.DateNote + ")"
		}
		mark := ""
		if used[pricesKey(r)] {
			mark = "*"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", mark, r.Kind, r.InstanceType, region, r.Describe(), acc,
			pricesSource(r), date, r.Age(now), r.Note)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintln(w, "\n* the figure gpublock compares offerings with, for some type and region shown")
	return err
}

type pricesJSONRow struct {
	Kind              pricing.Kind
	InstanceType      string
	Region            string
	Status            pricing.Status
	HourlyPrice       *model.Money `json:",omitempty"` // only with Status "price"
	AcceleratorHourly *model.Money `json:",omitempty"`
	Source            string
	Reliability       string `json:",omitempty"`
	Date              string
	DateNote          string `json:",omitempty"`
	Age               string
	Note              string `json:",omitempty"`
	Used              bool   // the figure gpublock compares offerings with, for some type and region shown
}

func pricesJSON(w io.Writer, rows []pricing.Row, used map[string]bool, now time.Time) error {
	out := make([]pricesJSONRow, 0, len(rows))
	for _, r := range rows {
		j := pricesJSONRow{Kind: r.Kind, InstanceType: r.InstanceType, Region: r.Region, Status: r.Status, Source: r.Source,
			Reliability: r.Reliability, Date: r.Date, DateNote: r.DateNote, Age: r.Age(now), Note: r.Note, Used: used[pricesKey(r)]}
		if r.HasPrice() {
			h := r.Hourly
			j.HourlyPrice = &h
			if m, ok := r.PerAccelerator(); ok {
				j.AcceleratorHourly = &m
			}
		}
		out = append(out, j)
	}
	return printers.JSON(w, out)
}

func pricesCSV(w io.Writer, rows []pricing.Row, now time.Time) error {
	cw := csv.NewWriter(w)
	cw.Write(append(pricing.CSVHeader(), "age"))
	for _, r := range rows {
		rec := r.Record()
		// The catalog file leaves the per-accelerator rate out where it follows from the
		// type; the table and json derive it, so the csv does too.
		if m, ok := r.PerAccelerator(); ok && rec[5] == "" {
			rec[5] = m.String()
		}
		cw.Write(append(rec, r.Age(now)))
	}
	cw.Flush()
	return cw.Error()
}
