import { useEffect, useState } from "react";
import { api, getToken, setToken } from "./api.js";

export function App() {
  const [brand, setBrand] = useState(null);
  const [user, setUser] = useState(null);
  const [checking, setChecking] = useState(Boolean(getToken()));

  useEffect(() => {
    api("/config").then((config) => {
      setBrand(config);
      document.title = config.appName;
      document.documentElement.style.setProperty("--primary", config.primaryColor);
      document.documentElement.style.setProperty("--accent", config.accentColor);
    });
    if (getToken()) {
      api("/me")
        .then((data) => setUser(data.user))
        .catch(() => setToken(null))
        .finally(() => setChecking(false));
    }
  }, []);

  async function logout() {
    await api("/logout", { method: "POST" }).catch(() => {});
    setToken(null);
    setUser(null);
  }

  if (!brand || checking) return <p className="center">Loading…</p>;
  return (
    <div className="page">
      <header className="header">
        <strong>
          {brand.logoEmoji} {brand.appName}
        </strong>
        {user && (
          <span>
            {user.name} <button onClick={logout}>Log out</button>
          </span>
        )}
      </header>
      {user ? <Todos /> : <AuthForm brand={brand} onAuth={setUser} />}
      <footer className="footer">
        {brand.plan.name} plan: ${brand.plan.priceMonthly}/month · Help:{" "}
        <a href={`mailto:${brand.supportEmail}`}>{brand.supportEmail}</a>
      </footer>
    </div>
  );
}

function AuthForm({ brand, onAuth }) {
  const [mode, setMode] = useState("signup");
  const [error, setError] = useState("");
  const [busy, setBusy] = useState(false);

  async function submit(event) {
    event.preventDefault();
    const form = Object.fromEntries(new FormData(event.currentTarget));
    setBusy(true);
    setError("");
    try {
      const data = await api(`/${mode}`, { method: "POST", body: form });
      setToken(data.token);
      onAuth(data.user);
    } catch (e) {
      setError(e.message);
    } finally {
      setBusy(false);
    }
  }

  return (
    <main className="card">
      <h1>{mode === "signup" ? `Join ${brand.appName}` : "Welcome back"}</h1>
      <p className="muted">{brand.tagline}</p>
      <form onSubmit={submit}>
        {mode === "signup" && (
          <label>
            Name
            <input name="name" required autoComplete="name" />
          </label>
        )}
        <label>
          E-mail
          <input name="email" type="email" required autoComplete="email" />
        </label>
        <label>
          Password
          <input name="password" type="password" required minLength={8} autoComplete={mode === "signup" ? "new-password" : "current-password"} />
        </label>
        {error && <p role="alert" className="error">{error}</p>}
        <button className="primary" disabled={busy}>
          {busy ? "Please wait…" : mode === "signup" ? "Create account" : "Log in"}
        </button>
      </form>
      <button className="link" onClick={() => setMode(mode === "signup" ? "login" : "signup")}>
        {mode === "signup" ? "Have an account? Log in" : "New here? Create an account"}
      </button>
    </main>
  );
}

function Todos() {
  const [todos, setTodos] = useState([]);
  const [title, setTitle] = useState("");
  const [error, setError] = useState("");

  useEffect(() => {
    api("/todos").then((data) => setTodos(data.todos), (e) => setError(e.message));
  }, []);

  async function run(action) {
    setError("");
    try {
      await action();
    } catch (e) {
      setError(e.message);
    }
  }

  const add = (event) => {
    event.preventDefault();
    run(async () => {
      const { todo } = await api("/todos", { method: "POST", body: { title } });
      setTodos((list) => [...list, todo]);
      setTitle("");
    });
  };
  const toggle = (todo) =>
    run(async () => {
      const data = await api(`/todos/${todo.id}`, { method: "PATCH", body: { done: !todo.done } });
      setTodos((list) => list.map((t) => (t.id === todo.id ? data.todo : t)));
    });
  const rename = (todo) => {
    const next = prompt("Rename todo", todo.title);
    if (!next || next === todo.title) return;
    run(async () => {
      const data = await api(`/todos/${todo.id}`, { method: "PATCH", body: { title: next } });
      setTodos((list) => list.map((t) => (t.id === todo.id ? data.todo : t)));
    });
  };
  const remove = (todo) =>
    run(async () => {
      await api(`/todos/${todo.id}`, { method: "DELETE" });
      setTodos((list) => list.filter((t) => t.id !== todo.id));
    });

  const left = todos.filter((t) => !t.done).length;
  return (
    <main className="card">
      <h1>Your todos</h1>
      <form onSubmit={add} className="row">
        <input aria-label="New todo" value={title} onChange={(e) => setTitle(e.target.value)} placeholder="What needs doing?" required maxLength={500} />
        <button className="primary">Add</button>
      </form>
      {error && <p role="alert" className="error">{error}</p>}
      <ul className="todos">
        {todos.map((todo) => (
          <li key={todo.id} className={todo.done ? "done" : ""}>
            <label>
              <input type="checkbox" checked={todo.done} onChange={() => toggle(todo)} /> {todo.title}
            </label>
            <span>
              <button onClick={() => rename(todo)}>Edit</button>
              <button onClick={() => remove(todo)}>Delete</button>
            </span>
          </li>
        ))}
      </ul>
      <p className="muted">{todos.length === 0 ? "Nothing yet: add your first todo." : `${left} of ${todos.length} left`}</p>
    </main>
  );
}
