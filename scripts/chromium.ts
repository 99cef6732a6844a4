// How the end-to-end tests, the Lighthouse run and the benchmark's browser
// capture start Chromium: the system's own, never a downloaded one, with what
// a container needs and nothing that talks to the network on its own.

export const systemChromiumPath = "/usr/bin/chromium";

export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--no-first-run",
  "--disable-quic",
];
