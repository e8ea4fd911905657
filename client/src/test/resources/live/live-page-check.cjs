// Drives the client's live page in headless Chromium (playwright-core, Debian's chromium) for
// LivePageBrowserIT: samples the page's counters while the run goes on, waits for the final
// summary, takes a screenshot, and prints what it saw as one JSON line on stdout.
// The browser starts first: the script prints "ready", then reads the page's URL from stdin, so
// a browser slow to start on a busy machine does not miss the run it is meant to watch.
// Usage: node live-page-check.cjs CHROMIUM SCREENSHOT_DIR  (then the URL on stdin)
"use strict";
const { chromium } = require("playwright-core");
const readline = require("readline");

const [executablePath, shots] = process.argv.slice(2);

// Listens before the browser starts, so that no line can pass unseen.
const firstLine = new Promise((resolve, reject) => {
  const lines = readline.createInterface({ input: process.stdin });
  let seen = false;
  lines.once("line", (line) => { seen = true; resolve(line.trim()); });
  lines.once("close", () => { if (!seen) reject(new Error("stdin closed before the URL")); });
});

(async () => {
  const browser = await chromium.launch({ executablePath, headless: true, args: ["--no-sandbox"] });
  process.stdout.write("ready\n");
  const url = await firstLine;
  const errors = [];
  const samples = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1440, height: 1000 } });
    page.on("console", (m) => { if (m.type() === "error") errors.push(m.text()); });
    page.on("pageerror", (e) => errors.push(String(e)));
    page.on("requestfailed", (r) => errors.push("request failed: " + r.url()));
    await page.goto(url, { waitUntil: "load" });
    const deadline = Date.now() + 120000;
    let phase = "";
    while (phase !== "done" && Date.now() < deadline) {
      phase = await page.textContent("#phase");
      const requests = Number(await page.textContent("#requests"));
      samples.push({ phase, requests, rate: (await page.textContent("#rate")).replace(/,/g, "") });
      if (phase === "load" && samples.filter((s) => s.phase === "load").length === 3) {
        await page.screenshot({ path: shots + "/live-page-running.png", fullPage: true });
      }
      await page.waitForTimeout(1000);
    }
    await page.waitForSelector("#report", { timeout: 10000 });
    const rows = await page.$$eval("#types tbody tr", (trs) => trs.map((tr) => ({
      type: tr.dataset.type,
      ok: Number(tr.querySelector(".ok").textContent),
      failed: Number(tr.querySelector(".failed").textContent),
      p99Ms: Number(tr.querySelector(".p99").textContent),
    })));
    const report = await page.getAttribute("#report", "href");
    const reportStatus = (await page.request.get(new URL(report, url).href)).status();
    await page.screenshot({ path: shots + "/live-page.png", fullPage: true });
    const result = {
      samples, rows, report, reportStatus, errors,
      runId: await page.getAttribute("#summary", "data-run-id"),
      inFlight: Number(await page.textContent("#inflight")),
      verify: await page.textContent("#verify"),
    };
    process.stdout.write(JSON.stringify(result) + "\n");
  } finally {
    await browser.close();
  }
})().catch((e) => {
  process.stderr.write(String(e && e.stack || e) + "\n");
  process.exit(1);
});
