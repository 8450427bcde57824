//go:build !race

package ui

const raceBuild = false
