// Verify page: upload an export, POST it to /api/verify, show the verdict.
import { t as _ } from "./i18n.js";
import { Api } from "./api.js";
import { h, clear, $, errorText } from "./shell.js";

const CHECKS = {
  chain: _("Hash chain (each event's hash and link to the previous one)"),
  commitment: _("Seed commitment (the revealed seed hashes to the published commitment)"),
  refold: "Re-fold (every event replayed with the rules is legal)",
  result: _("Result (the recomputed result equals the recorded one)"),
};

async function onSubmit(ev) {
  ev.preventDefault();
  const out = $("#verdict");
  const file = $("#verify-file").files[0];
  let text = "";
  if (file) text = await file.text();
  else text = $("#verify-text").value;
  if (!text.trim()) {
    clear(out, h("p", { class: "verdict bad", role: "alert" }, _("Choose an export file (or paste one) first.")));
    return;
  }
  $("#verify-submit").disabled = true;
  clear(out, h("p", { class: "muted" }, _("Verifying…")));
  try {
    const r = await Api.verify(text);
    clear(out,
      h("p", { class: `verdict ${r.ok ? "ok" : "bad"}`, id: "verdict-line" },
        r.ok ? _("✔ Verified: this log is intact and replays to its result.") : `✘ Not verified${r.first_bad_seq ? `: first problem at step ${r.first_bad_seq}` : ""}.`),
      h("table", { class: "checks" }, h("tbody", {}, Object.entries(r.checks || {}).map(([k, v]) => h("tr", { class: checkClass(v) },
        h("th", {}, CHECKS[k] || k), h("td", {}, checkText(v)))))),
      (r.messages || []).length ? h("ul", { class: "messages" }, r.messages.map((m) => h("li", {}, typeof m === "string" ? m : JSON.stringify(m)))) : null);
  } catch (e) {
    clear(out, h("p", { class: "verdict bad", role: "alert" }, _("The server refused the file: {v0}", { v0: errorText(e) })));
  } finally {
    $("#verify-submit").disabled = false;
  }
}

function checkClass(v) {
  if (v === true || v === "ok" || v === "passed") return "pass";
  if (v === false || v === "failed" || v === "fail") return "fail";
  return "skip";
}

function checkText(v) {
  if (v === true || v === "ok" || v === "passed") return "passed";
  if (v === false || v === "failed" || v === "fail") return "failed";
  if (v === null || v === undefined || v === "skipped") return _("not checked");
  if (v === "partial") return _("partial (some entries are redacted: linked, not re-hashed)");
  return typeof v === "string" ? v : JSON.stringify(v);
}

$("#verify-form").addEventListener("submit", onSubmit);
