package main

import (
	"context"
	"encoding/csv"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
)

func init() {
	commands["blocks"] = command{summary: "list the account's Capacity Blocks (table, json or csv)", run: runBlocks}
}

func runBlocks(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	var (
		af     awsFlags
		output string
	)
	fs := newCommandFlags("blocks", "[--region R[,R...]|all] [-o table|json|csv]", stderr, &output)
	af.register(fs)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		return reportUsage(stderr, "blocks", usagef("unexpected argument %q; every option is a flag", fs.Arg(0)))
	}
	format, err := parseOutputFormat(output)
	if err != nil {
		return reportUsage(stderr, "blocks", err)
	}
	if err := af.validate(); err != nil {
		return reportUsage(stderr, "blocks", err)
	}
	regions, _ := af.regionList(nil) // validated above
	client, _, err := openBackend(ctx, &af, stderr)
	if err != nil {
		return backendFailure(stderr, "blocks", err)
	}
	if len(regions) == 0 {
		regions = []string{client.Region()}
	}
	blocks, err := client.Blocks(ctx, regions)
	if ctx.Err() != nil {
		fmt.Fprintln(stderr, "gpublock blocks: cancelled")
		return 1
	}
	failedRegions := map[string]bool{}
	if err != nil {
		for _, e := range unjoin(err) {
			var rf *aws.RegionFailure
			if errors.As(e, &rf) {
				if rf.Partial {
					fmt.Fprintf(stderr, "gpublock blocks: %s: some details are missing: %s\n", rf.Region, client.ExplainError(rf.Err))
				} else {
					failedRegions[rf.Region] = true
					fmt.Fprintf(stderr, "gpublock blocks: %s: %s\n", rf.Region, client.ExplainError(rf.Err))
				}
				continue
			}
			fmt.Fprintf(stderr, "gpublock blocks: %s\n", client.ExplainError(e))
		}
	}
	if err := printBlocks(blocks, format, stdout); err != nil {
		fmt.Fprintln(stderr, "gpublock blocks:", err)
		return 1
	}
	if len(failedRegions) == len(regions) {
		return 1
	}
	return 0
}

func unjoin(err error) []error {
	if j, ok := err.(interface{ Unwrap() []error }); ok {
		return j.Unwrap()
	}
	return []error{err}
}

// blockJSON uses the AWS CLI's field names, plus Region and the merged details.
type blockJSON struct {
	CapacityReservationId  string
	CapacityBlockId        string
	Region                 string
	AvailabilityZone       string
	InstanceType           string
	TotalInstanceCount     int
	AvailableInstanceCount int
	RunningInstanceCount   int
	State                  string
	StartDate              string
	EndDate                string
	InterconnectStatus     string   `json:",omitempty"`
	InstanceIds            []string `json:",omitempty"`
	Extensions             int      `json:",omitempty"`
}

func toBlockJSON(b model.Block) blockJSON {
	j := blockJSON{
		CapacityReservationId:  b.ReservationID,
		CapacityBlockId:        b.BlockID,
		Region:                 b.Region,
		AvailabilityZone:       b.AvailabilityZone,
		InstanceType:           b.InstanceType,
		TotalInstanceCount:     b.TotalCount,
		AvailableInstanceCount: b.AvailableCount,
		RunningInstanceCount:   b.RunningCount,
		State:                  string(b.State),
		StartDate:              b.Start.UTC().Format(time.RFC3339),
		EndDate:                b.End.UTC().Format(time.RFC3339),
		InterconnectStatus:     b.Interconnect,
		Extensions:             len(b.Extensions),
	}
	for _, i := range b.Instances {
		j.InstanceIds = append(j.InstanceIds, i.ID)
	}
	return j
}

var blockCSVHeader = []string{"CapacityReservationId", "CapacityBlockId", "Region", "AvailabilityZone", "InstanceType",
	"TotalInstanceCount", "AvailableInstanceCount", "RunningInstanceCount", "State", "StartDate", "EndDate", "InterconnectStatus"}

const blockTableFormat = "%-21s  %-21s  %-14s  %-16s  %-17s  %5s  %5s  %7s  %-15s  %-16s  %-16s  %s\n"

func printBlocks(blocks []model.Block, format outputFormat, w io.Writer) error {
	switch format {
	case "json":
		out := make([]blockJSON, len(blocks))
		for i, b := range blocks {
			out[i] = toBlockJSON(b)
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(out)
	case "csv":
		cw := csv.NewWriter(w)
		_ = cw.Write(blockCSVHeader)
		for _, b := range blocks {
			_ = cw.Write([]string{b.ReservationID, b.BlockID, b.Region, b.AvailabilityZone, b.InstanceType,
				strconv.Itoa(b.TotalCount), strconv.Itoa(b.AvailableCount), strconv.Itoa(b.RunningCount), string(b.State),
				b.Start.UTC().Format(time.RFC3339), b.End.UTC().Format(time.RFC3339), b.Interconnect})
		}
		cw.Flush()
		return cw.Error()
	}
	if len(blocks) == 0 {
		_, err := fmt.Fprintln(w, "No Capacity Blocks.")
		return err
	}
	fmt.Fprintf(w, blockTableFormat, "RESERVATION", "BLOCK", "REGION", "ZONE", "TYPE", "TOTAL", "FREE", "RUNNING", "STATE", "START (UTC)", "END (UTC)", "INTERCONNECT")
	for _, b := range blocks {
		_, err := fmt.Fprintf(w, blockTableFormat, b.ReservationID, b.BlockID, b.Region, b.AvailabilityZone, b.InstanceType,
			strconv.Itoa(b.TotalCount), strconv.Itoa(b.AvailableCount), strconv.Itoa(b.RunningCount), b.State,
			b.Start.UTC().Format("2006-01-02 15:04"), b.End.UTC().Format("2006-01-02 15:04"), b.Interconnect)
		if err != nil {
			return err
		}
	}
	return nil
}
