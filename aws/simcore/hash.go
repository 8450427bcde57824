package simcore

import (
	"fmt"
	"time"
)

// Hasher derives the emulator's deterministic "randomness" from the seed and the names
// of what is being decided, so that the same seed and clock always give the same market.
type Hasher struct{ Seed int64 }

// Sum is the hash of the seed and parts: FNV-1a (64-bit) over the seed and each part,
// computed in place without allocating (the market hashes thousands of times a search).
func (h Hasher) Sum(parts ...any) uint64 {
	f := fnvOffset
	f = fnvUint64(f, uint64(h.Seed))
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			f = fnvString(f, v)
		case int:
			f = fnvUint64(f, uint64(v))
		case int64:
			f = fnvUint64(f, uint64(v))
		case time.Time:
			f = fnvUint64(f, uint64(v.Unix()))
		default:
			f = fnvString(f, fmt.Sprint(v))
		}
		f = fnvByte(f, 0)
	}
	// fnv's low bits mix poorly for short inputs; finish with splitmix64.
	z := f + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

const (
	fnvOffset uint64 = 14695981039346656037
	fnvPrime  uint64 = 1099511628211
)

func fnvByte(f uint64, b byte) uint64 { return (f ^ uint64(b)) * fnvPrime }

func fnvString(f uint64, s string) uint64 {
	for i := 0; i < len(s); i++ {
		f = fnvByte(f, s[i])
	}
	return f
}

// fnvUint64 hashes v's eight bytes, little-endian.
func fnvUint64(f, v uint64) uint64 {
	for i := 0; i < 8; i++ {
		f = fnvByte(f, byte(v>>(8*i)))
	}
	return f
}

// Between returns a value in [lo, hi] chosen by the parts.
func (h Hasher) Between(lo, hi int, parts ...any) int {
	if hi <= lo {
		return lo
	}
	return lo + int(h.Sum(parts...)%uint64(hi-lo+1))
}

// ID makes an AWS-style ID: prefix-17 hex digits.
func (h Hasher) ID(prefix string, parts ...any) string {
	return fmt.Sprintf("%s-0%016x", prefix, h.Sum(parts...))
}
