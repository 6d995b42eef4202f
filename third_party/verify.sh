#!/usr/bin/env bash
# verify.sh re-derives each patched copy under third_party/ from its release
# in the module cache plus its patch, in a temporary directory, and fails
# naming every file that differs: a copy edited without its patch (or a patch
# edited without its copy) must not reach a build unnoticed, since go.mod's
# replace directives make the copies what vetter links.
#
# The version is the one go.mod requires, so bumping a requirement without
# re-basing the copy fails here too. Run from anywhere; .ci/run calls it.
set -euo pipefail
cd "$(dirname "$0")/.."

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
failed=0

# derive NAME MODULE PRUNE...: copies MODULE's release as go.mod requires it
# to $tmp/NAME, applies third_party/NAME.patch and removes the release's
# files the copy does not keep (find expressions, relative to the copy).
derive() {
  local name=$1 module=$2
  shift 2
  local version dir
  version=$(go list -m -f '{{.Version}}' "$module")
  # The module cache holds the release as the proxy served it (checked
  # against go.sum's checksum database); download fetches it when absent.
  dir=$(go mod download -json "$module@$version" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  if [ -z "$dir" ] || [ ! -d "$dir" ]; then
    echo "third_party: cannot find $module@$version in the module cache" >&2
    return 1
  fi
  cp -R "$dir" "$tmp/$name"
  chmod -R u+w "$tmp/$name"
  if ! (cd "$tmp/$name" && patch -s -p1 -E --no-backup-if-mismatch <"$OLDPWD/third_party/$name.patch"); then
    echo "third_party: third_party/$name.patch does not apply to $module@$version" >&2
    return 1
  fi
  local expr
  for expr in "$@"; do
    # shellcheck disable=SC2086 # each PRUNE is a find expression on purpose
    (set -f && cd "$tmp/$name" && find . $expr -prune -exec rm -rf {} +)
  done
  echo "$module@$version"
}

# compare NAME: the copy must be the derived tree, file for file.
compare() {
  local name=$1 out
  if out=$(diff -rq "$tmp/$name" "third_party/$name"); then
    return 0
  fi
  echo "third_party/$name differs from its release plus third_party/$name.patch:" >&2
  # Name the files relative to the repository, whichever side they are on.
  sed -e "s|$tmp/$name|third_party/$name (derived)|g" <<<"$out" >&2
  failed=1
  return 1
}

check() {
  local name=$1 module=$2
  shift 2
  local from
  if ! from=$(derive "$name" "$module" "$@"); then
    failed=1
    return
  fi
  if compare "$name"; then
    echo "third_party/$name = $from + $name.patch"
  fi
}

# Bubble Tea is kept whole.
check bubbletea charm.land/bubbletea/v2
# Chroma is kept without its tests, test data and release tooling (see
# README.md): only what a build of vetter compiles or a reader needs.
check chroma github.com/alecthomas/chroma/v2 \
  "-name *_test.go" "-name testdata -type d" \
  "-path ./cmd" "-path ./_tools" "-path ./bin" \
  "-path ./AGENTS.md" "-path ./BUILD.bit" "-path ./Dockerfile" "-path ./Justfile" \
  "-path ./biome.json" "-path ./chroma.jpg" "-path ./pygments-lexers.txt" \
  "-path ./renovate.json5" "-path ./table.py" "-path ./test.jsonl"

if [ "$failed" != 0 ]; then
  echo "third_party: a copy and its patch disagree; regenerate the patch (see third_party/README.md) or revert the copy" >&2
  exit 1
fi
