#!/usr/bin/env bash
# Renders the pages of `isosynth hierarchy --html` and `isosynth anomalies
# --html` in headless Chromium and checks what a reader sees: the tables,
# every cell a link to an anchor of the page, and the pictures, drawn.
#   browser_test.sh ISOSYNTH OUT_DIR
# Exits 77 (skipped) when no Chromium is installed or it cannot start.
set -u
bin=$1 out=$2
browser=
for b in chromium chromium-browser google-chrome; do
  if command -v "$b" >/dev/null 2>&1; then browser=$b; break; fi
done
if [ -z "$browser" ]; then
  echo "skipped: Chromium is not installed (scripts/setup installs it where the package exists)"
  exit 77
fi
rm -rf "$out" && mkdir -p "$out"
flags=(--headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --user-data-dir="$out/profile")
# A browser that cannot start here (no display libraries, a sandbox that
# forbids it) says nothing about the page: skipped, with its error.
if ! timeout 60 "$browser" "${flags[@]}" --dump-dom "data:text/html,<p>started</p>" 2>"$out/start.err" |
    grep -q started; then
  echo "skipped: $browser does not start here: $(tail -1 "$out/start.err")"
  exit 77
fi
"$bin" hierarchy RA CC PC SI SER --scope 4,2,3 --html "$out/page" >/dev/null || { echo "FAIL: hierarchy --html"; exit 1; }
page="file://$out/page/index.html"
timeout 60 "$browser" "${flags[@]}" --dump-dom "$page" >"$out/dom.html" 2>"$out/browser.err" ||
  { echo "FAIL: $browser could not load the page"; cat "$out/browser.err"; exit 1; }
fail() { echo "FAIL: $*"; exit 1; }
# Every cell of the page's tables is a link to an anchor of the page: its
# level's verdict, the separating history, the implication.
cells_link() {
  local dom=$1 what=$2 cells links target
  cells=$(grep -o '<td[ >]' "$dom" | wc -l)
  links=$(grep -o '<td[^>]*><a href="#[^"]*">[^<]*</a></td>' "$dom" | wc -l)
  [ "$cells" -gt 0 ] || fail "$what: no table cells"
  [ "$cells" -eq "$links" ] || fail "$what: $((cells - links)) of $cells table cells are not links"
  for target in $(grep -o '<td[^>]*><a href="#[^"]*"' "$dom" | sed 's/.*href="#//; s/"$//' | sort -u); do
    grep -q "id=\"$target\"" "$dom" || fail "$what: a cell links to #$target, which is not on the page"
  done
}
grep -q "<table" "$out/dom.html" || fail "no table in the rendered page"
[ "$(grep -o "<svg" "$out/dom.html" | wc -l)" -ge 2 ] || fail "fewer than two pictures in the rendered page"
grep -q "write skew" "$out/dom.html" || fail "the table does not name write skew"
grep -q "<script" "$out/dom.html" && fail "the page has a script"
cells_link "$out/dom.html" "hierarchy"
# A screenshot, for a person to look at: it must be a PNG of some size.
timeout 60 "$browser" "${flags[@]}" --window-size=1100,1800 --screenshot="$out/page.png" "$page" \
  >/dev/null 2>>"$out/browser.err" || fail "no screenshot"
[ "$(head -c 4 "$out/page.png" | od -An -c | tr -d ' ')" = "211PNG" ] || fail "the screenshot is no PNG"
[ "$(wc -c <"$out/page.png")" -gt 20000 ] || fail "the screenshot is nearly empty"
# The catalogue's page: its table names the anomalies and draws their examples.
"$bin" anomalies -l CC -l PC -l SI -l SER --html "$out/anomalies" >/dev/null || fail "anomalies --html"
timeout 60 "$browser" "${flags[@]}" --dump-dom "file://$out/anomalies/index.html" >"$out/anomalies-dom.html" \
  2>>"$out/browser.err" || fail "$browser could not load the anomalies page"
grep -q "<table" "$out/anomalies-dom.html" || fail "no table in the anomalies page"
grep -q "long fork" "$out/anomalies-dom.html" || fail "the anomalies page does not name the long fork"
[ "$(grep -o "<svg" "$out/anomalies-dom.html" | wc -l)" -ge 8 ] || fail "an anomaly without its picture"
cells_link "$out/anomalies-dom.html" "anomalies"
# The pictures draw each anomaly's own pattern, under its name.
grep -q "dirty write (G0)" "$out/anomalies-dom.html" || fail "the G0 picture is not named dirty write (G0)"
grep -q "rt: T1 committed at" "$out/anomalies-dom.html" || fail "the stale-read picture has no real-time edge"
echo "ok: $browser rendered the tables and the pictures ($out/page.png)"
