/**
 * The product's demo video (public/videos/ailabs-demo.webm), with its poster and
 * English captions. The browser's own controls play it: no script needed, and
 * nothing is downloaded until the visitor presses play.
 */
export function DemoVideo({ className = "" }: { className?: string }) {
  return (
    <video
      controls
      preload="none"
      poster="/videos/ailabs-demo-poster.png"
      width={640}
      height={360}
      className={`aspect-video h-auto w-full bg-slate-900 ${className}`}
    >
      <source src="/videos/ailabs-demo.webm" type="video/webm" />
      <track kind="captions" src="/videos/ailabs-demo.vtt" srcLang="en" label="English" default />
      Your browser does not support the video tag.
    </video>
  );
}
