//go:build unix

package main

import ()
