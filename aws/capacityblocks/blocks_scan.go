package capacityblocks

import (
	"context"
	"slices"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// DefaultEmptyRescan is how often a region found without blocks is listed again by a
// BlockScanner: a block bought there from another machine shows within this time, and the
// regions with blocks are listed on every scan.
const DefaultEmptyRescan = 5 * time.Minute

// BlockScanner lists the account's blocks in every region that sells Capacity Blocks,
// cheaply: one listing call per region (Blocks makes the detail calls only where blocks
// exist), and a region found empty is listed again only every EmptyRescan. A region that
// failed is listed again on the next scan. It is safe for concurrent use.
type BlockScanner struct {
	c           *Client
	EmptyRescan time.Duration
	now         func() time.Time

	mu    sync.Mutex
	empty map[string]time.Time // region → when it was last found without blocks
}

// NewBlockScanner returns a scanner over the client.
func (c *Client) NewBlockScanner() *BlockScanner {
	return &BlockScanner{c: c, EmptyRescan: DefaultEmptyRescan, now: time.Now, empty: map[string]time.Time{}}
}

// ScanResult is one scan: the blocks, and the regions that were not listed this time
// because they had none when last listed (Quiet, as of QuietSince).
type ScanResult struct {
	Blocks     []model.Block
	Listed     []string
	Quiet      []string
	QuietSince map[string]time.Time
}

// Scan lists the blocks of the regions (every Capacity Block region when none is given)
// that are due. The error is that of Blocks: one *RegionFailure per region that failed.
func (s *BlockScanner) Scan(ctx context.Context, regions []string) (ScanResult, error) {
	if len(regions) == 0 {
		regions = model.Regions()
	}
	regions = dedupe(regions)
	now := s.now()
	res := ScanResult{QuietSince: map[string]time.Time{}}
	s.mu.Lock()
	for _, r := range regions {
		if at, ok := s.empty[r]; ok && now.Sub(at) < s.EmptyRescan {
			res.Quiet = append(res.Quiet, r)
			res.QuietSince[r] = at
			continue
		}
		res.Listed = append(res.Listed, r)
	}
	s.mu.Unlock()
	if len(res.Listed) == 0 {
		return res, nil
	}
	blocks, err := s.c.Blocks(ctx, res.Listed)
	res.Blocks = blocks
	failed := source.ClassifyListing(err).Failed
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, r := range res.Listed {
		has := slices.ContainsFunc(blocks, func(b model.Block) bool { return b.Region == r })
		switch {
		case failed[r] || ctx.Err() != nil:
			// not known to be empty: listed again next time
		case has:
			delete(s.empty, r)
		default:
			s.empty[r] = now
		}
	}
	return res, err
}

// Forget makes every region due on the next scan: after a purchase, or when asked to list
// everything again now.
func (s *BlockScanner) Forget() {
	s.mu.Lock()
	clear(s.empty)
	s.mu.Unlock()
}
