#!/usr/bin/env bash
# Renders the affiliate banners (public/banners/*.png) from SVG with Chromium,
# and the demo video and its poster (public/videos/) with ffmpeg. Run once; the
# outputs are committed.
set -euo pipefail
cd "$(dirname "$0")/.."
out=public/banners
mkdir -p "$out" public/videos

banner() { # width height title-size sub-size layout(h|v)
  local w=$1 h=$2 ts=$3 ss=$4 layout=$5 svg
  if [ "$layout" = v ]; then
    svg="<svg xmlns='http://www.w3.org/2000/svg' width='$w' height='$h'>
<defs><linearGradient id='g' x1='0' y1='0' x2='0' y2='1'><stop offset='0' stop-color='#1e1b4b'/><stop offset='1' stop-color='#4338ca'/></linearGradient></defs>
<rect width='$w' height='$h' fill='url(#g)'/>
<text x='50%' y='90' text-anchor='middle' font-family='DejaVu Sans' font-weight='bold' font-size='$ts' fill='#ffffff'>AI Labs</text>
<text x='50%' y='170' text-anchor='middle' font-family='DejaVu Sans' font-size='$ss' fill='#c7d2fe'>Build an</text>
<text x='50%' y='195' text-anchor='middle' font-family='DejaVu Sans' font-size='$ss' fill='#c7d2fe'>AI SaaS app</text>
<text x='50%' y='220' text-anchor='middle' font-family='DejaVu Sans' font-size='$ss' fill='#c7d2fe'>from one</text>
<text x='50%' y='245' text-anchor='middle' font-family='DejaVu Sans' font-size='$ss' fill='#c7d2fe'>prompt</text>
<text x='50%' y='330' text-anchor='middle' font-family='DejaVu Sans' font-weight='bold' font-size='$ss' fill='#fbbf24'>No code.</text>
<text x='50%' y='355' text-anchor='middle' font-family='DejaVu Sans' font-weight='bold' font-size='$ss' fill='#fbbf24'>Launch in</text>
<text x='50%' y='380' text-anchor='middle' font-family='DejaVu Sans' font-weight='bold' font-size='$ss' fill='#fbbf24'>7 days.</text>
<rect x='15' y='480' width='130' height='50' rx='10' fill='#fbbf24'/>
<text x='50%' y='512' text-anchor='middle' font-family='DejaVu Sans' font-weight='bold' font-size='16' fill='#0f172a'>Get Access</text>
</svg>"
  elif [ "$layout" = box ]; then
    svg="<svg xmlns='http://www.w3.org/2000/svg' width='$w' height='$h'>
<defs><linearGradient id='g' x1='0' y1='0' x2='1' y2='1'><stop offset='0' stop-color='#1e1b4b'/><stop offset='1' stop-color='#4338ca'/></linearGradient></defs>
<rect width='$w' height='$h' fill='url(#g)'/>
<text x='50%' y='60' text-anchor='middle' font-family='DejaVu Sans' font-weight='bold' font-size='$ts' fill='#ffffff'>AI Labs</text>
<text x='50%' y='105' text-anchor='middle' font-family='DejaVu Sans' font-size='$ss' fill='#c7d2fe'>Build and launch your own</text>
<text x='50%' y='130' text-anchor='middle' font-family='DejaVu Sans' font-size='$ss' fill='#c7d2fe'>AI SaaS app in 7 days</text>
<text x='50%' y='160' text-anchor='middle' font-family='DejaVu Sans' font-weight='bold' font-size='$ss' fill='#fbbf24'>No coding required</text>
<rect x='60' y='185' width='180' height='44' rx='10' fill='#fbbf24'/>
<text x='50%' y='214' text-anchor='middle' font-family='DejaVu Sans' font-weight='bold' font-size='18' fill='#0f172a'>Get Access</text>
</svg>"
  else
    svg="<svg xmlns='http://www.w3.org/2000/svg' width='$w' height='$h'>
<defs><linearGradient id='g' x1='0' y1='0' x2='1' y2='0'><stop offset='0' stop-color='#1e1b4b'/><stop offset='1' stop-color='#4338ca'/></linearGradient></defs>
<rect width='$w' height='$h' fill='url(#g)'/>
<text x='14' y='$((h / 2 + ts / 3))' font-family='DejaVu Sans' font-weight='bold' font-size='$ts' fill='#ffffff'>AI Labs</text>
<text x='$((ts * 5 + 10))' y='$((h / 2 + ss / 3))' font-family='DejaVu Sans' font-size='$ss' fill='#c7d2fe'>Build an AI SaaS app from one prompt. No code.</text>
<rect x='$((w - ss * 7 - 14))' y='$((h / 2 - ss))' width='$((ss * 7))' height='$((ss * 2))' rx='8' fill='#fbbf24'/>
<text x='$((w - ss * 7 / 2 - 14))' y='$((h / 2 + ss / 3))' text-anchor='middle' font-family='DejaVu Sans' font-weight='bold' font-size='$ss' fill='#0f172a'>Get Access</text>
</svg>"
  fi
  mkdir -p /tmp/ailabs-banners
  printf '%s' "$svg" > "/tmp/ailabs-banners/ailabs-${w}x${h}.svg"
}

banner 728 90 30 17 h
banner 468 60 22 11 h
banner 300 250 34 17 box
banner 160 600 30 17 v

# SVG to PNG with the system Chromium (exact pixel sizes).
node scripts/svg-to-png.mjs /tmp/ailabs-banners "$out"

# The demo video: 6 seconds, 640x360, no sound, VP9 WebM, well under 500 KB.
ffmpeg -y -loglevel error -f lavfi -i "color=c=0x1e1b4b:s=640x360:d=6:r=24" \
  -vf "drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf:text='AI Labs':fontcolor=white:fontsize=56:x=(w-text_w)/2:y=110,drawtext=fontfile=/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf:text='Prompt  >  Build  >  Deploy':fontcolor=0xfbbf24:fontsize=30:x=(w-text_w)/2:y=200,drawbox=x=120:y=270:w=400:h=16:color=0x34d399:t=fill" \
  -c:v libvpx-vp9 -b:v 120k -pix_fmt yuv420p -an public/videos/ailabs-demo.webm
ffmpeg -y -loglevel error -ss 5 -i public/videos/ailabs-demo.webm -frames:v 1 public/videos/ailabs-demo-poster.png
