// The account session of this browser: {name, token} in localStorage (a bearer token,
// sent only in the Authorization header; never in a URL).
const KEY = "boardroom:session";

export function session() {
  try { return JSON.parse(localStorage.getItem(KEY) || "null"); } catch (e) { return null; }
}

export function keepSession(name, token) { localStorage.setItem(KEY, JSON.stringify({ name, token })); }

export function forgetSession() { localStorage.removeItem(KEY); }
