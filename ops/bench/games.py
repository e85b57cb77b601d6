"""The games a running server holds, with their lengths, for the wrk scripts of ops/bench/.

    from games import games
    games(url, status=None)  ->  [(id, plies), ...]   (status: "FINISHED", "ACTIVE" or None)
"""
import json
import urllib.request


def games(url, status=None):
    where = f", status: {status}" if status else ""
    query = ("query($a: String) { games(first: 100, after: $a" + where +
             ") { edges { node { id plies } } pageInfo { hasNextPage endCursor } } }")
    out, after = [], None
    while True:
        body = json.dumps({"query": query, "variables": {"a": after}}).encode()
        request = urllib.request.Request(url, body, {"content-type": "application/json"})
        page = json.load(urllib.request.urlopen(request))["data"]["games"]
        out += [(e["node"]["id"], e["node"]["plies"]) for e in page["edges"]]
        if not page["pageInfo"]["hasNextPage"]:
            return out
        after = page["pageInfo"]["endCursor"]
