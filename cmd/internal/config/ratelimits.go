package config

import (
	"fmt"
	"strconv"

	"github.com/gpublock/gpublock/aws/ec2sim"
)

// ParseRateLimits reads a --rate-limits value, of `gpublock sim` or of the demo: aws
// (AWS's request buckets), off (nil) or N (AWS's refill rates × N).
func ParseRateLimits(v string) (*ec2sim.RateLimits, error) {
	switch v {
	case "aws":
		return ec2sim.AWSRateLimits(1), nil
	case "off":
		return nil, nil
	}
	n, err := strconv.ParseFloat(v, 64)
	if err != nil || n <= 0 || n > 1e6 || n != n {
		return nil, fmt.Errorf("--rate-limits %q: want aws, off, or a positive number up to 1000000 (AWS's refill rates × N)", v)
	}
	return ec2sim.AWSRateLimits(n), nil
}
