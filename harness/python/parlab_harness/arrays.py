"""Named output arrays: <name>.bin (little-endian elements) and manifest.json, the
format harness/src/arrays.cpp writes and the grader reads (parlab-arrays, version 1)."""

import json
import os
import re
import struct

from parlab_harness.atomic_file import write_file_atomically
from parlab_harness.fork_guard import stop_if_forked_child

_SAFE_NAME = re.compile(r"[A-Za-z0-9_.-]{1,128}")
_FORMATS = {"f64": "d", "f32": "f", "i64": "q", "i32": "i"}


class OutputWriter:
    def __init__(self, directory):
        self._dir = directory
        self._entries = []
        os.makedirs(directory, exist_ok=True)

    # Misuse here is a bug in a lab driver (grader-owned), so it raises plainly.
    def write(self, name, dtype, values, labels=None):
        stop_if_forked_child()
        if not _SAFE_NAME.fullmatch(name) or name in (".", ".."):
            raise ValueError(f"output array name '{name}' is not a safe file name")
        if any(entry["name"] == name for entry in self._entries):
            raise ValueError(f"output array '{name}' written twice")
        values = list(values)
        labels = list(labels or [])
        if labels and len(labels) != len(values):
            raise ValueError(f"output array '{name}': {len(labels)} labels for {len(values)} elements")
        data = struct.pack(f"<{len(values)}{_FORMATS[dtype]}", *values)
        with open(os.path.join(self._dir, name + ".bin"), "wb") as f:
            f.write(data)
        entry = {"name": name, "dtype": dtype, "count": len(values), "file": name + ".bin"}
        if labels:
            entry["labels"] = labels
        self._entries.append(entry)

    def finish(self):
        stop_if_forked_child()
        manifest = {"format": "parlab-arrays", "version": 1, "arrays": self._entries}
        text = json.dumps(manifest, indent=1, ensure_ascii=False) + "\n"
        # Labels may be file names in any encoding: replace what is not UTF-8.
        write_file_atomically(os.path.join(self._dir, "manifest.json"),
                              text.encode("utf-8", errors="replace"))
