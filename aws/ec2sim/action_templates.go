package ec2sim

import (
	"fmt"
	"net/http"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/gpublock/gpublock/aws/simcore"
)

func init() {
	ec2Actions["CreateLaunchTemplate"] = guarded(createLaunchTemplate)
	ec2Actions["DescribeLaunchTemplates"] = guarded(describeLaunchTemplates)
	ec2Actions["DeleteLaunchTemplate"] = guarded(deleteLaunchTemplate)
}

// launchTemplate is a template as CreateLaunchTemplate made it, of one version: its data
// are kept as the request's LaunchTemplateData.* parameters, named as RunInstances names
// them but for RamDiskId, which RunInstances takes from them (launchParams).
type launchTemplate struct {
	ID          string            `json:"id"`
	Name        string            `json:"name"`
	Created     time.Time         `json:"created"`
	ClientToken string            `json:"clientToken,omitempty"`
	Description string            `json:"description,omitempty"`
	Data        map[string]string `json:"data"`
	Tags        []tag             `json:"tags,omitempty"`
}

// AWS: "A name for the launch template", 3 to 128 characters of [a-zA-Z0-9().-/_].
var templateName = regexp.MustCompile(`^[a-zA-Z0-9().\-/_]{3,128}$`)

// marketTypes are EC2's MarketType values.
var marketTypes = []string{"spot", "capacity-block", "interruptible-capacity-reservation", "on-demand"}

func (rs *regionState) template(f func(*launchTemplate) bool) *launchTemplate {
	return simcore.Find(rs.LaunchTemplates, f)
}

func createLaunchTemplate(s *Server, c *call) (*xmlBody, *apiError) {
	f := c.form
	name, e := f.required("LaunchTemplateName")
	if e != nil {
		return nil, e
	}
	if !templateName.MatchString(name) {
		return nil, errf(http.StatusBadRequest, "InvalidLaunchTemplateName.MalformedException",
			"A launch template name must be between 3 and 128 characters, and may contain letters, numbers, and the following characters: - ( ) . / _.'")
	}
	data := map[string]string{}
	for k := range f.v {
		if rest, ok := strings.CutPrefix(k, "LaunchTemplateData."); ok {
			data[rest] = f.str(k)
		}
	}
	if len(data) == 0 {
		return nil, missingParam("LaunchTemplateData")
	}
	if e := checkTemplateData(data); e != nil {
		return nil, e
	}
	desc := f.str("VersionDescription")
	if len(desc) > 255 {
		return nil, badParam("Value for parameter VersionDescription is invalid: at most 255 characters.")
	}
	tags, e := readTags(f, "launch-template")
	if e != nil {
		return nil, e
	}
	token := f.str("ClientToken")
	if len(token) > 128 {
		return nil, badParam("Value for parameter ClientToken is invalid: at most 128 characters.")
	}
	rs := s.region(c.region)
	if token != "" {
		if t := rs.template(func(t *launchTemplate) bool { return t.ClientToken == token }); t != nil {
			if t.Name != name {
				return nil, errf(http.StatusBadRequest, "IdempotentParameterMismatch", "The client token %s was used for launch template %s.", token, t.Name)
			}
			return templateReply(s, "launchTemplate", t), nil // an idempotent retry
		}
	}
	if rs.template(func(t *launchTemplate) bool { return t.Name == name }) != nil {
		return nil, errf(http.StatusBadRequest, "InvalidLaunchTemplateName.AlreadyExistsException",
			"Launch template name already in use.")
	}
	if c.dryRun {
		return nil, errDryRun
	}
	rs.Counter++
	t := &launchTemplate{ID: s.id("lt", c.region, "launch-template", rs.Counter), Name: name, Created: c.now,
		ClientToken: token, Description: desc, Data: data, Tags: tags}
	rs.LaunchTemplates = append(rs.LaunchTemplates, t)
	if e := s.core.Commit(); e != nil {
		return nil, e
	}
	return templateReply(s, "launchTemplate", t), nil
}

// checkTemplateData checks the few values of a template that EC2 validates when it is
// made and that a Capacity Block's template carries: the market type, the targeted
// reservation's id form, the tenancy and the instance type's form. The reservation's
// existence is checked at launch, as AWS does.
func checkTemplateData(data map[string]string) *apiError {
	if v, ok := data["InstanceMarketOptions.MarketType"]; ok && !slices.Contains(marketTypes, v) {
		return badParam("Value (%s) for parameter LaunchTemplateData.InstanceMarketOptions.MarketType is invalid. Allowed: %s.", v, strings.Join(marketTypes, ", "))
	}
	if v, ok := data["CapacityReservationSpecification.CapacityReservationTarget.CapacityReservationId"]; ok && !wellFormed("cr", v) {
		return reservationMalformed(v)
	}
	if v, ok := data["Placement.Tenancy"]; ok && !slices.Contains([]string{"default", "dedicated", "host"}, v) {
		return badParam("Value (%s) for parameter LaunchTemplateData.Placement.Tenancy is invalid. Allowed: default, dedicated, host.", v)
	}
	if v, ok := data["InstanceType"]; ok && !strings.Contains(v, ".") {
		return badParam("Value (%s) for parameter LaunchTemplateData.InstanceType is invalid.", v)
	}
	return nil
}

func templateReply(s *Server, elem string, t *launchTemplate) *xmlBody {
	var x xmlBody
	writeTemplate(&x, s.Account(), elem, t)
	return &x
}

func writeTemplate(x *xmlBody, account, elem string, t *launchTemplate) {
	x.open(elem)
	x.time("createTime", t.Created)
	x.str("createdBy", fmt.Sprintf("arn:aws:iam::%s:root", account))
	x.int("defaultVersionNumber", 1)
	x.int("latestVersionNumber", 1)
	x.str("launchTemplateId", t.ID)
	x.str("launchTemplateName", t.Name)
	x.tags("tagSet", t.Tags)
	x.close(elem)
}

func templateNotFoundByID(id string) *apiError {
	return errf(http.StatusBadRequest, "InvalidLaunchTemplateId.NotFound", "The specified launch template, with template ID %s, does not exist.", id)
}

func templateNotFoundByName(name string) *apiError {
	return errf(http.StatusBadRequest, "InvalidLaunchTemplateName.NotFoundException", "The specified launch template, with template name %s, does not exist.", name)
}

// lookupTemplate finds a template by id or by name (exactly one of them given).
func lookupTemplate(rs *regionState, id, name string) (*launchTemplate, *apiError) {
	if id != "" {
		if !wellFormed("lt", id) {
			return nil, errf(http.StatusBadRequest, "InvalidLaunchTemplateId.Malformed", "The specified ID for the launch template (%s) is not valid. IDs have the form lt-xxxxxxxxxxxxxxxxx.", id)
		}
		if t := rs.template(func(t *launchTemplate) bool { return t.ID == id }); t != nil {
			return t, nil
		}
		return nil, templateNotFoundByID(id)
	}
	if t := rs.template(func(t *launchTemplate) bool { return t.Name == name }); t != nil {
		return t, nil
	}
	return nil, templateNotFoundByName(name)
}

func describeLaunchTemplates(s *Server, c *call) (*xmlBody, *apiError) {
	ids, e := c.form.list("LaunchTemplateId")
	if e != nil {
		return nil, e
	}
	names, e := c.form.list("LaunchTemplateName")
	if e != nil {
		return nil, e
	}
	if (len(ids) > 0 || len(names) > 0) && c.form.has("MaxResults") {
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "MaxResults cannot be given with LaunchTemplateIds or LaunchTemplateNames.")
	}
	fs, e := c.form.knownFilters(filtersOf(c.action)...)
	if e != nil {
		return nil, e
	}
	rs := s.region(c.region)
	items := rs.LaunchTemplates
	if len(ids) > 0 || len(names) > 0 {
		items = nil
		for _, id := range ids {
			t, e := lookupTemplate(rs, id, "")
			if e != nil {
				return nil, e
			}
			items = append(items, t)
		}
		for _, n := range names {
			t, e := lookupTemplate(rs, "", n)
			if e != nil {
				return nil, e
			}
			if !slices.Contains(items, t) {
				items = append(items, t)
			}
		}
	}
	hits := matching(items, fs, func(t *launchTemplate, name string) []string {
		if v, ok := tagValues(t.Tags, name); ok {
			return v
		}
		switch name {
		case "create-time":
			return []string{formatTime(t.Created)}
		case "launch-template-name":
			return []string{t.Name}
		}
		return nil
	})
	return pageSet(s, c, hits, 1, "launchTemplates", func(x *xmlBody, t *launchTemplate) { writeTemplate(x, s.Account(), "item", t) })
}

func deleteLaunchTemplate(s *Server, c *call) (*xmlBody, *apiError) {
	id, name := c.form.str("LaunchTemplateId"), c.form.str("LaunchTemplateName")
	switch {
	case id == "" && name == "":
		return nil, missingParam("LaunchTemplateId or LaunchTemplateName")
	case id != "" && name != "":
		return nil, errf(http.StatusBadRequest, "InvalidParameterCombination", "Give either LaunchTemplateId or LaunchTemplateName, not both.")
	}
	rs := s.region(c.region)
	t, e := lookupTemplate(rs, id, name)
	if e != nil {
		return nil, e
	}
	if c.dryRun {
		return nil, errDryRun
	}
	rs.LaunchTemplates = slices.DeleteFunc(rs.LaunchTemplates, func(o *launchTemplate) bool { return o == t })
	if e := s.core.Commit(); e != nil {
		return nil, e
	}
	return templateReply(s, "launchTemplate", t), nil
}

// templateLists are the lists of RunInstances that a template may carry. AWS says the
// request's parameters overwrite the template's but not how lists combine; a request that
// gives any member of one replaces the template's whole list, never mixing the two, the
// safer reading.
var templateLists = []string{"BlockDeviceMapping", "ElasticGpuSpecification", "ElasticInferenceAccelerator",
	"LicenseSpecification", "NetworkInterface", "SecondaryInterface", "SecurityGroup", "SecurityGroupId", "TagSpecification"}

// launchParams answers the parameters RunInstances launches with: the request's own, or,
// given LaunchTemplate.*, its template's data overwritten by the request's parameters,
// structures member by member and lists whole (templateLists).
func launchParams(rs *regionState, f form) (form, *apiError) {
	gives := map[string]bool{} // the request's parameters, by their first name
	for k := range f.v {
		first, _, _ := strings.Cut(k, ".")
		gives[first] = true
	}
	if !gives["LaunchTemplate"] {
		return f, nil
	}
	// AWS documents that exactly one of the two is given, not the codes of the refusals:
	// these are DeleteLaunchTemplate's here.
	id, name := f.str("LaunchTemplate.LaunchTemplateId"), f.str("LaunchTemplate.LaunchTemplateName")
	switch {
	case id == "" && name == "":
		return form{}, missingParam("LaunchTemplate.LaunchTemplateId or LaunchTemplate.LaunchTemplateName")
	case id != "" && name != "":
		return form{}, errf(http.StatusBadRequest, "InvalidParameterCombination", "Give either LaunchTemplate.LaunchTemplateId or LaunchTemplate.LaunchTemplateName, not both.")
	}
	t, e := lookupTemplate(rs, id, name)
	if e != nil {
		return form{}, e
	}
	// A template has one version, 1, its latest and default. A version that is no number is
	// answered as one that does not exist: AWS's code for it is not documented.
	switch v := f.str("LaunchTemplate.Version"); v {
	case "", "$Latest", "$Default", "1":
	default:
		return form{}, errf(http.StatusBadRequest, "InvalidLaunchTemplateId.VersionNotFound",
			"The specified launch template version %s does not exist: launch template %s has version 1.", v, t.ID)
	}
	v := url.Values{}
	for k, val := range t.Data {
		if k == "RamDiskId" {
			k = "RamdiskId"
		}
		if first, _, _ := strings.Cut(k, "."); !gives[first] || !slices.Contains(templateLists, first) {
			v.Set(k, val)
		}
	}
	for k, vals := range f.v {
		if !strings.HasPrefix(k, "LaunchTemplate.") {
			v[k] = vals
		}
	}
	return form{v}, nil
}
