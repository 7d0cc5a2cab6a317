#!/bin/sh
# Generates protocol/gen/ from protocol/*.proto with buf and the local protoc-gen-es.
# The generated code is committed; protocol/gen.test.ts fails when it is stale.
# Usage: scripts/gen-proto.sh [out-dir]   (default protocol/gen)
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-"$root/protocol/gen"}
cd "$root"
# The template is inline so that no buf.yaml/buf.gen.yaml has to live next to the code:
# target=ts (no build step), .ts import extensions (tsconfig allowImportingTsExtensions).
template=$(cat <<JSON
{"version":"v2","clean":true,"plugins":[{"local":"$root/node_modules/.bin/protoc-gen-es","out":"$out","opt":["target=ts","import_extension=ts"]}]}
JSON
)
exec "$root/node_modules/.bin/buf" generate protocol --template "$template"
