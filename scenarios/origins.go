package scenarios

import (
	"slices"

	"github.com/agentready/agentready/internal/data/record"
)

// OfApp tells whether a request to raw is the app's own: of the base URL's
// origin, or of one the scenario declares in origins (its API on another
// host). The one rule of what the app's request is, for the runner (whose
// bodies it keeps, which writes it replays) and the judge (writes, the
// witnesses, reviews, the attack line's off-origin list): issue 43 item 5.
// guarded and requests name their request lines, and count them on any
// origin.
func (sc Scenario) OfApp(base, raw string) bool {
	return record.SameOrigin(base, raw) || slices.ContainsFunc(sc.Origins, func(o string) bool { return record.SameOrigin(o, raw) })
}
