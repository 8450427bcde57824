// Package spending is the steps every command that spends takes (purchase, extend,
// launch), whatever the capacity source: the refusals before any call, the facts shown,
// and the typed confirmation that counts only what is typed after the facts are drawn.
package spending
