package vocab

// DialogKind is the kind of a JavaScript dialog, as the browser reports it
// (Page.javascriptDialogOpening).
type DialogKind string

// The dialog kinds.
const (
	DialogAlert        DialogKind = "alert"
	DialogConfirm      DialogKind = "confirm"
	DialogPrompt       DialogKind = "prompt"
	DialogBeforeUnload DialogKind = "beforeunload"
)

// DialogKinds lists every kind.
var DialogKinds = []DialogKind{DialogAlert, DialogConfirm, DialogPrompt, DialogBeforeUnload}

// Valid tells whether k is a kind a scenario may name ("" is any kind).
func (k DialogKind) Valid() bool {
	switch k {
	case "", DialogAlert, DialogConfirm, DialogPrompt, DialogBeforeUnload:
		return true
	}
	return false
}

// DialogPolicy is how the harness answers a dialog: accept (OK, a prompt
// gets its default text) or dismiss (Cancel). A beforeunload prompt is
// always accepted, so that leaving a page never blocks.
type DialogPolicy string

// The policies.
const (
	DialogDismiss DialogPolicy = "dismiss" // the default
	DialogAccept  DialogPolicy = "accept"
)

// Valid tells whether p is a policy a scenario may name ("" is the default).
func (p DialogPolicy) Valid() bool { return p == "" || p == DialogDismiss || p == DialogAccept }

// OrDefault answers p, or DialogDismiss when p is empty.
func (p DialogPolicy) OrDefault() DialogPolicy {
	if p == "" {
		return DialogDismiss
	}
	return p
}

// Accepts tells whether a dialog of kind k is accepted under p.
func (p DialogPolicy) Accepts(k DialogKind) bool {
	return k == DialogBeforeUnload || p.OrDefault() == DialogAccept
}
