package journal

import (
	"context"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/spf13/cobra"

	"github.com/gpublock/gpublock/aws/autoextend"
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
)

const journalLong = "Lists the purchases, extensions and launches this machine made (its journal), each with its\n" +
	"outcome. First it settles every purchase or extension that a crash left without an outcome\n" +
	"(or whose outcome was unknown), in --region or in every region: it asks AWS (a purchase by its\n" +
	"gpublock:request-id tag, an extension in its block's history) and records what it finds.\n" +
	"Against the emulator (--demo, gpublock sim) it reads the simulated journal. Each line names the\n" +
	"backend it was made against (AWS, --demo, or gpublock sim): a run shows and\n" +
	"settles only its own backend's lines, and says how many others it left out.\n\n" +
	"Exit status: 0 listed, every entry settled; 1 some entry could not be settled (AWS could not be asked)."

// Options are what `gpublock journal` runs with.
type Options struct {
	IO *cmdutil.IOStreams
	// Backend opens the sources and the spend service the AWS flags name.
	Backend  cmdutil.BackendFunc
	AWS      cmdutil.AWSFlags
	Output   string
	NoSettle bool
}

// Row is one purchase, extension or launch: its intent and final outcome.
type Row struct {
	RequestId             string
	Time                  string
	Action                string
	Account               string `json:",omitempty"`
	Region                string
	AvailabilityZone      string `json:",omitempty"`
	InstanceType          string `json:",omitempty"`
	InstanceCount         int    `json:",omitempty"`
	StartDate             string `json:",omitempty"`
	EndDate               string `json:",omitempty"`
	UpfrontFee            string `json:",omitempty"`
	CurrencyCode          string `json:",omitempty"`
	OfferingId            string `json:",omitempty"`
	CapacityReservationId string `json:",omitempty"`
	// CapacityReservationIds are every reservation of a purchase that made several (one
	// per segment of a segmented offering), CapacityReservationId the first of them.
	CapacityReservationIds []string `json:",omitempty"`
	Result                 string   `json:",omitempty"`
	Outcome                string   // bought, not-bought, launched, not-launched, unknown, open
	SettledLater           bool
	Recovered              bool
	Error                  string `json:",omitempty"`
}

// NewCmdJournal is `gpublock journal`; runF, when not nil, is given the options instead of
// running them.
func NewCmdJournal(f *cmdutil.Factory, runF func(*Options) error) *cobra.Command {
	opts := &Options{IO: f.IOStreams, Backend: f.Backend}
	cmd := &cobra.Command{
		Use:   "journal",
		Short: "list this machine's purchases and extensions, and settle interrupted ones",
		Long:  journalLong,
		Example: "  gpublock journal\n" +
			"  gpublock journal --region us-east-1 -o json\n" +
			"  gpublock journal --no-settle",
		Args:        cmdutil.NoArgs,
		Annotations: map[string]string{cmdutil.AnnotationOneRegion: "true"},
		RunE: func(cmd *cobra.Command, _ []string) error {
			opts.AWS = *f.AWS
			if runF != nil {
				return runF(opts)
			}
			return cmdutil.CodeError(journalRun(cmd.Context(), opts))
		},
	}
	cmdutil.OutputFlag(cmd, &opts.Output, "table", "json")
	cmd.Flags().BoolVar(&opts.NoSettle, "no-settle", false, "only list; ask AWS nothing")
	return cmd
}

// journalRun lists the journal once the flags say so (cobra has parsed them).
func journalRun(ctx context.Context, a *Options) int {
	stdout, stderr := a.IO.Out, a.IO.ErrOut
	format, err := cmdutil.TableOrJSONFormat(a.Output)
	if err != nil {
		return cmdutil.ReportUsage(stderr, "journal", err)
	}
	if err := a.AWS.Validate(); err != nil {
		return cmdutil.ReportUsage(stderr, "journal", err)
	}
	if err := cmdutil.SingleRegion(&a.AWS); err != nil {
		return cmdutil.ReportUsage(stderr, "journal", err)
	}
	client, _, err := a.Backend(ctx, &a.AWS)
	if err != nil {
		return cmdutil.BackendFailure(stderr, "journal", err)
	}
	code := 0
	if !a.NoSettle {
		settled, err := cmdutil.SpendPath(client).SettleOpen(ctx, a.AWS.HomeRegion())
		for _, s := range settled {
			fmt.Fprintf(stderr, "gpublock journal: settled: %s\n", s.Sentence())
		}
		if err != nil {
			fmt.Fprintf(stderr, "gpublock journal: %s\n", client.ExplainError(err))
			code = 1
		}
	}
	entries, hidden, bad, err := client.JournalOfCloud()
	if err != nil {
		fmt.Fprintf(stderr, "gpublock journal: %s\n", source.RedactError(err))
		return 1
	}
	if hidden > 0 {
		fmt.Fprintf(stderr, "gpublock journal: %s not shown: made against another backend than this run's (%s), or before lines named theirs\n",
			model.Plural(hidden, "line", "lines"), backendWords(client.Cloud()))
	}
	if bad > 0 {
		p, _ := client.JournalPath()
		fmt.Fprintf(stderr, "gpublock journal: %d damaged line(s) in %s skipped (a crash or a full disk mid-write)\n", bad, p)
	}
	rows := journalRows(entries, a.AWS.HomeRegion())
	if format == "json" {
		if err := printers.JSON(stdout, rows); err != nil {
			fmt.Fprintln(stderr, "gpublock journal:", err)
			return 1
		}
		return code
	}
	if len(rows) == 0 {
		p, _ := client.JournalPath()
		fmt.Fprintf(stderr, "gpublock journal: nothing bought, extended or launched from this machine (%s)\n", p)
		return code
	}
	printJournal(stdout, rows)
	return code
}

// backendWords names a journal backend for a person.
func backendWords(b string) string {
	switch {
	case b == awsapi.CloudAWS:
		return "AWS"
	case b == awsapi.CloudDemo:
		return "the built-in simulator, --demo"
	case b == awsapi.CloudEmulator:
		return "the emulator, gpublock sim"
	}
	return b
}

// journalRows pairs each intent with its last outcome, oldest first.
func journalRows(entries []source.JournalEntry, region string) []Row {
	var rows []Row
	index := map[string]int{}
	for _, e := range entries {
		if region != "" && e.Region != region {
			continue
		}
		if e.Phase == "decision" {
			// An auto-extension decision is a row of its own: taken (the extension's intent
			// and outcome follow it), declined, or what became of it.
			rows = append(rows, Row{RequestId: e.Key, Time: printers.RFC3339(e.Time), Action: e.Action, Account: e.Account,
				Region: e.Region, AvailabilityZone: e.Zone, InstanceType: e.Type, InstanceCount: e.Count, EndDate: journalTime(e.End),
				UpfrontFee: e.Fee, CurrencyCode: e.Currency, OfferingId: e.Offering, CapacityReservationId: e.Target,
				Outcome: e.Outcome, Error: source.Redact(e.Error)})
			continue
		}
		i, ok := index[e.RequestID]
		if !ok {
			if e.Phase != "intent" {
				continue // an outcome without its intent: the intent line was lost
			}
			index[e.RequestID] = len(rows)
			rows = append(rows, Row{RequestId: e.RequestID, Time: printers.RFC3339(e.Time), Action: e.Action, Account: e.Account,
				Region: e.Region, AvailabilityZone: e.Zone, InstanceType: e.Type, InstanceCount: e.Count,
				StartDate: journalTime(e.Start), EndDate: journalTime(e.End), UpfrontFee: e.Fee, CurrencyCode: e.Currency,
				OfferingId: e.Offering, CapacityReservationId: e.Target, Outcome: "open"})
			continue
		}
		if e.Phase == "outcome" {
			r := &rows[i]
			r.Outcome, r.SettledLater, r.Recovered, r.Error = e.Outcome, e.SettledLater, e.Recovered, source.Redact(e.Error)
			r.Result = e.Result
			if r.CapacityReservationId == "" && (e.Action == "PurchaseCapacityBlock" || e.Action == "CreateTrainingPlan") {
				r.CapacityReservationId = e.Result
				if ids := e.ResultIDs(); e.Action == "PurchaseCapacityBlock" && len(ids) > 1 {
					r.CapacityReservationId, r.CapacityReservationIds = ids[0], ids
				}
			}
		}
	}
	return rows
}

func journalTime(t *time.Time) string {
	if t == nil {
		return ""
	}
	return printers.RFC3339(*t)
}

func printJournal(w io.Writer, rows []Row) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "TIME (UTC)\tACTION\tREGION\tZONE\tCAPACITY\tFEE\tOUTCOME\tRESERVATION\tREQUEST ID")
	for _, r := range rows {
		fee := r.UpfrontFee
		if m, err := model.ParseMoney(fee); err == nil {
			fee = m.Dollars()
		}
		capacity := r.InstanceType
		if r.InstanceCount > 0 {
			capacity = fmt.Sprintf("%s × %d", r.InstanceType, r.InstanceCount)
		}
		outcome := r.Outcome
		var notes []string
		if r.SettledLater {
			notes = append(notes, "settled later")
		} else if r.Recovered {
			notes = append(notes, "reply lost, found")
		}
		if r.Outcome == "open" || r.Outcome == string(source.Unknown) {
			notes = append(notes, "not settled")
		}
		if len(notes) > 0 {
			outcome += " (" + strings.Join(notes, ", ") + ")"
		}
		t := r.Time
		if len(t) >= 16 {
			t = strings.Replace(t[:16], "T", " ", 1)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", t, journalAction(r.Action), r.Region, journalCell(r.AvailabilityZone),
			journalCell(capacity), journalCell(fee), outcome, journalCell(reservationsCell(r)), r.RequestId)
	}
	tw.Flush()
}

func journalAction(a string) string {
	switch a {
	case "PurchaseCapacityBlock":
		return "purchase"
	case "PurchaseCapacityBlockExtension":
		return "extension"
	case "RunInstances":
		return "launch"
	case "CreateTrainingPlan":
		return "plan purchase"
	case "ExtendTrainingPlan":
		return "plan extension"
	case autoextend.Action:
		return "auto-extend decision"
	}
	return a
}

// reservationCell is a reservation in the table: a block's id, or a training plan's name
// (its ARN's last part; -o json keeps the whole ARN).
func reservationCell(id string) string {
	if strings.HasPrefix(id, "arn:") {
		return id[strings.LastIndex(id, "/")+1:]
	}
	return id
}

// reservationsCell is the row's reservation, or every reservation of a purchase that made
// several, space-separated.
func reservationsCell(r Row) string {
	if len(r.CapacityReservationIds) > 1 {
		return strings.Join(r.CapacityReservationIds, " ")
	}
	return reservationCell(r.CapacityReservationId)
}

func journalCell(s string) string {
	if s == "" {
		return "—"
	}
	return s
}
