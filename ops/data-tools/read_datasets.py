"""Reads Ludolog's open datasets from a running server as an analyst would, and prints what it
found as one JSON object:

  {"files": {"<path>": {"pyarrow": 72, "duckdb": 72, "polars": 72, "sha256_ok": true}, ...},
   "schema_problems": ["<path>: ..."],   # columns or types that differ from schema/datasets.md
   "documented_query": {"<kind>": <rows>},  # the DuckDB lines of schema/datasets.md, as written
   "polars_hive": {"<kind>": {"rows": <seats rows>, "kind": "<kind>"}},  # its polars lines
   "kinds": {"<kind>": {"<table>": <rows>}}}

Usage: python3 read_datasets.py BASE_URL SCHEMA_MD   (BASE_URL: http://host:port)

pyarrow reads each file's bytes (and their SHA-256 is checked against the manifest's); DuckDB
(httpfs, loaded from PyPI's duckdb-extension-httpfs by read_exports.py's duckdb_connection) and polars
(scan_parquet) read each file from its URL. tests/datasets_http.rs runs it.
"""

import hashlib
import io
import json
import re
import sys
import urllib.request

import polars as pl
import pyarrow.parquet as pq

# DuckDB with its httpfs extension loaded from PyPI's package, as the exports' reader does.
from read_exports import duckdb_connection


def documented_tables(md):
    """{table: [(column, type)]} from the `## `table`` sections' tables."""
    tables, current = {}, None
    for line in md.splitlines():
        m = re.match(r"^## `(\w+)`", line)
        if m:
            current = m.group(1)
            tables[current] = []
            continue
        m = re.match(r"^\| `([^`]+)` \| `([^`]+)` \|", line)
        if current and m:
            tables[current].append((m.group(1), m.group(2)))
    return tables


def type_pattern(doc_type):
    """A regex for a documented type; `<name>: T, …` stands for any number of `word: T`."""
    m = re.match(r"^(.*?)<[^<>]+>: (\w+), …(.*)$", doc_type)
    if m:
        head, t, tail = m.groups()
        return re.compile(
            "^" + re.escape(head) + r"(?:\w+: " + re.escape(t) + r"(?:, )?)*" + re.escape(tail) + "$"
        )
    return re.compile("^" + re.escape(doc_type) + "$")


def schema_problems(path, schema, documented):
    """How `schema`'s columns differ from the documented ones (in order; a `<…>` row stands
    for any number of columns of its type)."""
    actual = [(f.name, str(f.type).replace(" not null", "")) for f in schema]
    problems, i = [], 0
    for n, (name, doc_type) in enumerate(documented):
        pattern = type_pattern(doc_type)
        if "<" in name:
            following = [d for d, _ in documented[n + 1 :] if "<" not in d]
            while i < len(actual) and (not following or actual[i][0] != following[0]):
                if not pattern.match(actual[i][1]):
                    problems.append(f"{path}: {actual[i][0]} is {actual[i][1]}, not {doc_type}")
                i += 1
            continue
        if i >= len(actual) or actual[i][0] != name:
            problems.append(f"{path}: expected column {name}, found {actual[i][0] if i < len(actual) else 'none'}")
            return problems
        if not pattern.match(actual[i][1]):
            problems.append(f"{path}: {name} is {actual[i][1]}, not {doc_type}")
        i += 1
    if i < len(actual):
        problems.append(f"{path}: undocumented columns {[a for a, _ in actual[i:]]}")
    return problems


def main():
    base, md_path = sys.argv[1].rstrip("/") + "/datasets/", sys.argv[2]
    md = open(md_path, encoding="utf-8").read()
    documented = documented_tables(md)
    manifest = json.load(urllib.request.urlopen(base + "manifest.json"))
    con = duckdb_connection()
    out = {"files": {}, "schema_problems": [], "kinds": {}, "documented_query": {}}
    for month in manifest["months"]:
        for f in month["files"]:
            url = base + f["path"]
            body = urllib.request.urlopen(url).read()
            table = pq.read_table(io.BytesIO(body))
            out["schema_problems"] += schema_problems(f["path"], table.schema, documented[f["table"]])
            got = {
                "pyarrow": table.num_rows,
                "sha256_ok": hashlib.sha256(body).hexdigest() == f["sha256"],
                "duckdb": con.execute(f"SELECT count(*) FROM read_parquet('{url}')").fetchone()[0],
                "polars": pl.scan_parquet(url).select(pl.len()).collect().item(),
            }
            out["files"][f["path"]] = got
            kind = out["kinds"].setdefault(month["kind"], {})
            kind[f["table"]] = kind.get(f["table"], 0) + table.num_rows
    # The DuckDB lines of the document, as written, against this server.
    sql = re.search(r"```sql\n(.*?)```", md, re.S).group(1)
    statements = [s for s in sql.split(";") if s.strip() and not s.strip().startswith("-- A local")]
    for kind in out["kinds"]:
        for s in statements[:2]:
            s = s.replace("http://127.0.0.1:8080/", sys.argv[1].rstrip("/") + "/").replace("'five-tribes'", f"'{kind}'")
            rows = con.execute(s).fetchall()
        out["documented_query"][kind] = sum(r[1] for r in rows)
    # polars as the document shows it: a kind's URLs from the manifest, the partition columns
    # read back from the paths.
    out["polars_hive"] = {}
    for kind in out["kinds"]:
        urls = [base + f["path"] for m in manifest["months"] if m["kind"] == kind
                for f in m["files"] if f["table"] == "seats"]
        df = pl.scan_parquet(urls, hive_partitioning=True).select(pl.len(), pl.col("kind").first()).collect()
        out["polars_hive"][kind] = {"rows": df.item(0, 0), "kind": df.item(0, 1)}
    print(json.dumps(out))


if __name__ == "__main__":
    main()
