// Package a11y is the terminal UI's accessible mode, for a person using a screen reader or
// a braille display: the frame holds no drawing characters (box drawing, block elements,
// braille patterns), which are read aloud as noise or shown as dots; a table's focused row
// is said as a sentence ("row 3 of 9: instance type p5.48xlarge, …"); nothing animates.
//
// The mode is asked for by --accessible, `accessible: true` in the configuration file, or
// the ACCESSIBLE environment variable (any value but "", "0" or "false"), the variable
// charmbracelet/huh's accessible forms and the programs built on them read.
package a11y

import (
	"fmt"
	"strconv"
	"strings"
)

// EnvVar is the environment variable that turns the mode on.
const EnvVar = "ACCESSIBLE"

// FromEnv reads EnvVar's value: set and not a false word.
func FromEnv(v string) bool {
	v = strings.TrimSpace(v)
	if v == "" {
		return false
	}
	if b, err := strconv.ParseBool(v); err == nil {
		return b
	}
	return true // "yes", "on", anything set: asked for
}

// IsGraphic reports whether r draws rather than says: box drawing (U+2500–U+257F), block
// elements (U+2580–U+259F) and braille patterns (U+2800–U+28FF, which spinners use).
func IsGraphic(r rune) bool {
	return (r >= 0x2500 && r <= 0x259F) || (r >= 0x2800 && r <= 0x28FF)
}

// Plain is s with every drawing character a space, so that columns stay where they were
// and a reader hears only words. Escape sequences are ASCII and pass unchanged.
func Plain(s string) string {
	if !strings.ContainsFunc(s, IsGraphic) {
		return s
	}
	return strings.Map(func(r rune) rune {
		if IsGraphic(r) {
			return ' '
		}
		return r
	}, s)
}

// Words is a cell's text for a sentence: its drawing characters dropped (a bar beside a
// figure) and its spaces closed up.
func Words(s string) string {
	return strings.Join(strings.Fields(Plain(s)), " ")
}

// Field is one named value of a row.
type Field struct{ Name, Value string }

// RowSentence says a table's row: "row 3 of 9: instance type p5.48xlarge, zone
// us-east-1c, upfront fee $2,036.20". Empty values are left out. noun names the rows
// ("offering"); n is the row's place from 1.
func RowSentence(noun string, n, total int, fields []Field) string {
	var b strings.Builder
	if noun == "" {
		noun = "row"
	}
	fmt.Fprintf(&b, "%s %d of %d", noun, n, total)
	sep := ": "
	for _, f := range fields {
		v := Words(f.Value)
		if v == "" || v == "-" || v == "—" {
			continue
		}
		b.WriteString(sep)
		sep = ", "
		if f.Name != "" {
			b.WriteString(f.Name + " ")
		}
		b.WriteString(v)
	}
	return b.String()
}

// Progress says how far work is: "3 of 8 calls done, 37%". The figure changes only when a
// call ends, never with the clock.
func Progress(done, total int, unit string) string {
	if total <= 0 {
		return fmt.Sprintf("%d %s done", done, unit)
	}
	return fmt.Sprintf("%d of %d %s done, %d%%", done, total, unit, done*100/total)
}
