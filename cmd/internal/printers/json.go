package printers

import (
	"encoding/json"
	"fmt"
	"io"
)

// JSON writes v indented, as the AWS CLI does.
func JSON(w io.Writer, v any) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// Rows prints label: value lines, the labels in one column.
func Rows(w io.Writer, rows [][2]string) error {
	for _, r := range rows {
		if _, err := fmt.Fprintf(w, "%-12s %s\n", r[0]+":", r[1]); err != nil {
			return err
		}
	}
	return nil
}
