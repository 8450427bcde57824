// Package flows holds the tests that drive the whole program as a person at a terminal
// would: through ui.New, its keys and the messages the program gets, against the emulator
// or synthetic results, read off the view and ui.Model.Inspect. Whole-app scenarios, a test
// package of their own (as lazygit keeps its integration suite) with their goldens, so that
// they build and run beside the root's and the screens' own tests. It has no code of its own:
// the scenarios are grouped a file a theme (search, results, purchase, extend, blocks, plans,
// analysis, app, sizes), their shared set-up in helpers_test.go.
package flows
