//go:build unix

package main
