package vocab

import (
	"maps"
	"slices"
	"strings"
	"testing"

	"github.com/agentready/agentready/internal/kit/mdtable"
)

// Every code, from each source that raises it, lands on a link of the
// chain: a diagnosis never has a check it cannot place.
func TestEveryCodeFromEachOfItsSourcesHasALink(t *testing.T) {
	if len(Codes) == 0 {
		t.Fatal("no codes: the check would pass on nothing")
	}
	for code, info := range Codes {
		for _, src := range info.Sources {
			if l := LinkOf(code, src); l.Index() < 0 {
				t.Errorf("%s from %s: link %q is not in the chain", code, src, l)
			}
		}
	}
	// A passing check has no code: its source alone places it.
	for _, src := range Sources {
		if l := LinkOf("", src); l.Index() < 0 {
			t.Errorf("a passing check from %s: link %q is not in the chain", src, l)
		}
	}
	if l := LinkOf("", "nowhere"); l != "" {
		t.Errorf("a source that is not one is placed at %q", l)
	}
}

func TestTheChainIsInOrderAndEachLinkOnce(t *testing.T) {
	want := []Link{LinkCase, LinkInput, LinkTrace, LinkPage, LinkRequest, LinkServer, LinkAnswer}
	var got []Link
	for i, info := range Chain {
		got = append(got, info.Link)
		if info.Link.Index() != i || info.Link.Holds() == "" {
			t.Errorf("%s: index %d, holds %q", info.Link, info.Link.Index(), info.Link.Holds())
		}
	}
	if !slices.Equal(got, want) {
		t.Errorf("chain %v, want %v", got, want)
	}
}

// Where each code lands, as the decision note places it: by the code where
// its meaning decides, by the source where it does not.
func TestTheCodesLandWhereTheirMeaningSays(t *testing.T) {
	for _, c := range []struct {
		code Code
		src  Source
		want Link
	}{
		{InputViolatesSchema, SrcTrace, LinkInput},
		{ToolNotInCatalog, SrcCatalog, LinkInput},
		{ToolNotInCatalog, SrcTrace, LinkInput},
		{WrongToolInput, SrcTrace, LinkInput},
		{DeclarativeCompletionMissing, SrcTrace, LinkTrace},
		{EvidenceDisagrees, SrcTrace, LinkTrace},
		{EvidenceDisagrees, SrcCatalog, LinkPage},
		{EvidenceDisagrees, SrcNetwork, LinkRequest},
		{EvidenceDisagrees, SrcJournal, LinkServer},
		{ToolError, SrcTrace, LinkPage},
		{UnexpectedResult, SrcCatalog, LinkPage},
		{ValidInputRefused, SrcTrace, LinkPage},
		{PageIncomplete, SrcNetwork, LinkPage},
		{SubmittedNotReviewed, SrcUI, LinkRequest},
		{ContentMismatch, SrcNetwork, LinkRequest},
		{RequestCountMismatch, SrcNetwork, LinkRequest},
		{RequestCountMismatch, SrcJournal, LinkServer},
		{RequestStatusMismatch, SrcJournal, LinkServer},
		{WriteAttempt, SrcNetwork, LinkRequest},
		{WriteAttempt, SrcJournal, LinkServer},
		{SideEffectBeforeConfirmation, SrcNetwork, LinkRequest},
		{SideEffectBeforeConfirmation, SrcJournal, LinkServer},
		{ServerRuleBroken, SrcNetwork, LinkServer},
		{StateChanged, SrcState, LinkServer},
		{NoClarifyingQuestion, SrcAnswer, LinkAnswer},
		{CaseIncomplete, SrcCase, LinkCase},
		{EvidenceMissing, SrcNetwork, LinkRequest},
		{EvidenceMissing, SrcUI, LinkPage},
	} {
		if got := LinkOf(c.code, c.src); got != c.want {
			t.Errorf("%s from %s: %s, want %s", c.code, c.src, got, c.want)
		}
	}
}

// linkRows renders the README's link table from the chain and the codes:
// each code once per link it lands on, with the sources that put it there
// when not all of its sources do.
func linkRows() map[Link][2]string {
	rows := map[Link][2]string{}
	for _, info := range Chain {
		var cells []string
		for _, code := range slices.Sorted(maps.Keys(Codes)) {
			if code.Fault() {
				// A verdict with a harness fault is never a FAIL, so it has
				// no diagnosis to place the fault's checks in.
				continue
			}
			var here []string
			for _, src := range Codes[code].Sources {
				if LinkOf(code, src) == info.Link {
					here = append(here, string(src))
				}
			}
			switch {
			case len(here) == 0:
			case len(here) == len(Codes[code].Sources):
				cells = append(cells, "`"+string(code)+"`")
			default:
				cells = append(cells, "`"+string(code)+"` ("+strings.Join(here, ", ")+")")
			}
		}
		rows[info.Link] = [2]string{info.Holds, strings.Join(cells, ", ")}
	}
	return rows
}

// TestTheReadmeListsTheLinks keeps scenarios/README.md's link table equal
// to the chain and to where LinkOf places each code.
func TestTheReadmeListsTheLinks(t *testing.T) {
	rows, err := mdtable.Rows("../README.md", "Where a failure departs", 3)
	if err != nil {
		t.Fatal(err)
	}
	var order []Link
	got := map[Link][2]string{}
	for _, cells := range rows {
		l := Link(strings.Trim(cells[0], "`"))
		order = append(order, l)
		got[l] = [2]string{cells[1], cells[2]}
	}
	var chain []Link
	for _, info := range Chain {
		chain = append(chain, info.Link)
	}
	if !slices.Equal(order, chain) {
		t.Errorf("README lists the links %v, the chain is %v", order, chain)
	}
	for l, want := range linkRows() {
		if got[l] != want {
			t.Errorf("%s: README says\n  | %s | %s |\nthe chain and LinkOf say\n  | `%s` | %s | %s |", l, got[l][0], got[l][1], l, want[0], want[1])
		}
	}
}

// Where the codes whose meaning fixes their link land, whatever raised
// them, and where a source decides: pinned one by one, so that a code
// dropped from the table (and so placed by its source alone) is seen.
func TestTheLinksOfCodesThatDecideTheirPlace(t *testing.T) {
	for _, tc := range []struct {
		code Code
		src  Source
		want Link
	}{
		{InputViolatesSchema, SrcTrace, LinkInput},
		{WrongToolInput, SrcTrace, LinkInput},
		{UnexpectedToolCall, SrcTrace, LinkInput},
		{MissingToolCall, SrcTrace, LinkInput},
		{ToolNotInCatalog, SrcCatalog, LinkInput},
		{DeclarativeCompletionMissing, SrcTrace, LinkTrace},
		{EvidenceDisagrees, SrcTrace, LinkTrace},
		{ToolError, SrcTrace, LinkPage},
		{UnexpectedResult, SrcTrace, LinkPage},
		{ValidInputRefused, SrcTrace, LinkPage},
		{UIMismatch, SrcUI, LinkPage},
		{CatalogMismatch, SrcCatalog, LinkPage},
		{ContentMismatch, SrcNetwork, LinkRequest},
		{SubmittedNotReviewed, SrcNetwork, LinkRequest},
		{SubmittedNotReviewed, SrcUI, LinkRequest},
		{SideEffectBeforeConfirmation, SrcNetwork, LinkRequest},
		{SideEffectBeforeConfirmation, SrcJournal, LinkServer},
		{RequestCountMismatch, SrcNetwork, LinkRequest},
		{RequestCountMismatch, SrcJournal, LinkServer},
		{WriteAttempt, SrcNetwork, LinkRequest},
		{WriteAttempt, SrcJournal, LinkServer},
		{StateChanged, SrcState, LinkServer},
		{ServerRuleBroken, SrcNetwork, LinkServer},
		{AnswerOverclaims, SrcAnswer, LinkAnswer},
		{NoClarifyingQuestion, SrcAnswer, LinkAnswer},
		{CaseIncomplete, SrcCase, LinkCase},
	} {
		if got := LinkOf(tc.code, tc.src); got != tc.want {
			t.Errorf("%s from %s: at %s, want %s", tc.code, tc.src, got, tc.want)
		}
	}
}
