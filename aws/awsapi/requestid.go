package awsapi

import (
	"crypto/rand"
	"encoding/hex"

	"github.com/gpublock/gpublock/model"
)

// RequestIDTag is the tag every purchase carries, so that after a lost reply the
// reservations can be found and the purchase never repeated (model.PurchaseTag, which
// also groups a purchase's reservations).
const RequestIDTag = model.PurchaseTag

// NewRequestID is a fresh request id, the key a spend is journalled and found again by.
func NewRequestID() string {
	var b [12]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails on supported platforms
	return requestIDPrefix + hex.EncodeToString(b[:])
}

// requestIDPrefix starts every request id, which tells one apart from the SDK's tokens.
const requestIDPrefix = "gpb-"
