import { CopyButton } from "~/components/marketing/affiliate";
import { TextField } from "~/components/ui";
import { affiliateLaunch, site } from "~/config/site";
import { bannerCode, bannerPath, banners, customGraphicsMail, videoTips } from "~/content/banners";
import {
  fillSwipe,
  LINK_PLACEHOLDER,
  NAME_PLACEHOLDER,
  type Swipe,
  type SwipeValues,
} from "~/content/swipes";
import { DemoVideo } from "./demo-video";

// The tab panels of /demo-swipes: the demo video, the e-mail swipes and the banners.

const swipeFields = [
  {
    key: "link",
    name: "swipe-link",
    label: "Your affiliate link",
    hint: `Replaces ${LINK_PLACEHOLDER}. Request yours on the affiliate page.`,
    type: "url",
  },
  {
    key: "name",
    name: "swipe-name",
    label: "Recipient's name",
    hint: `Replaces ${NAME_PLACEHOLDER}: a name, or your mailer's merge tag.`,
    type: "text",
  },
] as const;

/** The affiliate's link and the recipient's name, filled into every swipe and banner code. */
export function SwipeDetails({
  values,
  onChange: setValues,
}: {
  values: SwipeValues;
  onChange: React.Dispatch<React.SetStateAction<SwipeValues>>;
}) {
  return (
    <section
      aria-labelledby="details-title"
      className="mt-6 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:p-6"
    >
      <h2 id="details-title" className="text-lg font-bold text-slate-900">
        Your details
      </h2>
      <div className="mt-3 grid gap-4 sm:grid-cols-2">
        {swipeFields.map((field) => (
          <TextField
            key={field.key}
            name={field.name}
            label={field.label}
            hint={field.hint}
            type={field.type}
            value={values[field.key]}
            onChange={(event) => setValues((v) => ({ ...v, [field.key]: event.target.value }))}
            maxLength={300}
            spellCheck={false}
            autoComplete="off"
          />
        ))}
      </div>
    </section>
  );
}

export function DemoPanel() {
  return (
    <div className="grid gap-6 lg:grid-cols-[3fr_2fr]">
      <div>
        <h2 className="text-xl font-bold text-slate-900">Demo video</h2>
        <DemoVideo className="mt-3 rounded-lg" />
        <p className="mt-2 text-sm text-slate-600">
          Prompt, build, deploy: the product at work in six seconds.{" "}
          <a
            href="/videos/ailabs-demo.webm"
            download="ailabs-demo.webm"
            className="font-semibold text-indigo-700 underline"
          >
            Download the video (WebM)
          </a>
        </p>
      </div>
      <div>
        <h2 className="text-xl font-bold text-slate-900">How to use it</h2>
        <ul className="mt-3 list-disc space-y-2 pl-5 text-slate-700">
          {videoTips.map((tip) => (
            <li key={tip}>{tip}</li>
          ))}
        </ul>
      </div>
    </div>
  );
}

export function SwipeList({ swipes, values }: { swipes: readonly Swipe[]; values: SwipeValues }) {
  return (
    <ol className="space-y-6">
      {swipes.map((swipe, index) => {
        const filled = fillSwipe(swipe, values);
        const [subjectLine = "", ...rest] = filled.split("\n\n");
        return (
          <li key={swipe.id}>
            <article
              aria-labelledby={`${swipe.id}-title`}
              className="rounded-lg border border-slate-200 bg-slate-50 p-4"
            >
              <div className="flex flex-wrap items-start justify-between gap-3">
                <h3 id={`${swipe.id}-title`} className="font-bold text-slate-900">
                  <span className="text-slate-500">E-mail {index + 1}: </span>
                  {subjectLine.replace(/^Subject: /, "")}
                </h3>
                <CopyButton text={filled} describedBy={`${swipe.id}-title`} />
              </div>
              <pre className="mt-3 whitespace-pre-wrap break-words font-sans text-sm leading-relaxed text-slate-700">
                {rest.join("\n\n")}
              </pre>
            </article>
          </li>
        );
      })}
    </ol>
  );
}

export function BannersPanel({ link }: { link: string }) {
  return (
    <div>
      <h2 className="text-xl font-bold text-slate-900">Banners</h2>
      <p className="mt-1 text-slate-700">
        Download a PNG to host yourself, or copy the HTML code: it links the banner to your
        affiliate link.
      </p>
      <ul className="mt-6 space-y-8">
        {banners.map((b) => {
          const file = bannerPath(b);
          const size = `${b.width}x${b.height}`;
          const code = bannerCode(b, link);
          return (
            <li key={size}>
              <figure>
                <figcaption className="font-semibold text-slate-900" id={`banner-${size}`}>
                  {b.name}, {b.width} × {b.height}
                </figcaption>
                <img
                  src={file}
                  width={b.width}
                  height={b.height}
                  loading="lazy"
                  alt={`${site.brand} banner, ${b.width} by ${b.height} pixels`}
                  className="mt-2 h-auto max-w-full rounded border border-slate-200"
                />
              </figure>
              <div className="mt-3 flex flex-wrap gap-3">
                <a
                  href={file}
                  download={`ailabs-${size}.png`}
                  className="inline-flex items-center rounded-lg border border-indigo-600 px-4 py-2 text-sm font-bold text-indigo-700 hover:bg-indigo-50 focus:outline-none focus-visible:ring-4 focus-visible:ring-indigo-400"
                >
                  Download {size} PNG
                </a>
                <CopyButton text={code} label="Copy HTML" describedBy={`banner-${size}`} />
              </div>
            </li>
          );
        })}
      </ul>
      <p className="mt-8 rounded-lg bg-indigo-50 p-4 text-slate-800">
        Need another size or a design for your audience?{" "}
        <a href={customGraphicsMail} className="font-semibold text-indigo-700 underline">
          Ask us for custom graphics
        </a>{" "}
        at {affiliateLaunch.jvEmail}.
      </p>
    </div>
  );
}
