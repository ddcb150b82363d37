package e2e

import (
	"encoding/json"
	"strings"

	. "github.com/onsi/ginkgo/v2"
	. "github.com/onsi/gomega"

	"github.com/agentready/agentready/e2e/framework"
	"github.com/agentready/agentready/e2e/matchers"
	"github.com/agentready/agentready/netlog/har"
	"github.com/agentready/agentready/pages"
	"github.com/agentready/agentready/scenarios/vocab"
)

var _ = Own("The network log", MarkNetwork, func() {
	var f *framework.Fixture

	BeforeEach(func(ctx SpecContext) {
		f = framework.StartFixture(ctx, "")
		register := pages.Registration{EventID: pages.EventIntro}
		f.Open(ctx, register)
		Expect(f.Tab.Do(ctx, register.Fill(demoName, demoEmail), register.Submit())).To(Succeed())
		Expect(register.WaitForResult(f.In(ctx), "REGISTERED", framework.Bound)).To(Succeed())
		f.Open(ctx, pages.TaskList{})
		Expect(f.Tab.Tools.WaitTool(ctx, pages.AddTask, true)).To(Succeed())
		Expect(f.Tab.Tools.Invoke(ctx, pages.AddTask, map[string]any{"text": "count me"}, vocab.PageAPI).Code()).To(Equal("TASK_ADDED"))
		Expect(f.Tab.Net.FillBodies(f.In(ctx))).To(Succeed())
	})

	It("counts the same requests as the app's journal, method by method and path by path", framework.Timeout, func(ctx SpecContext) {
		count := func(method, path string) (int, int) {
			return f.Tab.Net.Requests().Count(method, path), f.Journal(ctx).Count(method, path)
		}
		for _, c := range [][2]string{
			{"POST", "/api/intents"}, {"POST", "/api/registrations"}, {"POST", "/api/tasks"},
			{"GET", "/events/evt-webmcp-intro/register"}, {"GET", "/tasks"}, {"DELETE", "/api/tasks/x"},
		} {
			byNet, byJournal := count(c[0], c[1])
			Expect(byNet).To(Equal(byJournal), "%s %s: network log %d, journal %d", c[0], c[1], byNet, byJournal)
		}
		Expect(f.Tab.Net).To(matchers.HaveRequested("POST", "/api/registrations").Times(1))
		Expect(f.Tab.Net).NotTo(matchers.HaveRequested("DELETE", "/api/tasks/*"))
	})

	It("exports HAR 1.2 with every required field, in time order, with the registration POST and its body", framework.Timeout, func(ctx SpecContext) {
		raw, err := har.HAR(f.Tab.Net.Requests(), har.HARInfo{Creator: "agentready", CreatorVersion: "dev", Browser: "Chromium", BrowserVersion: framework.Browser.Version.Product})
		Expect(err).NotTo(HaveOccurred())
		Expect(har.CheckHAR(raw)).To(Succeed())

		var har struct {
			Log struct {
				Entries []struct {
					StartedDateTime string `json:"startedDateTime"`
					Request         struct {
						Method   string `json:"method"`
						URL      string `json:"url"`
						PostData *struct {
							MimeType string `json:"mimeType"`
							Text     string `json:"text"`
						} `json:"postData"`
					} `json:"request"`
					Response struct {
						Status int `json:"status"`
					} `json:"response"`
				} `json:"entries"`
			} `json:"log"`
		}
		Expect(json.Unmarshal(raw, &har)).To(Succeed())
		var posts int
		for i, e := range har.Log.Entries {
			if i > 0 {
				Expect(e.StartedDateTime >= har.Log.Entries[i-1].StartedDateTime).To(BeTrue(), "entries in time order")
			}
			if e.Request.Method == "POST" && strings.HasSuffix(e.Request.URL, "/api/registrations") {
				posts++
				Expect(e.Response.Status).To(Equal(201))
				Expect(e.Request.PostData).NotTo(BeNil())
				Expect(e.Request.PostData.MimeType).To(HavePrefix("application/json"))
				Expect(e.Request.PostData.Text).To(ContainSubstring(`"eventId":"evt-webmcp-intro"`))
			}
		}
		Expect(posts).To(Equal(1))
	})
})
