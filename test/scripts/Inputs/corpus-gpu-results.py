"""A corpus-check results.jsonl for test/scripts/corpus-gpu-files.test."""
import json
import os
import sys

suite, check = sys.argv[1], sys.argv[2]
inc = os.path.join(suite, "inc")
for name in ("same", "changed", "racy", "exits", "verify", "bothfail", "unchanged", "broken"):
    print(json.dumps({
        "file": os.path.join(suite, name + ".cu"), "id": name, "includes": [inc],
        "rewrite": {"rc": 0, "changed": name != "unchanged"},
        "nvcc_before": {"rc": 0}, "nvcc_after": {"rc": 2 if name == "broken" else 0},
    }))
