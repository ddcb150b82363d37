package runner

import (
	"errors"
	"fmt"
	"testing"

	"github.com/chromedp/cdproto"
)

// A look that failed because its document went away is no fault of the
// wait (SIGNUP-01 flaked on a busy machine when a wait_for's look met the
// sign-up POST's navigation); any other failure is.
func TestALookMidNavigationIsLookedAgain(t *testing.T) {
	for err, want := range map[error]bool{
		nil: false,
		&cdproto.Error{Code: -32000, Message: "Inspected target navigated or closed"}:                         true,
		fmt.Errorf("evaluate: %w", &cdproto.Error{Code: -32000, Message: "Execution context was destroyed."}): true,
		&cdproto.Error{Code: -32000, Message: "Cannot find context with specified id"}:                        true,
		errors.New("SyntaxError: missing ) after argument list"):                                              false,
		&cdproto.Error{Code: -32601, Message: "'Runtime.evaluate' wasn't found"}:                              false,
	} {
		if got := midNavigation(err); got != want {
			t.Errorf("midNavigation(%v) = %v, want %v", err, got, want)
		}
	}
}
