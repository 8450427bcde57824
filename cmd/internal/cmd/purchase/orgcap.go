package purchase

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/cmd/internal/cmdutil"
	"github.com/gpublock/gpublock/cmd/internal/spending"
	"github.com/gpublock/gpublock/model"
)

// organizationCap says, before the typed word, what the organization's Capacity Blocks hold
// against AWS's cap of instances on any date, and warns when o would pass it. It lists the
// blocks of the paying account and of every account the configuration file names, now.
// It never refuses: AWS decides, and what could not be listed is said beside the figures.
func organizationCap(ctx context.Context, a *Options, o model.Offering, stderr io.Writer) {
	if o.Source != model.SourceCapacityBlock {
		return
	}
	be, _, _, err := cmdutil.OpenAccountsOf(ctx, &a.AWS, a.AWS.OrganizationSpecs(), a.Backend, cmdutil.SourcesBackend(capacityBlocksOver))
	if err != nil {
		fmt.Fprintf(stderr, "%s\n\n", spending.WrapIndented("  ", fmt.Sprintf("Organization: the cap of %d instances could not be checked: %s", model.MaxOrganizationInstances, awsapi.ExplainError(err))))
		return
	}
	list, err := be.Blocks(ctx, model.Regions())
	if err != nil && len(list.Blocks) == 0 {
		fmt.Fprintf(stderr, "%s\n\n", spending.WrapIndented("  ", fmt.Sprintf("Organization: the cap of %d instances could not be checked: %s", model.MaxOrganizationInstances, awsapi.ExplainError(err))))
		return
	}
	note, passes := model.CapNote(model.InstancesHeld(list.Blocks), o)
	if passes {
		fmt.Fprintf(stderr, "\n%s\n", spending.WrapIndented("  ", "*** WARNING: "+note+" ***"))
	} else {
		fmt.Fprintln(stderr, spending.WrapIndented("  ", "Organization: "+note))
	}
	if why := unread(list); why != "" {
		fmt.Fprintln(stderr, spending.WrapIndented("  ", "(the figures may be low: "+why+")"))
	}
	fmt.Fprintln(stderr)
}

// capacityBlocksOver is the source whose blocks count toward the cap, over one account's client.
func capacityBlocksOver(c *awsapi.Client) []source.Source {
	src, err := cmdutil.OpenSource(c, model.SourceCapacityBlock)
	if err != nil {
		return nil
	}
	return []source.Source{src}
}

// unread names what the listing could not read, "" when it read everything.
func unread(list source.BlockList) string {
	var out []string
	for _, p := range list.Problems {
		if p.Account != "" {
			out = append(out, p.Message)
		} else {
			out = append(out, p.Region+": "+p.Message)
		}
	}
	return strings.Join(out, "; ")
}
