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
)

// ReplayControl is not an attack: the write a kind sends with a fresh
// confirmation, sent as the person, which must be accepted for any such
// kind to show something.
const ReplayControl ReplayKind = "control"

// ReplayKinds lists every kind in the order a run performs them.
var ReplayKinds = []ReplayKind{ReplayNoSession, ReplayNoCSRF, ReplayStale, ReplayAgain, ReplayOtherSession, ReplayRace, ReplayExpired}

// ReplayOutcome is what a replay's answer must be.
type ReplayOutcome string

// Refused: a status of 400 or more (and, when given, the status and code
// written). Idempotent: any answer, as long as the app's state shows no
// second effect.
const (
	ReplayRefused    ReplayOutcome = "refused"
	ReplayIdempotent ReplayOutcome = "idempotent"
)
