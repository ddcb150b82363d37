package results

import (
	"fmt"
	"strings"
)

// Markdown is a run as GitHub's job summary (GITHUB_STEP_SUMMARY) shows
// it: the closing line as a heading and, with rows, the totals, a table of
// the scenarios not as meant (with why), and the others folded away.
func Markdown(closing string, rows []Row) string {
	var b strings.Builder
	fmt.Fprintf(&b, "### %s\n\n", closing)
	if len(rows) == 0 {
		return b.String()
	}
	fmt.Fprintf(&b, "Scenarios: %s.\n\n", Totals(rows))
	var bad, good []Row
	for _, r := range Sorted(rows) {
		if r.NotAsMeant() {
			bad = append(bad, r)
		} else {
			good = append(good, r)
		}
	}
	row := func(r Row, why bool) {
		cs := "—"
		if len(r.Codes) > 0 {
			cs = "`" + strings.ReplaceAll(codes(r.Codes), " ", "` `") + "`"
		}
		departs := "—"
		if d := r.Departs(); d != "" {
			departs = "`" + mdEscape(string(d)) + "`"
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %s | %.1f s | %s |", mdEscape(r.ID), mdEscape(r.Verdict()), mdEscape(r.Meant.String()), cs, r.Seconds, departs)
		if why {
			lines := r.Why()
			for i := range lines {
				lines[i] = mdEscape(lines[i])
			}
			fmt.Fprintf(&b, " %s |", strings.Join(lines, "<br>"))
		}
		b.WriteString("\n")
	}
	head := "| scenario | verdict | meant to reach | codes | time | departs at |"
	if len(bad) > 0 {
		b.WriteString("**Not as meant** (evidence: the bundle's `index.html`):\n\n" + head + " why |\n| --- | --- | --- | --- | --- | --- | --- |\n")
		for _, r := range bad {
			row(r, true)
		}
		b.WriteString("\n")
	}
	if len(good) > 0 {
		fmt.Fprintf(&b, "<details><summary>%d scenario(s) as meant</summary>\n\n%s\n| --- | --- | --- | --- | --- | --- |\n", len(good), head)
		for _, r := range good {
			row(r, false)
		}
		b.WriteString("\n</details>\n\n")
	}
	return b.String()
}

func mdEscape(s string) string {
	return strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "\n", " ").Replace(s)
}
