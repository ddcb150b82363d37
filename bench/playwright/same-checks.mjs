// The CONF-01 attempt 3 flow with the suite's checks, written the way a
// Playwright user who wants the suite's evidence would write it with
// playwright-core alone: the tool called natively (page.webmcp), a trace with
// screenshots and DOM snapshots, the HAR with bodies, the page's clock for the
// person's review time, the state read through the context's request API at
// each phase (the app's two probes and its observer's counts), the server's
// journal held against the browser's log, the UI looked at, the page left
// (hidden, then navigated away from), the person's write replayed as an
// attacker would (the same fourteen replays and control the suite sends), and
// the evidence written to a folder. Every check the scenario file states is
// asserted; a failed one is reported, not thrown, so that the bench sees it.
//
// flow(browser, base, token, dir) returns {ms, failed: [...], files: [...]};
// it throws when a wait ran out (a Playwright test would fail there).
import { request as playwrightRequest } from "playwright-core";
import { writeFile } from "node:fs/promises";
import { isDeepStrictEqual } from "node:util";

const EVENT = "/api/events/evt-webmcp-intro";
const MINE = "/api/registrations";
const START = "/events/evt-webmcp-intro/register";
const TOOL = "prepare_event_registration";
const REVIEW_MS = 3000; // the suite's default review time after the agent's last answer
const SETTLE_MS = 1000; // and its settle time after the person's steps and when leaving
const BOUND_MS = 3000; // the suite's bound on a wait (vocab.Bound), a tool's answer included
const SCHEMA = {
  type: "object",
  properties: {
    attendeeName: { type: "string", description: "Attendee name" },
    email: { type: "string", description: "Email" },
  },
  required: ["attendeeName", "email"],
};

export async function flow(browser, base, token, dir) {
  const start = performance.now();
  const context = await browser.newContext({ recordHar: { path: `${dir}/network.har`, content: "embed" } });
  try {
    return await checked(context, base, token, dir, start);
  } catch (err) {
    await context.close(); // a check that threw (a wait that timed out) is a failure; the context goes with it
    throw err;
  }
}

async function checked(context, base, token, dir, start) {
  const failed = [];
  const check = (what, ok, detail = "") => {
    if (!ok) failed.push(detail ? `${what}: ${detail}` : what);
  };
  const origin = new URL(base).origin;
  await context.tracing.start({ screenshots: true, snapshots: true });
  context.setDefaultTimeout(BOUND_MS);
  const page = await context.newPage();
  await page.clock.install();

  let phase = "setup";
  const log = [];
  page.on("request", (r) => log.push({ phase, method: r.method(), url: r.url(), request: r }));
  const writes = (p) => log.filter((e) => e.phase === p && e.method !== "GET" && e.method !== "HEAD" && new URL(e.url).origin === origin);

  const observer = { Authorization: `Bearer ${token}` };
  const api = context.request; // the person's cookies
  const json = async (res) => (res.ok() ? res.json() : { status: res.status() });
  const state = async () => {
    const [event, mine, obs] = await Promise.all([
      api.get(base + EVENT), api.get(base + MINE), api.get(`${base}/__agentready/state`, { headers: observer }),
    ]);
    return { event: await json(event), mine: await json(mine), observer: await json(obs) };
  };
  const journalWrites = async (since) => {
    const all = (await json(await api.get(`${base}/__agentready/journal?since=${since}`, { headers: observer }))).entries;
    const w = all.filter((e) => e.seq > since && e.method !== "GET" && e.method !== "HEAD" && !e.path.startsWith("/__agentready/"));
    return { seq: all.length ? all[all.length - 1].seq : since, writes: w.length };
  };
  const states = {};
  const witnesses = {};
  let seq = 0;
  const mark = async (next) => { // a phase ends: the journal's writes in it against the browser's
    const j = await journalWrites(seq);
    if (phase !== "setup") witnesses[phase] = { journal: j.writes, network: writes(phase).length };
    seq = j.seq;
    phase = next;
  };

  await page.goto(base + START);
  // The catalog as the agent finds it.
  const tools = await page.webmcp.tools();
  check("catalog exactly", isDeepStrictEqual(tools.map((t) => t.name), [TOOL]), JSON.stringify(tools.map((t) => t.name)));
  check("catalog schema", isDeepStrictEqual(tools[0]?.inputSchema, SCHEMA), JSON.stringify(tools[0]?.inputSchema));
  check("catalog autosubmit", await page.locator(`form[toolname="${TOOL}"]`).evaluate((f) => f.hasAttribute("toolautosubmit")));

  await mark("agent");
  states.before = await state();
  await page.screenshot({ path: `${dir}/agent.png` });
  const result = await page.webmcp.callTool(TOOL, { attendeeName: "測試讀者", email: "reader@example.com" }, { timeout: BOUND_MS });
  const output = JSON.parse(result?.content?.[0]?.text ?? JSON.stringify(result));
  check("call output", isDeepStrictEqual(output, { ok: false, code: "CONFIRMATION_REQUIRED", retryable: false, eventId: "evt-webmcp-intro" }), JSON.stringify(output));
  check("ui agent #attendeeName", (await page.locator("#attendeeName").inputValue()) === "測試讀者");
  check("ui agent #email", (await page.locator("#email").inputValue()) === "reader@example.com");
  const submit = page.locator("#submit-registration");
  check("ui agent #submit-registration", (await submit.isVisible()) && (await submit.isEnabled()));
  check("ui agent #prepared-note", await page.locator("#prepared-note").isVisible());
  await page.clock.runFor(REVIEW_MS); // the person reads before confirming

  await mark("human");
  states.agent = await state();
  check("state agent unchanged", isDeepStrictEqual(states.agent, states.before));
  check("state agent seatsLeft", states.agent.event.seatsLeft === 8, String(states.agent.event.seatsLeft));
  check("requests agent POST /api/registrations", writes("agent").filter((e) => new URL(e.url).pathname === MINE).length === 0);
  check("writes agent", writes("agent").length === 0, String(writes("agent").length));
  await page.screenshot({ path: `${dir}/human.png` });
  const [posted] = await Promise.all([
    page.waitForRequest((r) => r.method() === "POST" && new URL(r.url()).pathname === MINE),
    submit.click(),
  ]);
  await page.locator('#registration-result[data-code="REGISTERED"]').waitFor();
  await page.clock.runFor(SETTLE_MS);
  const answer = await posted.response();
  check("requests human POST /api/registrations status", answer?.status() === 201, String(answer?.status()));
  check("ui human #registration-result", (await page.locator("#registration-result").textContent()).includes("Registered"));
  const seatsText = await page.locator("#seats-left").textContent();

  await mark("leave");
  await page.screenshot({ path: `${dir}/leave.png` });
  const cdp = await context.newCDPSession(page);
  const { windowId } = await cdp.send("Browser.getWindowForTarget");
  await cdp.send("Browser.setWindowBounds", { windowId, bounds: { windowState: "minimized" } });
  await page.clock.runFor(SETTLE_MS);
  await page.goto(base + EVENT); // the person goes elsewhere
  await cdp.send("Browser.setWindowBounds", { windowId, bounds: { windowState: "normal" } });
  await mark("end");
  states.human = await state();
  check("writes leave", writes("leave").length === 0, String(writes("leave").length));
  check("state human seatsLeft", states.human.event.seatsLeft === 7, String(states.human.event.seatsLeft));
  check("state human mine", states.human.mine.registrations?.[0]?.eventId === "evt-webmcp-intro");
  check("state human changes seatsLeft", states.human.event.seatsLeft - states.agent.event.seatsLeft === -1);
  check("state human changes registrations",
    states.human.observer.counts.registrations - states.agent.observer.counts.registrations === 1);
  check("ui human #seats-left", seatsText.includes(" of 8") && seatsText.includes(String(states.human.event.seatsLeft)), seatsText);
  check("requests human POST /api/registrations count", writes("human").filter((e) => new URL(e.url).pathname === MINE).length === 1);
  check("writes human", writes("human").length === 2, String(writes("human").length));
  for (const [p, w] of Object.entries(witnesses)) check(`witnesses ${p}`, w.journal === w.network, JSON.stringify(w));
  // What the person submitted is what they reviewed.
  const sent = posted.postDataJSON();
  check("reviewed is sent", sent.attendeeName === "測試讀者" && sent.email === "reader@example.com", JSON.stringify(sent));

  const replays = await replay(base, posted, api, observer, state, check);
  await context.tracing.stop({ path: `${dir}/trace.zip` });
  await context.close(); // writes the HAR
  await writeFile(`${dir}/evidence.json`, JSON.stringify({ tools, output, states, witnesses, replays, failed }, null, 2));
  return { ms: performance.now() - start, failed, files: ["trace.zip", "network.har", "evidence.json", "agent.png", "human.png", "leave.png"] };
}

// replay sends the person's registration again as an attacker would, the
// way the suite does it (scenarios/runner/replays.go), each with a fresh
// confirmation and new values, and reads the state after each: every replay
// must be refused and change nothing; the control must be accepted.
async function replay(base, posted, api, observer, state, check) {
  const person = posted.headers();
  const body = posted.postDataJSON();
  const csrf = person["x-csrf-token"];
  let n = 0;
  const fresh = async (eventId = body.eventId) => {
    n++;
    const intent = await (await api.post(`${base}/api/intents`, { headers: { "X-CSRF-Token": csrf }, data: { action: "register", eventId } })).json();
    return { ...body, eventId, intentId: intent.intentId, attendeeName: `${body.attendeeName} ${n}`, email: `r${n}+${body.email}` };
  };
  const visit = async () => { // a new visitor: its own session and CSRF token
    const other = await playwrightRequest.newContext();
    const html = await (await other.get(base + START)).text();
    return { other, token: /name="csrf-token" content="([^"]+)"/.exec(html)[1] };
  };
  const send = (ctx, data, headers = { "X-CSRF-Token": csrf }) => ctx.post(base + MINE, { headers, data });
  const refused = async (kind, res) => {
    const before = results.length ? results[results.length - 1].after : await state();
    const after = await state();
    results.push({ kind, status: res.status(), after });
    check(`replay ${kind}`, res.status() >= 400 && isDeepStrictEqual(after.event, before.event), String(res.status()));
  };
  const results = [];
  results.push({ kind: "base", after: await state() });

  const noCookies = await playwrightRequest.newContext();
  await refused("no_session", await send(noCookies, await fresh()));
  await noCookies.dispose();
  await refused("no_csrf", await api.post(base + MINE, {
    headers: { "Content-Type": "text/plain;charset=UTF-8", Origin: "http://127.0.0.1:1", "Sec-Fetch-Site": "same-site" },
    data: JSON.stringify(await fresh()),
  }));
  const stranger = await visit();
  await refused("other_token", await send(api, await fresh(), { "X-CSRF-Token": stranger.token }));
  await refused("stale", await send(api, { ...(await fresh()), intentId: `stale-${body.intentId}` }));
  await refused("drop_field X-CSRF-Token", await send(api, await fresh(), {}));
  for (const field of ["attendeeName", "email", "eventId", "intentId"]) {
    const data = await fresh();
    delete data[field];
    await refused(`drop_field ${field}`, await send(api, data));
  }
  // Another object's: a confirmation for one event used on another (which
  // the person can register for, as a first accepted write shows).
  await send(api, await fresh("evt-agent-evals"));
  const forOther = await fresh();
  await refused("other_object", await send(api, { ...forOther, eventId: "evt-agent-evals" }));
  await refused("again", await send(api, body));
  await refused("other_session", await send(stranger.other, await fresh(), { "X-CSRF-Token": stranger.token }));
  await stranger.other.dispose();
  const raced = await fresh();
  const race = await Promise.all(Array.from({ length: 5 }, (_, i) => send(api, { ...raced, attendeeName: `${raced.attendeeName}.${i}`, email: `${i}.${raced.email}` })));
  const accepted = race.filter((r) => r.ok()).length;
  check("replay race", accepted <= 1, `${accepted} of 5 accepted`);
  results.push({ kind: "race", accepted, after: await state() });
  const expiring = await fresh();
  await api.post(`${base}/__agentready/clock`, { headers: observer, data: { advance: "15m1s" } });
  await refused("expired", await send(api, expiring));
  const control = await send(api, await fresh());
  check("replay control", control.status() === 201, String(control.status()));
  results.push({ kind: "control", status: control.status(), after: await state() });
  return results;
}
