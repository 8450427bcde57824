// Package accounts is source.Backend over several AWS accounts, one source.Backend each:
// the listings (blocks, the report) are every account's, asked at once and merged, each
// reservation carrying its account, and an account that fails named without hiding the
// others; searches and purchases stay in the first account, the one that pays. A call
// about one reservation (its extension, a launch into it) goes to the account that owns it.
//
// It links no SDK: each account's backend is made by the caller (cmdutil.OpenAccounts).
package accounts

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/model/report"
)

// Member is one account: the profile it is reached by and its backend.
type Member struct {
	Profile string
	// Regions, when set, are the only regions its reservations are listed in (the
	// configuration's regions of the account); a listing's regions are narrowed to them.
	Regions []string
	// Backend is the account's; nil when it could not be opened, and Err then says why:
	// every listing names it as failed.
	Backend source.Backend
	Err     error
}

// Backend is the accounts together. The home account's backend is embedded, so that a
// method the interface gains later is the home account's until it is made otherwise here.
type Backend struct {
	source.Backend
	members []*member

	mu    sync.Mutex
	owner map[string]int // region/reservation id → member, as last listed
}

type member struct {
	Member
	mu sync.Mutex
	id string // learnt from its identity, or from the accounts of its blocks
}

// New is the backend over the members, the first the home account: the one that pays for
// searches' purchases, whose backend must be open.
func New(members []Member) (*Backend, error) {
	if len(members) == 0 || members[0].Backend == nil {
		if len(members) > 0 && members[0].Err != nil {
			return nil, members[0].Err
		}
		return nil, errors.New("accounts: no home account")
	}
	b := &Backend{Backend: members[0].Backend, owner: map[string]int{}}
	for _, m := range members {
		if m.Backend == nil && m.Err == nil {
			m.Err = errors.New("not opened")
		}
		b.members = append(b.members, &member{Member: m})
	}
	return b, nil
}

func (m *member) account() source.Account {
	m.mu.Lock()
	defer m.mu.Unlock()
	return source.Account{ID: m.id, Profile: m.Profile}
}

func (m *member) setID(id string) {
	m.mu.Lock()
	defer m.mu.Unlock()
	if m.id == "" {
		m.id = id
	}
}

// learn asks the account's identity (the backend keeps its answer) so that its failures
// name it by id; a failure leaves the profile to name it.
func (m *member) learn(ctx context.Context) {
	if m.account().ID != "" || m.Backend == nil {
		return
	}
	if id, err := m.Backend.Identity(ctx); err == nil && id.Account != "" {
		m.setID(id.Account)
	}
}

// regions is a listing's regions narrowed to the account's own, when it has any; nil
// regions (the backend's default) become the account's.
func (m *member) regions(asked []string) []string {
	if len(m.Regions) == 0 {
		return asked
	}
	if len(asked) == 0 {
		return m.Regions
	}
	var out []string
	for _, r := range asked {
		if slices.Contains(m.Regions, r) {
			out = append(out, r)
		}
	}
	return out
}

// Accounts are the accounts, the one that pays first.
func (b *Backend) Accounts() []source.Account {
	out := make([]source.Account, len(b.members))
	for i, m := range b.members {
		out[i] = m.account()
	}
	return out
}

// In is the backend of the account with this id: the home account's own, another's
// wrapped so that nothing is attached to its blocks here (attached launches are fired by
// whichever gpublock watches, in the home account).
func (b *Backend) In(account string) (source.Backend, bool) {
	i, ok := b.index(account)
	if !ok {
		return nil, false
	}
	return b.backendOf(i), true
}

func (b *Backend) index(account string) (int, bool) {
	if account == "" {
		return 0, false
	}
	for i, m := range b.members {
		if m.Backend != nil && m.account().ID == account {
			return i, true
		}
	}
	return 0, false
}

func (b *Backend) backendOf(i int) source.Backend {
	if i == 0 {
		return b.members[0].Backend
	}
	return other{Backend: b.members[i].Backend, acct: b.members[i].account()}
}

// of is the backend of the account that owns blk: the home account's when blk names none
// (a block made before it was listed) or names the home account; an error in words when it
// names an account none of the profiles reaches.
func (b *Backend) of(blk model.Block) (source.Backend, error) {
	if blk.Account == "" || blk.Account == b.members[0].account().ID {
		return b.members[0].Backend, nil
	}
	if i, ok := b.index(blk.Account); ok {
		return b.backendOf(i), nil
	}
	return nil, NotReached(blk)
}

// NotReached is the refusal of a call about a reservation of an account that none of the
// profiles reaches.
func NotReached(blk model.Block) error {
	return &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{
		Summary: fmt.Sprintf("%s belongs to account %s, which none of the profiles given reaches.", blk.ReservationID, blk.Account),
		Hint:    "Run gpublock with --profile naming that account's profile."}}
}

// Forget makes the next listing of every account ask every region.
func (b *Backend) Forget() {
	for _, m := range b.members {
		if r, ok := m.Backend.(source.Rescanner); ok {
			r.Forget()
		}
	}
}

// answer is one account's part of a listing.
type answer struct {
	list    source.BlockList
	err     error
	skipped bool // none of the regions asked is the account's
}

// Blocks lists every account's reservations at once and merges them: each block carries its
// account; an account that fails is a problem that names it and leaves the others listed;
// an account's own problems name it too. The error is set only when no account answered.
func (b *Backend) Blocks(ctx context.Context, regions []string) (source.BlockList, error) {
	answers := make([]answer, len(b.members))
	var wg sync.WaitGroup
	for i, m := range b.members {
		if m.Backend == nil {
			answers[i].err = m.Err
			continue
		}
		regs := m.regions(regions)
		if len(regions) > 0 && len(regs) == 0 {
			answers[i].skipped = true
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.learn(ctx)
			answers[i].list, answers[i].err = m.Backend.Blocks(ctx, regs)
		}()
	}
	wg.Wait()

	var (
		out     source.BlockList
		errs    []error
		quiet   []string
		asked   bool // quiet is some answering account's
		listing int  // the accounts the listing asked
		owners  = map[string]int{}
	)
	for i, a := range answers {
		m := b.members[i]
		if a.skipped {
			continue
		}
		listing++
		for _, blk := range a.list.Blocks {
			if blk.Account != "" {
				m.setID(blk.Account)
				break
			}
		}
		name := m.account().Name()
		if a.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, a.err))
			out.Problems = append(out.Problems, source.BlockProblem{Account: name, Message: name + ": " + source.RedactError(a.err)})
			continue
		}
		id := m.account().ID
		for _, blk := range a.list.Blocks {
			listedKey := source.FeeKey(blk)
			if blk.Account == "" {
				blk.Account = id
			}
			owners[blk.Region+"/"+blk.ReservationID] = i
			out.Blocks = append(out.Blocks, blk)
			// Keyed by the account it is now known to be in, so that another account's
			// block of the same id keeps its own fee.
			if fee, ok := a.list.Fees[listedKey]; ok {
				if out.Fees == nil {
					out.Fees = map[string]model.Money{}
				}
				out.Fees[source.FeeKey(blk)] = fee
			}
		}
		for _, p := range a.list.Problems {
			where := ""
			if p.Region != "" {
				where = p.Region + ": "
			}
			p.Account, p.Message = name, name+": "+where+p.Message
			out.Problems = append(out.Problems, p)
		}
		if out.Now.IsZero() {
			out.Now = a.list.Now
		}
		// A region is quiet when every account that answered left it out.
		if !asked {
			quiet, asked = slices.Clone(a.list.Quiet), true
		} else {
			quiet = slices.DeleteFunc(quiet, func(r string) bool { return !slices.Contains(a.list.Quiet, r) })
		}
	}
	out.Quiet = quiet
	b.mu.Lock()
	b.owner = owners
	b.mu.Unlock()
	if len(errs) > 0 && len(errs) == listing {
		return out, errors.Join(errs...)
	}
	return out, nil
}

// Report asks every account's report at once, each in its own regions among those asked
// (as Blocks), and puts them together: their reservations, each with its account, and their
// problems, each led by the account it is of. An account whose report fails is one
// problem; the error is set only when none of those asked answered.
func (b *Backend) Report(ctx context.Context, regions []string, from, to time.Time) (report.Input, error) {
	type part struct {
		in      report.Input
		err     error
		skipped bool // none of its regions is asked
	}
	parts := make([]part, len(b.members))
	var wg sync.WaitGroup
	for i, m := range b.members {
		if m.Backend == nil {
			parts[i].err = m.Err
			continue
		}
		regs := m.regions(regions)
		if len(regions) > 0 && len(regs) == 0 {
			parts[i].skipped = true
			continue
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			m.learn(ctx)
			parts[i].in, parts[i].err = m.Backend.Report(ctx, regs, from, to)
		}()
	}
	wg.Wait()
	out := report.Input{From: from, To: to}
	var errs []error
	asked := 0
	for i, p := range parts {
		if p.skipped {
			continue
		}
		asked++
		m := b.members[i]
		name := m.account().Name()
		if p.err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", name, p.err))
			out.Problems = append(out.Problems, name+": "+source.RedactError(p.err))
			continue
		}
		// The latest of the accounts' clocks: a window up to now holds what each paid.
		if p.in.Now.After(out.Now) {
			out.Now = p.in.Now
		}
		if out.TagKeys == nil {
			out.TagKeys = p.in.TagKeys
		}
		id := m.account().ID
		for _, r := range p.in.Reservations {
			if r.Account == "" {
				r.Account = id
			}
			out.Reservations = append(out.Reservations, r)
		}
		for _, s := range p.in.Problems {
			out.Problems = append(out.Problems, name+": "+s)
		}
	}
	if to.IsZero() {
		out.To = out.Now
	}
	if len(errs) > 0 && len(errs) == asked {
		return out, errors.Join(errs...)
	}
	return out, nil
}

// Block is the reservation as it is now, asked of the account that listed it last (the
// home account for one not listed yet).
func (b *Backend) Block(ctx context.Context, region, reservationID string) (model.Block, bool, error) {
	b.mu.Lock()
	i, ok := b.owner[region+"/"+reservationID]
	b.mu.Unlock()
	if !ok {
		i = 0
	}
	blk, found, err := b.members[i].Backend.Block(ctx, region, reservationID)
	if found && blk.Account == "" {
		blk.Account = b.members[i].account().ID
	}
	return blk, found, err
}

// Prepare is the home account's for a purchase; an extension or a launch is prepared in
// the account of its block, whose confirmation then names that account as the payer.
func (b *Backend) Prepare(ctx context.Context, in source.Intent) (source.Prepared, error) {
	if in.Kind == source.SpendPurchase {
		return b.members[0].Backend.Prepare(ctx, in)
	}
	be, err := b.of(in.Block)
	if err != nil {
		return source.Prepared{}, err
	}
	return be.Prepare(ctx, in)
}

// Commit spends in the account Prepare prepared it in.
func (b *Backend) Commit(ctx context.Context, p source.Prepared) (source.SpendResult, error) {
	if p.Intent.Kind == source.SpendPurchase {
		return b.members[0].Backend.Commit(ctx, p)
	}
	be, err := b.of(p.Intent.Block)
	if err != nil {
		return source.SpendResult{}, err
	}
	return be.Commit(ctx, p)
}

func (b *Backend) ExtensionOfferings(ctx context.Context, blk model.Block, days int) ([]model.ExtensionOffering, error) {
	be, err := b.of(blk)
	if err != nil {
		return nil, err
	}
	return be.ExtensionOfferings(ctx, blk, days)
}

func (b *Backend) ExtensionChoices(ctx context.Context, blk model.Block, found func(model.ExtensionChoice)) ([]model.ExtensionChoice, error) {
	be, err := b.of(blk)
	if err != nil {
		return nil, err
	}
	return be.ExtensionChoices(ctx, blk, found)
}

func (b *Backend) CheckLaunch(ctx context.Context, blk model.Block, spec source.LaunchSpec) (source.Permission, error) {
	be, err := b.of(blk)
	if err != nil {
		return source.Permission{}, err
	}
	return be.CheckLaunch(ctx, blk, spec)
}

func (b *Backend) Launch(ctx context.Context, blk model.Block, spec source.LaunchSpec) (source.LaunchResult, error) {
	be, err := b.of(blk)
	if err != nil {
		return source.LaunchResult{}, err
	}
	return be.Launch(ctx, blk, spec)
}

func (b *Backend) AttachLaunch(ctx context.Context, blk model.Block, spec source.LaunchSpec) (source.AttachedLaunch, error) {
	be, err := b.of(blk)
	if err != nil {
		return source.AttachedLaunch{}, err
	}
	return be.AttachLaunch(ctx, blk, spec)
}

func (b *Backend) AttachLaunches(ctx context.Context, shares []model.LaunchShare, spec source.LaunchSpec) ([]source.AttachedLaunch, error) {
	if len(shares) == 0 {
		return nil, nil
	}
	be, err := b.of(shares[0].Block) // one purchase: one account
	if err != nil {
		return nil, err
	}
	return be.AttachLaunches(ctx, shares, spec)
}

// other is the backend of an account that is not the home account.
type other struct {
	source.Backend
	acct source.Account
}

// AttachLaunches is refused as AttachLaunch is.
func (o other) AttachLaunches(ctx context.Context, shares []model.LaunchShare, spec source.LaunchSpec) ([]source.AttachedLaunch, error) {
	if len(shares) == 0 {
		return nil, nil
	}
	_, err := o.AttachLaunch(ctx, shares[0].Block, spec)
	return nil, err
}

// AttachLaunch is refused: the launches attached on this machine are fired in the home
// account, by whichever gpublock watches the blocks.
func (o other) AttachLaunch(_ context.Context, blk model.Block, _ source.LaunchSpec) (source.AttachedLaunch, error) {
	profile := o.acct.Profile
	if profile == "" {
		profile = "default"
	}
	return source.AttachedLaunch{}, &source.ActionError{Outcome: source.NotBought, Explanation: source.Explanation{
		Summary: fmt.Sprintf("A launch cannot be attached here to %s of %s: attached launches are fired in the account that pays.", blk.ReservationID, o.acct.Name()),
		Hint:    fmt.Sprintf("Launch once it is active, or run gpublock --profile %s.", profile)}}
}
