package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Report is what lint says of one page.
type Report struct {
	URL      string    `json:"url"`
	Findings []Finding `json:"findings"`
	// FramesUnread are the page's frames whose forms lint could not read
	// (another origin's documents): said, never read as clean.
	FramesUnread []string `json:"framesUnread,omitempty"`
	// Error says why the page could not be read; it then has no findings.
	Error string `json:"error,omitempty"`
}

// Counts answers how many findings of each severity.
func (r Report) Counts() map[Severity]int {
	out := map[Severity]int{Error: 0, Warning: 0, Info: 0}
	for _, f := range r.Findings {
		out[f.Severity]++
	}
	return out
}

// Fails tells whether any report has a finding at least as grave as at, or
// could not be read.
func Fails(reports []Report, at Severity) bool {
	for _, r := range reports {
		if r.Error != "" {
			return true
		}
		for _, f := range r.Findings {
			if f.Severity.Rank() >= at.Rank() {
				return true
			}
		}
	}
	return false
}

// TextPerRule is how many findings of one rule WriteText writes for a page
// before it folds the rest into one line.
const TextPerRule = 10

// WriteText writes one finding a line, `ID severity tool: message`, then a
// line of counts for each page ("-" stands for the tool of a finding about
// the page, or about a tool the browser refused before it had a name). A
// rule's findings come together; past TextPerRule of them the rest are one
// line, `ID severity …: and N more`, so that the text grows with the rules a
// page breaks, not with its tools (JSON and SARIF keep every finding).
func WriteText(w io.Writer, reports []Report) error {
	var b strings.Builder
	for _, r := range reports {
		if r.Error != "" {
			fmt.Fprintf(&b, "%s: not read: %s\n", r.URL, r.Error)
			continue
		}
		var order []string
		byRule := map[string][]Finding{}
		for _, f := range r.Findings {
			if _, ok := byRule[f.Rule]; !ok {
				order = append(order, f.Rule)
			}
			byRule[f.Rule] = append(byRule[f.Rule], f)
		}
		for _, id := range order {
			fs := byRule[id]
			for i, f := range fs {
				if i == TextPerRule && len(fs) > TextPerRule+1 {
					fmt.Fprintf(&b, "%s %s …: and %d more (--format json or sarif lists each)\n", f.Rule, f.Severity, len(fs)-TextPerRule)
					break
				}
				tool := f.Tool
				if tool == "" {
					tool = "-"
				}
				msg := f.Message
				if f.Frame != "" {
					msg += " [frame " + f.Frame + "]"
				}
				fmt.Fprintf(&b, "%s %s %s: %s\n", f.Rule, f.Severity, tool, msg)
			}
		}
		if len(r.FramesUnread) > 0 {
			fmt.Fprintf(&b, "%s: the forms of %d frame(s) of another origin were not read (their tools were, and Chromium's issues about them): %s\n",
				r.URL, len(r.FramesUnread), strings.Join(r.FramesUnread, ", "))
		}
		if len(r.Findings) == 0 {
			fmt.Fprintf(&b, "%s: no findings\n", r.URL)
			continue
		}
		c := r.Counts()
		fmt.Fprintf(&b, "%s: %d error(s), %d warning(s), %d info\n", r.URL, c[Error], c[Warning], c[Info])
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// WriteJSON writes {"pages": [reports]}.
func WriteJSON(w io.Writer, reports []Report) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(struct {
		Pages []Report `json:"pages"`
	}{reports})
}

// SARIF 2.1.0, as GitHub code scanning reads it: one run, the rules in
// tool.driver.rules, one result per finding with ruleId, ruleIndex, level,
// message and one location: the page's URL (and the line, when the browser
// named one of the page's own lines).
type (
	sarifLog struct {
		Schema  string     `json:"$schema"`
		Version string     `json:"version"`
		Runs    []sarifRun `json:"runs"`
	}
	sarifRun struct {
		Tool    sarifTool     `json:"tool"`
		Results []sarifResult `json:"results"`
	}
	sarifTool struct {
		Driver sarifDriver `json:"driver"`
	}
	sarifDriver struct {
		Name           string      `json:"name"`
		Version        string      `json:"version,omitempty"`
		InformationURI string      `json:"informationUri"`
		Rules          []sarifRule `json:"rules"`
	}
	sarifRule struct {
		ID                   string       `json:"id"`
		Name                 string       `json:"name"`
		ShortDescription     sarifMessage `json:"shortDescription"`
		FullDescription      sarifMessage `json:"fullDescription"`
		DefaultConfiguration struct {
			Level string `json:"level"`
		} `json:"defaultConfiguration"`
		HelpURI string `json:"helpUri"`
	}
	sarifMessage struct {
		Text string `json:"text"`
	}
	sarifResult struct {
		RuleID              string            `json:"ruleId"`
		RuleIndex           int               `json:"ruleIndex"`
		Level               string            `json:"level"`
		Message             sarifMessage      `json:"message"`
		Locations           []sarifLocation   `json:"locations"`
		PartialFingerprints map[string]string `json:"partialFingerprints"`
	}
	sarifLocation struct {
		PhysicalLocation struct {
			ArtifactLocation struct {
				URI string `json:"uri"`
			} `json:"artifactLocation"`
			Region *sarifRegion `json:"region,omitempty"`
		} `json:"physicalLocation"`
	}
	sarifRegion struct {
		StartLine int `json:"startLine"`
	}
)

// InformationURI is where the rules are documented.
const InformationURI = "https://github.com/agentready/agentready#lint-rules"

// SARIFLevel maps a severity to SARIF's level.
func SARIFLevel(s Severity) string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	}
	return "note"
}

// WriteSARIF writes the reports as one SARIF 2.1.0 log. A page that could
// not be read has no results (its error goes to the command's stderr).
func WriteSARIF(w io.Writer, reports []Report, version string) error {
	return WriteSARIFWith(w, reports, version, "agentready lint", nil)
}

// WriteSARIFWith is WriteSARIF for a tool named tool whose findings may
// come from rules beyond lint's own (extra: crawl's tool-drift).
func WriteSARIFWith(w io.Writer, reports []Report, version, tool string, extra []Rule) error {
	driver := sarifDriver{Name: tool, Version: version, InformationURI: InformationURI}
	index := map[string]int{}
	for i, r := range append(slices.Clone(rules), extra...) {
		sr := sarifRule{ID: r.ID, Name: ruleName(r.ID), ShortDescription: sarifMessage{r.Doc}, FullDescription: sarifMessage{r.Doc},
			HelpURI: InformationURI}
		sr.DefaultConfiguration.Level = SARIFLevel(r.Severity)
		driver.Rules = append(driver.Rules, sr)
		index[r.ID] = i
	}
	results := []sarifResult{}
	for _, r := range reports {
		for _, f := range r.Findings {
			text := f.Message
			if f.Tool != "" {
				text = fmt.Sprintf("%s: %s", f.Tool, text)
			}
			if f.Frame != "" {
				text += " [frame " + f.Frame + "]"
			}
			var loc sarifLocation
			loc.PhysicalLocation.ArtifactLocation.URI = r.URL
			if f.Line > 0 {
				loc.PhysicalLocation.Region = &sarifRegion{StartLine: f.Line}
			}
			sum := sha256.Sum256([]byte(strings.Join([]string{f.Rule, r.URL, f.Frame, f.Tool, f.Message}, "\x00")))
			results = append(results, sarifResult{RuleID: f.Rule, RuleIndex: index[f.Rule], Level: SARIFLevel(f.Severity),
				Message: sarifMessage{text}, Locations: []sarifLocation{loc},
				PartialFingerprints: map[string]string{"agentreadyFinding/v1": hex.EncodeToString(sum[:16])}})
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(sarifLog{
		Schema:  "https://json.schemastore.org/sarif-2.1.0.json",
		Version: "2.1.0",
		Runs:    []sarifRun{{Tool: sarifTool{Driver: driver}, Results: results}},
	})
}

// ruleName is the rule's ID in PascalCase, as SARIF's rule names are.
func ruleName(id string) string {
	var b strings.Builder
	for _, w := range strings.Split(id, "-") {
		if w != "" {
			b.WriteString(strings.ToUpper(w[:1]) + w[1:])
		}
	}
	return b.String()
}
