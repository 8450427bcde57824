package aws

import (
	"context"
	"sync"

	"github.com/gpublock/gpublock/model"
)

// IntentSettler finds out what became of one of its source's journalled intents whose
// outcome was never written: whether it was bought, and what (a plan's ARN).
type IntentSettler func(ctx context.Context, e JournalEntry) (bought bool, result string, err error)

// IntentSource is how another capacity source's package takes part in the settling of
// the journal: its journal actions, and the settler it builds over a Client. It
// registers itself once (RegisterIntentSource, from its init), so that package aws need
// not import it.
type IntentSource struct {
	Source   model.Source
	Purchase string // the journal action of a purchase (CreateTrainingPlan)
	Extend   string // the journal action of an extension (ExtendTrainingPlan)
	Noun     string // what the source sells, in a sentence ("training plan")
	Settler  func(*Client) IntentSettler
}

var (
	intentMu      sync.RWMutex
	intentSources = map[string]IntentSource{} // by journal action
)

// RegisterIntentSource makes SettleOpen settle the source's intents too.
func RegisterIntentSource(s IntentSource) {
	intentMu.Lock()
	defer intentMu.Unlock()
	intentSources[s.Purchase] = s
	intentSources[s.Extend] = s
}

// intentSourceOf is the registered source of a journal action.
func intentSourceOf(action string) (IntentSource, bool) {
	intentMu.RLock()
	defer intentMu.RUnlock()
	s, ok := intentSources[action]
	return s, ok
}

// settles reports whether action is a spend whose intent SettleOpen must settle.
func settles(action string) bool {
	if action == actionPurchase || action == actionExtend {
		return true
	}
	_, ok := intentSourceOf(action)
	return ok
}

// purchaseAction is the journal action of a purchase from source.
func purchaseAction(s model.Source) string {
	if s == model.SourceCapacityBlock {
		return actionPurchase
	}
	intentMu.RLock()
	defer intentMu.RUnlock()
	for _, is := range intentSources {
		if is.Source == s {
			return is.Purchase
		}
	}
	return ""
}

// extendAction is the journal action of an extension from source.
func extendAction(s model.Source) string {
	if s == model.SourceCapacityBlock {
		return actionExtend
	}
	intentMu.RLock()
	defer intentMu.RUnlock()
	for _, is := range intentSources {
		if is.Source == s {
			return is.Extend
		}
	}
	return ""
}

// isExtendAction reports whether action extends something, of any source.
func isExtendAction(action string) bool {
	if action == actionExtend {
		return true
	}
	s, ok := intentSourceOf(action)
	return ok && s.Extend == action
}
