// Account page: log in, create an account, change the password, log out (here or everywhere).
import { t as _ } from "./i18n.js";
import { Api } from "./api.js";
import { h, clear, $, flash, errorText } from "./shell.js";
import { session, keepSession, forgetSession } from "./session.js";

const root = $("#account-root");

function credentialsForm(id, title, submitText, onSubmit) {
  const name = h("input", { id: `${id}-name`, name: "name", autocomplete: "username", required: true, maxlength: 40 });
  const password = h("input", { id: `${id}-password`, name: "password", type: "password", required: true, minlength: 8,
    autocomplete: id === "signup" ? "new-password" : "current-password" });
  const error = h("p", { class: "form-error", id: `${id}-error`, role: "alert" });
  const form = h("form", { id: `${id}-form`, class: "stack" },
    h("label", { for: `${id}-name` }, _("Name")), name,
    h("label", { for: `${id}-password` }, _("Password")), password,
    h("button", { type: "submit", class: "primary", id: `${id}-submit` }, submitText), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      const answer = await onSubmit(name.value, password.value);
      keepSession(answer.name, answer.token);
      const next = new URLSearchParams(location.search).get("next");
      if (next && /^\/(?![/\\])/.test(next)) { location.assign(next); return; }  // back to the page that sent here
      flash(_("Logged in as {name}.", { name: answer.name }), "ok");
      render();
    } catch (e) {
      error.textContent = errorText(e);
    }
  });
  return h("section", { class: "panel narrow", "aria-labelledby": `${id}-title` }, h("h2", { id: `${id}-title` }, title), form);
}

// The page's session ended on the server (logged out elsewhere, expired): not a wrong password.
const SESSION_GONE = new Set(["no_session", "bad_session", "session_expired"]);

function passwordForm(current) {
  const old = h("input", { id: "password-old", name: "current-password", type: "password", required: true,
    maxlength: 1024, autocomplete: "current-password" });
  const fresh = h("input", { id: "password-new", name: "new-password", type: "password", required: true,
    minlength: 8, maxlength: 256, autocomplete: "new-password", "aria-describedby": "password-note" });
  const error = h("p", { class: "form-error", id: "password-error", role: "alert" });
  const form = h("form", { id: "password-form", class: "stack" },
    // the account's name for password managers, so they update the right entry (not shown)
    h("input", { type: "text", name: "username", autocomplete: "username", value: current.name, readonly: true, hidden: true }),
    h("label", { for: "password-old" }, _("Current password")), old,
    h("label", { for: "password-new" }, _("New password")), fresh,
    h("button", { type: "submit", class: "primary", id: "password-submit" }, _("Change the password")), error);
  let busy = false;
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    if (busy) return;
    busy = true;
    error.textContent = "";
    try {
      // every session of the account ends, this one too: the answer carries the new one
      const answer = await Api.changePassword(current.token, old.value, fresh.value);
      keepSession(answer.name, answer.token);
      flash(_("Password changed. Every other device is logged out."), "ok");
      render();
    } catch (e) {
      busy = false;
      if (e.status === 401 && SESSION_GONE.has(e.code)) {
        forgetSession();
        flash(errorText(e), "error");
        render();
        return;
      }
      error.textContent = errorText(e);
    }
  });
  return h("section", { class: "panel narrow", "aria-labelledby": "password-title" },
    h("h2", { id: "password-title" }, _("Change your password")),
    h("p", { class: "muted", id: "password-note" }, _("At least 8 characters. Changing it logs you out on every other device.")),
    form);
}

async function render() {
  const current = session();
  if (!current) {
    clear(root,
      credentialsForm("login", _("Log in"), _("Log in"), (n, p) => Api.login(n, p)),
      credentialsForm("signup", _("Create an account"), _("Create the account"), (n, p) => Api.createAccount(n, p)),
      h("p", { class: "muted narrow" }, _("An account is optional: seat links work without one. With one, your ranked games are rated and your games and notes are on your profile.")));
    return;
  }
  try {
    await Api.me(current.token);
  } catch (e) {
    if (e.status === 401) {  // the server says the session is over
      forgetSession();
      flash(_("Your session has ended; log in again."), "info");
      render();
      return;
    }
    // The server was not asked or could not answer (offline, a navigation that aborted
    // the request, a 5xx): that says nothing of the session, which stays.
    clear(root, h("section", { class: "panel narrow", id: "account-unreachable" },
      h("p", { class: "form-error", role: "alert" }, errorText(e)),
      h("button", { type: "button", id: "account-retry", onclick: () => render() }, _("Try again"))));
    return;
  }
  const out = async (all) => {
    try {
      if (all) await Api.logoutAll(current.token); else await Api.logout(current.token);
    } catch (e) { /* already revoked: forget it here too */ }
    forgetSession();
    flash(all ? _("Logged out on every device.") : _("Logged out."), "ok");
    render();
  };
  clear(root, h("section", { class: "panel narrow", id: "logged-in" },
    h("h2", {}, _("Logged in as {name}", { name: current.name })),
    h("p", {}, h("a", { href: `/players/${encodeURIComponent(current.name)}`, id: "my-profile" }, _("Your profile"))),
    h("p", { class: "links" },
      h("button", { type: "button", id: "logout", onclick: () => out(false) }, _("Log out")),
      h("button", { type: "button", id: "logout-all", onclick: () => out(true) }, _("Log out everywhere")))),
    noticesForm(current), passwordForm(current));
}

function base64urlBytes(text) {
  const raw = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(raw, (c) => c.charCodeAt(0));
}

// Notices: e-mail (an address, on or off) and this browser's push notifications.
function noticesForm(current) {
  const email = h("input", { id: "notices-email", type: "email", maxlength: 254, autocomplete: "email" });
  const emailOn = h("input", { id: "notices-email-on", type: "checkbox" });
  const error = h("p", { class: "form-error", id: "notices-error", role: "alert" });
  Api.notices(current.token).then((s) => { email.value = s.email || ""; emailOn.checked = s.email_on; }).catch(() => {});
  const form = h("form", { id: "notices-form", class: "stack" },
    h("label", { for: "notices-email" }, _("E-mail for notices")), email,
    h("label", { class: "inline" }, emailOn, " ", _("E-mail me when it is my move, a game ends or something is asked of me")),
    h("button", { type: "submit", class: "primary", id: "notices-submit" }, _("Save the notice settings")), error);
  form.addEventListener("submit", async (ev) => {
    ev.preventDefault();
    error.textContent = "";
    try {
      await Api.changeNotices(current.token, { email: email.value || null, email_on: emailOn.checked });
      flash(_("Notice settings saved."), "ok");
    } catch (e) { error.textContent = errorText(e); }
  });
  const push = h("button", { type: "button", id: "notices-push" }, _("Notify this browser"));
  push.addEventListener("click", async () => {
    error.textContent = "";
    try {
      if (!("serviceWorker" in navigator) || !("PushManager" in window)) throw new Error(_("This browser cannot receive notifications."));
      const registration = await navigator.serviceWorker.register("/sw.js");
      const { key } = await Api.pushKey();
      const subscription = await registration.pushManager.subscribe({ userVisibleOnly: true, applicationServerKey: base64urlBytes(key) });
      await Api.subscribePush(current.token, subscription.toJSON());
      flash(_("This browser will be notified."), "ok");
    } catch (e) { error.textContent = errorText(e); }
  });
  return h("section", { class: "panel narrow", "aria-labelledby": "notices-title" },
    h("h2", { id: "notices-title" }, _("Notices")), form, push);
}

render();
