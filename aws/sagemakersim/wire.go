package sagemakersim

import (
	"fmt"
	"math"
	"net/http"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// epoch is a timestamp on the wire: epoch seconds as a JSON number, as awsJson1_1 sends it.
// One outside the timestamps AWS takes (timestampRange) is kept as sent and refused by
// call.decode with a ValidationException naming its member, so that no time the state
// file cannot hold is ever stored.
type epoch struct {
	time.Time
	outside string // the value as sent, when outside timestampRange
}

// The timestamps a request may carry: 1970-01-01T00:00:00Z to 9999-12-31T23:59:59Z. AWS's
// own bounds are not documented (UNCONFIRMED); these are the years an ISO 8601 date (and
// the state file) can hold, from the epoch on, since a date before it is no date a
// reservation can have.
const (
	minEpoch = 0
	maxEpoch = 253402300799
)

const timestampRange = "Member must be a timestamp from 1970-01-01T00:00:00Z (0) to 9999-12-31T23:59:59Z (253402300799), in epoch seconds"

func (e *epoch) UnmarshalJSON(b []byte) error {
	f, err := strconv.ParseFloat(string(b), 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return fmt.Errorf("a timestamp must be epoch seconds as a JSON number, not %s", b)
	}
	if f < minEpoch || f >= maxEpoch+1 {
		*e = epoch{outside: string(b)}
		return nil
	}
	sec, frac := math.Modf(f)
	e.Time = time.Unix(int64(sec), int64(frac*1e9)).UTC()
	return nil
}

// checkTimestamps refuses a decoded input whose timestamp members are outside the range
// AWS takes: every *epoch member of the struct v points to, so that no operation can
// forget one.
func checkTimestamps(v any) *apiError {
	rv := reflect.ValueOf(v)
	if rv.Kind() != reflect.Pointer || rv.Elem().Kind() != reflect.Struct {
		return nil
	}
	rv = rv.Elem()
	for i := 0; i < rv.NumField(); i++ {
		if !rv.Type().Field(i).IsExported() {
			continue
		}
		e, ok := rv.Field(i).Interface().(*epoch)
		if !ok || e == nil || e.outside == "" {
			continue
		}
		name, _, _ := strings.Cut(rv.Type().Field(i).Tag.Get("json"), ",")
		return invalid(name, e.outside, timestampRange)
	}
	return nil
}

// ts writes a time as epoch seconds (a whole number when it is one).
type ts time.Time

func (t ts) MarshalJSON() ([]byte, error) {
	tt := time.Time(t)
	if tt.Nanosecond() == 0 {
		return []byte(strconv.FormatInt(tt.Unix(), 10)), nil
	}
	return []byte(strconv.FormatFloat(float64(tt.UnixMilli())/1000, 'f', 3, 64)), nil
}

func tsp(t time.Time) *ts {
	if t.IsZero() {
		return nil
	}
	v := ts(t)
	return &v
}

// Patterns and ranges of the SageMaker model (reference §2). Each pattern is anchored:
// AWS matches the whole value.
var (
	patTrainingPlanName   = lazyPattern(`^[a-zA-Z0-9](-*[a-zA-Z0-9]){0,63}$`)
	patOfferingID         = lazyPattern(`^[a-z0-9\-]+$`)
	patTrainingPlanArn    = lazyPattern(`^arn:aws[a-z\-]*:sagemaker:[a-z0-9\-]*:[0-9]{12}:training-plan/.*$`)
	patResourceArn        = lazyPattern(`^arn:aws[a-z\-]*:sagemaker:[a-z0-9\-]*:[0-9]{12}:.+$`)
	patReservedCapArn     = lazyPattern(`^arn:aws[a-z\-]*:sagemaker:[a-z0-9\-]*:[0-9]{12}:reserved-capacity/.*$`)
	patUltraServerType    = lazyPattern(`^ml.[a-z0-9\-.]+$`)
	patTag                = lazyPattern(`^([\p{L}\p{Z}\p{N}_.:/=+\-@]*)$`)
	patNextToken          = lazyPattern(`^.*$`)
	instanceTypes         = []string{"ml.p4d.24xlarge", "ml.p5.48xlarge", "ml.p5e.48xlarge", "ml.p5en.48xlarge", "ml.trn1.32xlarge", "ml.trn2.48xlarge", "ml.p6-b200.48xlarge", "ml.p4de.24xlarge", "ml.p6e-gb200.36xlarge", "ml.p5.4xlarge", "ml.p6-b300.48xlarge"}
	targetResources       = []string{"training-job", "hyperpod-cluster", "endpoint", "studio-apps"}
	planStatuses          = []string{"Pending", "Active", "Scheduled", "Expired", "Failed"}
	sortBys               = []string{"TrainingPlanName", "StartTime", "Status"}
	sortOrders            = []string{"Ascending", "Descending"}
	filterNames           = []string{"Status"}
	validationErrorPrefix = "1 validation error detected: "
)

// invalid is AWS's ValidationException, naming the member as AWS does (lower camel case).
func invalid(member string, value any, constraint string) *apiError {
	return errf(http.StatusBadRequest, "ValidationException", "%sValue '%v' at '%s' failed to satisfy constraint: %s",
		validationErrorPrefix, value, lowerFirst(member), constraint)
}

// rule is a business rule's ValidationException (the texts AWS is seen to use).
func rule(format string, args ...any) *apiError {
	return errf(http.StatusBadRequest, "ValidationException", format, args...)
}

func lowerFirst(s string) string {
	if s == "" {
		return s
	}
	return strings.ToLower(s[:1]) + s[1:]
}

// lazyPattern compiles a pattern at its first use: a program that serves no SageMaker call
// (every gpublock command but sim) does not pay for it at start.
func lazyPattern(p string) func() *regexp.Regexp {
	return sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(p) })
}

func checkString(member string, v *string, min, max int, pattern func() *regexp.Regexp) *apiError {
	if v == nil {
		return nil
	}
	if n := len([]rune(*v)); n < min {
		return invalid(member, *v, fmt.Sprintf("Member must have length greater than or equal to %d", min))
	} else if n > max {
		return invalid(member, *v, fmt.Sprintf("Member must have length less than or equal to %d", max))
	}
	if pattern == nil {
		return nil
	}
	if pat := pattern(); !pat.MatchString(*v) {
		return invalid(member, *v, "Member must satisfy regular expression pattern: "+strings.TrimSuffix(strings.TrimPrefix(pat.String(), "^"), "$"))
	}
	return nil
}

func checkEnum(member string, v *string, values []string) *apiError {
	if v == nil || slices.Contains(values, *v) {
		return nil
	}
	return invalid(member, *v, "Member must satisfy enum value set: ["+strings.Join(values, ", ")+"]")
}

func checkRange[T int64 | int](member string, v *T, min, max T) *apiError {
	if v == nil {
		return nil
	}
	if *v < min {
		return invalid(member, *v, fmt.Sprintf("Member must have value greater than or equal to %d", min))
	}
	if max >= min && *v > max {
		return invalid(member, *v, fmt.Sprintf("Member must have value less than or equal to %d", max))
	}
	return nil
}

func required(member string, present bool) *apiError {
	if present {
		return nil
	}
	return invalid(member, "null", "Member must not be null")
}

// firstErr is the first of several checks that fails.
func firstErr(errs ...*apiError) *apiError {
	for _, e := range errs {
		if e != nil {
			return e
		}
	}
	return nil
}

// page reads NextToken and MaxResults: the token is the offset of the next item, as an
// opaque string; one that this emulator did not issue is a ValidationException.
func page(token *string, maxResults *int, def, total int) (from, to int, next *string, e *apiError) {
	if e := firstErr(checkString("NextToken", token, 0, 8192, patNextToken), checkRange("MaxResults", maxResults, 1, 100)); e != nil {
		return 0, 0, nil, e
	}
	n := def
	if maxResults != nil {
		n = *maxResults
	}
	if token != nil && *token != "" {
		off, ok := strings.CutPrefix(*token, "tok-")
		v, err := strconv.Atoi(off)
		if !ok || err != nil || v < 0 {
			return 0, 0, nil, rule("Invalid pagination token %q.", *token)
		}
		from = v
	}
	from = min(from, total)
	to = min(from+n, total)
	if to < total {
		s := "tok-" + strconv.Itoa(to)
		next = &s
	}
	return from, to, next, nil
}
