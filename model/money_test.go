package model

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestParseMoney(t *testing.T) {
	cases := []struct {
		in     string
		micros int64
		str    string
	}{
		{"7551.36", 7_551_360_000, "7551.36"},
		{"0.5", 500_000, "0.50"},
		{"12", 12_000_000, "12.00"},
		{"47.757", 47_757_000, "47.757"},
		{"-3.25", -3_250_000, "-3.25"},
		{".75", 750_000, "0.75"},
		{"0.000001", 1, "0.000001"},
	}
	for _, c := range cases {
		m, err := ParseMoney(c.in)
		if err != nil {
			t.Fatalf("ParseMoney(%q): %v", c.in, err)
		}
		if m.Micros() != c.micros || m.String() != c.str {
			t.Errorf("ParseMoney(%q) = %d %q, want %d %q", c.in, m.Micros(), m.String(), c.micros, c.str)
		}
	}
	for _, bad := range []string{"", "-", ".", "1.", "1,000.00", "1e3", "1.0000001", " 1", "abc", "1.2.3", "--1", "9999999999999"} {
		if _, err := ParseMoney(bad); err == nil {
			t.Errorf("ParseMoney(%q) accepted a bad amount", bad)
		}
	}
}

func TestMoneyArithmeticIsExact(t *testing.T) {
	// 0.1 + 0.2 is the classic float failure; cents must add up exactly.
	sum := MustMoney("0.10").Add(MustMoney("0.20"))
	if sum != MustMoney("0.30") {
		t.Fatalf("0.10+0.20 = %s", sum)
	}
	total := Money{}
	for i := 0; i < 1000; i++ {
		total = total.Add(MustMoney("7551.36"))
	}
	if total.String() != "7551360.00" || total.Dollars() != "$7,551,360.00" {
		t.Fatalf("1000 × 7551.36 = %s (%s)", total, total.Dollars())
	}
	if got := MustMoney("10.00").Div(3); got.Micros() != 3_333_333 {
		t.Fatalf("10/3 = %d micros", got.Micros())
	}
	if got := MustMoney("-10.00").Div(3); got.Micros() != -3_333_333 {
		t.Fatalf("-10/3 = %d micros", got.Micros())
	}
	if got := MustMoney("0.000005").Div(2); got.Micros() != 3 { // half rounds away from zero
		t.Fatalf("0.000005/2 = %d micros", got.Micros())
	}
	if got := MustMoney("2292.34").MulRat(60, 48*60); got.String() != "47.757083" {
		t.Fatalf("per-hour = %s", got)
	}
	if MustMoney("1").Cmp(MustMoney("2")) != -1 || MustMoney("2").Cmp(MustMoney("1")) != 1 || MustMoney("1").Cmp(MustMoney("1.0")) != 0 {
		t.Fatal("Cmp is wrong")
	}
}

func TestMoneyFormats(t *testing.T) {
	if got := MustMoney("1234567.891").Dollars(); got != "$1,234,567.89" {
		t.Errorf("Dollars = %q", got)
	}
	if got := MustMoney("-0.005").Dollars(); got != "-$0.01" {
		t.Errorf("Dollars = %q", got)
	}
	if got := MustMoney("47.7567").Rate(); got != "$47.757" {
		t.Errorf("Rate = %q", got)
	}
	if got := MustMoney("999").Dollars(); got != "$999.00" {
		t.Errorf("Dollars = %q", got)
	}
	b, err := json.Marshal(struct{ Fee Money }{MustMoney("7551.36")})
	if err != nil || string(b) != `{"Fee":"7551.36"}` {
		t.Fatalf("json = %s %v", b, err)
	}
	var back struct{ Fee Money }
	if err := json.Unmarshal(b, &back); err != nil || back.Fee != MustMoney("7551.36") {
		t.Fatalf("round trip = %v %v", back, err)
	}
	if err := json.Unmarshal([]byte(`{"Fee":"x"}`), &back); err == nil {
		t.Fatal("bad JSON amount accepted")
	}
}

func FuzzParseMoney(f *testing.F) {
	for _, s := range []string{"7551.36", "-1", ".5", "1.", "", "1e9", "123456789012.123456"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseMoney(s)
		if err != nil {
			return
		}
		// Whatever parses must print back to an amount that parses to the same value.
		again, err := ParseMoney(m.String())
		if err != nil || again != m {
			t.Fatalf("%q → %s → %v %v", s, m, again, err)
		}
	})
}

func TestParseDollars(t *testing.T) {
	for in, want := range map[string]string{
		"25000": "25000", "$25,000": "25000", "7551.36": "7551.36", "1,234,567.89": "1234567.89", "0.5": "0.5", "999,999": "999999",
	} {
		got, err := ParseDollars(in)
		if err != nil || got.Cmp(MustMoney(want)) != 0 {
			t.Errorf("ParseDollars(%q) = %s, %v; want %s", in, got, err, want)
		}
	}
	for _, in := range []string{"100,00", "1,0000", ",100", "1,00,000", "10,000,00", "25 000", " 25000", "25000 ", "1e4", "-5", "0", "0.00",
		"7551.369", "7551.", ".5", "$", "", "$$5", "5$", "twenty", "1.000,50", "0x10", "+5", "1,000.5.0"} {
		if m, err := ParseDollars(in); err == nil {
			t.Errorf("ParseDollars(%q) = %s, want an error", in, m)
		} else if !strings.Contains(err.Error(), "25,000") {
			t.Errorf("ParseDollars(%q): %v does not say how to write it", in, err)
		}
	}
}

// Whatever a person types, ParseDollars never panics, and what it accepts is a positive
// whole number of cents that reads back the same written plainly.
func FuzzParseDollars(f *testing.F) {
	for _, s := range []string{"25000", "$25,000", "7551.36", "100,00", "1,234,567.89", "", "$", "-1", "0.001", "9999999999999"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		m, err := ParseDollars(s)
		if err != nil {
			return
		}
		if m.Micros() <= 0 || m.Micros()%10_000 != 0 {
			t.Fatalf("ParseDollars(%q) = %d micro-dollars", s, m.Micros())
		}
		plain := strings.NewReplacer("$", "", ",", "").Replace(s)
		if back, err := ParseDollars(plain); err != nil || back != m {
			t.Fatalf("ParseDollars(%q) = %v but %q gives %v, %v", s, m, plain, back, err)
		}
	})
}

// Arithmetic past what Money holds refuses, as NaN does: the result is overflowed, stays
// so through every later operation, writes itself "overflow" and is refused by JSON; it
// never wraps into a wrong or negative amount.
func TestMoneyArithmeticRefusesOverflow(t *testing.T) {
	big := MoneyFromMicros(math.MaxInt64 / 2)
	for name, m := range map[string]Money{
		"add":          big.Add(big).Add(big),
		"sub":          MoneyFromMicros(math.MinInt64 / 2).Sub(big).Sub(big),
		"mul":          MustMoney("47.757").Mul(1 << 40),
		"mul negative": MustMoney("-47.757").Mul(1 << 40),
		"mulrat":       big.MulRat(3, 1),
		"cents":        MoneyFromCents(math.MaxInt64 / 1000),
		"sticky":       big.Mul(4).Sub(big.Mul(4)).Div(2).MulRat(1, 1000),
	} {
		if !m.Overflowed() || m.Check() == nil || m.String() != "overflow" || !strings.Contains(m.Dollars(), "overflow") || m.IsZero() {
			t.Errorf("%s: %q (%v) is not refused", name, m.String(), m.Overflowed())
		}
		if _, err := json.Marshal(struct{ M Money }{m}); err == nil {
			t.Errorf("%s: JSON carries an overflowed amount", name)
		}
		if m.Cmp(big) <= 0 || big.Cmp(m) >= 0 {
			t.Errorf("%s: an overflowed amount does not sort above every amount", name)
		}
	}
	// exact where the product passes int64 but the result does not: taken in 128 bits
	if got := MoneyFromMicros(math.MaxInt64/4).MulRat(8, 16); got.Overflowed() || got.Micros() != (math.MaxInt64/4+1)/2 {
		t.Errorf("MulRat through 128 bits: %v %d", got.Overflowed(), got.Micros())
	}
	if got := MustMoney("1.5").MulRat(-3, 2); got.Cmp(MustMoney("-2.25")) != 0 || got.Overflowed() {
		t.Errorf("MulRat: %s", got)
	}
}
