package awsapi

import (
	"crypto/rand"
	"encoding/hex"
)

// RequestIDTag is the tag every purchase carries, so that after a lost reply the
// reservation can be found and the purchase never repeated.
const RequestIDTag = "gpublock:request-id"

// NewRequestID is a fresh request id, the key a spend is journalled and found again by.
func NewRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return requestIDPrefix + hex.EncodeToString(b[:])
}

// requestIDPrefix starts every request id, which tells one apart from the SDK's tokens.
const requestIDPrefix = "gpb-"
