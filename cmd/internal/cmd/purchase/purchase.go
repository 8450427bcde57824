package purchase

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/capacityblocks"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmd/offerings"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/config"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
)

// movingWindow says why an offering listed earlier may not be found by the same flags: the
// offering is looked up by running its search again, and a window that starts "now" (the
// default) has moved since the listing; the listing's window is asked again only while
// the market cache holds its answer.
const movingWindow = "A search window relative to now (the default --from) moves with the clock; the window of the search that listed the offering " +
	"is asked again while the market cache holds its answer (a day, not with --no-cache). Else give --from and --to as times " +
	"(e.g. --from 2026-12-01T08:00:00Z), the same in the search and in the purchase, to find the offering listed earlier."

// Options are what `gpublock purchase` runs with: its flags, and what it gets from the Factory.
type Options struct {
	IO *cmdutil.IOStreams
	// Backend opens the sources and the spend service the AWS flags name.
	Backend cmdutil.BackendFunc
	// Config reads the configuration file, whose spending rules hold here too.
	Config config.Loader
	// Args are the positional arguments: the one id.
	Args []string

	offerings.Options // the search that listed the offering: it is looked up by running it again
	platform          string
	tags              cmdutil.TagFlag
	dryRun, yes       bool
	again             bool
}

const purchaseLong = "Buys a Capacity Block offering after showing its facts (type, count, zone, start, end, fee,\n" +
	"break-even) and asking to type buy.\n\n" +
	"AWS cannot look an offering up by its id, so give the flags of the search that listed it\n" +
	"(gpublock offerings ...): the search is run again and the offering taken from its answer,\n" +
	"with today's fee. When that answer lacks it because the window moved with \"now\", the window\n" +
	"of the search that listed it (kept in the market cache) is asked again; the offering is still\n" +
	"taken from the fresh answer, and with --yes it is not bought if its fee rose since it was listed.\n" +
	"--dry-run alone needs only the id and the region.\n\n" +
	"Before buying, purchases and extensions that a crash left unsettled in the region are settled\n" +
	"(see gpublock journal). When an interrupted run already bought this block, it says so and buys\n" +
	"nothing new (exit 0); --again buys a second one on purpose, after typing again.\n\n" +
	"With organization: true in the configuration file, the blocks of every account it lists are\n" +
	"counted first, and a purchase that would hold more than AWS's 256 Capacity Block instances\n" +
	"across the organization on a date of its window is warned of before the typed word (AWS decides).\n" +
	"It buys in one account: --profile names one (with the configuration's accounts, the first).\n\n" +
	"Exit status: 0 bought (also when the reply was lost and the reservation found by its request tag,\n" +
	"or when an interrupted run had bought it), 1 not bought, 2 bad usage or no terminal to confirm on\n" +
	"without --yes, 3 outcome unknown: do not buy again."

// NewCmdPurchase is `gpublock purchase`; runF, when not nil, is given the options instead of
// running them.
func NewCmdPurchase(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	a := &Options{IO: f.IOStreams, Backend: f.Backend, Config: f.Config, tags: cmdutil.TagFlag{}}
	cmd := &cobra.Command{
		Use:   "purchase OFFERING_ID",
		Short: "buy a Capacity Block or Training Plan offering, after a typed confirmation",
		Long:  purchaseLong,
		Example: "  gpublock purchase cbr-0123456789abcdef0 --region us-east-1 --type p5.48xlarge --duration 2d\n" +
			"  gpublock purchase cbr-0123456789abcdef0 --region us-east-1 --dry-run\n" +
			"  gpublock purchase cbr-0123456789abcdef0 --region us-east-1 --type p5.48xlarge --duration 2d \\\n" +
			"    --tag project=llm --max-spend 25000 --yes -o json",
		Args:        cmdutil.ExactlyOne(func(*cobra.Command) string { return "OFFERING_ID (from `gpublock offerings`)" }),
		Annotations: map[string]string{cmdutil.AnnotationOneRegion: "true"},
		RunE: func(cmd *cobra.Command, args []string) error {
			a.AWS = *f.AWS
			a.Args = args
			if runF != nil {
				return runF(a)
			}
			return cmdutil.CodeError(purchaseRun(cmd.Context(), a))
		},
	}
	fs := cmd.Flags()
	cmdutil.OutputFlag(cmd, &a.Output, "table", "json")
	fs.StringVar(&a.Types, "type", "", "instance `type` of the search that listed the offering")
	fs.IntVar(&a.Count, "count", 1, "instances per block in that search (UltraServers: UltraServers per block)")
	fs.StringVar(&a.Duration, "duration", "", "block `length` of that search: 2d, 48h, 3w or a range 2d-7d")
	fs.StringVar(&a.From, "from", "now", "earliest start `DATE` of that search")
	fs.StringVar(&a.To, "to", "", "latest end `DATE` of that search (default: as late as a block can end)")
	fs.StringVar(&a.platform, "platform", capacityblocks.DefaultPlatform, "instance `platform` of the reservation")
	fs.Var(a.tags, "tag", "tag `KEY=VALUE` for the reservation (repeatable, or several: team=ml,project=llm)")
	fs.BoolVar(&a.dryRun, "dry-run", false, "only check permission to buy (ec2:PurchaseCapacityBlock); buy nothing")
	fs.BoolVar(&a.yes, "yes", false, "buy without asking to type buy (for scripts)")
	fs.BoolVar(&a.again, "again", false, "buy even though an interrupted run already bought this block (asks to type again; --yes answers for you)")
	a.Sources.RegisterOne(fs)
	return cmd
}

// purchaseRun buys the offering pos[0] once the flags say so (cobra has parsed them): one
// flow for every source, through source.Source; what the flow shows is the source's own
// (purchaseShows).
func purchaseRun(ctx context.Context, a *Options) int {
	pos, ios := a.Args, a.IO
	stdout, stderr := ios.Out, ios.ErrOut
	offeringID, format, err := a.check(pos)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "purchase", err)
	}
	srcID, err := purchaseSource(a, offeringID)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "purchase", err)
	}
	show, ok := purchaseShows[srcID]
	if !ok {
		return cmdutil.ReportUsage(stderr, "purchase", cmdutil.Usagef("--source %s: the command line does not buy %s", srcID.Name(), srcID.Plural()))
	}
	if code, refused := spending.RefuseSpending(ios, a.Config, "purchase", "buy", "bought", &a.AWS, a.yes, a.dryRun); refused {
		return code
	}
	// A dry run may name the offering alone: its permission does not depend on the search.
	lookup := !a.dryRun || strings.TrimSpace(a.Types) != ""
	if lookup {
		if _, err := a.SourcedQuery(time.Now().UTC()); err != nil {
			return cmdutil.ReportUsage(stderr, "purchase", err)
		}
	}

	client, info, err := a.Backend(ctx, &a.AWS)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "purchase", err)
	}
	src, err := cmdutil.OpenSource(client, srcID)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "purchase", err)
	}
	region := a.AWS.OneRegion(client)
	if lookup && show.checkRegion != nil {
		// Before the spend path reads this account's records, which asks STS whose they are.
		if err := show.checkRegion(a, region); err != nil {
			return cmdutil.ReportUsage(stderr, "purchase", err)
		}
	}
	in := source.Intent{Kind: source.SpendPurchase, Offering: model.Offering{Source: srcID, ID: offeringID, Region: region},
		Platform: a.platform, Tags: a.tags, CheckOnly: a.dryRun, Again: a.again}
	var listed *listing // the earlier search whose window found the offering, if the flags' did not
	if lookup {
		// The spend service runs it after settling: an interrupted purchase of this offering
		// took it off the market, so the search alone would say it is gone and invite buying another.
		in.Lookup = func(ctx context.Context, in *source.Intent) error {
			now := client.Now(ctx)
			q, err := a.SourcedQuery(now)
			if err != nil {
				return err
			}
			q.Regions = []string{region}
			if err := show.check(a, q, region, now); err != nil {
				return err
			}
			in.Offering, listed, err = findListed(ctx, client, src, q, offeringID, show.notListed,
				func(q model.Query) error { return show.check(a, q, region, now) })
			if err == nil && listed != nil {
				return feeSinceListed(*listed, in.Offering, a.yes)
			}
			return err
		}
	}
	p, code, ok := spending.Prepare(ctx, stderr, "purchase", client, src, in)
	if !ok {
		return code
	}
	o := p.Intent.Offering
	if listed != nil {
		printListing(stderr, *listed, o)
	}
	if lookup {
		show.summary(stderr, info, p.Account, o, a.platform, a.tags)
	}
	if a.dryRun {
		return spending.PrintPermission(stdout, stderr, "purchase", format, p.Permission, map[string]any{show.idField: o.ID, "Region": o.Region},
			fmt.Sprintf("This identity may call %s for %s in %s.", p.Permission.Action, o.ID, o.Region), "bought")
	}
	spending.PermissionLine(stderr, p)
	if a.AWS.Organization() {
		organizationCap(ctx, a, o, stderr)
	}
	if !spending.Confirmed(ctx, ios, "purchase", a.yes, "Buy this "+show.what+"?", "buy", "bought") {
		return 1
	}
	if p.Earlier != nil && !spending.ConfirmAgain(ctx, ios, "purchase", a.yes,
		fmt.Sprintf("An interrupted run already bought this %s: %s. --again buys a second one.", show.what, show.bought(p.Earlier.Result)),
		"Buy a SECOND "+show.what+"?", "bought") {
		return 1
	}
	res, err := cmdutil.SpendPath(client).Commit(ctx, p)
	if err != nil {
		return purchaseFailure(stderr, o, err)
	}
	spending.JournalWarning(stderr, "purchase", res.JournalErr)
	if res.Recovered {
		fmt.Fprintln(stderr, show.recovered(res))
	}
	if err := show.print(stdout, format, o, res); err != nil {
		fmt.Fprintln(stderr, "gpublock purchase:", err)
		return 1
	}
	return 0
}

// purchaseShow is what a purchase of one source shows, in the source's own words and
// formats (JSON in its API's field names); the flow is runPurchase's, one for all.
type purchaseShow struct {
	what    string                     // in the questions: "Capacity Block", "training plan"
	idField string                     // the offering id's field in a dry run's JSON
	bought  func(result string) string // what an interrupted run bought, by its journal result
	// checkRegion is the source's rule of the region alone, checked before anything is
	// asked of the backend (nil: none).
	checkRegion func(a *Options, region string) error
	// check is the source's rules of the search that finds the offering again, in region.
	check     func(a *Options, q model.Query, region string, now time.Time) error
	notListed func(client *awsapi.Client, id string, seen int, region string) error
	summary   func(w io.Writer, info cmdutil.BackendInfo, account string, o model.Offering, platform string, tags map[string]string)
	recovered func(res source.PurchaseResult) string
	print     func(w io.Writer, format cmdutil.OutputFormat, o model.Offering, res source.PurchaseResult) error
}

var purchaseShows = map[model.Source]purchaseShow{
	model.SourceCapacityBlock: {
		what: "Capacity Block", idField: "CapacityBlockOfferingId",
		bought:      func(r string) string { return "reservation " + r },
		checkRegion: func(a *Options, region string) error { return a.AWS.DefaultRegionError(region) },
		check: func(a *Options, q model.Query, region string, now time.Time) error {
			if err := q.Validate(now); err != nil {
				return cmdutil.QueryUsage(err)
			}
			return nil
		},
		notListed: func(client *awsapi.Client, id string, seen int, region string) error {
			return fmt.Errorf("offering %s is not among the %d offerings the search now returns in %s: it was sold, it expired, "+
				"or the search flags differ from those that listed it. %s Search again (%s); nothing was bought", id, seen, region, movingWindow, client.NextStep("offerings", region))
		},
		summary: printOfferingSummary,
		recovered: func(res source.PurchaseResult) string {
			if len(res.Blocks) > 1 {
				return fmt.Sprintf("The reply to the purchase was lost. Its %d reservations %s were found by their request tag %s=%s: it is bought, once.",
					len(res.Blocks), strings.Join(reservationIDs(res.Blocks), ", "), awsapi.RequestIDTag, res.RequestID)
			}
			return fmt.Sprintf("The reply to the purchase was lost. The reservation %s was found by its request tag %s=%s: it is bought, once.",
				res.Block.ReservationID, awsapi.RequestIDTag, res.RequestID)
		},
		print: printPurchase,
	},
	model.SourceTrainingPlan: planPurchaseShow,
}

// check reads what can be checked before any call: the one positional id, the output
// format, the platform and the single region.
func (a *Options) check(pos []string) (string, cmdutil.OutputFormat, error) {
	id := strings.TrimSpace(pos[0])
	if id == "" || strings.ContainsAny(id, " \t\n") || len(id) > 128 {
		return "", "", cmdutil.Usagef("OFFERING_ID %q: want an offering id such as cbr-0123456789abcdef0", pos[0])
	}
	format, err := cmdutil.TableOrJSONFormat(a.Output)
	if err != nil {
		return "", "", err
	}
	if !slices.Contains(capacityblocks.Platforms(), a.platform) {
		return "", "", cmdutil.Usagef("--platform %q: allowed %s", a.platform, strings.Join(capacityblocks.Platforms(), ", "))
	}
	if err := a.AWS.CheckSpending(); err != nil {
		return "", "", err
	}
	return id, format, nil
}

func printOfferingSummary(w io.Writer, info cmdutil.BackendInfo, account string, o model.Offering, platform string, tags map[string]string) {
	spending.SummaryHead(w, "PURCHASE", info)
	f := model.PurchaseFacts(o, account, pricing.Compare(cmdutil.PriceCatalog(), o).BreakEven(), time.Local)
	// The platform and tags are the command's choices, as they are the dialog's fields.
	f.Lines = append(f.Lines, model.Fact{Label: "Platform", Value: platform})
	if len(tags) > 0 {
		f.Lines = append(f.Lines, model.Fact{Label: "Tags", Value: cmdutil.TagFlag(tags).String()})
	}
	spending.PrintFacts(w, f)
}

// purchaseFailure reports a purchase that did not happen (exit 1) or may have (exit 3).
func purchaseFailure(stderr io.Writer, o model.Offering, err error) int {
	var pe *source.ActionError
	if !errors.As(err, &pe) {
		fmt.Fprintf(stderr, "gpublock purchase: NOT BOUGHT: %s\n", awsapi.ExplainError(err))
		return 1
	}
	switch {
	case pe.Outcome == source.Unknown:
		fmt.Fprintf(stderr, "gpublock purchase: OUTCOME UNKNOWN: %s\n", pe.Explanation)
		return spending.ExitUnknown
	case pe.Sold():
		fmt.Fprintf(stderr, "gpublock purchase: NOT BOUGHT: offering %s was sold to someone else (or expired) meanwhile; search again.\n", o.ID)
		return 1
	}
	fmt.Fprintf(stderr, "gpublock purchase: NOT BOUGHT: %s\n", pe.Explanation)
	return 1
}

type tagJSON struct{ Key, Value string }

// reservationJSON has the AWS CLI's CapacityReservation field names.
type reservationJSON struct {
	CapacityReservationId  string
	CapacityBlockId        string
	InstanceType           string
	InstancePlatform       string
	AvailabilityZone       string
	Tenancy                string
	TotalInstanceCount     int
	AvailableInstanceCount int
	State                  string
	StartDate              string
	EndDate                string
	CreateDate             string `json:",omitempty"`
	ReservationType        string
	Tags                   []tagJSON
}

// PurchaseJSON is the AWS CLI's purchase-capacity-block answer, plus what gpublock knows:
// the region, the fee of the offering bought, and how the reservation was confirmed.
type PurchaseJSON struct {
	CapacityReservation reservationJSON
	// CapacityReservations are every reservation the purchase made: one per segment of a
	// segmented offering, else the one above.
	CapacityReservations    []reservationJSON
	Region                  string
	CapacityBlockOfferingId string
	UpfrontFee              string
	CurrencyCode            string
	GpublockRequestId       string
	FoundByRequestTag       bool
}

func toReservationJSON(b model.Block) reservationJSON {
	r := reservationJSON{
		CapacityReservationId: b.ReservationID, CapacityBlockId: b.BlockID, InstanceType: b.InstanceType,
		InstancePlatform: b.Platform, AvailabilityZone: b.AvailabilityZone, Tenancy: b.Tenancy,
		TotalInstanceCount: b.TotalCount, AvailableInstanceCount: b.AvailableCount, State: string(b.State),
		StartDate: printers.RFC3339(b.Start), EndDate: printers.RFC3339(b.End), CreateDate: printers.RFC3339(b.Created),
		ReservationType: "capacity-block", Tags: []tagJSON{},
	}
	keys := make([]string, 0, len(b.Tags))
	for k := range b.Tags {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		r.Tags = append(r.Tags, tagJSON{k, b.Tags[k]})
	}
	return r
}

func printPurchase(w io.Writer, format cmdutil.OutputFormat, o model.Offering, res source.PurchaseResult) error {
	b := res.Block
	all := res.Blocks
	if len(all) == 0 {
		all = []model.Block{b}
	}
	if format == "json" {
		j := PurchaseJSON{CapacityReservation: toReservationJSON(b), Region: b.Region,
			CapacityBlockOfferingId: o.ID, UpfrontFee: o.Fee.String(), CurrencyCode: o.Currency,
			GpublockRequestId: res.RequestID, FoundByRequestTag: res.Recovered}
		for _, r := range all {
			j.CapacityReservations = append(j.CapacityReservations, toReservationJSON(r))
		}
		return printers.JSON(w, j)
	}
	if len(all) > 1 {
		return printGroupPurchase(w, o, res, all)
	}
	rows := [][2]string{
		{"Reservation", b.ReservationID},
		{"Block", b.BlockID},
		{"State", string(b.State)},
		{"Region", b.Region},
		{"Zone", b.AvailabilityZone},
		{"Capacity", fmt.Sprintf("%s × %d", b.InstanceType, b.TotalCount)},
		{"Start", printers.BothTimes(b.Start)},
		{"End", printers.BothTimes(b.End)},
		{"Upfront fee", model.ExactFee(o.Fee, o.Currency)},
		{"Platform", b.Platform},
		{"Request tag", awsapi.RequestIDTag + "=" + res.RequestID},
	}
	if res.Recovered {
		rows = append(rows, [2]string{"Confirmed", "found by its request tag after the reply was lost"})
	}
	return printers.Rows(w, rows)
}

// printGroupPurchase prints a purchase that made several reservations (a segmented
// offering's, one per segment) as one group: each reservation, then what they share.
func printGroupPurchase(w io.Writer, o model.Offering, res source.PurchaseResult, all []model.Block) error {
	rows := [][2]string{{"Reservations", fmt.Sprintf("%d, one per segment, one purchase: %s", len(all), strings.Join(reservationIDs(all), ", "))}}
	for i, b := range all {
		rows = append(rows, [2]string{fmt.Sprintf("%d of %d", i+1, len(all)),
			fmt.Sprintf("%s · %s · %s × %d · %s · %s – %s UTC", b.ReservationID, b.AvailabilityZone, b.InstanceType, b.TotalCount, b.State,
				b.Start.UTC().Format(model.LayoutMinute), b.End.UTC().Format(model.LayoutMinute))})
	}
	rows = append(rows,
		[2]string{"Region", res.Block.Region},
		[2]string{"Upfront fee", model.ExactFee(o.Fee, o.Currency) + ", for all of them"},
		[2]string{"Platform", res.Block.Platform},
		[2]string{"Request tag", awsapi.RequestIDTag + "=" + res.RequestID + " (on each: what groups them)"},
		[2]string{"Launch", "gpublock launch " + res.Block.ReservationID + " --group spreads instances across all of them"},
	)
	if res.Recovered {
		rows = append(rows, [2]string{"Confirmed", "found by their request tag after the reply was lost"})
	}
	return printers.Rows(w, rows)
}

func reservationIDs(bs []model.Block) []string {
	ids := make([]string, len(bs))
	for i, b := range bs {
		ids[i] = b.ReservationID
	}
	return ids
}
