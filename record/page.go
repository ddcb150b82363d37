package record

// Element is what a person (and a checker) can see of one element. Frame,
// when set, names the frame the selector was read in (as the expectation
// wrote it); otherwise it is the top document.
type Element struct {
	Frame            string `json:"frame,omitempty"`
	Selector         string `json:"selector"`
	Present          bool   `json:"present"`
	Visible          bool   `json:"visible"`
	Enabled          bool   `json:"enabled"`
	Value            string `json:"value,omitempty"`
	Text             string `json:"text,omitempty"`
	ToolFormActive   bool   `json:"toolFormActive"`
	ToolSubmitActive bool   `json:"toolSubmitActive"`
}

// ConsoleEntry is one console error or exception.
type ConsoleEntry struct {
	Type string `json:"type"`
	Text string `json:"text"`
	URL  string `json:"url,omitempty"`
	Line int64  `json:"line,omitempty"`
}
