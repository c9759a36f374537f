// Table chat: a panel beside the board (/games/<id>), from the chat API (docs/API.md,
// "Table chat"). Seats and the referee write; a reader mutes a seat for itself; the
// referee hides a message (kept and marked). A seat's or the referee's page asks every 4 s
// while shown; a spectator's asks only when its live stream sends a new mark of the chat
// (`chat-mark`, from shell.js's follow): a thousand spectators make no request meanwhile.
import { t as _ } from "./i18n.js";
import { api, ApiError } from "./api.js";
import { h, clear, $, flash, errorText, seatName } from "./shell.js";

const enc = encodeURIComponent;

/** Mount the chat in `slot` for the caller holding `token` (a seat's — `mySeat` —, the
 * referee's, or a spectator's session or none). */
export function mountChat(slot, gameId, token, role, names, mySeat = null) {
  const S = { messages: [], muted: [], settings: null, closed: false, mark: null };
  const panel = h("section", { class: "panel", id: "chat-panel", "aria-labelledby": "chat-heading" },
    h("h2", { id: "chat-heading" }, _("Table chat")),
    h("ol", { id: "chat-log", class: "chat-log", tabindex: 0, "aria-label": _("Chat messages, oldest first"), "aria-live": "polite" }),
    h("form", { id: "chat-form", onsubmit: send },
      h("label", { for: "chat-text", class: "visually-hidden" }, _("Message")),
      h("input", { type: "text", id: "chat-text", maxlength: 500, autocomplete: "off", placeholder: _("Say something to the table") }),
      h("button", { type: "submit", id: "chat-send" }, _("Send"))));
  async function load() {
    try {
      const answer = await api(`/games/${enc(gameId)}/chat`, { token });
      Object.assign(S, { messages: answer.messages, muted: answer.muted, settings: answer.settings, closed: false, mark: answer.mark });
    } catch (e) {
      if (e instanceof ApiError && e.status === 403) Object.assign(S, { closed: true, mark: "closed" });
      else return;
    }
    if (!slot.contains(panel) && !(S.closed && role === "spectator")) clear(slot, panel);
    draw();
  }

  function author(m) {
    return m.role === "seat" ? seatName(m.seat, names) : m.role === "referee" ? _("Referee") : m.name || _("Spectator");
  }

  function draw() {
    if (S.closed && role === "spectator") { clear(slot); return; }  // spectators see a chat only once it is opened to them
    if (S.closed) {
      clear($("#chat-log"), h("li", { class: "muted" }, _("The chat is closed at this table.")));
      $("#chat-form").hidden = true;
      return;
    }
    $("#chat-form").hidden = false;
    const seats = [...new Set(S.messages.filter((m) => m.role === "seat" && m.seat !== mySeat).map((m) => m.seat))];
    clear($("#chat-log"), S.messages.map((m) => h("li", { class: `chat-message${m.hidden ? " hidden-message" : ""}`, dataset: { id: m.id, seat: m.seat ?? "" } },
      h("strong", { translate: "no" }, author(m)), ": ",
      m.hidden && m.text === undefined ? h("em", {}, _("hidden by the referee: {reason}", { reason: m.hidden.reason }))
        : [h("span", { class: "chat-text" }, m.text), m.hidden ? h("em", {}, " ", _("(hidden: {reason})", { reason: m.hidden.reason })) : null],
      role === "referee" && !m.hidden ? h("button", { type: "button", class: "small hide-message", onclick: () => hide(m.id) }, _("Hide message")) : null)),
    role !== "referee" && (seats.length || S.muted.length) ? h("li", { class: "chat-mutes small" }, [...new Set([...seats, ...S.muted])].sort().map((seat) =>
      h("button", { type: "button", class: "small mute-seat", dataset: { seat }, "aria-pressed": String(S.muted.includes(seat)), onclick: () => mute(seat, !S.muted.includes(seat)) },
        S.muted.includes(seat) ? _("Hear {name} again", { name: seatName(seat, names) }) : _("Mute {name}", { name: seatName(seat, names) })))) : null);
  }

  async function send(ev) {
    ev.preventDefault();
    const input = $("#chat-text");
    if (!input.value.trim()) return;
    try {
      await api(`/games/${enc(gameId)}/chat`, { method: "POST", token, body: { text: input.value } });
      input.value = "";
    } catch (e) {
      flash(errorText(e), "error");
    }
    load();
  }

  async function mute(seat, muted) {
    try {
      await api(`/games/${enc(gameId)}/chat/mute`, { method: "POST", token, body: { seat, muted } });
    } catch (e) {
      flash(errorText(e), "error");
    }
    load();
  }

  async function hide(id) {
    const reason = window.prompt(_("Why is this message hidden?"));
    if (!reason) return;
    try {
      await api(`/games/${enc(gameId)}/chat/${enc(id)}/hide`, { method: "POST", token, body: { reason } });
    } catch (e) {
      flash(errorText(e), "error");
    }
    load();
  }

  load();
  if (role === "spectator") {
    window.addEventListener("chat-mark", (e) => { if (e.detail.gameId === gameId && e.detail.mark !== S.mark) load(); });
  } else {
    setInterval(() => { if (!document.hidden) load(); }, 4000);
  }
}
