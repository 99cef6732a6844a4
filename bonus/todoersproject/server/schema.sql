-- Todoers database schema (PostgreSQL; works on SQLite with TEXT ids).

CREATE TABLE users (
  id            TEXT PRIMARY KEY,              -- random UUID
  name          TEXT NOT NULL,
  email         TEXT NOT NULL UNIQUE,          -- stored lower-case
  password_hash TEXT NOT NULL,                 -- scrypt$<salt hex>$<hash hex>
  created_at    TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);

CREATE TABLE sessions (
  token_hash TEXT PRIMARY KEY,                 -- SHA-256 of the bearer token
  user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at TIMESTAMP NOT NULL
);
CREATE INDEX sessions_user_id ON sessions(user_id);

CREATE TABLE todos (
  id         TEXT PRIMARY KEY,
  user_id    TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  title      TEXT NOT NULL CHECK (length(title) BETWEEN 1 AND 500),
  done       BOOLEAN NOT NULL DEFAULT FALSE,
  created_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP,
  updated_at TIMESTAMP NOT NULL DEFAULT CURRENT_TIMESTAMP
);
CREATE INDEX todos_user_id ON todos(user_id, created_at);
