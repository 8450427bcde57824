// Package journal is `gpublock journal`: this machine's purchases and extensions as the
// journal recorded them, and settling the ones a crash or a lost reply left open.
package journal
