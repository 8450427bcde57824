// Package flows holds the tests that drive the whole program by its keys against the
// emulator, through ui.New alone, as a person at a terminal would: whole-app scenarios, a
// test package of their own (as lazygit keeps its integration suite), so that they build and
// run beside the root's and the screens' own tests. It has no code of its own.
package flows
