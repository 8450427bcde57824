package model

import (
	"errors"
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"
)

// Money is an exact amount of US dollars, kept as an integer number of micro-dollars
// (1e-6 USD). It is parsed from the API's decimal strings and never passes through float64.
// int64 micro-dollars holds up to about 9.2 trillion dollars. Arithmetic that would pass
// that refuses, as NaN does: the result is an overflowed amount (Overflowed), which every
// later operation keeps, which writes itself "overflow" and which JSON refuses to encode,
// so that no total is ever a wrong number printed as if it were right.
type Money struct {
	micros int64
	over   bool
}

// ErrMoneyOverflow is the error of an amount past what Money holds.
var ErrMoneyOverflow = errors.New("amount too large to count exactly (more than $9.2 trillion)")

var overflowed = Money{over: true}

// Overflowed reports whether the amount is the result of arithmetic that passed what
// Money holds.
func (m Money) Overflowed() bool { return m.over }

// Check is ErrMoneyOverflow for an overflowed amount, else nil.
func (m Money) Check() error {
	if m.over {
		return ErrMoneyOverflow
	}
	return nil
}

const microsPerDollar = 1_000_000

// MoneyFromMicros builds an amount from micro-dollars.
func MoneyFromMicros(m int64) Money { return Money{micros: m} }

// MoneyFromCents builds an amount from cents.
func MoneyFromCents(c int64) Money { return Money{}.mulInt(c, 10_000) }

// ParseMoney parses a decimal string such as "7551.36", "-0.5" or "12". It accepts at most
// six decimal places and rejects anything else (exponents, spaces, thousands separators).
func ParseMoney(s string) (Money, error) {
	orig := s
	neg := false
	if strings.HasPrefix(s, "-") {
		neg, s = true, s[1:]
	}
	whole, frac, hasDot := strings.Cut(s, ".")
	if whole == "" && (!hasDot || frac == "") {
		return Money{}, fmt.Errorf("invalid amount %q: want a decimal number such as 7551.36", orig)
	}
	if len(frac) > 6 {
		return Money{}, fmt.Errorf("invalid amount %q: at most 6 decimal places", orig)
	}
	if hasDot && frac == "" {
		return Money{}, fmt.Errorf("invalid amount %q: want a decimal number such as 7551.36", orig)
	}
	for _, part := range []string{whole, frac} {
		for _, r := range part {
			if r < '0' || r > '9' {
				return Money{}, fmt.Errorf("invalid amount %q: want a decimal number such as 7551.36", orig)
			}
		}
	}
	var w int64
	if whole != "" {
		var err error
		if len(whole) > 12 {
			return Money{}, fmt.Errorf("invalid amount %q: too large", orig)
		}
		w, err = strconv.ParseInt(whole, 10, 64)
		if err != nil {
			return Money{}, fmt.Errorf("invalid amount %q: %v", orig, err)
		}
	}
	f := int64(0)
	if frac != "" {
		padded := frac + strings.Repeat("0", 6-len(frac))
		f, _ = strconv.ParseInt(padded, 10, 64)
	}
	m := w*microsPerDollar + f
	if neg {
		m = -m
	}
	return Money{micros: m}, nil
}

// MustMoney is ParseMoney for constants in code and tests; it panics on a bad literal.
func MustMoney(s string) Money {
	m, err := ParseMoney(s)
	if err != nil {
		panic(err)
	}
	return m
}

// Micros returns the amount in micro-dollars.
func (m Money) Micros() int64 { return m.micros }

// IsZero reports whether the amount is zero.
func (m Money) IsZero() bool { return m.micros == 0 && !m.over }

// Add returns m + o (overflowed past what Money holds).
func (m Money) Add(o Money) Money {
	if m.over || o.over {
		return overflowed
	}
	return m.add(o.micros)
}

func (m Money) add(v int64) Money {
	r := m.micros + v
	if (v > 0 && r < m.micros) || (v < 0 && r > m.micros) {
		return overflowed
	}
	return Money{micros: r}
}

// Sub returns m - o (overflowed past what Money holds).
func (m Money) Sub(o Money) Money {
	if m.over || o.over || o.micros == math.MinInt64 {
		return overflowed
	}
	return m.add(-o.micros)
}

// Mul returns m × n (overflowed past what Money holds).
func (m Money) Mul(n int64) Money {
	if m.over {
		return overflowed
	}
	return Money{}.mulInt(m.micros, n)
}

// mulInt is a × b micro-dollars, overflowed past int64.
func (Money) mulInt(a, b int64) Money {
	p, ok := mul64(a, b)
	if !ok {
		return overflowed
	}
	return Money{micros: p}
}

func mul64(a, b int64) (int64, bool) {
	if a == 0 || b == 0 {
		return 0, true
	}
	p := a * b
	if p/b != a || (a == -1 && b == math.MinInt64) || (b == -1 && a == math.MinInt64) {
		return 0, false
	}
	return p, true
}

// Div returns m ÷ n rounded half away from zero to the micro-dollar. It is for rates
// (per hour, per accelerator), which may be shown rounded; totals are never rebuilt from them.
func (m Money) Div(n int64) Money {
	if m.over {
		return overflowed
	}
	if n == 0 {
		return Money{}
	}
	if n == -1 && m.micros == math.MinInt64 {
		return overflowed
	}
	return Money{micros: divRound(m.micros, n)}
}

// MulRat returns m × num ÷ den rounded half away from zero to the micro-dollar, exact
// whatever the sizes (the product is taken in 128 bits), overflowed when the result passes
// what Money holds.
func (m Money) MulRat(num, den int64) Money {
	if m.over {
		return overflowed
	}
	if den == 0 {
		return Money{}
	}
	if p, ok := mul64(m.micros, num); ok && !(den == -1 && p == math.MinInt64) {
		return Money{micros: divRound(p, den)}
	}
	q := new(big.Int).Mul(big.NewInt(m.micros), big.NewInt(num))
	d := big.NewInt(den)
	if d.Sign() < 0 {
		q.Neg(q)
		d.Neg(d)
	}
	r := new(big.Int)
	q.QuoRem(q, d, r) // truncated toward zero, as divRound starts
	if new(big.Int).Mul(new(big.Int).Abs(r), big.NewInt(2)).Cmp(d) >= 0 {
		if r.Sign() < 0 {
			q.Sub(q, big.NewInt(1))
		} else {
			q.Add(q, big.NewInt(1))
		}
	}
	if !q.IsInt64() {
		return overflowed
	}
	return Money{micros: q.Int64()}
}

func divRound(a, b int64) int64 {
	if b < 0 {
		a, b = -a, -b
	}
	q, r := a/b, a%b
	if abs64(r) >= b-abs64(r) { // 2|r| ≥ b, without overflowing
		if a < 0 {
			q--
		} else {
			q++
		}
	}
	return q
}

func abs64(x int64) int64 {
	if x < 0 {
		return -x
	}
	return x
}

// Cmp compares two amounts: -1, 0 or +1.
func (m Money) Cmp(o Money) int {
	switch {
	case m.over || o.over:
		// an overflowed amount is above every amount it could have been
		return boolInt(m.over) - boolInt(o.over)
	case m.micros < o.micros:
		return -1
	case m.micros > o.micros:
		return 1
	}
	return 0
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Cents returns the amount rounded to the cent.
func (m Money) Cents() int64 { return divRound(m.micros, 10_000) }

// String gives the plain decimal form with at least two decimals and no trailing zeros past
// them: "7551.36", "47.757", "0.00". It is the form the API and JSON output use.
func (m Money) String() string {
	if m.over {
		return "overflow"
	}
	v := m.micros
	sign := ""
	if v < 0 {
		sign, v = "-", -v
	}
	frac := fmt.Sprintf("%06d", v%microsPerDollar)
	frac = strings.TrimRight(frac, "0")
	for len(frac) < 2 {
		frac += "0"
	}
	return fmt.Sprintf("%s%d.%s", sign, v/microsPerDollar, frac)
}

// Dollars formats the amount for people: "$7,551.36", rounded to the cent.
func (m Money) Dollars() string {
	if m.over {
		return "$(overflow)"
	}
	c := m.Cents()
	sign := ""
	if c < 0 {
		sign, c = "-", -c
	}
	return fmt.Sprintf("%s$%s.%02d", sign, groupThousands(c/100), c%100)
}

// Rate formats a per-hour rate for people with up to three decimals: "$47.757".
func (m Money) Rate() string {
	if m.over {
		return "$(overflow)"
	}
	milli := divRound(m.micros, 1000)
	sign := ""
	if milli < 0 {
		sign, milli = "-", -milli
	}
	return fmt.Sprintf("%s$%s.%03d", sign, groupThousands(milli/1000), milli%1000)
}

func groupThousands(n int64) string {
	s := strconv.FormatInt(n, 10)
	if len(s) <= 3 {
		return s
	}
	var b strings.Builder
	lead := len(s) % 3
	if lead > 0 {
		b.WriteString(s[:lead])
	}
	for i := lead; i < len(s); i += 3 {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(s[i : i+3])
	}
	return b.String()
}

// MarshalText writes the plain decimal form, so JSON carries the exact string.
// An overflowed amount is refused: JSON never carries a wrong total.
func (m Money) MarshalText() ([]byte, error) {
	if m.over {
		return nil, ErrMoneyOverflow
	}
	return []byte(m.String()), nil
}

// UnmarshalText parses the plain decimal form.
func (m *Money) UnmarshalText(b []byte) error {
	v, err := ParseMoney(string(b))
	if err != nil {
		return err
	}
	*m = v
	return nil
}

// ParseDollars reads an amount of dollars as a person writes it for a spending cap: digits
// with at most two decimals (whole cents, as every fee is), an optional leading "$", and
// thousands separators only in groups of three ("25000", "$25,000", "7551.36",
// "1,234,567.89"). Anything else is an error: "100,00" is not ten thousand dollars, and a
// cap read wrong is money spent. Zero and negative amounts are refused too.
func ParseDollars(s string) (Money, error) {
	bad := func(why string) (Money, error) {
		if why == "" {
			why = "not an amount of dollars"
		}
		return Money{}, fmt.Errorf("%q: %s; write it like 25000, 25,000 or 7551.36", s, why)
	}
	v := strings.TrimPrefix(s, "$")
	if v == "" || v != strings.TrimSpace(v) {
		return bad("")
	}
	whole, frac, hasDot := strings.Cut(v, ".")
	if hasDot && (len(frac) == 0 || len(frac) > 2) {
		return bad("at most two decimals (whole cents)")
	}
	if strings.Contains(whole, ",") {
		groups := strings.Split(whole, ",")
		if len(groups[0]) < 1 || len(groups[0]) > 3 {
			return bad("thousands separators only between groups of three digits")
		}
		for _, g := range groups[1:] {
			if len(g) != 3 {
				return bad("thousands separators only between groups of three digits")
			}
		}
		whole = strings.Join(groups, "")
	}
	if whole == "" {
		return bad("")
	}
	for _, r := range whole + frac {
		if r < '0' || r > '9' {
			return bad("")
		}
	}
	num := whole
	if hasDot {
		num += "." + frac
	}
	m, err := ParseMoney(num)
	if err != nil {
		return bad("too large")
	}
	if m.micros <= 0 {
		return bad("it must be more than zero")
	}
	return m, nil
}
