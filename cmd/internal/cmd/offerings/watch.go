package offerings

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/printers"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/pricing"
	"github.com/gpublock/gpublock/pricing/export"
)

// The limits of --watch: a search of every region and duration is dozens of calls, so not
// more often than a minute; and at least once a day, as the market moves by the day.
const (
	minOfferingsWatch = time.Minute
	maxOfferingsWatch = 24 * time.Hour
)

// parseWatchInterval reads --interval.
func parseWatchInterval(s string) (time.Duration, error) {
	d, err := time.ParseDuration(strings.TrimSpace(s))
	if err != nil || d < minOfferingsWatch || d > maxOfferingsWatch {
		return 0, cmdutil.Usagef("--interval %q: allowed 1m to 24h, such as 5m, 90s or 2h", s)
	}
	return d, nil
}

// offeringsWatch is the state of gpublock offerings --watch between its searches.
type offeringsWatch struct {
	a              *Options
	client         *awsapi.Client
	cat            *pricing.Catalog
	format         cmdutil.OutputFormat
	stdout, stderr io.Writer

	seen    model.SeenOfferings // the offerings printed
	printed int                 // offerings printed, over every search
	csvw    *csv.Writer         // with its header written, once
	// outputFailed: a search's offerings could not be written, which ends the watch.
	outputFailed bool
}

// watchOfferings searches with q, then again every a.interval with the window read anew,
// printing the offerings not printed before, until ctx ends, --until-found finds one, or
// the window has passed.
func watchOfferings(ctx context.Context, client *awsapi.Client, a *Options, q model.Query, cat *pricing.Catalog, format cmdutil.OutputFormat, stdout, stderr io.Writer) int {
	w := &offeringsWatch{a: a, client: client, cat: cat, format: format, stdout: stdout, stderr: stderr, seen: model.SeenOfferings{}}
	for round := 1; ; round++ {
		if round > 1 {
			if !a.Wait(ctx, a.interval) {
				return w.interrupted()
			}
			var ok bool
			if q, ok = w.nextQuery(ctx); !ok {
				return w.interrupted()
			}
		}
		if done := w.search(ctx, round, q); done {
			switch {
			case ctx.Err() != nil:
				return w.interrupted()
			case w.outputFailed:
				return 1
			}
			return 0
		}
	}
}

// interrupted is the exit status of a watch that ends without --until-found finding: by
// Ctrl-C or because its window has passed. Only an --until-found still waiting fails.
func (w *offeringsWatch) interrupted() int {
	if w.a.untilFound && w.printed == 0 {
		fmt.Fprintln(w.stderr, "gpublock offerings: stopped before any offering was found")
		return 1
	}
	return 0
}

// nextQuery reads the window again at the backend's clock, so that now and +2w move. A
// start that has passed becomes now; when the window can no longer hold a block, the
// watch is over (ok false).
func (w *offeringsWatch) nextQuery(ctx context.Context) (model.Query, bool) {
	now := w.client.Now(ctx)
	if ctx.Err() != nil {
		return model.Query{}, false
	}
	q, err := w.a.SourcedQuery(now)
	if err == nil {
		if len(q.Regions) == 0 {
			q.Regions = []string{w.client.Region()}
		}
		q, err = watchedAt(q, now)
	}
	if err != nil {
		fmt.Fprintf(w.stderr, "gpublock offerings: the window has passed, the watch is over:\n%v\n", cmdutil.QueryUsage(err))
		return q, false
	}
	return q, true
}

// watchedAt is q for a search at now: a start that has passed becomes now, and the
// window is checked again by the rules of each source searched (the blocks' by
// model.Query.WatchedAt, which reads their window limits).
func watchedAt(q model.Query, now time.Time) (model.Query, error) {
	if q.Searches(model.SourceCapacityBlock) {
		var err error
		if q, err = q.WatchedAt(now); err != nil {
			return q, err
		}
	} else if q.Start.Before(now) {
		q.Start = now
	}
	for _, s := range q.Sources {
		if s == model.SourceCapacityBlock {
			continue
		}
		if err := cmdutil.CheckSourceQuery(s, q); err != nil {
			return q, err
		}
	}
	return q, nil
}

// search runs one search and prints what is new; done is true when the watch is over:
// ctx ended during the search, --until-found has found, or the output failed.
func (w *offeringsWatch) search(ctx context.Context, round int, q model.Query) (done bool) {
	// The first table streams as without --watch; later ones wait for the count in the
	// line above their rows. csv rows stream in every search: they are all alike.
	var each func(model.Offering)
	switch {
	case w.format == "table" && round == 1:
		each = func(o model.Offering) {
			if !w.seen.Mark(o) {
				return
			}
			if w.printed == 0 {
				fmt.Fprint(w.stdout, sourcedTableHeader(q))
			}
			w.printed++
			fmt.Fprint(w.stdout, sourcedTableRow(q, o, printers.OfferingTableRow(o, pricing.Compare(w.cat, o))))
		}
	case w.format == "csv":
		each = func(o model.Offering) {
			if !w.seen.Mark(o) {
				return
			}
			w.printed++
			w.csvHead()
			_ = w.csvw.Write(export.CSVRecord(o, pricing.Compare(w.cat, o)))
			w.csvw.Flush()
		}
	}
	before := w.printed
	res := Search(ctx, "offerings", w.client, q, round == 1, w.a.IO.IsStderrTTY(), each, w.stderr)
	if ctx.Err() != nil {
		return true
	}
	now := w.client.Now(ctx)
	w.seen.Forget(now)
	failed := printers.RegionsIn(q.Regions, res.Failed)
	if res.AllFailed() {
		// Nothing on stdout: a script must not read the failure as a search with nothing new.
		fmt.Fprintf(w.stderr, "gpublock offerings: every region failed: %s\n", strings.Join(failed, ", "))
		w.line(w.summary(now, round, 0, 0, failed, true, false), false)
		return false
	}

	var fresh []model.Offering // new in this search, for table (after the first) and json
	if each == nil {
		fresh = w.seen.Fresh(res.Offerings)
	}
	printers.SortOfferings(fresh)
	w.printed += len(fresh)
	added := w.printed - before
	found := w.a.untilFound && w.printed > 0
	line := w.summary(now, round, added, len(res.Offerings), failed, false, found)

	switch w.format {
	case "table":
		if round == 1 {
			if added == 0 {
				noOfferings(w.stderr, q, res.Answered)
			}
			w.line(line, false)
			break
		}
		w.line(line, added > 0)
		if added > 0 {
			fmt.Fprint(w.stdout, sourcedTableHeader(q))
			for _, o := range fresh {
				fmt.Fprint(w.stdout, sourcedTableRow(q, o, printers.OfferingTableRow(o, pricing.Compare(w.cat, o))))
			}
		}
	case "csv":
		w.csvHead() // the document has its header even when the first search found nothing
		w.line(line, false)
	case "json":
		out := make([]printers.OfferingJSON, 0, len(fresh))
		for _, o := range fresh {
			out = append(out, export.Row(o, pricing.Compare(w.cat, o)))
		}
		b, err := json.Marshal(out)
		if err != nil {
			fmt.Fprintln(w.stderr, "gpublock offerings:", err)
			w.outputFailed = true
			return true
		}
		fmt.Fprintf(w.stdout, "%s\n", b)
		w.line(line, false)
	}
	if round > 1 && added > 0 && w.a.IO.IsStderrTTY() { // a BEL rings at a terminal, not as a stray byte in a file
		fmt.Fprint(w.stderr, "\a")
	}
	return found
}

func (w *offeringsWatch) csvHead() {
	if w.csvw != nil {
		return
	}
	w.csvw = csv.NewWriter(w.stdout)
	_ = w.csvw.Write(export.CSVHeader())
	w.csvw.Flush()
}

// line prints a search's line: on stdout in a table, where it heads the new rows (after a
// blank line when there are some); on stderr with json and csv, whose stdout is data.
func (w *offeringsWatch) line(s string, rows bool) {
	if w.format != "table" {
		fmt.Fprintln(w.stderr, "gpublock offerings: "+s)
		return
	}
	if rows {
		fmt.Fprintln(w.stdout)
	}
	fmt.Fprintln(w.stdout, s)
}

// summary is a search's line, e.g. "2026-12-01 22:41 UTC: 3 new offerings (12 on offer);
// next search in 5m, Ctrl-C stops".
func (w *offeringsWatch) summary(now time.Time, round, added, onOffer int, failed []string, allFailed, found bool) string {
	var parts []string
	switch {
	case allFailed:
		parts = append(parts, "every region failed (see stderr)")
	case round == 1 && added == 0:
		parts = append(parts, "no offerings")
	case round == 1:
		parts = append(parts, model.Plural(added, "offering", "offerings"))
	default:
		news := model.Plural(added, "new offering", "new offerings")
		if added == 0 {
			news = "no new offerings"
		}
		parts = append(parts, fmt.Sprintf("%s (%d on offer)", news, onOffer))
	}
	if len(failed) > 0 && !allFailed {
		parts = append(parts, "FAILED: "+strings.Join(failed, ", ")+" (see stderr)")
	}
	switch {
	case found:
		parts = append(parts, "found, stopping (--until-found)")
	case w.a.untilFound:
		parts = append(parts, fmt.Sprintf("next search in %s until one is found, Ctrl-C stops", model.FormatInterval(w.a.interval)))
	default:
		parts = append(parts, fmt.Sprintf("next search in %s, Ctrl-C stops", model.FormatInterval(w.a.interval)))
	}
	return now.UTC().Format(model.LayoutMinuteZone) + ": " + strings.Join(parts, "; ")
}
