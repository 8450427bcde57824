package cmdutil

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// SourceFlags are --source and --target, shared by the commands that search, buy, extend
// or list either source.
type SourceFlags struct {
	Source, target string
}

// Register adds --source (default def) and --target to fs.
func (s *SourceFlags) Register(fs *pflag.FlagSet, def string) {
	fs.StringVar(&s.Source, "source", def, "capacity `source`: capacity-blocks (EC2), training-plans (SageMaker) or all")
	fs.StringVar(&s.target, "target", "", "what a training plan is for: "+strings.Join(SourceTargets(nil), ", ")+" (comma-separated; default training-job)")
}

// RegisterOne adds --source and --target to a command about one offering or reservation.
func (s *SourceFlags) RegisterOne(fs *pflag.FlagSet) {
	s.Register(fs, "capacity-blocks")
	fs.Lookup("source").Usage = "`source` of the offering or reservation: capacity-blocks (EC2) or training-plans (SageMaker)"
}

// sources reads --source.
func (s *SourceFlags) sources() ([]model.Source, error) {
	out, err := model.ParseSources(s.Source)
	if err != nil {
		return nil, Usagef("--source %q: allowed capacity-blocks, training-plans or all", s.Source)
	}
	return out, nil
}

// targets reads --target: only with training plans, each a SageMaker resource name.
func (s *SourceFlags) targets(srcs []model.Source) ([]string, error) {
	v := strings.TrimSpace(s.target)
	if v == "" {
		return nil, nil
	}
	allowed := SourceTargets(srcs)
	if len(allowed) == 0 {
		src, ok := firstSourceThat(func(c source.Caps) bool { return len(c.Targets) > 0 })
		if !ok {
			return nil, Usagef("--target %q: no source in this build takes a target", s.target)
		}
		return nil, Usagef("--target %q is for %s; add --source %s (or all)", s.target, SourceNouns(src), src.Name())
	}
	var out []string
	for _, t := range strings.Split(v, ",") {
		t = strings.ToLower(strings.TrimSpace(t))
		if !slices.Contains(allowed, t) {
			return nil, Usagef("--target %q: allowed %s", s.target, strings.Join(allowed, ", "))
		}
		if !slices.Contains(out, t) {
			out = append(out, t)
		}
	}
	return out, nil
}

// SourceTargets are the targets the sources take (every registered source's when srcs is
// nil), from their capabilities.
func SourceTargets(srcs []model.Source) []string {
	if srcs == nil {
		srcs = RegisteredSources()
	}
	var out []string
	for _, s := range srcs {
		caps, _ := CapsOf(s)
		for _, t := range caps.Targets {
			if !slices.Contains(out, t) {
				out = append(out, t)
			}
		}
	}
	return out
}

// Check reads both flags, before any call.
func (s *SourceFlags) Check() ([]model.Source, []string, error) {
	srcs, err := s.sources()
	if err != nil {
		return nil, nil, err
	}
	targets, err := s.targets(srcs)
	return srcs, targets, err
}

// One is the single source of a command about one offering or reservation.
func (s *SourceFlags) One() (model.Source, error) {
	srcs, _, err := s.Check()
	if err != nil {
		return 0, err
	}
	if len(srcs) != 1 {
		return 0, Usagef("--source %q: give the one source of the offering or reservation (capacity-blocks or training-plans)", s.Source)
	}
	return srcs[0], nil
}

// SweptDays is the lengths a search of s sweeps for --duration, each checked by the
// source's rule, and no more of them than one search sweeps (model.Source.SweepLengths).
func SweptDays(s model.Source, duration string) ([]int, error) {
	noun := SourceNouns(s)
	if strings.TrimSpace(duration) == "" {
		return nil, Usagef("--duration is required: %s last 1 to %d whole days (e.g. 2d, 3w, or a range 2d-7d)", noun, s.MaxDays())
	}
	lo, hi, err := model.ParseDayRange(duration)
	if err != nil {
		// The model's message lists Capacity Blocks' lengths; say the source's own.
		return nil, Usagef("--duration %q: want whole days or weeks, e.g. 2d, 48h, 3w, or a range 2d-7d; %s last 1 to %d days", duration, noun, s.MaxDays())
	}
	for _, d := range []int{lo, hi} {
		if err := s.CheckDays(d); err != nil {
			return nil, Usagef("--duration %s: %v", duration, err)
		}
	}
	if err := s.CheckSweep(lo, hi); err != nil {
		return nil, Usagef("--duration %s: %v", duration, err)
	}
	return s.DurationDays(lo, hi), nil
}

// CheckSourceQuery checks q by the rules of source s (model.Source.CheckQuery: its types,
// counts and lengths), in words that name the flag and the source.
func CheckSourceQuery(s model.Source, q model.Query) error {
	if faults := s.CheckQuery(q); len(faults) > 0 {
		switch f := faults[0]; {
		case f.Field == model.FieldDuration:
			return Usagef("--duration %s: %v", f.Value, f.Err)
		case f.Field == model.FieldTypes && f.Value == "":
			return Usagef("--type is required: one or more instance types, as EC2 (p5.48xlarge) or SageMaker (ml.p5.48xlarge) names them")
		case f.Field == model.FieldTypes:
			return Usagef("--type %s: %v", f.Value, f.Err)
		default:
			return Usagef("--count: %v", f.Err)
		}
	}
	if !q.End.IsZero() && !q.End.After(q.Start) {
		return Usagef("--to: the window %s – %s is empty", q.Start.Format(time.DateOnly), q.End.Format(time.DateOnly))
	}
	return nil
}

// ValidateQuery checks the query by model.Query.Validate, the Capacity Blocks' rule, which
// also reads the window at now; the other sources' rules ran in offerings' SourcedQuery.
func ValidateQuery(q model.Query, now time.Time) error {
	parts, _ := model.SplitQuery(q)
	for _, p := range parts {
		if p.Source != model.SourceCapacityBlock {
			continue
		}
		p.Query.AllZones = q.AllZones
		if err := p.Query.Validate(now); err != nil {
			return QueryUsage(err)
		}
	}
	return nil
}

// SourcePrefix names the source at the head of its messages ("training plans: "); the
// default source (the first registered) speaks unnamed, as it did before there were others.
func SourcePrefix(s model.Source) string {
	if _, ok := CapsOf(s); !ok || s == RegisteredSources()[0] {
		return ""
	}
	return SourceNouns(s) + ": "
}

// SourceWord names the source before a reservation's id in a sentence ("training plan ");
// the default source's reservations stand unnamed, as sourcePrefix's messages do.
func SourceWord(s model.Source) string {
	if SourcePrefix(s) == "" {
		return ""
	}
	caps, _ := CapsOf(s)
	return caps.Noun + " "
}

// SourceNouns is what the source sells, many of it, in a sentence: "training plans".
func SourceNouns(s model.Source) string {
	caps, ok := CapsOf(s)
	if !ok {
		return s.Plural()
	}
	return caps.Noun + "s"
}

// SourcesThat is the first registered source whose capabilities pass ok, named for many
// ("Capacity Blocks"), for a message that says which source can do what another cannot.
func SourcesThat(ok func(source.Caps) bool) string {
	if s, found := firstSourceThat(ok); found {
		return SourceNouns(s)
	}
	return "no source"
}

// firstSourceThat is the first registered source whose capabilities pass ok.
func firstSourceThat(ok func(source.Caps) bool) (model.Source, bool) {
	for _, s := range RegisteredSources() {
		if caps, _ := CapsOf(s); ok(caps) {
			return s, true
		}
	}
	return 0, false
}

// HasParts and NoParts sort sources by whether an offering or a reservation may be made of
// parts in different zones and windows, which a row of one zone and one window cannot hold.
func HasParts(c source.Caps) bool { return c.Parts }

func NoParts(c source.Caps) bool { return !c.Parts }

// QueryUsage names the flags of a query's validation errors.
func QueryUsage(err error) error {
	var ve model.ValidationErrors
	if !errors.As(err, &ve) {
		return err
	}
	flagOf := map[string]string{
		model.FieldTypes: "--type", model.FieldCount: "--count", model.FieldDuration: "--duration",
		model.FieldStart: "--from", model.FieldEnd: "--to", model.FieldRegions: "--region",
	}
	parts := make([]string, len(ve))
	for i, e := range ve {
		name := flagOf[e.Field]
		if name == "" {
			name = e.Field
		}
		parts[i] = fmt.Sprintf("%s: %s is not allowed; %s", name, e.Value, e.Allowed)
	}
	return Usagef("%s", strings.Join(parts, "\n"))
}

func CatalogNames() []string {
	var out []string
	for _, t := range model.Catalog() {
		out = append(out, t.Name)
	}
	return out
}

// SourceCaps is a source's capabilities; a source not linked into the build has none.
func SourceCaps(s model.Source) source.Caps {
	caps, _ := CapsOf(s)
	return caps
}
