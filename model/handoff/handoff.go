// Package handoff writes what another tool needs to use a bought reservation: a
// Karpenter manifest, a SkyPilot or dstack configuration, a ParallelCluster cluster
// configuration, an EC2 launch template for an EKS node group, or a SageMaker request.
// Each generator follows its tool's own documentation, cited beside it. The package does
// no I/O: the caller prints or saves the File.
package handoff

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/gpublock/gpublock/model"
	"go.yaml.in/yaml/v3"
)

// Tool is a tool a reservation can be handed to.
type Tool string

const (
	Karpenter       Tool = "karpenter"
	SkyPilot        Tool = "skypilot"
	Dstack          Tool = "dstack"
	ParallelCluster Tool = "parallelcluster"
	EKS             Tool = "eks"
	HyperPod        Tool = "hyperpod"
	SageMaker       Tool = "sagemaker"
)

// Format is how a File is written.
type Format string

const (
	YAML Format = "yaml"
	JSON Format = "json"
)

// File is one file a tool accepts: a suggested name, its format and content, a short
// note for the user (what to fill in, how to apply it) and the documentation it follows.
type File struct {
	Name    string
	Format  Format
	Content string
	Note    string
	Doc     string
}

// Refusal is why a tool cannot take a reservation, and what to use instead.
type Refusal struct {
	Tool    Tool
	Reason  string
	Instead string
}

func (r *Refusal) Error() string {
	s := fmt.Sprintf("%s cannot use this reservation: %s", r.Tool, r.Reason)
	if r.Instead != "" {
		s += "; " + r.Instead
	}
	return s
}

// tool is one row of the table: the source of reservations it takes, the page its output
// follows, and its generator, which is called only with a reservation checked to fit.
type tool struct {
	name   Tool
	source model.Source
	doc    string
	render func([]model.Block) (File, error)
}

var tools = []tool{
	{Karpenter, model.SourceCapacityBlock, karpenterDoc, karpenter},
	{SkyPilot, model.SourceCapacityBlock, skypilotDoc, skypilot},
	{Dstack, model.SourceCapacityBlock, dstackDoc, dstack},
	{ParallelCluster, model.SourceCapacityBlock, pclusterDoc, parallelCluster},
	{EKS, model.SourceCapacityBlock, eksDoc, eks},
	{HyperPod, model.SourceTrainingPlan, hyperpodDoc, first(hyperpod)},
	{SageMaker, model.SourceTrainingPlan, sagemakerDoc, first(sagemaker)},
}

// first is a generator of one reservation (a training plan's, which is never grouped).
func first(render func(model.Block) (File, error)) func([]model.Block) (File, error) {
	return func(bs []model.Block) (File, error) { return render(bs[0]) }
}

// Tools lists every tool, in the order help shows them.
func Tools() []Tool {
	out := make([]Tool, len(tools))
	for i, t := range tools {
		out[i] = t.name
	}
	return out
}

// ToolsFor lists the tools that take reservations of the source.
func ToolsFor(s model.Source) []Tool {
	var out []Tool
	for _, t := range tools {
		if t.source == s {
			out = append(out, t.name)
		}
	}
	return out
}

// ParseTool reads a tool's name, as --for takes it.
func ParseTool(name string) (Tool, error) {
	n := Tool(strings.ToLower(strings.TrimSpace(name)))
	if slices.Contains(Tools(), n) {
		return n, nil
	}
	return "", fmt.Errorf("unknown tool %q: use %s", name, joinTools(Tools()))
}

// Source is the kind of reservation the tool takes (for an unknown tool, the zero Source;
// ParseTool first).
func (t Tool) Source() model.Source { return lookup(t).source }

// Doc is the documentation page the tool's file follows.
func (t Tool) Doc() string { return lookup(t).doc }

func lookup(t Tool) tool {
	for _, row := range tools {
		if row.name == t {
			return row
		}
	}
	return tool{}
}

// Render writes the file tool t needs to use reservation b, or refuses: when t takes the
// other source's reservations, when b can never be used again, or when a training plan
// was not bought for what t creates.
func Render(t Tool, b model.Block) (File, error) { return RenderGroup(t, []model.Block{b}) }

// RenderGroup is Render of the reservations one purchase made (model.Group: one per
// segment of a segmented offering), which the file names every one of; each is refused
// as Render refuses one.
func RenderGroup(t Tool, group []model.Block) (File, error) {
	row := lookup(t)
	if row.render == nil {
		return File{}, fmt.Errorf("unknown tool %q: use %s", t, joinTools(Tools()))
	}
	if len(group) == 0 {
		return File{}, fmt.Errorf("no reservation given")
	}
	for _, b := range group {
		if r := refuse(row, b); r != nil {
			return File{}, r
		}
	}
	f, err := row.render(group)
	if err != nil {
		return File{}, err
	}
	if f.Doc == "" {
		f.Doc = row.doc
	}
	return f, nil
}

// refuse is why b does not fit the tool, or nil.
func refuse(row tool, b model.Block) *Refusal {
	switch b.State {
	case model.StateExpired, model.StateCancelled, model.StateFailed, model.StatePaymentFailed:
		return &Refusal{row.name, fmt.Sprintf("the %s is %s and can never be used", b.Source.Label(), b.State),
			"buy a new one (gpublock search)"}
	}
	if b.Source != row.source {
		what := "HyperPod clusters and SageMaker jobs use SageMaker training plans, not EC2 Capacity Blocks"
		if row.source == model.SourceCapacityBlock {
			what = fmt.Sprintf("%s launches EC2 instances into a Capacity Block (cr-…); a SageMaker training plan is used only by SageMaker", row.name)
		}
		hint := "use --for " + strings.Join(toolNames(ToolsFor(b.Source)), " or --for ")
		// A plan is suggested only to the tools it was bought for.
		if p, err := trainingPlan(b); err == nil && b.Source == model.SourceTrainingPlan && p.elsewhere() != "" {
			hint = p.elsewhere()
		}
		return &Refusal{row.name, what, hint}
	}
	return nil
}

func toolNames(ts []Tool) []string {
	out := make([]string, len(ts))
	for i, t := range ts {
		out[i] = string(t)
	}
	return out
}

func joinTools(ts []Tool) string { return strings.Join(toolNames(ts), ", ") }

// toYAML encodes documents as one YAML stream (--- between them), two-space indented as
// Kubernetes examples are.
func toYAML(docs ...any) (string, error) {
	var buf bytes.Buffer
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	for _, d := range docs {
		if err := enc.Encode(d); err != nil {
			return "", err
		}
	}
	if err := enc.Close(); err != nil {
		return "", err
	}
	return buf.String(), nil
}

func toJSON(v any) (string, error) {
	out, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return "", err
	}
	return string(out) + "\n", nil
}

// m is a YAML or JSON object whose keys keep the order they are written in, so a file
// reads as its tool's documentation shows it: m{"type", "fleet", "name", …}, key then value.
type m []any

// MarshalYAML writes the object as a mapping in its order.
func (o m) MarshalYAML() (any, error) {
	n := &yaml.Node{Kind: yaml.MappingNode}
	for i := 0; i+1 < len(o); i += 2 {
		var k, v yaml.Node
		if err := k.Encode(o[i]); err != nil {
			return nil, err
		}
		if err := v.Encode(o[i+1]); err != nil {
			return nil, err
		}
		n.Content = append(n.Content, &k, &v)
	}
	return n, nil
}

// MarshalJSON writes the object in its order.
func (o m) MarshalJSON() ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteByte('{')
	for i := 0; i+1 < len(o); i += 2 {
		k, err := json.Marshal(o[i])
		if err != nil {
			return nil, err
		}
		v, err := json.Marshal(o[i+1])
		if err != nil {
			return nil, err
		}
		if i > 0 {
			buf.WriteByte(',')
		}
		buf.Write(k)
		buf.WriteByte(':')
		buf.Write(v)
	}
	buf.WriteByte('}')
	return buf.Bytes(), nil
}
