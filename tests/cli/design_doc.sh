#!/usr/bin/env bash
# docs/design.md is the map of the code: this checks that the map is true.
#   design_doc.sh ISOSYNTH ROOT
# 1. Every path it names exists: the layout tree (each folder line, nested by
#    its indentation), every `path` in backquotes under a top-level folder of
#    the repository or ../shared/ (globs allowed), and every `file.cpp`,
#    `file.hpp` or `file.lua` named alone.
# 2. The commands of its command-line section are exactly the subcommands
#    `isosynth --help` lists.
# 3. The levels of its spec library list ("- **LIB** levels: A, B, ...") are
#    exactly the levels `isosynth levels` prints for LIB, and every level
#    named in backquotes (`biswas.SER`) exists.
# 4. Every #include of the product folders goes down the layers of its
#    "```layers" block (top first, folders of one layer on one line): a
#    folder includes its own headers and those of lower layers only; every
#    product folder is in the block.
# Every problem is printed; exit 1 when there is one.
set -u
bin=$(realpath "$1") root=$(realpath "$2")
doc=$root/docs/design.md
status=0
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
problem() { echo "docs/design.md: $*"; status=1; }

[ -f "$doc" ] || { echo "no $doc"; exit 1; }
tops='engine|lua|specs|cegis|prove|db|cli|tests|fuzz|examples|bench|docs|scripts'

# 1a. The layout tree: the first fenced block after "## 3. Layout". A line
# "  name/   text" is a folder inside the last folder of smaller indentation.
awk '
  /^## 3\. Layout/ { in_layout = 1; next }
  in_layout && /^```/ { if (fence) exit; fence = 1; next }
  in_layout && fence {
    if (!match($0, /^ *[A-Za-z_.-]+\/ /) && !match($0, /^ *[A-Za-z_.-]+\/$/)) next
    indent = match($0, /[^ ]/) - 1
    name = $1
    sub(/\/$/, "", name)
    while (depth > 0 && ind[depth] >= indent) depth--
    depth++; ind[depth] = indent; dir[depth] = name
    path = dir[1]
    for (k = 2; k <= depth; k++) path = path "/" dir[k]
    print path
  }' "$doc" > layout.txt
[ -s layout.txt ] || problem "no layout tree found under '## 3. Layout'"
while read -r p; do
  [ -d "$root/$p" ] || problem "the layout names $p/, which does not exist"
done < layout.txt

# 1b. Paths in backquotes.
grep -o '`[^`]*`' "$doc" | tr -d '`' | sort -u > quoted.txt
while read -r q; do
  case "$q" in
    ../shared/*)
      [ -d "$root/../shared" ] || continue
      p=$root/$q ;;
    *)
      if printf '%s\n' "$q" | grep -Eq "^($tops)(/[A-Za-z0-9_.*-]*)*/?$"; then
        p=$root/$q
      elif printf '%s\n' "$q" | grep -Eq '^[A-Za-z0-9_-]+\.(cpp|hpp|lua)$'; then
        [ -n "$(find "$root" -path "$root/build*" -prune -o -name "$q" -print -quit)" ] ||
          problem "names \`$q\`, which is no file of the repository"
        continue
      else
        continue
      fi ;;
  esac
  # A glob must match something; a plain path must exist.
  if ! compgen -G "$p" > /dev/null; then problem "names \`$q\`, which does not exist"; fi
done < quoted.txt

# 2. Commands: the fenced block of "## 7." lists "isosynth NAME ..." lines.
awk '/^## 7\./ { s = 1; next } s && /^## / { exit } s' "$doc" |
  grep -Eo '^isosynth +[a-z]+' | awk '{ print $2 }' | sort -u > doc-commands.txt
"$bin" --help | awk 'tolower($0) ~ /^subcommands:/ { s = 1; next } s && /^[^ ]/ { s = 0 } s && NF { print $1 }' |
  sort -u > help-commands.txt
[ -s help-commands.txt ] || problem "isosynth --help lists no subcommands (is its Subcommands: section still there?)"
while read -r c; do grep -qx "$c" doc-commands.txt || problem "section 7 does not list the command $c"; done < help-commands.txt
while read -r c; do grep -qx "$c" help-commands.txt || problem "section 7 lists \`isosynth $c\`, which isosynth --help does not"; done < doc-commands.txt

# 3. Levels.
"$bin" levels --json | grep -o '"name": *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/' | sort -u > shipped.txt
[ -s shipped.txt ] || problem "isosynth levels --json printed no level"
grep -E '^- \*\*[a-z]+\*\* levels: ' "$doc" > lists.txt
[ -s lists.txt ] || problem "no spec library list (\"- **LIB** levels: A, B, ...\") found"
while IFS= read -r line; do
  lib=$(printf '%s\n' "$line" | sed -E 's/^- \*\*([a-z]+)\*\* levels: .*/\1/')
  # The list runs to the first '.' that ends it; parenthesized remarks dropped.
  printf '%s\n' "$line" | sed -E 's/^- \*\*[a-z]+\*\* levels: //; s/\([^()]*\)//g; s/\([^()]*\)//g; s/\. .*$//; s/\.$//' |
    tr ',' '\n' | sed -E 's/^ +//; s/ +$//' | grep -v '^$' | sed "s/^/$lib./" | sort -u > listed.txt
  grep "^$lib\." shipped.txt > lib-shipped.txt
  while read -r l; do grep -qxF "$l" lib-shipped.txt || problem "lists $l, which isosynth levels does not print"; done < listed.txt
  while read -r l; do grep -qxF "$l" listed.txt || problem "the $lib list lacks $l, which isosynth levels prints"; done < lib-shipped.txt
done < lists.txt
grep -Eo '`[a-z]+\.[A-Za-z][A-Za-z0-9.-]*`' "$doc" | tr -d '`' | sort -u |
  grep -Ev '\.NAME$' | grep -Ev '\.(md|cpp|hpp|lua|json|edn|txt|csv|sh|py|log|hist|bincode)$' > named.txt
libs=$(sed 's/\..*//' shipped.txt | sort -u | paste -sd'|')
while read -r l; do
  printf '%s\n' "$l" | grep -Eq "^($libs)\." || continue
  grep -qxF "$l" shipped.txt || problem "names the level \`$l\`, which isosynth levels does not print"
done < named.txt

# 4. Layers. A file's folder is its top folder, or engine/NAME inside engine/.
awk '/^```layers/ { s = 1; next } s && /^```/ { exit } s { for (i = 1; i <= NF; i++) print $i, NR }' "$doc" > layers.txt
[ -s layers.txt ] || problem "no \`\`\`layers block found"
(cd "$root" && git ls-files 'engine/*.[ch]pp' 'lua/*.[ch]pp' 'cegis/*.[ch]pp' 'db/*.[ch]pp' 'cli/*.[ch]pp' 2>/dev/null ||
  find engine lua cegis prove db cli -name '*.[ch]pp') > product.txt
# One pass over every product file: "FILE INCLUDED" per project include.
(cd "$root" && xargs awk 'match($0, /^#include "[a-z_]+\/[^"]+"/) {
  inc = substr($0, 11, RLENGTH - 11); print FILENAME, inc }' < "$work/product.txt") > includes.txt
awk '
  # engine/NAME/... is engine/NAME; any other top/... is top.
  function component(path,   n, part) { n = split(path, part, "/"); return part[1] == "engine" && n > 2 ? "engine/" part[2] : part[1] }
  NR == FNR { layer[$1] = $2; next }
  {
    from = component($1); to = component($2)
    if (!(from in layer)) { if (!(from in told)) print "docs/design.md: the layers block lacks " from " (of " $1 ")"; told[from] = 1; bad = 1; next }
    if (!(to in layer)) next
    edges++
    if (to != from && layer[to] <= layer[from]) { print "docs/design.md: " $1 " includes " $2 ": " from " may not include " to " (layer " layer[to] " is not below " layer[from] ")"; bad = 1 }
  }
  END { print edges + 0 > "edges.txt"; exit bad }' layers.txt includes.txt || status=1
edges=$(cat edges.txt)

[ $status -eq 0 ] && echo "ok: docs/design.md names $(wc -l < layout.txt) folders and $(wc -l < quoted.txt) quoted terms that exist, the commands of isosynth --help, $(wc -l < shipped.txt) levels, and layers that $edges includes respect"
exit $status
