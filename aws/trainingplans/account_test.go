package trainingplans

import "testing"

func TestPlansCarryTheAccountOfTheirARN(t *testing.T) {
	for arn, want := range map[string]string{
		"arn:aws:sagemaker:us-east-1:222233334444:training-plan/my-plan": "222233334444",
		"arn:aws-cn:sagemaker:cn-north-1:111122223333:training-plan/p":   "111122223333",
		"not-an-arn": "",
		"":           "",
	} {
		if got := ARNAccount(arn); got != want {
			t.Errorf("ARNAccount(%q) = %q, want %q", arn, got, want)
		}
	}
	b := ModelBlock(Plan{Name: "my-plan", ARN: "arn:aws:sagemaker:us-east-1:222233334444:training-plan/my-plan"})
	if b.Account != "222233334444" {
		t.Errorf("plan's block: account %q", b.Account)
	}
}
