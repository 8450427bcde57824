package printers

import (
	"encoding/csv"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// BlockJSON uses the AWS CLI's field names, plus Region and the merged details.
type BlockJSON struct {
	Source model.Source
	// Account is the AWS account that owns the block (the reservation's OwnerId).
	Account                string `json:",omitempty"`
	CapacityReservationId  string
	CapacityBlockId        string
	Region                 string
	AvailabilityZone       string
	InstanceType           string
	TotalInstanceCount     int
	AvailableInstanceCount int
	RunningInstanceCount   int
	State                  string
	StartDate              string
	EndDate                string
	InterconnectStatus     string   `json:",omitempty"`
	InstanceIds            []string `json:",omitempty"` // those not terminated
	Extensions             int      `json:",omitempty"`
	// Instances is every instance AWS lists in the block, the terminated ones too (for
	// about an hour), with when each was launched and stopped.
	Instances []blockInstanceJSON `json:",omitempty"`

	// What the blocks screen shows besides: the tags, the fee paid where this machine's
	// journal bought the block (exact), the countdowns and every warning in force.
	UnavailableInstanceCount int               `json:",omitempty"`
	Tags                     map[string]string `json:",omitempty"`
	FeePaid                  string            `json:",omitempty"`
	Countdown                string
	TerminationDate          string `json:",omitempty"`
	ExtendByDate             string `json:",omitempty"`
	Warnings                 []warningJSON
	// PurchaseGroup is every reservation of the purchase that made this one, when it made
	// several (one per segment of a segmented offering), in model.Group's order.
	PurchaseGroup []string `json:",omitempty"`
}

// warningJSON is one warning in force: its kind (extend-by, cant-extend, expiring, …), its
// words on screen, its sentence, and the lead it came at.
type warningJSON struct {
	Kind    string
	Warning string
	Text    string
	Lead    string `json:",omitempty"`
}

// BlockFacts is what a listing needs besides the blocks: the warnings' leads, the fees paid.
type BlockFacts struct {
	Rules model.WarnRules
	Fees  map[string]model.Money
	// Plans are the reservations made of parts (training plans) listed with the blocks
	// (--source), printed after them.
	Plans     []model.Block
	WithPlans bool
	// Accounts: the reservations of several accounts are listed, and the table and the CSV
	// name each one's account in a column of their own.
	Accounts bool
	// Organization, when set, states the organization's Capacity Block instances against
	// AWS's cap: its line, then what is held per date, under the table; the line alone
	// beside the JSON and the CSV, on stderr.
	Organization []string
}

// OrganizationLines are held's line and, under it, what is held per date from now's on;
// complete says whether every account and region was listed, without which the figures may
// be low.
func OrganizationLines(held model.Held, now time.Time, complete bool) []string {
	line := held.Line(now)
	if !complete {
		line += model.IncompleteNote
	}
	out := []string{line}
	for _, l := range held.SpanLines(now) {
		out = append(out, "  "+l)
	}
	return out
}

func toBlockJSONAt(b model.Block, facts BlockFacts, now time.Time, all []model.Block) BlockJSON {
	j := toBlockJSON(b)
	j.PurchaseGroup = groupIDs(all, b)
	j.UnavailableInstanceCount, j.Tags = b.UnavailableCount, b.Tags
	if fee, ok := facts.Fees[source.FeeKey(b)]; ok {
		j.FeePaid = fee.String()
	}
	j.Countdown = b.ShortCountdown(now)
	if b.HasTermination(now) {
		j.TerminationDate = b.TerminationAt().UTC().Format(time.RFC3339)
		j.ExtendByDate = b.ExtendBy().UTC().Format(time.RFC3339)
	}
	j.Warnings = warningsJSON(facts.Rules, b, now)
	return j
}

// warningsJSON is every warning in force for a block or a plan, never null.
func warningsJSON(rules model.WarnRules, b model.Block, now time.Time) []warningJSON {
	out := []warningJSON{}
	for _, w := range rules.Warnings(b, now) {
		wj := warningJSON{Kind: w.Kind.Name(), Warning: w.Cell(b, now), Text: w.Sentence(b, now)}
		if w.Lead > 0 {
			wj.Lead = model.FormatWarnLeads([]time.Duration{w.Lead})
		}
		out = append(out, wj)
	}
	return out
}

func toBlockJSON(b model.Block) BlockJSON {
	j := BlockJSON{
		Account:                b.Account,
		CapacityReservationId:  b.ReservationID,
		CapacityBlockId:        b.BlockID,
		Region:                 b.Region,
		AvailabilityZone:       b.AvailabilityZone,
		InstanceType:           b.InstanceType,
		TotalInstanceCount:     b.TotalCount,
		AvailableInstanceCount: b.AvailableCount,
		RunningInstanceCount:   b.RunningCount,
		State:                  string(b.State),
		StartDate:              b.Start.UTC().Format(time.RFC3339),
		EndDate:                b.End.UTC().Format(time.RFC3339),
		InterconnectStatus:     b.Interconnect,
		Extensions:             len(b.Extensions),
	}
	for _, i := range b.Instances {
		if i.Live() {
			j.InstanceIds = append(j.InstanceIds, i.ID)
		}
		ij := blockInstanceJSON{InstanceId: i.ID, State: i.State, LaunchTime: i.LaunchTime.UTC().Format(time.RFC3339)}
		if !i.StoppedAt.IsZero() {
			ij.StoppedTime = i.StoppedAt.UTC().Format(time.RFC3339)
		}
		j.Instances = append(j.Instances, ij)
	}
	return j
}

// blockInstanceJSON is one instance of a block: its id, state, launch and stop times.
type blockInstanceJSON struct {
	InstanceId  string
	State       string
	LaunchTime  string
	StoppedTime string `json:",omitempty"`
}

var blockCSVHeader = []string{"CapacityReservationId", "CapacityBlockId", "Region", "AvailabilityZone", "InstanceType",
	"TotalInstanceCount", "AvailableInstanceCount", "RunningInstanceCount", "State", "StartDate", "EndDate", "InterconnectStatus",
	"Warning", "FeePaid", "PurchaseGroup"}

const blockTableFormat = "%-21s  %-21s  %-14s  %-16s  %-17s  %5s  %5s  %7s  %-15s  %-16s  %-16s  %-16s  %-19s  %-17s  %s\n"

// accountCell is the width of the ACCOUNT column: a 12-digit account id.
const accountCell = "%-12s  "

// Blocks writes the list to w; in a table, an empty list is said on diag, like the
// empty search of offerings, so stdout holds only rows.
func Blocks(blocks []model.Block, facts BlockFacts, format cmdutil.OutputFormat, now time.Time, w, diag io.Writer) error {
	fee := func(b model.Block) string {
		if f, ok := facts.Fees[source.FeeKey(b)]; ok {
			return f.String()
		}
		return ""
	}
	warning := func(b model.Block) string { return facts.Rules.Top(b, now).Cell(b, now) }
	switch format {
	case "json":
		var list any
		if facts.WithPlans {
			out := make([]any, 0, len(blocks)+len(facts.Plans))
			for _, b := range blocks {
				out = append(out, toBlockJSONAt(b, facts, now, blocks))
			}
			for _, p := range facts.Plans {
				j := PlanListJSON{PlanJSON: ToPlanJSON(p), Warnings: warningsJSON(facts.Rules, p, now)}
				j.Countdown = p.PlanCountdown(now)
				out = append(out, j)
			}
			list = out
		} else {
			out := make([]BlockJSON, len(blocks))
			for i, b := range blocks {
				out[i] = toBlockJSONAt(b, facts, now, blocks)
			}
			list = out
		}
		if len(facts.Organization) > 0 {
			// The document stays a list whatever the configuration file says, so that a
			// script's reading of it never changes under it: the figures go beside it.
			fmt.Fprintln(diag, facts.Organization[0])
		}
		return JSON(w, list)
	case "csv":
		cw := csv.NewWriter(w)
		header := blockCSVHeader
		if facts.Accounts {
			header = append([]string{"Account"}, header...)
		}
		_ = cw.Write(header)
		for _, b := range blocks {
			row := []string{b.ReservationID, b.BlockID, b.Region, b.AvailabilityZone, b.InstanceType,
				strconv.Itoa(b.TotalCount), strconv.Itoa(b.AvailableCount), strconv.Itoa(b.RunningCount), string(b.State),
				b.Start.UTC().Format(time.RFC3339), b.End.UTC().Format(time.RFC3339), b.Interconnect, warning(b), fee(b),
				strings.Join(groupIDs(blocks, b), " ")}
			if facts.Accounts {
				row = append([]string{b.Account}, row...)
			}
			_ = cw.Write(row)
		}
		cw.Flush()
		if len(facts.Organization) > 0 {
			// A CSV holds rows only: the figures go beside it.
			fmt.Fprintln(diag, facts.Organization[0])
		}
		return cw.Error()
	}
	if err := blocksTable(blocks, facts, now, w, diag, warning); err != nil {
		return err
	}
	if len(facts.Organization) > 0 {
		_, err := fmt.Fprintf(w, "\n%s\n", strings.Join(facts.Organization, "\n"))
		return err
	}
	return nil
}

// blocksTable is the table of the blocks, then the plans'.
func blocksTable(blocks []model.Block, facts BlockFacts, now time.Time, w, diag io.Writer, warning func(model.Block) string) error {
	account := func(b model.Block) string {
		if !facts.Accounts {
			return ""
		}
		return fmt.Sprintf(accountCell, b.Account)
	}
	if facts.WithPlans && len(blocks) == 0 {
		if len(facts.Plans) == 0 {
			_, err := fmt.Fprintf(diag, "No %s and no %s.\n", cmdutil.SourcesThat(cmdutil.NoParts), cmdutil.SourcesThat(cmdutil.HasParts))
			return err
		}
		return printPlans(facts.Plans, facts.Rules, now, w, false, facts.Accounts)
	}
	if len(blocks) == 0 {
		_, err := fmt.Fprintln(diag, "No Capacity Blocks.")
		return err
	}
	head := ""
	if facts.Accounts {
		head = fmt.Sprintf(accountCell, "ACCOUNT")
	}
	fmt.Fprint(w, head)
	fmt.Fprintf(w, blockTableFormat, "RESERVATION", "BLOCK", "REGION", "ZONE", "TYPE", "TOTAL", "FREE", "RUNNING", "STATE", "START (UTC)", "END (UTC)", "TERMINATES (UTC)", "TO START / TO END", "INTERCONNECT", "WARNING")
	for _, b := range blocks {
		fmt.Fprint(w, account(b))
		// FREE is what can be launched or attached (model.Block.FreeCount), as the launch
		// dialog and `launch` say; AWS's own available count stays in JSON and CSV.
		_, err := fmt.Fprintf(w, blockTableFormat, b.ReservationID, b.BlockID, b.Region, b.AvailabilityZone, b.InstanceType,
			strconv.Itoa(b.TotalCount), strconv.Itoa(b.FreeCount()), strconv.Itoa(b.RunningCount), b.State,
			b.Start.UTC().Format(model.LayoutMinute), b.End.UTC().Format(model.LayoutMinute),
			b.TerminationCell(), b.ShortCountdown(now), b.Interconnect, warning(b))
		if err != nil {
			return err
		}
	}
	if err := printGroups(w, blocks); err != nil {
		return err
	}
	return printPlans(facts.Plans, facts.Rules, now, w, true, facts.Accounts)
}

// groupIDs are the reservations of b's purchase when it made several, else none.
func groupIDs(all []model.Block, b model.Block) []string {
	g := model.Group(all, b)
	if len(g) < 2 {
		return nil
	}
	return strings.Split(model.GroupIDs(g), ",")
}

// printGroups says under the table which reservations one purchase made together (one
// per segment of a segmented offering), once per purchase.
func printGroups(w io.Writer, blocks []model.Block) error {
	seen := map[string]bool{}
	for _, b := range blocks {
		g := model.Group(blocks, b)
		if len(g) < 2 || seen[b.PurchaseID()] {
			continue
		}
		seen[b.PurchaseID()] = true
		var each []string
		for _, x := range g {
			each = append(each, x.ReservationID+" ("+x.AvailabilityZone+")")
		}
		if _, err := fmt.Fprintf(w, "\nOne purchase, %d reservations (%s=%s): %s. `gpublock launch %s --group` launches across them.\n",
			len(g), model.PurchaseTag, b.PurchaseID(), strings.Join(each, ", "), g[0].ReservationID); err != nil {
			return err
		}
	}
	return nil
}
