package vocab

// Link names one step of the recorded chain a run goes through, from the
// fixed inputs to the agent's final words. A failing verdict is located at
// the first link where the evidence departs from what the scenario expects
// (docs/decisions/2026-11-30-diagnosis.md): the link says where, never why.
type Link string

// The links of the chain.
const (
	LinkCase    Link = "case"
	LinkInput   Link = "input"
	LinkTrace   Link = "trace"
	LinkPage    Link = "page"
	LinkRequest Link = "request"
	LinkServer  Link = "server"
	LinkAnswer  Link = "answer"
)

// LinkInfo says what the record holds at a link.
type LinkInfo struct {
	Link  Link
	Holds string
}

// Chain is every link, declared once, in the order a run passes them.
// scenarios/README.md has the same table; a test keeps the two equal.
var Chain = []LinkInfo{
	{LinkCase, "the fixed inputs: the prompt and its data"},
	{LinkInput, "what the agent sent: which tools it called and with what input, as recorded"},
	{LinkTrace, "the browser's record of the invocations: their lifecycle, and the transcript agreeing with the trace"},
	{LinkPage, "what the page answered and showed: tool results, the catalog and its schemas, the UI, the page's URL"},
	{LinkRequest, "what went over the network: request counts, statuses and bodies, what was submitted against what was reviewed"},
	{LinkServer, "the app's own record: its journal, its state, the rules the server holds"},
	{LinkAnswer, "the agent's final words"},
}

// Index is the link's place in the chain, from 0; -1 for a word that is
// not a link.
func (l Link) Index() int {
	for i, info := range Chain {
		if info.Link == l {
			return i
		}
	}
	return -1
}

// Holds says what the record holds at the link ("" for a word that is not one).
func (l Link) Holds() string {
	if i := l.Index(); i >= 0 {
		return Chain[i].Holds
	}
	return ""
}

// linkOfCode places the codes whose meaning fixes their link, whatever
// source raised them.
var linkOfCode = map[Code]Link{
	UnexpectedToolCall:  LinkInput,
	MissingToolCall:     LinkInput,
	WrongToolInput:      LinkInput,
	InputViolatesSchema: LinkInput,
	ToolNotInCatalog:    LinkInput,

	DeclarativeCompletionMissing: LinkTrace,

	ToolError:            LinkPage,
	ToolLate:             LinkPage,
	UnexpectedResult:     LinkPage,
	ValidInputRefused:    LinkPage,
	UIMismatch:           LinkPage,
	UINotState:           LinkPage,
	CatalogMismatch:      LinkPage,
	SchemaMismatch:       LinkPage,
	ContractBroken:       LinkPage,
	PageIncomplete:       LinkPage,
	UnexpectedDialog:     LinkPage,
	DialogMissing:        LinkPage,
	EmbedderToolsVisible: LinkPage,
	ToolOffered:          LinkPage,
	ToolNotOffered:       LinkPage,

	ContentMismatch:      LinkRequest,
	SubmittedNotReviewed: LinkRequest,

	StateChanged:     LinkServer,
	StateMismatch:    LinkServer,
	ServerRuleBroken: LinkServer,

	ReplayAccepted:        LinkServer,
	ExpiredReplayAccepted: LinkServer,
	ReplaySecondEffect:    LinkServer,
	RaceLostUpdate:        LinkServer,
	OtherTokenAccepted:    LinkServer,
	DroppedFieldAccepted:  LinkServer,
	OtherObjectAccepted:   LinkServer,
	OtherTargetAccepted:   LinkServer,

	AnswerOverclaims:     LinkAnswer,
	AnswerIncomplete:     LinkAnswer,
	NoClarifyingQuestion: LinkAnswer,

	CaseIncomplete: LinkCase,
}

// linkOfSource places a check by where its evidence comes from, when its
// code does not decide: a guarded write, a count, a status or a write
// attempt is the request's when the network log saw it and the server's
// when the app's journal did; two sources that disagree are placed at the
// source that raised the check; a passing check has no code at all.
var linkOfSource = map[Source]Link{
	SrcCase:    LinkCase,
	SrcCatalog: LinkPage,
	SrcTrace:   LinkTrace,
	SrcNetwork: LinkRequest,
	SrcJournal: LinkServer,
	SrcState:   LinkServer,
	SrcUI:      LinkPage,
	SrcAnswer:  LinkAnswer,
}

// LinkOf places a check's code and source on the chain: by the code where
// its meaning decides, else by the source. It answers "" only for a source
// that is not one.
func LinkOf(code Code, src Source) Link {
	if l, ok := linkOfCode[code]; ok {
		return l
	}
	return linkOfSource[src]
}
