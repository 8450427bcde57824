package pricing

import (
	"encoding/json"
	"fmt"
	"math/big"
)

// Ratio is an exact fraction such as a break-even utilization or a number of hours. The zero
// value is "absent" (there is nothing to compare with). Float64 is for display and plotting
// only; decisions compare Ratios exactly.
type Ratio struct{ r *big.Rat }

func newRatio(num, den *big.Int) Ratio {
	if den.Sign() == 0 {
		return Ratio{}
	}
	return Ratio{new(big.Rat).SetFrac(num, den)}
}

// RatioOf is num ÷ den, or absent when den is zero.
func RatioOf(num, den int64) Ratio { return newRatio(big.NewInt(num), big.NewInt(den)) }

// Percent writes the ratio as a percent with one decimal, rounded up so that "at least"
// stays true: the one rounding of a utilization that every text and chart label uses.
func (q Ratio) Percent() string {
	t := q.Ceil(1000)
	if t%10 == 0 {
		return fmt.Sprintf("%d%%", t/10)
	}
	return fmt.Sprintf("%d.%d%%", t/10, t%10)
}

// Valid reports whether the ratio is present.
func (q Ratio) Valid() bool { return q.r != nil }

// Rat returns a copy of the exact value (nil when absent).
func (q Ratio) Rat() *big.Rat {
	if q.r == nil {
		return nil
	}
	return new(big.Rat).Set(q.r)
}

// Float64 is the nearest float, for display; 0 when absent.
func (q Ratio) Float64() float64 {
	if q.r == nil {
		return 0
	}
	f, _ := q.r.Float64()
	return f
}

// Cmp compares with another present ratio: -1, 0 or +1.
func (q Ratio) Cmp(o Ratio) int {
	if q.r == nil || o.r == nil {
		return 0
	}
	return q.r.Cmp(o.r)
}

// CmpInt compares with a whole number.
func (q Ratio) CmpInt(n int64) int {
	if q.r == nil {
		return 0
	}
	return q.r.Cmp(new(big.Rat).SetInt64(n))
}

// Ceil is the smallest whole number not below the ratio, times scale: Ceil(100) of 0.5712
// is 58 (percent), Ceil(10) of 27.84 is 279 (tenths).
func (q Ratio) Ceil(scale int64) int64 {
	if q.r == nil {
		return 0
	}
	v := new(big.Rat).Mul(q.r, new(big.Rat).SetInt64(scale))
	n, d := v.Num(), v.Denom()
	quo, rem := new(big.Int).QuoRem(n, d, new(big.Int))
	if rem.Sign() > 0 {
		quo.Add(quo, big.NewInt(1))
	}
	return quo.Int64()
}

// Round is the nearest whole number to the ratio times scale, halves away from zero: Round(1)
// of 8.24 is 8, of 8.5 is 9, of -8.5 is -9. It is how tables show percentages.
func (q Ratio) Round(scale int64) int64 {
	if q.r == nil {
		return 0
	}
	v := new(big.Rat).Mul(q.r, new(big.Rat).SetInt64(scale))
	half := big.NewRat(1, 2)
	if v.Sign() < 0 {
		half.Neg(half)
	}
	v.Add(v, half)
	return new(big.Int).Quo(v.Num(), v.Denom()).Int64() // Quo truncates toward zero
}

// String is the exact fraction, "57/100", or "" when absent.
func (q Ratio) String() string {
	if q.r == nil {
		return ""
	}
	return q.r.RatString()
}

// MarshalJSON writes a number (rounded for display), or null when absent.
func (q Ratio) MarshalJSON() ([]byte, error) {
	if q.r == nil {
		return []byte("null"), nil
	}
	return json.Marshal(q.Float64())
}
