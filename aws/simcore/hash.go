package simcore

import (
	"encoding/binary"
	"fmt"
	"hash/fnv"
	"time"
)

// Hasher derives the emulator's deterministic "randomness" from the seed and the names
// of what is being decided, so that the same seed and clock always give the same market.
type Hasher struct{ Seed int64 }

// Sum is the hash of the seed and parts.
func (h Hasher) Sum(parts ...any) uint64 {
	f := fnv.New64a()
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], uint64(h.Seed))
	f.Write(b[:])
	for _, p := range parts {
		switch v := p.(type) {
		case string:
			f.Write([]byte(v))
		case int:
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			f.Write(b[:])
		case int64:
			binary.LittleEndian.PutUint64(b[:], uint64(v))
			f.Write(b[:])
		case time.Time:
			binary.LittleEndian.PutUint64(b[:], uint64(v.Unix()))
			f.Write(b[:])
		default:
			fmt.Fprint(f, v)
		}
		f.Write([]byte{0})
	}
	// fnv's low bits mix poorly for short inputs; finish with splitmix64.
	z := f.Sum64() + 0x9e3779b97f4a7c15
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
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
