package ui

import (
	"context"
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
		list.Fees = paidFees(blocks, readJournalFees(p))
	}
	if err != nil && failed >= max(1, len(regions)) && len(blocks) == 0 {
		return list, explain(err)
	}
	return list, nil
}

// journalPaid is what this machine's journal says was bought for one reservation.
type journalPaid struct {
	purchase   model.Money
	extensions map[string]model.Money // by extension offering id
}

// readJournalFees reads the journal's bought purchases and extensions per reservation. The
// journal is this machine's only: a missing or unreadable one gives nothing, not an error.
func readJournalFees(path string) map[string]*journalPaid {
	if _, err := os.Stat(path); err != nil {
		return nil
	}
	entries, _, err := aws.ReadJournal(path) // skips a torn or damaged line
	if err != nil {
		return nil
	}
	paid := map[string]*journalPaid{}
	for _, e := range entries {
		if e.Phase != "outcome" || e.Outcome != string(aws.Bought) {
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
		if e.Action == "PurchaseCapacityBlock" || paid[id] == nil {
			// A purchase starts its reservation's history. The demo's emulator, started afresh
			// (its state file deleted), hands out the same reservation ids again, and the
			// journal keeps the old reservation's lines: they are not this block's.
			paid[id] = &journalPaid{extensions: map[string]model.Money{}}
		}
		if e.Action == "PurchaseCapacityBlock" {
			paid[id].purchase = fee
			continue
		}
		paid[id].extensions[e.Offering] = paid[id].extensions[e.Offering].Add(fee)
	}
	return paid
}

// paidFees is what was paid per reservation: the journal's purchases and extensions, less
// what AWS lists as payment-failed (a failed block or extension charges nothing, though the
// journal recorded it as bought when the call answered).
func paidFees(blocks []model.Block, paid map[string]*journalPaid) map[string]model.Money {
	if paid == nil {
		return nil
	}
	byID := map[string]model.Block{}
	for _, b := range blocks {
		byID[b.ReservationID] = b
	}
	fees := map[string]model.Money{}
	for id, p := range paid {
		b, listed := byID[id]
		var total model.Money
		if !listed || b.State != model.StatePaymentFailed {
			total = p.purchase
		}
		for off, fee := range p.extensions {
			if !extensionFailed(b, off) {
				total = total.Add(fee)
			}
		}
		fees[id] = total
	}
	return fees
}

func extensionFailed(b model.Block, offeringID string) bool {
	for _, x := range b.Extensions {
		if x.OfferingID == offeringID && x.Status == model.ExtensionPaymentFailed {
			return true
		}
	}
	return false
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
	return ExtendResult{RequestID: res.RequestID, Extension: res.Extension, Recovered: res.Recovered,
		Settled: settledSentences(res.Settled), NotRecorded: notRecorded(res.JournalErr)}, nil
}
