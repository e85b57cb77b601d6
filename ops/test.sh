#!/usr/bin/env bash
# Runs every test. Installs what the tests need first — graphql-js (npm) for validating the
# README's GraphQL operations with the reference implementation, and Debian's chromium for the
# browser tests — then `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d ops/graphql-validate/node_modules/graphql ]; then
  npm ci --prefix ops/graphql-validate --no-audit --no-fund --silent
fi
if [ -z "${LUDOLOG_CHROMIUM:-}" ] && [ ! -x /usr/bin/chromium ]; then
  if [ "$(id -u)" = 0 ]; then
    export DEBIAN_FRONTEND=noninteractive
    apt-get install -y -q chromium >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q chromium >/dev/null; }
  else
    echo "the browser tests need Debian's chromium: sudo apt-get install chromium" >&2
    exit 1
  fi
fi
exec cargo test --workspace "$@"
