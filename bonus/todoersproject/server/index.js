import { readFileSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { createServer } from "node:http";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { hashPassword, hashToken, newToken, verifyPassword } from "./auth.js";
import { openStore } from "./store.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const PORT = Number(process.env.PORT ?? 8787);
const SESSION_DAYS = Number(process.env.SESSION_DAYS ?? 30);
const store = openStore(process.env.DATA_FILE ?? path.join(root, "data", "db.json"));
const branding = JSON.parse(readFileSync(path.join(root, "branding.config.json"), "utf8"));
const distDir = path.join(root, "web", "dist");

class HttpError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

const publicUser = (u) => ({ id: u.id, name: u.name, email: u.email });

async function readJson(req) {
  let body = "";
  for await (const chunk of req) {
    body += chunk;
    if (body.length > 100_000) throw new HttpError(413, "Body too large");
  }
  if (!body) return {};
  try {
    return JSON.parse(body);
  } catch {
    throw new HttpError(400, "Invalid JSON");
  }
}

function send(res, status, data) {
  if (data === undefined) {
    res.writeHead(status).end();
    return;
  }
  res.writeHead(status, { "content-type": "application/json; charset=utf-8" });
  res.end(JSON.stringify(data));
}

function bearer(req) {
  const header = req.headers.authorization ?? "";
  return header.startsWith("Bearer ") ? header.slice(7) : null;
}

function currentUser(req) {
  const token = bearer(req);
  const session = token && store.findSession(hashToken(token));
  const user = session && store.findUserById(session.user_id);
  if (!user) throw new HttpError(401, "Please log in");
  return user;
}

function startSession(user) {
  const token = newToken();
  store.createSession(hashToken(token), user.id, SESSION_DAYS);
  return { token, user: publicUser(user) };
}

async function api(req, res, url) {
  const { pathname } = url;
  const method = req.method;

  if (method === "GET" && pathname === "/api/config") return send(res, 200, branding);

  if (method === "POST" && pathname === "/api/signup") {
    const { name, email, password } = await readJson(req);
    const cleanEmail = String(email ?? "").trim().toLowerCase();
    if (!String(name ?? "").trim()) throw new HttpError(400, "Name is required");
    if (!/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(cleanEmail)) throw new HttpError(400, "Enter a valid e-mail");
    if (String(password ?? "").length < 8) throw new HttpError(400, "Password must be at least 8 characters");
    if (store.findUserByEmail(cleanEmail)) throw new HttpError(409, "An account with this e-mail exists");
    const user = store.createUser({
      name: String(name).trim(),
      email: cleanEmail,
      passwordHash: await hashPassword(String(password)),
    });
    return send(res, 201, startSession(user));
  }

  if (method === "POST" && pathname === "/api/login") {
    const { email, password } = await readJson(req);
    const user = store.findUserByEmail(String(email ?? "").trim().toLowerCase());
    const ok = user && (await verifyPassword(String(password ?? ""), user.password_hash));
    if (!ok) throw new HttpError(401, "Wrong e-mail or password");
    return send(res, 200, startSession(user));
  }

  if (method === "POST" && pathname === "/api/logout") {
    const token = bearer(req);
    if (token) store.deleteSession(hashToken(token));
    return send(res, 204);
  }

  const user = currentUser(req);
  if (method === "GET" && pathname === "/api/me") return send(res, 200, { user: publicUser(user) });

  if (pathname === "/api/todos") {
    if (method === "GET") return send(res, 200, { todos: store.listTodos(user.id) });
    if (method === "POST") {
      const title = String((await readJson(req)).title ?? "").trim();
      if (!title || title.length > 500) throw new HttpError(400, "Title must be 1-500 characters");
      return send(res, 201, { todo: store.createTodo(user.id, title) });
    }
  }

  const match = pathname.match(/^\/api\/todos\/([\w-]+)$/);
  if (match) {
    if (method === "PATCH") {
      const body = await readJson(req);
      if (body.title !== undefined && !String(body.title).trim()) throw new HttpError(400, "Title is required");
      const todo = store.updateTodo(user.id, match[1], {
        title: body.title === undefined ? undefined : String(body.title).trim(),
        done: body.done,
      });
      if (!todo) throw new HttpError(404, "Todo not found");
      return send(res, 200, { todo });
    }
    if (method === "DELETE") {
      if (!store.deleteTodo(user.id, match[1])) throw new HttpError(404, "Todo not found");
      return send(res, 204);
    }
  }
  throw new HttpError(404, "Not found");
}

const types = { ".html": "text/html", ".js": "text/javascript", ".css": "text/css", ".svg": "image/svg+xml" };

async function staticFile(res, pathname) {
  const file = path.join(distDir, path.normalize(pathname).replace(/^(\.\.[/\\])+/, ""));
  const target = file.startsWith(distDir) && path.extname(file) ? file : path.join(distDir, "index.html");
  try {
    const body = await readFile(target);
    res.writeHead(200, { "content-type": types[path.extname(target)] ?? "application/octet-stream" });
    res.end(body);
  } catch {
    send(res, 404, { error: "Run npm run build first, or use npm run dev" });
  }
}

createServer(async (req, res) => {
  const url = new URL(req.url ?? "/", "http://localhost");
  try {
    if (url.pathname.startsWith("/api/")) await api(req, res, url);
    else await staticFile(res, url.pathname);
  } catch (error) {
    const status = error instanceof HttpError ? error.status : 500;
    if (status === 500) console.error(error);
    send(res, status, { error: status === 500 ? "Something went wrong" : error.message });
  }
}).listen(PORT, () => console.log(`${branding.appName} API on http://localhost:${PORT}`));
