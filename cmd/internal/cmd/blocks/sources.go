package blocks

import (
	"slices"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/model"
)

// openSources opens every source --source names, in their order.
func (a *Options) openSources(client *awsapi.Client) error {
	srcs, _, _ := a.src.Check() // validated before
	for _, s := range srcs {
		src, err := cmdutil.OpenSource(client, s)
		if err != nil {
			return err
		}
		a.sources = append(a.sources, src)
	}
	return nil
}

// sourcesOver are the sources --source names over one account's client (every source of
// the build is in it, so none is missing).
func (a *Options) sourcesOver(client *awsapi.Client) []source.Source {
	srcs, _, _ := a.src.Check() // validated before
	var out []source.Source
	for _, s := range srcs {
		if src, err := cmdutil.OpenSource(client, s); err == nil {
			out = append(out, src)
		}
	}
	return out
}

// partsSource is the first source listed whose reservations are made of parts (training
// plans), which have their own table and JSON; ok is false when none is listed.
func (a *Options) partsSource() (model.Source, bool) {
	srcs, _, _ := a.src.Check()
	i := slices.IndexFunc(srcs, func(s model.Source) bool { caps, _ := cmdutil.CapsOf(s); return cmdutil.HasParts(caps) })
	if i < 0 {
		return 0, false
	}
	return srcs[i], true
}

// splitParts separates the reservations made of parts (training plans) of a listing from
// the blocks, by what their source's capabilities say.
func splitParts(all []model.Block) (blocks, plans []model.Block) {
	for _, b := range all {
		if caps, _ := cmdutil.CapsOf(b.Source); cmdutil.HasParts(caps) {
			plans = append(plans, b)
		} else {
			blocks = append(blocks, b)
		}
	}
	return blocks, plans
}
