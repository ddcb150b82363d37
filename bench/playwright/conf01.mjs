// The CONF-01 attempt 3 flow, done with Playwright the way a user would write
// it: a new browser context, the register page, WebMCP through a CDP session,
// the agent's prepare through the page API, the registration POSTs counted,
// the person's click, the result awaited, the context closed.
//
// It serves the Go bench driver: one line per iteration on stdin, one JSON
// line on stdout: "run <base-url>" plays this bare flow and answers
// {"ms":…,"prepared":…,"posts":…}; "same <base-url> <observer-token> <dir>"
// plays the flow with the suite's checks (same-checks.mjs) and answers
// {"ms":…,"failed":[…],"files":[…]}.
import { chromium } from "playwright-core";
import { createInterface } from "node:readline";
import { flow as sameChecks } from "./same-checks.mjs";

const browser = await chromium.launch({
  executablePath: process.env.AGENTREADY_CHROMIUM || "/usr/bin/chromium",
  args: [
    "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    // The suite's own features (the bench passes browser.Features): WebMCP
    // and its testing API and protocol domain.
    "--enable-features=" + (process.env.BENCH_ENABLE_FEATURES || "WebMCP,WebMCPTesting,DevToolsWebMCPSupport"),
    // The browser features the suite's own browser turns off (the bench
    // passes browser.DisabledFeatures), so that the two ways are compared on
    // the same browser, not on its window's preloaded UI. One
    // --disable-features wins over Playwright's own, so its list is kept too
    // (as of playwright-core 1.65.1, less its Windows- and Edge-only names).
    ...(process.env.BENCH_DISABLE_FEATURES ? ["--disable-features=" + [process.env.BENCH_DISABLE_FEATURES,
      "AvoidUnnecessaryBeforeUnloadCheckSync", "DestroyProfileOnBrowserClose", "HttpsUpgrades", "HttpsFirstBalancedModeAutoEnable",
      "LensOverlay", "MediaRouter", "PaintHolding", "ThirdPartyStoragePartitioning", "AvoidCorsURLLoaderRestartOnRedirect",
      "OptimizationHints", "NetworkTimeServiceQuerying", "AimEnabled", "PreconnectToSearch"].join(",")] : []),
  ],
});

async function flow(base) {
  const start = performance.now();
  const context = await browser.newContext();
  const page = await context.newPage();
  let posts = 0;
  page.on("request", (r) => {
    if (r.method() === "POST" && new URL(r.url()).pathname === "/api/registrations") posts++;
  });
  await page.goto(`${base}/events/evt-webmcp-intro/register`);
  const cdp = await context.newCDPSession(page);
  await cdp.send("WebMCP.enable");
  const prepared = await page.evaluate(async () => {
    const mc = document.modelContext;
    const tool = (await mc.getTools()).find((t) => t.name === "prepare_event_registration");
    return JSON.parse(await mc.executeTool(tool, { attendeeName: "測試讀者", email: "reader@example.com" })).code;
  });
  const beforeClick = posts;
  await page.click("#submit-registration");
  await page.waitForSelector('#registration-result[data-code="REGISTERED"]', { timeout: 3000 });
  await context.close();
  return { ms: performance.now() - start, prepared, postsBeforeClick: beforeClick, posts };
}

const lines = createInterface({ input: process.stdin });
process.stdout.write(JSON.stringify({ ready: true, version: browser.version() }) + "\n");
for await (const line of lines) {
  const [cmd, base, token, dir] = line.trim().split(" ");
  if (cmd !== "run" && cmd !== "same") break;
  try {
    const answer = cmd === "run" ? await flow(base) : await sameChecks(browser, base, token, dir);
    process.stdout.write(JSON.stringify(answer) + "\n");
  } catch (err) {
    process.stdout.write(JSON.stringify({ error: String(err) }) + "\n");
  }
}
await browser.close();
