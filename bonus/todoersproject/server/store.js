import { randomUUID } from "node:crypto";
import { mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * A JSON-file store with the tables of schema.sql. Swap these functions for
 * SQL queries when you move to PostgreSQL or SQLite.
 */
export function openStore(file) {
  let db = { users: [], sessions: [], todos: [] };
  try {
    db = JSON.parse(readFileSync(file, "utf8"));
  } catch {
    mkdirSync(path.dirname(file), { recursive: true });
  }
  const save = () => {
    const temp = `${file}.tmp`;
    writeFileSync(temp, JSON.stringify(db, null, 2));
    renameSync(temp, file);
  };
  const now = () => new Date().toISOString();

  return {
    findUserByEmail: (email) => db.users.find((u) => u.email === email) ?? null,
    findUserById: (id) => db.users.find((u) => u.id === id) ?? null,
    createUser({ name, email, passwordHash }) {
      const user = { id: randomUUID(), name, email, password_hash: passwordHash, created_at: now() };
      db.users.push(user);
      save();
      return user;
    },
    createSession(tokenHash, userId, days) {
      const expires = new Date(Date.now() + days * 86_400_000).toISOString();
      db.sessions.push({ token_hash: tokenHash, user_id: userId, expires_at: expires });
      save();
    },
    findSession(tokenHash) {
      const session = db.sessions.find((s) => s.token_hash === tokenHash);
      return session && session.expires_at > now() ? session : null;
    },
    deleteSession(tokenHash) {
      db.sessions = db.sessions.filter((s) => s.token_hash !== tokenHash);
      save();
    },
    listTodos: (userId) => db.todos.filter((t) => t.user_id === userId),
    createTodo(userId, title) {
      const todo = { id: randomUUID(), user_id: userId, title, done: false, created_at: now(), updated_at: now() };
      db.todos.push(todo);
      save();
      return todo;
    },
    updateTodo(userId, id, changes) {
      const todo = db.todos.find((t) => t.id === id && t.user_id === userId);
      if (!todo) return null;
      if (typeof changes.title === "string") todo.title = changes.title;
      if (typeof changes.done === "boolean") todo.done = changes.done;
      todo.updated_at = now();
      save();
      return todo;
    },
    deleteTodo(userId, id) {
      const before = db.todos.length;
      db.todos = db.todos.filter((t) => !(t.id === id && t.user_id === userId));
      save();
      return db.todos.length < before;
    },
  };
}
