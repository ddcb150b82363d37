package judge

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// judgeInputs holds each agent call's input against the schema the tool
// declared when it was called (Chromium checks an imperative tool's input
// against nothing). An input the schema refuses is the agent's fault; an
// input the schema allows that the page then refuses as invalid is the
// app's: two findings, two codes.
func (j *judge) judgeInputs() {
	for _, c := range j.agentCalls() {
		tool, declaredAt, ok := j.toolAtCall(c)
		if !ok || len(tool.InputSchema) == 0 {
			continue
		}
		schema, err := compileSchema(tool.InputSchema)
		if err != nil {
			continue // a schema that does not compile is the lint rule schema-shape's finding
		}
		id := fmt.Sprintf("call.%s[%d].%s.input", c.Phase, c.Index, c.Call.Tool)
		// The call, and where its schema was declared: the trace event that
		// offered the tool, or the start page's catalog.
		refs := []scenarios.Ref{callRef(c), declaredAt}
		if err := schema.Validate(record.Normalize(nonNilMap(c.Call.Input))); err != nil {
			j.fail(id, vocab.SrcTrace, vocab.InputViolatesSchema, nil, nil,
				"the agent's input breaks "+c.Call.Tool+"'s declared schema: "+schemaErrors(err)).at(refs...)
			continue
		}
		if tool.Declarative && c.Result.Status == vocab.Failed && strings.HasPrefix(c.Result.ErrorText, browserFormValidation) {
			// The browser's own constraint validation refused the values
			// before the page saw them: Chromium's schema of a form leaves
			// the field's constraint out (an email's @), and the page had no
			// say. Not the page's refusal; the call's outcome is judged
			// where the call is.
			j.pass(id, vocab.SrcTrace, nil, nil, "the input fits "+c.Call.Tool+"'s schema; the browser's form validation refused it before the page saw it: "+c.Result.ErrorText).at(refs...)
			continue
		}
		if refused, why := refusedInput(c.Result); refused {
			j.fail(id, vocab.SrcTrace, vocab.ValidInputRefused, "accepted", c.Result.Status,
				c.Call.Tool+" refused an input its own schema allows: "+why).at(refs...)
			continue
		}
		j.pass(id, vocab.SrcTrace, nil, nil, "the input fits "+c.Call.Tool+"'s schema").at(refs...)
	}
}

// browserFormValidation starts Chromium 156's error for a declarative
// tool's call whose values the form's own constraint validation refused.
const browserFormValidation = "UnknownError: Form validation failed:"

// toolAtCall finds the tool as the catalog had it when the call was made
// (the browser's trace up to its toolInvoked), else on the start page, and
// answers where it was declared: the last tools_added event that offered
// it, or the catalog.
func (j *judge) toolAtCall(c scenarios.CallRecord) (record.Tool, scenarios.Ref, bool) {
	if c.Result.InvocationID != "" {
		i := slices.IndexFunc(j.ev.Trace, func(e record.Event) bool {
			return e.Kind == record.ToolInvoked && e.InvocationID == c.Result.InvocationID
		})
		if i >= 0 {
			// The tool the invocation ran: its frame's, not another frame's
			// of the same name.
			if t, ok := record.CatalogAt(j.ev.Trace, i).GetIn(c.Call.Tool, j.ev.Trace[i].FrameID); ok {
				for k := i - 1; k >= 0; k-- {
					e := j.ev.Trace[k]
					if e.Kind == record.ToolsAdded && slices.ContainsFunc(e.Tools, func(x record.Tool) bool { return x.Name == t.Name && x.FrameID == t.FrameID }) {
						return t, scenarios.TraceRef(k), true
					}
				}
				return t, scenarios.CatalogRef(), true
			}
		}
	}
	t, ok := j.ev.Catalog.Get(c.Call.Tool)
	return t, scenarios.CatalogRef(), ok
}

// schemaErrors says every rule an input breaks, in one order: the
// validator visits an object's properties in Go's map order, so its causes
// (and the names of additional properties) come in a random one, and the
// same input would give another message on every judging.
func schemaErrors(err error) string {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return oneLine(err.Error())
	}
	canonical(ve)
	return oneLine(ve.Error())
}

// canonical sorts a validation error's causes (by where in the input, then
// by what they say) and the names it lists, at every depth.
func canonical(e *jsonschema.ValidationError) {
	if ap, ok := e.ErrorKind.(*kind.AdditionalProperties); ok {
		slices.Sort(ap.Properties)
	}
	for _, c := range e.Causes {
		canonical(c)
	}
	slices.SortStableFunc(e.Causes, func(a, b *jsonschema.ValidationError) int {
		return cmp.Or(slices.Compare(a.InstanceLocation, b.InstanceLocation), strings.Compare(a.Error(), b.Error()))
	})
}

// refusedInput tells whether an answer refuses the call's input as invalid:
// an error that names a parameter or invalid input, or an object whose code
// says so (INVALID_PARAMS and the like). Narrower than record.Refused: a
// tool whose job is to report errors (a form checker) is not refusing its
// input by answering them.
func refusedInput(res record.Result) (bool, string) {
	if res.Status == vocab.Failed {
		return inputError.MatchString(res.ErrorText), "the call ended error: " + res.ErrorText
	}
	var obj struct {
		Code string `json:"code"`
	}
	if json.Unmarshal(res.Output, &obj) == nil && invalidCode.MatchString(obj.Code) {
		return true, "code " + obj.Code
	}
	return false, ""
}

func compileSchema(raw json.RawMessage) (*jsonschema.Schema, error) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, err
	}
	// An absolute name: a relative one is resolved against the working
	// folder, which would end up in messages and change a verdict's bytes.
	const name = "urn:agentready:input-schema"
	c := jsonschema.NewCompiler()
	if err := c.AddResource(name, doc); err != nil {
		return nil, err
	}
	return c.Compile(name)
}
