#!/usr/bin/env bash
# Runs every test. Installs what the tests need first (graphql-js, for validating the
# README's GraphQL operations with the reference implementation), then `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d ops/graphql-validate/node_modules/graphql ]; then
  npm ci --prefix ops/graphql-validate --no-audit --no-fund --silent
fi
exec cargo test --workspace "$@"
