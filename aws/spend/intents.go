package spend

import (
	"github.com/gpublock/gpublock/aws/awsapi"
	"github.com/gpublock/gpublock/aws/source"
	"github.com/gpublock/gpublock/model"
)

// Service is the one spend path over a client, for the sources whose journalled intents
// it settles.
type Service struct {
	c       *awsapi.Client
	intents []source.IntentSource
}

// New is the spend path over c. srcs are every source the program has, not only the one
// that spends: an intent any of them left open in a region is settled before anything
// else is bought there. It makes no call.
func New(c *awsapi.Client, srcs ...source.Source) *Service {
	sv := &Service{c: c}
	for _, s := range srcs {
		sv.intents = append(sv.intents, s.Intents())
	}
	return sv
}

// intentSourceOf is the source whose journal action this is.
func (sv *Service) intentSourceOf(action string) (source.IntentSource, bool) {
	for _, is := range sv.intents {
		if action == is.Purchase || action == is.Extend {
			return is, true
		}
	}
	return source.IntentSource{}, false
}

// intentsOf is the source s's part in settling.
func (sv *Service) intentsOf(s model.Source) (source.IntentSource, bool) {
	for _, is := range sv.intents {
		if is.Source == s {
			return is, true
		}
	}
	return source.IntentSource{}, false
}

// settles reports whether action is a spend whose intent SettleOpen must settle.
func (sv *Service) settles(action string) bool {
	_, ok := sv.intentSourceOf(action)
	return ok
}

// purchaseAction is the journal action of a purchase from s.
func (sv *Service) purchaseAction(s model.Source) string {
	is, _ := sv.intentsOf(s)
	return is.Purchase
}

// extendAction is the journal action of an extension from s.
func (sv *Service) extendAction(s model.Source) string {
	is, _ := sv.intentsOf(s)
	return is.Extend
}

// isExtendAction reports whether action extends something, of any source.
func (sv *Service) isExtendAction(action string) bool {
	is, ok := sv.intentSourceOf(action)
	return ok && is.Extend == action
}
