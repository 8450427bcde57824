// Package printers writes what the commands print: offerings, blocks and plans as tables,
// JSON and CSV, and the times, fees and plurals in them.
package printers
