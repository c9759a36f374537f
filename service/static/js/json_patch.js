// RFC 6902 patches (add, remove, replace) as the push sends them (service/http/json_patch.py):
// what changed in the meta or a view since the seq the page holds, so a frame does not
// grow with the game. `patched` returns a new document and leaves the one given as it
// was (pages compare what they drew with what they draw); it throws when an operation
// does not fit the document, and the feed then reads the game again.

const UNSAFE = new Set(["__proto__", "constructor", "prototype"]);

export function patched(doc, ops) {
  const copied = new WeakSet();
  const own = (value) => {
    if (value === null || typeof value !== "object") throw new Error("a patch path goes through a value");
    if (copied.has(value)) return value;
    const copy = Array.isArray(value) ? value.slice() : { ...value };
    copied.add(copy);
    return copy;
  };
  let root = doc;
  for (const { op, path, value } of ops) {
    const keys = String(path).split("/").slice(1).map((k) => k.replace(/~1/g, "/").replace(/~0/g, "~"));
    if (keys.some((k) => UNSAFE.has(k))) throw new Error(`a patch path the page will not follow: ${path}`);
    if (!keys.length) {
      if (op === "remove") throw new Error("a patch cannot remove the whole document");
      root = value;
      continue;
    }
    root = own(root);
    let parent = root;
    for (const k of keys.slice(0, -1)) {
      const child = own(Array.isArray(parent) ? parent[Number(k)] : parent[k]);
      parent[Array.isArray(parent) ? Number(k) : k] = child;
      parent = child;
    }
    const last = keys[keys.length - 1];
    if (Array.isArray(parent)) {
      const i = last === "-" ? parent.length : Number(last);
      if (!Number.isInteger(i) || i < 0 || i > parent.length || (op !== "add" && i === parent.length)) {
        throw new Error(`no such index: ${path}`);
      }
      if (op === "add") parent.splice(i, 0, value);
      else if (op === "remove") parent.splice(i, 1);
      else if (op === "replace") parent[i] = value;
      else throw new Error(`not a patch operation: ${op}`);
    } else {
      if (op !== "add" && !Object.prototype.hasOwnProperty.call(parent, last)) throw new Error(`no such member: ${path}`);
      if (op === "remove") delete parent[last];
      else if (op === "add" || op === "replace") parent[last] = value;
      else throw new Error(`not a patch operation: ${op}`);
    }
  }
  return root;
}
