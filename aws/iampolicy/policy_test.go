package iampolicy

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

func actionsOf(d Document) map[string]Statement {
	out := map[string]Statement{}
	for _, s := range d.Statement {
		for _, a := range s.Action {
			out[a] = s
		}
	}
	return out
}

func TestRolesGetWhatTheirUsesCall(t *testing.T) {
	spends := []string{"ec2:PurchaseCapacityBlock", "ec2:PurchaseCapacityBlockExtension", "ec2:RunInstances", "sagemaker:CreateTrainingPlan", "sagemaker:ExtendTrainingPlan", "ec2:CreateTags", "sagemaker:AddTags"}
	for _, c := range []struct {
		role       Role
		has, lacks []string
	}{
		{Reader, []string{"ec2:DescribeCapacityBlockOfferings", "ec2:DescribeCapacityReservations", "sagemaker:ListTrainingPlans", "cloudwatch:GetMetricData", "pricing:GetProducts", "sts:GetCallerIdentity"}, spends},
		{OnCall, []string{"ec2:PurchaseCapacityBlockExtension", "sagemaker:ExtendTrainingPlan", "ec2:RunInstances", "ec2:DescribeSubnets", "ec2:CreateTags"},
			[]string{"ec2:PurchaseCapacityBlock", "sagemaker:CreateTrainingPlan", "sagemaker:AddTags"}},
		{Buyer, append([]string{"ec2:DescribeCapacityBlockOfferings"}, spends...), nil},
		{Watcher, []string{"ec2:DescribeCapacityReservations", "ec2:RunInstances", "ec2:PurchaseCapacityBlockExtension", "ec2:DescribeCapacityBlockExtensionOfferings", "sagemaker:ExtendTrainingPlan", "sagemaker:SearchTrainingPlanOfferings", "ec2:CreateTags", "sts:GetCallerIdentity"},
			[]string{"ec2:PurchaseCapacityBlock", "sagemaker:CreateTrainingPlan", "ec2:DescribeCapacityBlockOfferings", "pricing:GetProducts", "cloudwatch:GetMetricData", "s3:PutObject"}},
	} {
		got := actionsOf(Policy(c.role, nil))
		for _, a := range c.has {
			if _, ok := got[a]; !ok {
				t.Errorf("%s lacks %s", c.role, a)
			}
		}
		for _, a := range c.lacks {
			if _, ok := got[a]; ok {
				t.Errorf("%s has %s", c.role, a)
			}
		}
		if _, ok := got["iam:PassRole"]; ok {
			t.Errorf("%s has iam:PassRole: no launch passes an instance profile", c.role)
		}
	}
}

// Tags are allowed only as part of the calls that create what they tag.
func TestTagsOnlyOnCreate(t *testing.T) {
	on := actionsOf(Policy(OnCall, nil))["ec2:CreateTags"]
	if got := on.Condition["StringEquals"]["ec2:CreateAction"]; !slices.Equal(got.([]any), []any{"RunInstances"}) {
		t.Errorf("on-call's CreateTags condition %v, want RunInstances only", on.Condition)
	}
	buy := actionsOf(Policy(Buyer, nil))
	if got := buy["ec2:CreateTags"].Condition["StringEquals"]["ec2:CreateAction"]; !slices.Equal(got.([]any), []any{"PurchaseCapacityBlock", "RunInstances"}) {
		t.Errorf("buyer's CreateTags condition %v", got)
	}
	if r := buy["sagemaker:AddTags"].Resource; r != "arn:aws:sagemaker:*:*:training-plan/*" {
		t.Errorf("AddTags on %v, want training plans only", r)
	}
}

func TestTeamStateIsScopedToItsPrefix(t *testing.T) {
	st, err := ParseStore("s3://team-gpu-state/gpublock/prod/")
	if err != nil {
		t.Fatal(err)
	}
	doc := Policy(Watcher, &st)
	got := actionsOf(doc)
	for _, a := range []string{"s3:GetObject", "s3:PutObject", "s3:DeleteObject"} {
		if got[a].Resource != "arn:aws:s3:::team-gpu-state/gpublock/prod/*" {
			t.Errorf("%s on %v", a, got[a].Resource)
		}
	}
	list := got["s3:ListBucket"]
	if list.Resource != "arn:aws:s3:::team-gpu-state" || !slices.Equal(list.Condition["StringLike"]["s3:prefix"].([]string), []string{"gpublock/prod", "gpublock/prod/*"}) {
		t.Errorf("ListBucket: %+v", list)
	}
	if strings.Contains(string(doc.JSON()), `"s3:*"`) || strings.Contains(string(doc.JSON()), "arn:aws:s3:::*") {
		t.Errorf("a wildcard over S3:\n%s", doc.JSON())
	}
	var back Document
	if err := json.Unmarshal(doc.JSON(), &back); err != nil || back.Version != "2012-10-17" || len(back.Statement) != len(doc.Statement) {
		t.Errorf("the JSON does not read back: %v", err)
	}
	whole, _ := ParseStore("s3://team-gpu-state")
	if l := actionsOf(Policy(Reader, &whole))["s3:ListBucket"]; l.Condition != nil {
		t.Errorf("a store of the whole bucket has a prefix condition: %+v", l)
	}
}

func TestParse(t *testing.T) {
	for _, bad := range []string{"team-bucket/prefix", "s3://", "s3://A_Bucket/x", "s3://ab/x", "s3://bucket/pre*fix", "s3://-bucket/x"} {
		if _, err := ParseStore(bad); err == nil {
			t.Errorf("ParseStore(%q) took it", bad)
		}
	}
	if r, err := ParseRole(" On-Call "); err != nil || r != OnCall {
		t.Errorf("ParseRole: %v %v", r, err)
	}
	if _, err := ParseRole("admin"); err == nil || !strings.Contains(err.Error(), "reader, on-call, buyer, watcher") {
		t.Errorf("ParseRole(admin): %v", err)
	}
}
