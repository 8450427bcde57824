package capacityblocks

import "github.com/aws/aws-sdk-go-v2/service/ec2/types"

// Platforms are the instance platforms a Capacity Block can be bought for, as the SDK's
// enum lists them, DefaultPlatform first.
func Platforms() []string {
	out := []string{DefaultPlatform}
	for _, v := range types.CapacityReservationInstancePlatform("").Values() {
		if string(v) != DefaultPlatform {
			out = append(out, string(v))
		}
	}
	return out
}
