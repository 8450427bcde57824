package ui

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"os"

	"github.com/gpublock/gpublock/aws"
	"github.com/gpublock/gpublock/model"
)

func (b awsBackend) Blocks(ctx context.Context, regions []string) (BlockList, error) {
	blocks, err := b.c.Blocks(ctx, regions)
	list := BlockList{Blocks: blocks, Now: b.c.Now(ctx)}
	failed := 0
	if err != nil {
		var parts []error
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			parts = j.Unwrap()
		} else {
			parts = []error{err}
		}
		for _, e := range parts {
			var rf *aws.RegionFailure
			if errors.As(e, &rf) {
				list.Problems = append(list.Problems, BlockProblem{Region: rf.Region, Partial: rf.Partial, Message: aws.ExplainError(rf.Err).String()})
				if !rf.Partial {
					failed++
				}
				continue
			}
			list.Problems = append(list.Problems, BlockProblem{Message: aws.ExplainError(e).String()})
			failed++
		}
	}
	if p, perr := b.c.JournalPath(); perr == nil {
		list.Fees = journalFees(p)
	}
	if err != nil && failed >= max(1, len(regions)) && len(blocks) == 0 {
		return list, explain(err)
	}
	return list, nil
}

// journalFees sums, per reservation, the fees of the purchases and extensions the journal
// records as bought, from the reservation's latest purchase on. The journal is this machine's only: a missing or unreadable one gives
// no fees, not an error.
func journalFees(path string) map[string]model.Money {
	f, err := os.Open(path)
	if err != nil {
		return nil
	}
	defer f.Close()
	fees := map[string]model.Money{}
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		var e aws.JournalEntry
		if json.Unmarshal(sc.Bytes(), &e) != nil || e.Phase != "outcome" || e.Outcome != string(aws.Bought) {
			continue
		}
		id := e.Result
		if e.Action == "PurchaseCapacityBlockExtension" {
			id = e.Target
		}
		fee, err := model.ParseMoney(e.Fee)
		if id == "" || err != nil {
			continue
		}
		if e.Action == "PurchaseCapacityBlock" {
			// A purchase starts its reservation's history. The demo's emulator, started afresh
			// (its state file deleted), hands out the same reservation ids again, and the
			// journal keeps the old reservation's lines: they are not this block's.
			fees[id] = fee
			continue
		}
		fees[id] = fees[id].Add(fee)
	}
	return fees
}

func (b awsBackend) ExtensionOfferings(ctx context.Context, blk model.Block, days int) ([]model.ExtensionOffering, error) {
	offs, err := b.c.ExtensionOfferings(ctx, blk, days)
	if err != nil {
		return nil, actionError(err)
	}
	return offs, nil
}

func (b awsBackend) CheckExtend(ctx context.Context, blk model.Block, off model.ExtensionOffering) (Permission, error) {
	p, err := b.c.CheckExtend(ctx, blk, off)
	if err != nil {
		return Permission{}, actionError(err)
	}
	return Permission(p), nil
}

func (b awsBackend) Extend(ctx context.Context, blk model.Block, off model.ExtensionOffering) (ExtendResult, error) {
	res, err := b.c.Extend(ctx, blk, off)
	if err != nil {
		return ExtendResult{RequestID: res.RequestID}, actionError(err)
	}
	if res.Outcome != aws.Bought {
		return ExtendResult{RequestID: res.RequestID}, &ActionError{Outcome: OutcomeUnknown,
			Summary: "The extension ended without an answer and without an error.", Hint: "Do not extend again; check the block's extension history."}
	}
	return ExtendResult{RequestID: res.RequestID, Extension: res.Extension, Recovered: res.Recovered}, nil
}
