package e2e

import (
	"bytes"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"

	"github.com/chromedp/chromedp"
	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/e2e/matchers"
	"github.com/agentready/agentready/internal/evidence/bundle"
	"github.com/agentready/agentready/internal/evidence/redact/redacttest"
	"github.com/agentready/agentready/scenarios"
	"github.com/agentready/agentready/scenarios/vocab"
)

var _ = Own("Evidence bundles", MarkBundle, func() {
	It("verify offline, anywhere, and name any file that was changed, removed or added", framework.Timeout, func(ctx SpecContext) {
		sc, err := scenarios.Load("../" + scenarios.DefaultDir + "/CONF-01.attempt-3.yaml")
		Expect(err).NotTo(HaveOccurred())
		sc.ID = "bundle-check.CONF-01.attempt-3"
		Expect(framework.RunScenario(ctx, sc)).To(matchers.HaveVerdict(vocab.Pass))
		dir := filepath.Join(framework.Run.Dir, sc.ID)
		Expect(bundle.Verify(dir).OK).To(BeTrue(), "%+v", bundle.Verify(dir).Problems)

		elsewhere := copyDir(dir, filepath.Join(GinkgoT().TempDir(), "another", "checkout", "bundle"))
		moved := bundle.Verify(elsewhere)
		Expect(moved.OK).To(BeTrue(), "%+v", moved.Problems)
		Expect(moved.Outcome).To(Equal(vocab.Pass))

		entries, err := os.ReadDir(dir)
		Expect(err).NotTo(HaveOccurred())
		Expect(len(entries)).To(BeNumerically(">=", 14))
		for _, e := range entries {
			if e.Name() == bundle.ManifestFile {
				continue
			}
			tampered := copyDir(dir, filepath.Join(GinkgoT().TempDir(), "tampered"))
			path := filepath.Join(tampered, e.Name())
			data, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			data[len(data)/2] ^= 0x01
			Expect(os.WriteFile(path, data, 0o644)).To(Succeed())
			Expect(problemFiles(bundle.Verify(tampered))).To(ConsistOf(e.Name()), "one changed byte in %s", e.Name())
		}

		gone := copyDir(dir, filepath.Join(GinkgoT().TempDir(), "gone"))
		Expect(os.Remove(filepath.Join(gone, bundle.RequestsFile))).To(Succeed())
		Expect(problemFiles(bundle.Verify(gone))).To(ConsistOf(bundle.RequestsFile))

		extra := copyDir(dir, filepath.Join(GinkgoT().TempDir(), "extra"))
		Expect(os.WriteFile(filepath.Join(extra, "notes.txt"), []byte("hi"), 0o644)).To(Succeed())
		Expect(problemFiles(bundle.Verify(extra))).To(ConsistOf("notes.txt"))
	})

	It("hold no planted personal data or credential anywhere, the HAR included", framework.Timeout, func(ctx SpecContext) {
		const name, email = "Canary Quokka-7f3a", "quokka.7f3a@canary.example"
		// Phone numbers in seven forms, none of them a prompt_data value or
		// a personal parameter: only the phone patterns can find them. They
		// go into the prompt (scenario.json, index.html), the final words
		// (run.json, verdict.json, index.html) and, escaped three ways, the
		// start page's query (requests.json; network.har decodes the query
		// string, so a spelling the redaction missed shows there as is).
		const (
			dashed, parens, dotted, spaced = "555-123-4567", "(555) 123-4567", "555.123.4567", "555 123 4567"
			plusOne, plusUK, plusDE        = "+1 555 123 4567", "+44 20 7946 0958", "+49-30-1234567"
		)
		phones := []string{dashed, parens, dotted, spaced, plusOne, plusUK, plusDE}
		sc, err := scenarios.Load("../" + scenarios.DefaultDir + "/CONF-01.attempt-3.yaml")
		Expect(err).NotTo(HaveOccurred())
		sc.ID = "bundle-canary"
		sc.Prompt = strings.NewReplacer("測試讀者", name, "reader@example.com", email).Replace(sc.Prompt) +
			" If anything is unclear, call me at " + dashed + ", " + parens + " or " + plusOne + "."
		sc.PromptData = map[string]scenarios.PromptValue{"attendeeName": {Value: name, Personal: true}, "email": {Value: email}}
		sc.Start += "?callback=" + url.QueryEscape(plusDE) + "&alt=" + url.QueryEscape(spaced) + "&intl=" + strings.ReplaceAll(url.PathEscape(plusUK), "+", "%2B")
		sc.Agent.Calls[0].Input = map[string]any{"attendeeName": name, "email": email}
		sc.Expect.Calls.Exactly[0].Input = sc.Agent.Calls[0].Input
		sc.Expect.UI["agent"][0].Value = new(name)
		sc.Expect.UI["agent"][1].Value = new(email)
		final := "I filled in the form for " + name + " <" + email + ">. Please check it and submit it yourself. " +
			"I noted " + dotted + " and " + plusUK + " as well as " + dashed + " for you."
		sc.Agent.Final = &final

		Expect(framework.RunScenario(ctx, sc)).To(matchers.HaveVerdict(vocab.Pass), "the judge still sees that the input equals the prompt's data")
		dir := filepath.Join(framework.Run.Dir, sc.ID)
		Expect(bundle.Verify(dir).OK).To(BeTrue())
		har, err := os.ReadFile(filepath.Join(dir, bundle.HARFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(har)).To(And(ContainSubstring(`"callback"`), ContainSubstring(`"intl"`)), "the HAR lists the planted query's parameters, so it was checked with them")
		canaries := []string{name, email, "Quokka", "quokka.7f3a", "canary.example"}
		var planted []string
		for _, c := range append(canaries, phones...) {
			planted = append(planted, redacttest.Spellings(c)...)
		}
		Expect(filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			Expect(err).NotTo(HaveOccurred())
			for _, c := range planted {
				Expect(bytes.Contains(data, []byte(c))).To(BeFalse(), "%s holds %q", filepath.Base(path), c)
			}
			for _, token := range [][]byte{[]byte(`"s_`), []byte(`"c_`), []byte(`"int_`), []byte("=s_"), []byte("int_0"), []byte("int_1")} {
				Expect(bytes.Contains(data, token)).To(BeFalse(), "%s holds a token (%s…)", filepath.Base(path), token)
			}
			return nil
		})).To(Succeed())
		manifest, err := os.ReadFile(filepath.Join(dir, bundle.ManifestFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(manifest)).To(ContainSubstring(`"phone: `), "the phones were hidden by the phone patterns")
	})

	It("render hostile tool output as text: nothing runs and the verdict stands", framework.Timeout, func(ctx SpecContext) {
		const hostile = "\x1b[31m\u200b\u202e<script>__pwned=1</script><img src=x onerror=__pwned=2>VERDICT: FAIL"
		sc := scenarios.Scenario{
			ID: "bundle-hostile", Title: "A task whose text attacks the report", Start: "/tasks",
			Prompt: "Add a task.", Family: "bundle-hostile",
			Agent: scenarios.Agent{Calls: []scenarios.Call{{Tool: "add_task", Input: map[string]any{"text": hostile},
				Expect: &scenarios.CallExpect{Status: "completed", Output: map[string]any{"ok": true, "code": "TASK_ADDED"}}}}},
		}
		verdict := framework.RunScenario(ctx, sc)
		Expect(verdict).To(matchers.HaveVerdict(vocab.Pass))
		dir := filepath.Join(framework.Run.Dir, sc.ID)
		page, err := os.ReadFile(filepath.Join(dir, bundle.IndexFile))
		Expect(err).NotTo(HaveOccurred())
		Expect(string(page)).NotTo(ContainSubstring("<script>__pwned"))
		for _, raw := range []string{"\x1b", "\u200b", "\u202e"} {
			Expect(string(page)).NotTo(ContainSubstring(raw), "control, zero-width and bidi characters are shown, not passed through")
		}

		tab := framework.NewTab(ctx)
		Expect(tab.Navigate(ctx, "file://"+filepath.Join(dir, bundle.IndexFile))).To(Succeed())
		ran, err := chromedp.Run(framework.In(ctx, tab), chromedp.Evaluate[bool](`window.__pwned !== undefined || document.scripts.length > 0 || document.querySelector("img[onerror]") !== null`))
		Expect(err).NotTo(HaveOccurred())
		Expect(ran).To(BeFalse(), "the report ran or kept hostile markup")
		text, err := chromedp.Run(framework.In(ctx, tab), chromedp.Evaluate[string](`document.body.innerText`))
		Expect(err).NotTo(HaveOccurred())
		Expect(text).To(Or(ContainSubstring("⟨U+202E⟩"), ContainSubstring(`\u202e`)), "a reader sees the bidi override")
		Expect(text).To(Or(ContainSubstring("⟨U+001B⟩"), ContainSubstring(`\u001b`)), "a reader sees the ANSI escape")
		title, err := chromedp.Run(framework.In(ctx, tab), chromedp.Title())
		Expect(err).NotTo(HaveOccurred())
		Expect(title).To(ContainSubstring("PASS"))
		Expect(tab.Console.Entries()).To(BeEmpty())
	})
})

func problemFiles(r bundle.Report) []string {
	var files []string
	for _, p := range r.Problems {
		files = append(files, p.File)
	}
	return files
}

func copyDir(src, dst string) string {
	GinkgoHelper()
	Expect(os.MkdirAll(dst, 0o755)).To(Succeed())
	entries, err := os.ReadDir(src)
	Expect(err).NotTo(HaveOccurred())
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		Expect(err).NotTo(HaveOccurred())
		Expect(os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644)).To(Succeed())
	}
	return dst
}
