// The live page: polls state.json once a second and draws the run's figures with uPlot.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const fmt = (x, d) => Number(x).toLocaleString("en-US", { maximumFractionDigits: d });
  const charts = {};

  function chart(id, title, labels, colors) {
    const series = [{}].concat(labels.map((l, i) => ({ label: l, stroke: colors[i], width: 1.5 })));
    const opts = { title: title, width: 460, height: 220, series: series,
                   scales: { x: { time: false } }, axes: [{ label: "s" }, {}] };
    return new uPlot(opts, [[]].concat(labels.map(() => [])), $(id));
  }

  function draw(points) {
    if (!charts.rate) {
      charts.rate = chart("chart-rate", "writes per second", ["req/s", "failed/s"], ["#27a", "#c33"]);
      charts.latency = chart("chart-latency", "write latency of each second (ms)", ["p50", "p99"], ["#2a7", "#a52"]);
      charts.queue = chart("chart-queue", "in flight and queue depth", ["in flight", "queue depth"], ["#75a", "#888"]);
    }
    const x = points.map((p) => p.seconds);
    charts.rate.setData([x, points.map((p) => p.rate), points.map((p) => p.failed)]);
    charts.latency.setData([x, points.map((p) => p.p50Ms), points.map((p) => p.p99Ms)]);
    charts.queue.setData([x, points.map((p) => p.inFlight),
                          points.map((p) => (p.queueDepth < 0 ? null : p.queueDepth))]);
  }

  function table(types) {
    const body = document.querySelector("#types tbody");
    body.replaceChildren(...types.map((t) => {
      const tr = document.createElement("tr");
      tr.dataset.type = t.type;
      for (const [k, v] of [["type", t.type], ["ok", t.ok], ["failed", t.failed],
                            ["rate", fmt(t.rate, 0)], ["p50", t.p50Ms.toFixed(3)], ["p99", t.p99Ms.toFixed(3)]]) {
        const td = document.createElement("td");
        td.className = k;
        td.textContent = v;
        tr.appendChild(td);
      }
      return tr;
    }));
  }

  function summary(s, report) {
    const box = $("summary");
    box.style.display = "block";
    box.className = s.exitCode === 0 ? "" : "failed";
    const v = s.verification || {};
    box.replaceChildren();
    const lines = [
      "run " + s.runId + " finished: exit code " + s.exitCode,
      "wall time " + s.wallSeconds.toFixed(3) + " s, throughput " + s.throughput.toFixed(1) + " req/s (successful writes)",
      "all writes: " + s.allWrites.ok + " ok, " + s.allWrites.failed + " failed, p50 " +
        s.allWrites.p50Ms.toFixed(3) + " ms, p99 " + s.allWrites.p99Ms.toFixed(3) + " ms",
      "verification: " + (v.status || "n/a") + ", " + (v.albums || 0) + " albums, " + (v.mismatches || 0) + " mismatches",
    ];
    for (const l of lines) {
      const p = document.createElement("div");
      p.textContent = l;
      box.appendChild(p);
    }
    if (report) {
      const a = document.createElement("a");
      a.href = report;
      a.id = "report";
      a.textContent = "report.html";
      box.appendChild(a);
    }
    box.dataset.runId = s.runId;
  }

  function show(st) {
    $("phase").textContent = st.phase;
    const last = st.points.length ? st.points[st.points.length - 1] : null;
    $("rate").textContent = last ? fmt(last.rate, 0) : "0";
    $("requests").textContent = st.types.reduce((n, t) => n + t.ok + t.failed, 0);
    $("failed").textContent = st.types.reduce((n, t) => n + t.failed, 0);
    $("inflight").textContent = st.inFlight;
    $("depth").textContent = st.queueDepth < 0 ? "n/a" : st.queueDepth;
    $("verify").textContent = st.verify.done + " / " + st.verify.total;
    $("verify-bar").max = Math.max(1, st.verify.total);
    $("verify-bar").value = st.verify.done;
    table(st.types);
    draw(st.points);
    if (st.summary) {
      summary(st.summary, st.report);
    }
  }

  let done = false;
  async function poll() {
    try {
      const r = await fetch("state.json", { cache: "no-store" });
      const st = await r.json();
      show(st);
      done = st.phase === "done";
    } catch (e) {
      // The client has ended and its server with it: keep what is shown.
      done = true;
      $("phase").textContent += " (client gone)";
    }
    if (!done) {
      setTimeout(poll, 1000);
    }
  }
  poll();
})();
