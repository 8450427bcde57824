package trainingplans

import (
	"context"
	"errors"
	"slices"
	"sync"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker"
	"github.com/aws/aws-sdk-go-v2/service/sagemaker/types"
	"github.com/aws/smithy-go"
	"github.com/gpublock/gpublock/aws/source"
)

// Describe asks for one plan by name or ARN.
func (c *Client) Describe(ctx context.Context, region, nameOrARN string) (Plan, error) {
	out, err := c.in(region).DescribeTrainingPlan(ctx, &sagemaker.DescribeTrainingPlanInput{TrainingPlanName: aws.String(nameOrARN)})
	if err != nil {
		return Plan{}, err
	}
	return Plan{Name: aws.ToString(out.TrainingPlanName), ARN: aws.ToString(out.TrainingPlanArn), Region: region,
		Status: string(out.Status), StatusMessage: aws.ToString(out.StatusMessage),
		Start: aws.ToTime(out.StartTime).UTC(), End: aws.ToTime(out.EndTime).UTC(), Hours: aws.ToInt64(out.DurationHours),
		Fee: fee(out.UpfrontFee), Currency: aws.ToString(out.CurrencyCode),
		Instances: int(aws.ToInt32(out.TotalInstanceCount)), Available: int(aws.ToInt32(out.AvailableInstanceCount)),
		InUse: int(aws.ToInt32(out.InUseInstanceCount)), Targets: targetsOf(out.TargetResources),
		Capacities: capacitiesFrom(out.ReservedCapacitySummaries)}, nil
}

func planFromSummary(region string, s types.TrainingPlanSummary) Plan {
	return Plan{Name: aws.ToString(s.TrainingPlanName), ARN: aws.ToString(s.TrainingPlanArn), Region: region,
		Status: string(s.Status), StatusMessage: aws.ToString(s.StatusMessage),
		Start: aws.ToTime(s.StartTime).UTC(), End: aws.ToTime(s.EndTime).UTC(), Hours: aws.ToInt64(s.DurationHours),
		Fee: fee(s.UpfrontFee), Currency: aws.ToString(s.CurrencyCode),
		Instances: int(aws.ToInt32(s.TotalInstanceCount)), Available: int(aws.ToInt32(s.AvailableInstanceCount)),
		InUse: int(aws.ToInt32(s.InUseInstanceCount)), Targets: targetsOf(s.TargetResources),
		Capacities: capacitiesFrom(s.ReservedCapacitySummaries)}
}

// ListIn lists a region's plans, every page, optionally of some statuses only (one call
// per status: several Status filters in one call are not documented to mean "any of").
func (c *Client) ListIn(ctx context.Context, region string, statuses ...string) ([]Plan, error) {
	if len(statuses) == 0 {
		return c.list(ctx, region, nil)
	}
	var out []Plan
	for _, st := range slices.Compact(slices.Sorted(slices.Values(statuses))) {
		ps, err := c.list(ctx, region, []types.TrainingPlanFilter{{Name: types.TrainingPlanFilterNameStatus, Value: aws.String(st)}})
		if err != nil {
			return nil, err
		}
		out = append(out, ps...)
	}
	return out, nil
}

func (c *Client) list(ctx context.Context, region string, filters []types.TrainingPlanFilter) ([]Plan, error) {
	in := &sagemaker.ListTrainingPlansInput{Filters: filters, SortBy: types.TrainingPlanSortByStartTime, SortOrder: types.TrainingPlanSortOrderAscending}
	if c.pageSize > 0 {
		in.MaxResults = aws.Int32(c.pageSize)
	}
	p := sagemaker.NewListTrainingPlansPaginator(c.in(region), in)
	var out []Plan
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, s := range page.TrainingPlanSummaries {
			out = append(out, planFromSummary(region, s))
		}
	}
	return out, nil
}

// Plans lists the plans of every region, in parallel. The regions that failed are in
// the error (each a *source.RegionFailure); the plans of the others are returned with it.
func (c *Client) Plans(ctx context.Context, regions []string) ([]Plan, error) {
	if len(regions) == 0 {
		regions = []string{c.base.Region()}
	}
	var (
		mu   sync.Mutex
		all  []Plan
		errs []error
		wg   sync.WaitGroup
	)
	for _, r := range slices.Compact(slices.Sorted(slices.Values(regions))) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ps, err := c.ListIn(ctx, r)
			mu.Lock()
			defer mu.Unlock()
			if err != nil {
				errs = append(errs, &source.RegionFailure{Region: r, Err: err})
				return
			}
			all = append(all, ps...)
		}()
	}
	wg.Wait()
	slices.SortStableFunc(all, func(a, b Plan) int {
		if c := a.Start.Compare(b.Start); c != 0 {
			return c
		}
		return compareStrings(a.Region+a.Name, b.Region+b.Name)
	})
	return all, errors.Join(errs...)
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// ExtensionHistory lists a plan's extensions, every page.
func (c *Client) ExtensionHistory(ctx context.Context, region, planARN string) ([]Extension, error) {
	p := sagemaker.NewDescribeTrainingPlanExtensionHistoryPaginator(c.in(region), &sagemaker.DescribeTrainingPlanExtensionHistoryInput{TrainingPlanArn: aws.String(planARN)})
	var out []Extension
	for p.HasMorePages() {
		page, err := p.NextPage(ctx)
		if err != nil {
			return nil, err
		}
		for _, e := range page.TrainingPlanExtensions {
			out = append(out, extensionFrom(e))
		}
	}
	return out, nil
}

// isCode reports whether err is the API error code.
func isCode(err error, code string) bool {
	var ae smithy.APIError
	return errors.As(err, &ae) && ae.ErrorCode() == code
}
