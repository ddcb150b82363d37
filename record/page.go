package record

// Element is what a person (and a checker) can see of one element.
type Element struct {
	Selector         string `json:"selector"`
	Present          bool   `json:"present"`
	Visible          bool   `json:"visible"`
	Enabled          bool   `json:"enabled"`
	Value            string `json:"value,omitempty"`
	Text             string `json:"text,omitempty"`
	ToolFormActive   bool   `json:"toolFormActive"`
	ToolSubmitActive bool   `json:"toolSubmitActive"`
	// Checked is a checkbox's or radio button's state, or aria-checked="true".
	Checked bool `json:"checked"`
	// Count is how many elements the selector matches.
	Count int `json:"count"`
	// Attributes are the element's attributes as written in the DOM (each
	// value at most 500 characters).
	Attributes map[string]string `json:"attributes,omitempty"`
}

// ConsoleEntry is one console error or exception.
type ConsoleEntry struct {
	Type string `json:"type"`
	Text string `json:"text"`
	URL  string `json:"url,omitempty"`
	Line int64  `json:"line,omitempty"`
}
