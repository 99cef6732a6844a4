// Copy of the app builder (/app-builder).

/** Prompts a member can pick to start from. */
export const examplePrompts: readonly { label: string; prompt: string }[] = [
  {
    label: "AI email assistant",
    prompt:
      "Build an AI email assistant SaaS: users paste an email thread and get three reply drafts (friendly, formal, short). Include sign-up and login, a history of drafts, and a $9/month subscription with a free tier of 10 drafts.",
  },
  {
    label: "Image background remover",
    prompt:
      "Build a web app that removes image backgrounds: drag and drop upload, preview before and after, download as PNG, and credits-based pricing (20 free credits, then packs of 100).",
  },
  {
    label: "Blog content writer",
    prompt:
      "Build an AI blog writer for small businesses: enter a topic and keywords, get an outline, then a full SEO-friendly article that can be edited and exported as Markdown. Teams of up to 5 users, monthly plan.",
  },
  {
    label: "Podcast transcriber",
    prompt:
      "Build a podcast transcription tool: upload an audio file, get a timestamped transcript, show notes and 5 social media clips suggestions. Dashboard of past episodes, pay per hour of audio.",
  },
];
