package capacityblocks

import (
	"context"
	"sort"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"
	"github.com/gpublock/gpublock/aws/source"
)

// Subnets lists the account's subnets in one zone of a region, the zone's default subnet
// first, then by free addresses: the order in which Launch would pick one. A launch form
// offers them so that nobody has to look a subnet id up, nor can pick one of another zone
// by mistake.
func (c *Client) Subnets(ctx context.Context, region, az string) ([]source.Subnet, error) {
	in := &ec2.DescribeSubnetsInput{}
	if az != "" {
		in.Filters = []types.Filter{{Name: aws.String("availability-zone"), Values: []string{az}}}
	}
	var out []source.Subnet
	p := ec2.NewDescribeSubnetsPaginator(c.api.EC2(region), in)
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range page.Subnets {
			// Checked here too: an endpoint that ignored the filter must not offer a
			// subnet of another zone, where the launch would fail.
			if az != "" && aws.ToString(s.AvailabilityZone) != az {
				continue
			}
			out = append(out, source.Subnet{
				ID: aws.ToString(s.SubnetId), VpcID: aws.ToString(s.VpcId),
				AvailabilityZone: aws.ToString(s.AvailabilityZone), CIDR: aws.ToString(s.CidrBlock),
				AvailableIPs: int(aws.ToInt32(s.AvailableIpAddressCount)), Default: aws.ToBool(s.DefaultForAz),
				Name: tagMap(s.Tags)["Name"],
			})
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].Default != out[j].Default {
			return out[i].Default
		}
		return out[i].AvailableIPs > out[j].AvailableIPs
	})
	return out, nil
}
