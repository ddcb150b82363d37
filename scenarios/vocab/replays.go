package vocab

// ReplayKind names one way the suite replays a recorded write as an
// attacker would (the replay catalogue of scenarios/README.md).
type ReplayKind string

// The replay kinds, in the order a run performs them: those that must
// change nothing first, those that need a fresh confirmation after, and
// the expiry last, because the app's clock only moves forward.
const (
	ReplayNoSession    ReplayKind = "no_session"
	ReplayNoCSRF       ReplayKind = "no_csrf"
	ReplayStale        ReplayKind = "stale"
	ReplayAgain        ReplayKind = "again"
	ReplayOtherSession ReplayKind = "other_session"
	ReplayRace         ReplayKind = "race"
	ReplayExpired      ReplayKind = "expired"
	// The tampering kinds (issue 44): the person's own request, one part
	// of it changed as a parameter-tampering attacker changes it.
	ReplayOtherToken  ReplayKind = "other_token"
	ReplayDropField   ReplayKind = "drop_field"
	ReplayOtherObject ReplayKind = "other_object"
	ReplayOtherTarget ReplayKind = "other_target"
)

// ReplayControl is not an attack: the write a kind sends with a fresh
// confirmation, sent as the person, which must be accepted for any such
// kind to show something.
const ReplayControl ReplayKind = "control"

// ReplayKinds lists every kind in the order a run performs them.
var ReplayKinds = []ReplayKind{ReplayNoSession, ReplayNoCSRF, ReplayOtherToken, ReplayStale, ReplayDropField, ReplayOtherObject, ReplayOtherTarget, ReplayAgain, ReplayOtherSession, ReplayRace, ReplayExpired}

// Tampering tells whether k is one of the parameter-tampering kinds, each
// of which may be sent once per part it changes (a field, an id).
func (k ReplayKind) Tampering() bool {
	switch k {
	case ReplayOtherToken, ReplayDropField, ReplayOtherObject, ReplayOtherTarget:
		return true
	}
	return false
}

// ReplayOutcome is what a replay's answer must be.
type ReplayOutcome string

// Refused: a status of 400 or more (and, when given, the status and code
// written). Idempotent: any answer, as long as the app's state shows no
// second effect.
const (
	ReplayRefused    ReplayOutcome = "refused"
	ReplayIdempotent ReplayOutcome = "idempotent"
)
