// Sends the form's answers to /api/generate and shows the answer.
const form = document.getElementById("tool-form");
const error = document.getElementById("error");
const result = document.getElementById("result");
const output = document.getElementById("output");
const button = form.querySelector("button[type=submit]");

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  error.textContent = "";
  button.disabled = true;
  button.textContent = "Generating…";
  try {
    const answers = Object.fromEntries(new FormData(form));
    const res = await fetch("/api/generate", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(answers),
    });
    const body = await res.json();
    if (!res.ok) throw new Error(body.error ?? "Something went wrong.");
    output.textContent = body.text;
    result.hidden = false;
  } catch (e) {
    error.textContent = e.message;
  } finally {
    button.disabled = false;
    button.textContent = "Generate";
  }
});

document.getElementById("copy").addEventListener("click", () => {
  navigator.clipboard.writeText(output.textContent);
});
