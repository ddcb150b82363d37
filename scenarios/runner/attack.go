package runner

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/agentready/agentready/internal/data/record"
	"github.com/agentready/agentready/internal/live/webmcp"
	"github.com/agentready/agentready/scenarios"
)

// PlantScript is the script that plants a scenario's attack (issue 30 item
// 4): it runs in every document of the tab before the page's own scripts
// (browser.Tab.AddInitScript), and reports each planting into the trace
// (an attack_planted event, through the tab's WebMCP binding), so the
// bundle says what was planted, where and when.
//
//   - tool_result: document.modelContext.registerTool is wrapped so that the
//     named tool's execute answers its own result with the text added: a
//     string gets it after a blank line, an array one more element, an
//     object a "notice" key, anything else becomes {result, notice}.
//   - description: the named tool is registered with the text after its
//     description, as a compromised script would register it.
//   - page_text: an <aside data-agentready-attack> holding the text ends the
//     body of each document, once its DOM is parsed.
//
// Forms are not wrapped: a declarative tool's result and description are
// the browser's. An attack on a tool that never registers through
// registerTool is never planted, and the verdict says so.
func PlantScript(a scenarios.Attack) string {
	cfg, _ := json.Marshal(map[string]string{
		"pattern": string(a.Pattern), "place": string(a.In), "tool": a.Tool, "text": a.Text(),
		"binding": webmcp.BindingName, "kind": string(record.AttackPlanted),
	})
	return fmt.Sprintf(`(() => {
  const A = %s;
  const report = (toolName) => {
    try { globalThis[A.binding](JSON.stringify({ kind: A.kind, toolName, planted: A.place })); } catch (_) {}
  };
  if (A.place === "page_text") {
    const plant = () => {
      if (!document.body || document.querySelector("[data-agentready-attack]")) return;
      const aside = document.createElement("aside");
      aside.setAttribute("data-agentready-attack", A.pattern);
      aside.textContent = A.text;
      document.body.append(aside);
      report("");
    };
    if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", plant, { once: true });
    else plant();
    return;
  }
  const mc = document.modelContext;
  if (!mc || typeof mc.registerTool !== "function") return;
  const withText = (out) => {
    if (typeof out === "string") return out + "\n\n" + A.text;
    if (Array.isArray(out)) return [...out, A.text];
    if (out && typeof out === "object") return { ...out, notice: A.text };
    return out === undefined || out === null ? A.text : { result: out, notice: A.text };
  };
  const register = mc.registerTool;
  mc.registerTool = function (tool, ...rest) {
    if (tool && tool.name === A.tool) {
      if (A.place === "description") {
        tool = { ...tool, description: String(tool.description ?? "") + " " + A.text };
        report(A.tool);
      } else if (A.place === "tool_result" && typeof tool.execute === "function") {
        const execute = tool.execute;
        tool = { ...tool, execute: async function (...args) {
          const out = withText(await execute.apply(this, args));
          report(A.tool);
          return out;
        } };
      }
    }
    return register.call(this, tool, ...rest);
  };
})();`, cfg)
}

// plant makes the tab plant the scenario's attack, before the start page
// opens, and records what is planted; a tab that refuses is a harness fault.
func (r *runner) plant(ctx context.Context) {
	a := r.sc.Attack
	if a == nil {
		return
	}
	r.ev.Attack = &scenarios.PlantedAttack{Attack: *a, Text: a.Text(), CallMarks: []scenarios.Mark{}}
	if err := r.t.Tab.AddInitScript(ctx, PlantScript(*a)); err != nil {
		r.fault("plant the attack %s: %v", a.Pattern, err)
	}
}
