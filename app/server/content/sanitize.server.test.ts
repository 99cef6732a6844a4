import { Parser } from "htmlparser2";
import { describe, expect, it } from "vitest";
import { xssVectors } from "~/test/xss-vectors";
import {
  chapterAttributes,
  chapterImageSources,
  chapterTags,
  sanitizeChapterHtml,
  toEmbedUrl,
} from "./sanitize.server";

const allowedTags = new Set(chapterTags);
const allowedAttrs: Record<string, Set<string>> = Object.fromEntries(
  Object.entries(chapterAttributes).map(([tag, attributes]) => [tag, new Set(attributes)]),
);

/** Every problem a browser could execute, found by parsing the output as a browser would tokenize it. */
function problems(html: string): string[] {
  const found: string[] = [];
  const parser = new Parser(
    {
      onopentag(name, attribs) {
        if (!allowedTags.has(name)) found.push(`tag <${name}>`);
        for (const [attr, value] of Object.entries(attribs)) {
          const ok =
            allowedAttrs[name]?.has(attr) ||
            (attr === "class" && /^(ql-indent-[1-8]|ql-align-(center|right|justify))$/.test(value));
          if (!ok) found.push(`attribute ${attr} on <${name}>`);
          if (attr === "href" && !/^(https?:|mailto:|tel:)/i.test(value))
            found.push(`href ${value}`);
          if (
            attr === "src" &&
            name === "img" &&
            !/^(https?:\/\/|\/uploads\/|data:image\/(png|gif|jpeg|bmp|x-icon|webp);base64,)/i.test(
              value,
            )
          )
            found.push(`img src ${value}`);
          if (
            attr === "src" &&
            name === "iframe" &&
            !/^https:\/\/(www\.youtube\.com|www\.youtube-nocookie\.com)\/embed\/[\w-]+$|^https:\/\/player\.vimeo\.com\/video\/\d+$/.test(
              value,
            )
          )
            found.push(`iframe src ${value}`);
        }
        if (name === "a" && attribs.rel !== "noopener noreferrer") found.push("link without rel");
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  );
  parser.write(html);
  parser.end();
  if (/javascript:|vbscript:|expression\(/i.test(html.replace(/&[a-z]+;/gi, "")))
    found.push("script URL in text");
  return found;
}

describe("the allowed tags and attributes", () => {
  // The checker below trusts these lists: they must hold Quill's formatting and nothing that
  // runs script, loads a document or submits a form.
  it("are Quill's and inert", () => {
    expect(chapterTags).toEqual(
      expect.arrayContaining(["p", "h1", "strong", "em", "a", "ul", "ol", "li", "img", "iframe"]),
    );
    const dangerousTags = [
      "script",
      "style",
      "link",
      "meta",
      "base",
      "object",
      "embed",
      "applet",
      "frame",
      "frameset",
      "svg",
      "math",
      "form",
      "input",
      "button",
      "textarea",
      "template",
      "noscript",
    ];
    for (const tag of dangerousTags) expect(chapterTags).not.toContain(tag);
    for (const [tag, attributes] of Object.entries(chapterAttributes)) {
      expect(chapterTags).toContain(tag);
      for (const attribute of attributes) {
        expect(attribute, `${attribute} on <${tag}>`).not.toMatch(
          /^(on|style$|srcdoc$|srcset$|formaction$|action$|xmlns|xlink)/,
        );
      }
    }
  });

  it("keeps every allowed tag as written", () => {
    const kept = chapterTags.filter((tag) => !["a", "img", "iframe", "br"].includes(tag));
    for (const tag of kept) {
      expect(sanitizeChapterHtml(`<${tag}>text</${tag}>`)).toBe(`<${tag}>text</${tag}>`);
    }
    expect(sanitizeChapterHtml("<p>one<br />two</p>")).toBe("<p>one<br />two</p>");
  });
});

describe("sanitizeChapterHtml", () => {
  it(`leaves nothing executable in ${xssVectors.length} known XSS vectors`, () => {
    expect(xssVectors.length).toBeGreaterThanOrEqual(100);
    // The checker itself flags the raw vectors (all but a few that are plain text on their
    // own), so a sanitizer that let them through would fail this test.
    const flaggedRaw = xssVectors.filter((v) => problems(v).length > 0).length;
    expect(flaggedRaw).toBeGreaterThanOrEqual(xssVectors.length - 4);
    for (const vector of xssVectors) {
      const clean = sanitizeChapterHtml(vector);
      expect({ vector, clean, problems: problems(clean) }).toEqual({ vector, clean, problems: [] });
      // Sanitizing is stable: clean HTML comes back unchanged.
      expect(sanitizeChapterHtml(clean)).toBe(clean);
    }
  });

  it("keeps what Quill produces", () => {
    const html =
      '<h1>Title</h1><h2>Sub</h2><h3>Small</h3><p><strong>b</strong> <em>i</em> <u>u</u> <a href="https://example.com" target="_blank">link</a> <a href="mailto:a@b.c">mail</a> <a href="tel:+15550100">call</a></p><ol><li>one</li></ol><ul><li>two</li></ul><p><img src="/uploads/0b7c0f1e-8d3a-4c55-9e2f-1a2b3c4d5e6f.png" alt="diagram"></p>';
    expect(sanitizeChapterHtml(html)).toBe(
      '<h1>Title</h1><h2>Sub</h2><h3>Small</h3><p><strong>b</strong> <em>i</em> <u>u</u> <a rel="noopener noreferrer" href="https://example.com" target="_blank">link</a> <a rel="noopener noreferrer" href="mailto:a@b.c">mail</a> <a rel="noopener noreferrer" href="tel:+15550100">call</a></p><ol><li>one</li></ol><ul><li>two</li></ul><p><img src="/uploads/0b7c0f1e-8d3a-4c55-9e2f-1a2b3c4d5e6f.png" alt="diagram" /></p>',
    );
  });

  it("keeps images at http and https addresses, as the specification allows", () => {
    // docs: "images accept http, https and data addresses"; on an https page the
    // browser upgrades an http image itself.
    const html =
      '<p><img src="http://images.example/a.png" alt="plain"><img src="HTTP://images.example/b.png"><img src="https://images.example/c.png" width="40"></p>';
    expect(sanitizeChapterHtml(html)).toBe(
      '<p><img src="http://images.example/a.png" alt="plain" /><img src="HTTP://images.example/b.png" /><img src="https://images.example/c.png" width="40" /></p>',
    );
    // Anything else still loses the image.
    for (const src of ["ftp://images.example/a.png", "//images.example/a.png", "javascript:x"]) {
      expect(sanitizeChapterHtml(`<p>t<img src="${src}"></p>`)).toBe("<p>t</p>");
    }
    // The Content-Security-Policy's img-src lets those images load.
    expect(chapterImageSources).toEqual(expect.arrayContaining(["https:", "http:", "data:"]));
  });

  it("rewrites YouTube and Vimeo videos to the standard 560x315 frame", () => {
    const out = sanitizeChapterHtml(
      '<iframe class="ql-video" frameborder="0" allowfullscreen="true" src="https://www.youtube.com/watch?v=dQw4w9WgXcQ"></iframe><iframe src="https://vimeo.com/76979871" width="9999"></iframe>',
    );
    expect(out).toContain(
      'src="https://www.youtube.com/embed/dQw4w9WgXcQ" width="560" height="315"',
    );
    expect(out).toContain('src="https://player.vimeo.com/video/76979871" width="560" height="315"');
    expect(out).not.toContain("9999");
  });

  it("drops frames from any other site", () => {
    expect(
      sanitizeChapterHtml('<iframe src="https://evil.example/embed/x"></iframe><p>ok</p>'),
    ).toBe("<p>ok</p>");
  });
});

describe("toEmbedUrl", () => {
  it.each([
    ["https://youtu.be/dQw4w9WgXcQ", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    [
      "https://www.youtube.com/watch?v=dQw4w9WgXcQ&t=10",
      "https://www.youtube.com/embed/dQw4w9WgXcQ",
    ],
    ["https://www.youtube.com/embed/dQw4w9WgXcQ", "https://www.youtube.com/embed/dQw4w9WgXcQ"],
    [
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
      "https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ",
    ],
    ["https://player.vimeo.com/video/76979871", "https://player.vimeo.com/video/76979871"],
    ["https://evil.example/watch?v=dQw4w9WgXcQ", null],
    ["javascript:alert(1)", null],
    ["https://www.youtube.com/embed/<script>", null],
  ])("%s -> %s", (input, expected) => {
    expect(toEmbedUrl(input)).toBe(expected);
  });
});
