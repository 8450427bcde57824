// Package iampolicy is the list of every AWS API operation gpublock calls, the IAM action
// each needs and the uses of gpublock that call it, and the least-privilege IAM policy of
// each role built from that list (`gpublock iam-policy`). A test scans the code that calls
// AWS and fails when an operation it calls is missing here, or when an entry here is called
// nowhere: the policies cannot drift from the program.
package iampolicy

// Use is a part of gpublock that calls AWS; a role is a set of uses.
type Use string

const (
	// List lists the account's blocks and plans, and who the caller is: blocks, the TUI's
	// lists, launch --pending, journal (which settles an interrupted run by what AWS lists).
	List Use = "list"
	// Search looks offerings up: offerings, advise, purchase's look-up, the TUI's search and
	// its extension prices.
	Search Use = "search"
	// Prices refreshes the on-demand price list: prices --refresh.
	Prices Use = "prices"
	// Usage reads what the instances in a block did: use, report.
	Usage Use = "usage"
	// Extend buys an extension: extend, blocks --watch --auto-extend, the TUI's extend dialog.
	Extend Use = "extend"
	// Launch starts instances in a block: launch, the launches attached to a block's start
	// that blocks --watch (and the TUI) fire.
	Launch Use = "launch"
	// Purchase buys a Capacity Block or a training plan: purchase, the TUI's purchase dialog.
	Purchase Use = "purchase"
	// TeamState reads and writes a team's state in S3 (state: s3://BUCKET/PREFIX).
	TeamState Use = "team-state"
)

// Call is one operation gpublock calls through the SDK.
type Call struct {
	// Service and Operation name the call as the SDK does: the package under
	// aws-sdk-go-v2/service and the client's method (its input type is Operation+"Input").
	Service, Operation string
	// Action is the IAM action the call needs ("ec2:RunInstances"); "" means
	// Service:Operation.
	Action string
	Uses   []Use
}

// IAMAction is the action the call needs.
func (c Call) IAMAction() string {
	if c.Action != "" {
		return c.Action
	}
	return c.Service + ":" + c.Operation
}

// Calls are every operation gpublock calls. Each is found in the code by its input type
// (calls_test.go).
var Calls = []Call{
	// EC2 Capacity Blocks (aws/capacityblocks).
	{Service: "ec2", Operation: "DescribeCapacityBlockOfferings", Uses: []Use{Search}},
	{Service: "ec2", Operation: "DescribeCapacityBlockExtensionOfferings", Uses: []Use{Search, Extend}},
	{Service: "ec2", Operation: "DescribeCapacityReservations", Uses: []Use{List}},
	{Service: "ec2", Operation: "DescribeCapacityBlocks", Uses: []Use{List}},
	{Service: "ec2", Operation: "DescribeCapacityBlockStatus", Uses: []Use{List}},
	{Service: "ec2", Operation: "DescribeCapacityBlockExtensionHistory", Uses: []Use{List}},
	// The instances running in a block (listing), and those a launch whose reply was lost
	// started (settling it by its client token).
	{Service: "ec2", Operation: "DescribeInstances", Uses: []Use{List, Launch}},
	{Service: "ec2", Operation: "DescribeSubnets", Uses: []Use{Launch}},
	{Service: "ec2", Operation: "RunInstances", Uses: []Use{Launch}},
	{Service: "ec2", Operation: "PurchaseCapacityBlock", Uses: []Use{Purchase}},
	{Service: "ec2", Operation: "PurchaseCapacityBlockExtension", Uses: []Use{Extend}},
	// Who the caller is: the account every record is kept under. AWS asks no permission
	// for it, but a policy that names it says what gpublock does.
	{Service: "sts", Operation: "GetCallerIdentity", Uses: []Use{List}},
	// SageMaker training plans (aws/trainingplans).
	{Service: "sagemaker", Operation: "SearchTrainingPlanOfferings", Uses: []Use{Search, Extend}},
	{Service: "sagemaker", Operation: "ListTrainingPlans", Uses: []Use{List}},
	{Service: "sagemaker", Operation: "DescribeTrainingPlan", Uses: []Use{List}},
	{Service: "sagemaker", Operation: "DescribeTrainingPlanExtensionHistory", Uses: []Use{List}},
	{Service: "sagemaker", Operation: "CreateTrainingPlan", Uses: []Use{Purchase}},
	{Service: "sagemaker", Operation: "ExtendTrainingPlan", Uses: []Use{Extend}},
	// Usage (aws/reporting) and the price list (aws/pricelist).
	{Service: "cloudwatch", Operation: "GetMetricData", Uses: []Use{Usage}},
	{Service: "pricing", Operation: "GetProducts", Uses: []Use{Prices}},
}

// StoreCalls are the calls of a team's state in S3, scoped by the policy to its bucket and
// prefix. They are checked against the code once it calls S3.
var StoreCalls = []Call{
	{Service: "s3", Operation: "GetObject", Uses: []Use{TeamState}},
	{Service: "s3", Operation: "PutObject", Uses: []Use{TeamState}},
	{Service: "s3", Operation: "DeleteObject", Uses: []Use{TeamState}},
	{Service: "s3", Operation: "ListObjectsV2", Action: "s3:ListBucket", Uses: []Use{TeamState}},
}

// TagsOnCreate are the calls that tag what they create, and so also need the service's
// tagging action, allowed only for that call: EC2 checks ec2:CreateTags with the condition
// key ec2:CreateAction; SageMaker checks sagemaker:AddTags on the new resource.
var TagsOnCreate = map[string]Use{
	"ec2:RunInstances":             Launch,
	"ec2:PurchaseCapacityBlock":    Purchase,
	"sagemaker:CreateTrainingPlan": Purchase,
}
