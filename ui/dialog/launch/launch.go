// Package launch is the launch form of a block: image, subnet (the block zone's, listed),
// key pair, security groups and count, then a typed "launch". On an active block the
// source's dry run must allow the exact form first; on a block that has not started it is
// attached to the block instead (source.Backend's AttachLaunch), and whichever gpublock
// watches the blocks launches it at the start. Its dry run, launch in flight and outcome are ui/dialog/spend's.
package launch

import (
	"fmt"
	"strconv"
	"strings"

	"charm.land/bubbles/v2/key"
	tea "charm.land/bubbletea/v2"

	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
	"github.com/gpublock/gpublock/ui/components/textfield"
	"github.com/gpublock/gpublock/ui/dialog"
	"github.com/gpublock/gpublock/ui/dialog/spend"
	"github.com/gpublock/gpublock/ui/screen"
)

// The launch form's fields, in tab order; the confirmation last.
const (
	lfAMI = iota
	lfSubnet
	lfKey
	lfGroups
	lfCount
	lfAcross // the reservations launched into: the block, or all its purchase made
	lfConfirm
	lfFields
)

var launchLabels = [...]string{lfAMI: "AMI", lfSubnet: "Subnet", lfKey: "Key pair", lfGroups: "Security groups", lfCount: "Count", lfAcross: "Into"}

// Model is the launch form of a block. On an active block the adapter's dry run
// (CheckLaunch) must allow the exact form first. On a block that has not started it is
// attached instead: kept beside the journal, it outlives this TUI and is launched once, at
// the start, by whichever gpublock watches (this TUI, `gpublock blocks`). Instance ids and
// states show as they come up.
type Model struct {
	env    dialog.Env
	id     int64
	block  model.Block
	fields [lfFields]textfield.Model // lfAcross's is unused: it is a choice, not text
	focus  int

	// group is the reservations the block's purchase made, the block among them (one per
	// segment of a segmented offering); nil when it made only the block. across: the form
	// launches across all of them, as `gpublock launch --group` does.
	group  []model.Block
	across bool

	subnets    []source.Subnet
	subnetErr  error
	subnetsIn  bool
	subnetNext int

	version  int64 // bumped by every edit: a check answers one version of the form
	checkVer int64
	// spend is the form's dry run, the launch in flight and its outcome; the form's own
	// word field confirms it (a launch at the start is attached, and sent later).
	spend spend.Machine

	attached  *source.AttachedLaunch // attached to the block's start
	result    *source.LaunchResult
	instances []model.Instance
	// Across a group: what was attached, and, after a failure, what was launched into the
	// reservations before it, and the one that failed.
	attachedAll []source.AttachedLaunch
	before      source.LaunchResult
	failedInto  string
}

// launchAction is what the spend machine says of a launch.
var launchAction = spend.Action{Word: "launch", Noun: "launch", Done: "launched", Ask: "launch"}

type subnetsMsg struct {
	dialog  int64
	subnets []source.Subnet
	err     error
}

type launchCheckMsg struct {
	dialog, version, check int64
	perm                   source.Permission
	err                    error
}

type launchedMsg struct {
	dialog int64
	res    source.LaunchResult
	err    error
	into   string // the reservation whose launch failed, across a group
}

type attachedMsg struct {
	dialog int64
	ls     []source.AttachedLaunch
	err    error
}

// New opens the launch form on a block that is active or has not started (the blocks
// screen's l, the receipt's l). It lists the subnets of the block's zone in a command; the
// root routes the answer to it like any dialog's. Never open it in read-only mode.
func New(env dialog.Env, b model.Block) (Model, tea.Cmd) {
	d := Model{env: env, id: dialog.NextSeq(), block: b, focus: lfConfirm, spend: spend.New(launchAction)}
	d.spend.Clock = env.Wall
	if d.notYet() {
		// AWS checks a launch only into an active block: until the start there is no dry
		// run, and the word counts from the form's first drawing (and the dwell after it).
		d.spend.SkipDryRun("ec2:RunInstances")
	}
	ami := env.AMI
	if ami == "" && env.Simulated {
		ami = DemoAMIFor(b.InstanceType)
	}
	d.fields[lfAMI] = textfield.New(ami)
	d.fields[lfAMI].Placeholder = "ami-…"
	d.fields[lfSubnet] = textfield.New("")
	d.fields[lfSubnet].Placeholder = "listing the subnets of " + b.AvailabilityZone + "…"
	d.fields[lfKey] = textfield.New("")
	d.fields[lfKey].Placeholder = "none"
	d.fields[lfGroups] = textfield.New("")
	d.fields[lfGroups].Placeholder = "the VPC's default (sg-…, comma-separated)"
	d.fields[lfCount] = textfield.New(strconv.Itoa(max(1, d.block.FreeCount())))
	if ami == "" {
		d.focus = lfAMI
	}
	id, be, ctx := d.id, env.Backend, env.CallCtx()
	list := func() tea.Msg {
		s, err := be.Subnets(ctx, b.Region, b.AvailabilityZone)
		return subnetsMsg{dialog: id, subnets: s, err: err}
	}
	return d, list
}

// NewInGroup is New on a block its purchase made with others (group, the block among
// them, as model.Group lists them): the form offers to launch across all of them, each
// its share of the count (model.GroupLaunch, the command line's --group rule), with one
// confirmation.
func NewInGroup(env dialog.Env, b model.Block, group []model.Block) (Model, tea.Cmd) {
	d, cmd := New(env, b)
	if len(group) > 1 {
		d.group = group
	}
	return d, cmd
}

// notYet: the block has not started, and the form attaches the launch to its start.
func (d Model) notYet() bool {
	return d.block.State == model.StateScheduled || d.block.State == model.StatePaymentPending
}

// spec reads the form, or says what is wrong with it before any call.
func (d Model) spec() (source.LaunchSpec, error) {
	s := source.LaunchSpec{
		ImageID:  strings.TrimSpace(d.fields[lfAMI].Value()),
		SubnetID: strings.TrimSpace(d.fields[lfSubnet].Value()),
		KeyName:  strings.TrimSpace(d.fields[lfKey].Value()),
	}
	for _, g := range strings.FieldsFunc(d.fields[lfGroups].Value(), func(r rune) bool { return r == ',' || r == ' ' }) {
		s.SecurityGroupIDs = append(s.SecurityGroupIDs, g)
	}
	n, err := strconv.Atoi(strings.TrimSpace(d.fields[lfCount].Value()))
	refusal := model.LaunchBlocker(d.block, n)
	switch {
	case !strings.HasPrefix(s.ImageID, "ami-"):
		return s, fmt.Errorf("AMI %q: want an image id (ami-…)", s.ImageID)
	case err != nil || n < 1:
		return s, fmt.Errorf("count %q: want a whole number from 1", d.fields[lfCount].Value())
	case d.across:
		// Each reservation is launched in its own zone's default subnet; the count is
		// checked as the group's shares.
		s.SubnetID = ""
		if _, err := model.GroupLaunch(d.group, n); err != nil {
			return s, err
		}
	case refusal != nil && refusal.Problem == model.LaunchTooMany:
		return s, fmt.Errorf("%s", refusal.Reason)
	}
	s.Count = n
	return s, nil
}

// shares are the launches the form makes of spec: one into the block, or, across its
// purchase's group, each reservation's share.
func (d Model) shares(spec source.LaunchSpec) []model.LaunchShare {
	if !d.across {
		return []model.LaunchShare{{Block: d.block, Count: spec.Count}}
	}
	shares, _ := model.GroupLaunch(d.group, spec.Count) // spec checked it
	return shares
}

// withCount is spec for one share.
func withCount(spec source.LaunchSpec, n int) source.LaunchSpec {
	spec.Count = n
	return spec
}

// groupDefault is the form's count across the group: the most it holds at once.
func (d Model) groupDefault() int { return model.GroupLaunchMost(d.group) }

// toggleAcross switches between the block alone and its whole group; a count left at
// one choice's default becomes the other's.
func (d *Model) toggleAcross() {
	was, now := max(1, d.block.FreeCount()), max(1, d.groupDefault())
	if d.across {
		was, now = now, was
	}
	if strings.TrimSpace(d.fields[lfCount].Value()) == strconv.Itoa(was) {
		d.fields[lfCount].SetValue(strconv.Itoa(now))
	}
	d.across = !d.across
	d.formChanged()
}

// offered: the field takes the focus (the subnet is each zone's default across a group;
// the choice of reservations only on a block of a group).
func (d Model) offered(f int) bool {
	switch f {
	case lfSubnet:
		return !d.across
	case lfAcross:
		return d.group != nil
	}
	return true
}

// step moves the focus to the next (dir 1) or previous (-1) field offered.
func (d *Model) step(dir int) {
	for {
		d.focus = (d.focus + dir + lfFields) % lfFields
		if d.offered(d.focus) {
			return
		}
	}
}

// formChanged is an edit of the form: the dry run must be asked again, and a word typed
// for the form as it was is cleared, as the spend machine clears it (spend.Field).
func (d *Model) formChanged() {
	d.version++
	d.spend.Field.SetValue("")
}

// check runs the adapter's dry run on the form as it is now.
func (d *Model) check() tea.Cmd {
	spec, err := d.spec()
	d.checkVer = d.version
	check := d.spend.Check()
	if err != nil {
		// The form is wrong: nothing is asked, and the answer is what to fix.
		d.spend.Answer(check, source.Permission{}, err)
		return nil
	}
	id, ver, be, ctx, shares, across := d.id, d.version, d.env.Backend, d.env.CallCtx(), d.shares(spec), d.across
	return func() tea.Msg {
		// Across a group every share is checked: one refused refuses the launch.
		var p source.Permission
		for _, sh := range shares {
			var err error
			p, err = be.CheckLaunch(ctx, sh.Block, withCount(spec, sh.Count))
			if err != nil && across {
				err = fmt.Errorf("%s: %w", sh.Block.ReservationID, err)
			}
			if err != nil || !p.Allowed {
				return launchCheckMsg{dialog: id, version: ver, check: check, perm: p, err: err}
			}
		}
		return launchCheckMsg{dialog: id, version: ver, check: check, perm: p}
	}
}

// launch launches each share in turn, through the spend path; a failure stops the rest,
// and the answer keeps what was launched before it.
func (d Model) launch(spec source.LaunchSpec) tea.Cmd {
	id, be, ctx, shares := d.id, d.env.Backend, d.env.CallCtx(), d.shares(spec)
	return func() tea.Msg {
		var all source.LaunchResult
		for _, sh := range shares {
			res, err := be.Launch(ctx, sh.Block, withCount(spec, sh.Count))
			if err != nil {
				return launchedMsg{dialog: id, res: all, err: err, into: sh.Block.ReservationID}
			}
			all.Instances = append(all.Instances, res.Instances...)
			all.RequestID = strings.TrimPrefix(all.RequestID+","+res.RequestID, ",")
			all.SubnetID = res.SubnetID
		}
		return launchedMsg{dialog: id, res: all}
	}
}

// attach attaches the launch to the block's start or, across its purchase's group, each
// share to its own reservation's start, all or none; nothing is sent to AWS now.
func (d Model) attach(spec source.LaunchSpec) tea.Cmd {
	id, be, ctx, shares, b, across := d.id, d.env.Backend, d.env.CallCtx(), d.shares(spec), d.block, d.across
	return func() tea.Msg {
		if across {
			ls, err := be.AttachLaunches(ctx, shares, spec)
			return attachedMsg{dialog: id, ls: ls, err: err}
		}
		l, err := be.AttachLaunch(ctx, b, spec)
		if err != nil {
			return attachedMsg{dialog: id, err: err}
		}
		return attachedMsg{dialog: id, ls: []source.AttachedLaunch{l}}
	}
}

// Busy: a launch is in flight, whose answer must be read.
func (d Model) Busy() bool { return d.spend.Busy() }

// failure is the launch's failure once it answered, or nil.
func (d Model) failure() *source.ActionError { return d.spend.Failure }

func (d Model) Update(msg tea.Msg) (dialog.Dialog, tea.Cmd, bool) {
	switch msg := msg.(type) {
	case dialog.SizeMsg:
		d.env.Size = screen.Rect(msg)
	case subnetsMsg:
		if msg.dialog != d.id {
			break
		}
		d.subnetsIn, d.subnets, d.subnetErr = true, msg.subnets, msg.err
		if len(d.subnets) > 0 && d.fields[lfSubnet].Value() == "" {
			d.fields[lfSubnet].SetValue(d.subnets[0].ID)
			d.subnetNext = 1
		}
		d.fields[lfSubnet].Placeholder = "the zone's default subnet"
		if d.block.State == model.StateActive {
			d.version++
			return d, d.check(), false
		}
	case launchCheckMsg:
		if msg.dialog == d.id && msg.version == d.version {
			d.spend.Answer(msg.check, msg.perm, msg.err)
		}
	case attachedMsg:
		if msg.dialog != d.id {
			break
		}
		d.spend.Settle(msg.err)
		if msg.err != nil {
			break
		}
		d.attachedAll = msg.ls
		if len(msg.ls) > 0 {
			d.attached = &msg.ls[0]
		}
	case launchedMsg:
		if msg.dialog != d.id {
			break
		}
		d.spend.Settle(msg.err)
		if msg.err != nil {
			d.before, d.failedInto = msg.res, msg.into
			break
		}
		d.result = &msg.res
		d.instances = msg.res.Instances
		return d, d.pollPending(), false
	case dialog.BlockPolledMsg:
		if msg.Dialog != d.id || d.result == nil {
			break
		}
		if msg.Found {
			d.instances = ours(msg.Block.Instances, d.instances)
		}
		return d, d.pollPending(), false
	case tea.KeyPressMsg:
		return d.key(msg)
	case tea.PasteMsg:
		if d.focus == lfConfirm && d.attached == nil && d.result == nil && d.failure() == nil {
			d.spend.Paste()
		}
	}
	return d, nil, false
}

// pollPending looks again, after the poll's wait, at the first reservation the launch
// went into whose instances are not all up; one at a time, so that a group's looks never
// multiply. nil once all are up.
func (d Model) pollPending() tea.Cmd {
	into := []model.Block{d.block}
	if d.across {
		into = d.group
	}
	for _, b := range into {
		var mine []model.Instance
		for _, i := range d.instances {
			if !d.across || i.ReservationID == b.ReservationID {
				mine = append(mine, i)
			}
		}
		if len(mine) > 0 && !instancesUp(mine) {
			return dialog.PollBlock(d.env, d.id, b, d.env.Poll)
		}
	}
	return nil
}

func instancesUp(is []model.Instance) bool {
	for _, i := range is {
		if i.State == "pending" || i.State == "" {
			return false
		}
	}
	return true
}

// ours keeps, of a block's instances, those this launch started, in its order.
func ours(all, launched []model.Instance) []model.Instance {
	byID := map[string]model.Instance{}
	for _, i := range all {
		byID[i.ID] = i
	}
	out := make([]model.Instance, len(launched))
	for n, i := range launched {
		if now, ok := byID[i.ID]; ok {
			i = now
		}
		out[n] = i
	}
	return out
}

func (d Model) key(k tea.KeyPressMsg) (dialog.Dialog, tea.Cmd, bool) {
	km := d.Keys()
	// A letter typed in a field of the form goes into it, even q; the confirmation is
	// only ever the word launch.
	typed := d.focus != lfConfirm && d.focus != lfAcross && k.Text != ""
	switch {
	case d.spend.Busy():
		return d, d.spend.InFlight(k), false
	case d.answered():
		switch {
		case key.Matches(k, km.Close):
			return d, nil, true
		case key.Matches(k, km.Copy):
			var ids []string
			for _, i := range d.instances {
				ids = append(ids, i.ID)
			}
			d.spend.Note = "Copied the instance ids."
			return d, tea.SetClipboard(strings.Join(ids, " ")), false
		}
		return d, nil, false
	case !typed && key.Matches(k, km.Cancel):
		return d, dialog.Cancelled("Cancelled: nothing was launched."), true
	case key.Matches(k, km.Next, km.Prev):
		from := d.focus
		if key.Matches(k, km.Next) {
			d.step(1)
		} else {
			d.step(-1)
		}
		if d.focus == lfConfirm && from != lfConfirm && d.block.State == model.StateActive && d.checkVer != d.version {
			return d, d.check(), false
		}
		return d, nil, false
	}
	d.spend.Note = ""
	switch {
	case key.Matches(k, km.Launch) && d.focus == lfConfirm:
		return d.confirm()
	case key.Matches(k, km.Launch):
		// enter on a field moves to the confirmation, checking the form first.
		d.focus = lfConfirm
		if d.block.State == model.StateActive && d.checkVer != d.version {
			return d, d.check(), false
		}
		return d, nil, false
	case d.focus == lfAcross && key.Matches(k, km.Across):
		d.toggleAcross()
		return d, nil, false
	case d.focus == lfAcross:
		return d, nil, false // a choice: no text goes in
	case d.focus == lfSubnet && key.Matches(k, km.Subnet):
		d.fields[lfSubnet].SetValue(d.subnets[d.subnetNext%len(d.subnets)].ID)
		d.subnetNext++
		d.formChanged()
		return d, nil, false
	}
	if d.focus == lfConfirm {
		d.spend.Type(k)
		return d, nil, false
	}
	before := d.fields[d.focus].Value()
	d.fields[d.focus], _ = d.fields[d.focus].Update(k)
	if d.focus != lfConfirm && d.fields[d.focus].Value() != before {
		d.formChanged()
	}
	return d, nil, false
}

func (d Model) confirm() (dialog.Dialog, tea.Cmd, bool) {
	spec, err := d.spec()
	if d.block.State == model.StateActive && d.checkVer != d.version {
		// The form changed since its dry run: the word typed for it is cleared, and the
		// new answer is drawn before another word counts.
		cmd := d.check()
		d.spend.Note = "Checking the form first (dry run); type launch once it allows it."
		return d, cmd, false
	}
	why := ""
	switch {
	case !d.fits():
		// Attached or launched now, nothing more is asked: the form must have been read whole.
		why = "The terminal is too small to show the whole form; make it larger."
	case err != nil:
		why = "Fix the form first: " + err.Error() + "."
	case d.block.State != model.StateActive && !d.notYet():
		why = model.LaunchBlocker(d.block, spec.Count).Sentence()
	}
	if d.spend.Confirmed(why) != spend.Go {
		return d, nil, false
	}
	d.spend.Send()
	if d.notYet() {
		// Kept beside the journal, not in this process: it is launched once, at the
		// start, by whichever gpublock watches then, even if this TUI is closed.
		return d, d.attach(spec), false
	}
	return d, d.launch(spec), false
}

// answered: the launch or the attachment answered; only closing (and copying) is left.
func (d Model) answered() bool { return d.result != nil || d.attached != nil || d.failure() != nil }
