package capacityblocks

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/ec2"
	"github.com/aws/aws-sdk-go-v2/service/ec2/types"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// launchPlan is a launch checked locally and ready to send.
type launchPlan struct {
	cl           *ec2.Client
	in           *ec2.RunInstancesInput
	instanceType string
	tags         map[string]string
}

// planLaunch makes the checks a launch and its dry run share: the known traps (block not
// active yet, wrong zone, more instances than free, a bad image id or tags) are caught
// before any call, with a sentence that says what to do; then the subnet is checked against
// the block's zone, or one of that zone picked. The error is a *source.ActionError.
func (c *Client) planLaunch(ctx context.Context, b model.Block, spec source.LaunchSpec) (launchPlan, error) {
	fail := func(summary, hint string) (launchPlan, error) {
		return launchPlan{}, &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: summary, Hint: strings.TrimSpace(hint + " Nothing was launched.")}}
	}
	if b.ReservationID == "" || b.Region == "" || b.AvailabilityZone == "" {
		return fail("The block has no reservation id, region or zone.", "Pick a block from `"+c.api.NextStep("blocks", b.Region)+"`.")
	}
	if r := model.LaunchBlocker(b, spec.Count); r != nil {
		return fail(r.Summary(), r.Hint)
	}
	if !strings.HasPrefix(spec.ImageID, "ami-") {
		return fail(fmt.Sprintf("Image %q is not an AMI id (ami-…).", spec.ImageID), "Pass the AMI to launch, e.g. a Deep Learning AMI of the block's region.")
	}
	if err := model.CheckTags(spec.Tags); err != nil {
		return fail("Bad tags: "+err.Error()+".", "")
	}
	itype := spec.InstanceType
	if itype == "" {
		itype = b.InstanceType
		if t, ok := model.LookupType(b.InstanceType); ok && t.UltraServer {
			itype = t.MemberType
		}
	}
	cl := c.api.EC2(b.Region)
	subnet, err := c.subnetFor(ctx, cl, b, spec.SubnetID)
	if err != nil {
		return launchPlan{}, err
	}
	tags := map[string]string{}
	for k, v := range spec.Tags {
		tags[k] = v
	}
	if spec.Name != "" {
		tags["Name"] = spec.Name
	}
	in := &ec2.RunInstancesInput{
		ImageId:      aws.String(spec.ImageID),
		InstanceType: types.InstanceType(itype),
		MinCount:     aws.Int32(int32(spec.Count)),
		MaxCount:     aws.Int32(int32(spec.Count)),
		SubnetId:     aws.String(subnet),
		InstanceMarketOptions: &types.InstanceMarketOptionsRequest{
			MarketType: types.MarketTypeCapacityBlock,
		},
		CapacityReservationSpecification: &types.CapacityReservationSpecification{
			CapacityReservationTarget: &types.CapacityReservationTarget{CapacityReservationId: aws.String(b.ReservationID)},
		},
	}
	// A dedicated reservation takes only instances launched dedicated: the launch carries
	// the block's tenancy (a default block's is left unsaid, AWS's default).
	if placement := b.LaunchTenancy(); placement != "" {
		in.Placement = &types.Placement{Tenancy: types.Tenancy(placement)}
	}
	if spec.KeyName != "" {
		in.KeyName = aws.String(spec.KeyName)
	}
	if len(spec.SecurityGroupIDs) > 0 {
		in.SecurityGroupIds = spec.SecurityGroupIDs
	}
	if len(tags) > 0 {
		in.TagSpecifications = []types.TagSpecification{{ResourceType: types.ResourceTypeInstance, Tags: sdkTags(tags)}}
	}
	return launchPlan{cl: cl, in: in, instanceType: itype, tags: tags}, nil
}

// dryRun sends the planned launch with DryRun set. Its client token is left to the SDK
// (which fills in a fresh one), so it never shares the real launch's.
func (p launchPlan) dryRun(ctx context.Context) (source.Permission, error) {
	dry := *p.in
	dry.DryRun = aws.Bool(true)
	dry.ClientToken = nil
	_, dryErr := p.cl.RunInstances(ctx, &dry)
	perm, err := dryRun(dryErr, "ec2:RunInstances")
	if err != nil {
		return source.Permission{}, &source.ActionError{Outcome: source.NotBought, Explanation: awsapi.ExplainError(err), Err: err}
	}
	return perm, nil
}

// CheckLaunch asks AWS, with a DryRun of RunInstances, whether this identity may launch
// spec into the block, after the same checks as Launch (state, count, image, tags, the
// subnet's zone). It starts nothing and is allowed in read-only mode. A refusal other
// than a missing permission (a check, or AWS refusing the launch itself) is a *source.ActionError.
func (c *Client) CheckLaunch(ctx context.Context, b model.Block, spec source.LaunchSpec) (source.Permission, error) {
	plan, err := c.planLaunch(ctx, b, spec)
	if err != nil {
		return source.Permission{}, err
	}
	return plan.dryRun(ctx)
}

// Launch starts instances in a block through the one spend path (Prepare, then Commit):
// RunInstances with the capacity-block market type, the block's reservation as target and
// a subnet of its zone, after the checks of CheckLaunch and its DryRun. The error is a
// *source.ActionError.
func (c *Client) Launch(ctx context.Context, b model.Block, spec source.LaunchSpec) (source.LaunchResult, error) {
	return c.spend(ctx, source.Intent{Kind: source.SpendLaunch, Block: b, Launch: spec}, nil)
}

// launchCall is the Capacity Block's part of a launch: RunInstances under the request id
// as its client token, so that the SDK's retries cannot start it twice.
func (c *Client) launchCall(ctx context.Context, in source.Intent) (source.SpendCall, error) {
	b, spec := in.Block, in.Launch
	plan, err := c.planLaunch(ctx, b, spec)
	if err != nil {
		return source.SpendCall{}, err
	}
	return source.SpendCall{
		Entry: source.JournalEntry{Action: "RunInstances", Region: b.Region, Zone: b.AvailabilityZone,
			Type: plan.instanceType, Count: spec.Count, Target: b.ReservationID, Tags: plan.tags},
		DryRun:     plan.dryRun,
		Idempotent: true,
		Call: func(ctx context.Context, id string, _ *source.SentMark, res *source.SpendResult) (string, error) {
			run := *plan.in
			run.ClientToken = aws.String(id)
			res.SubnetID = aws.ToString(run.SubnetId)
			// RunInstances is idempotent under its client token, so the SDK's retries stay on.
			out, err := plan.cl.RunInstances(ctx, &run)
			if err != nil {
				return "", err
			}
			var ids []string
			for _, i := range out.Instances {
				res.Instances = append(res.Instances, instanceFrom(i))
				ids = append(ids, aws.ToString(i.InstanceId))
			}
			return strings.Join(ids, ","), nil
		},
	}, nil
}

// subnetFor checks a given subnet's zone, or picks one in the block's zone: the zone's
// default subnet first, then the one with the most free addresses.
func (c *Client) subnetFor(ctx context.Context, cl *ec2.Client, b model.Block, want string) (string, error) {
	fail := func(summary, hint string, err error) (string, error) {
		return "", &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{Summary: summary, Hint: strings.TrimSpace(hint + " Nothing was launched.")}, Err: err}
	}
	if want != "" {
		out, err := cl.DescribeSubnets(ctx, &ec2.DescribeSubnetsInput{SubnetIds: []string{want}})
		if err != nil {
			return fail("Subnet "+want+" could not be checked: "+awsapi.ExplainError(err).Summary, "", err)
		}
		if len(out.Subnets) == 0 {
			return fail("Subnet "+want+" was not found in "+b.Region+".", "", nil)
		}
		if az := aws.ToString(out.Subnets[0].AvailabilityZone); az != b.AvailabilityZone {
			return fail(fmt.Sprintf("Subnet %s is in %s, but the block is in %s.", want, az, b.AvailabilityZone),
				"Instances of a Capacity Block must be launched in a subnet of the block's zone; pick a subnet in "+b.AvailabilityZone+".", nil)
		}
		return want, nil
	}
	var subnets []types.Subnet
	p := ec2.NewDescribeSubnetsPaginator(cl, &ec2.DescribeSubnetsInput{Filters: []types.Filter{
		{Name: aws.String("availability-zone"), Values: []string{b.AvailabilityZone}},
	}})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return fail("The subnets of "+b.AvailabilityZone+" could not be listed: "+awsapi.ExplainError(err).Summary, "Pass a subnet of "+b.AvailabilityZone+" explicitly.", err)
		}
		for _, s := range page.Subnets {
			if aws.ToString(s.AvailabilityZone) == b.AvailabilityZone {
				subnets = append(subnets, s)
			}
		}
	}
	if len(subnets) == 0 {
		return fail("There is no subnet in "+b.AvailabilityZone+", the block's zone.", "Create a subnet in "+b.AvailabilityZone+" and pass it.", nil)
	}
	sort.SliceStable(subnets, func(i, j int) bool {
		di, dj := aws.ToBool(subnets[i].DefaultForAz), aws.ToBool(subnets[j].DefaultForAz)
		if di != dj {
			return di
		}
		return aws.ToInt32(subnets[i].AvailableIpAddressCount) > aws.ToInt32(subnets[j].AvailableIpAddressCount)
	})
	return aws.ToString(subnets[0].SubnetId), nil
}

// LaunchedUnder lists the instances that a RunInstances under token started in region: a
// launch whose reply was lost is settled by it. None found is not proof that nothing
// started (a new instance may not be listed yet), so such a launch is sent again under the
// same token, which EC2 never runs twice.
func (c *Client) LaunchedUnder(ctx context.Context, region, token string) ([]model.Instance, error) {
	var out []model.Instance
	p := ec2.NewDescribeInstancesPaginator(c.api.EC2(region), &ec2.DescribeInstancesInput{Filters: []types.Filter{
		{Name: aws.String("client-token"), Values: []string{token}},
	}})
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, res := range page.Reservations {
			for _, i := range res.Instances {
				if aws.ToString(i.ClientToken) == token { // an endpoint that ignores the filter adds no strangers
					out = append(out, instanceFrom(i))
				}
			}
		}
	}
	return out, nil
}
