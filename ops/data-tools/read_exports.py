"""Reads Ludolog's exports from their URLs with pandas, polars and DuckDB, as an analyst would,
and prints how many rows each reader found at each URL, as one JSON object:
{"<url>": {"pandas": 599, "polars": 599, "duckdb": 599}, ...} (a reader that failed gives
{"error": "..."} instead of a count).

Usage: python3 read_exports.py URL...   (a URL whose path ends in .csv is read as CSV, any other
as NDJSON). tests/exports_http.rs runs it against a running server; ops/test.sh installs the
pinned packages.

polars reads a URL in byte ranges after a HEAD (it needs Content-Length and Range); DuckDB reads
HTTP through its httpfs extension, loaded here from the PyPI package duckdb-extension-httpfs,
since DuckDB's own extension site is not reachable where the tests run; pandas reads the URL
whole.
"""

import json
import os
import sys
from urllib.parse import urlparse

import duckdb
import duckdb_extension_httpfs
import pandas as pd
import polars as pl


def duckdb_connection():
    path = os.path.join(
        os.path.dirname(duckdb_extension_httpfs.__file__),
        "extensions",
        "v" + duckdb.__version__,
        "httpfs.duckdb_extension",
    )
    con = duckdb.connect(config={"autoinstall_known_extensions": False})
    con.execute("LOAD '" + path.replace("'", "''") + "'")
    return con


def counts(url, con):
    is_csv = urlparse(url).path.endswith(".csv")
    quoted = "'" + url.replace("'", "''") + "'"
    readers = {
        "pandas": lambda: len(pd.read_csv(url) if is_csv else pd.read_json(url, lines=True)),
        "polars": lambda: (pl.read_csv(url) if is_csv else pl.read_ndjson(url)).height,
        "duckdb": lambda: con.execute(
            f"SELECT count(*) FROM read_csv_auto({quoted})"
            if is_csv
            else f"SELECT count(*) FROM read_json_auto({quoted}, format = 'newline_delimited')"
        ).fetchone()[0],
    }
    out = {}
    for name, read in readers.items():
        try:
            out[name] = int(read())
        except Exception as e:  # every reader is tried; the test shows every failure at once
            out[name] = {"error": f"{type(e).__name__}: {e}"[:500]}
    return out


def main(urls):
    con = duckdb_connection()
    print(json.dumps({url: counts(url, con) for url in urls}))


if __name__ == "__main__":
    main(sys.argv[1:])
