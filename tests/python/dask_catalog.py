"""Reads a catalog with ``listmmf.catalog_to_dask`` and prints, as JSON, what each instrument's frame holds, so that
the C# test compares it with the rows the catalog records:

    python3 dask_catalog.py CATALOG KIND SNAPSHOT

For each instrument alone, then for all of them, and for each instrument as SNAPSHOT recorded it: the partitions,
whether the divisions are known, the first and last divisions (nanoseconds since 1970), the rows and the sum of the first value column.
"""

import json
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "python"))

import listmmf  # noqa: E402


def figures(frame):
    first = frame.columns[0]
    return {"partitions": frame.npartitions, "known": frame.known_divisions,
            "from": int(frame.divisions[0].value) if frame.known_divisions else None,
            "to": int(frame.divisions[-1].value) if frame.known_divisions else None,
            "rows": int(len(frame)), "sum": float(frame[first].sum().compute())}


def main(catalog, kind, snapshot):
    names = sorted({partition.instrument for partition in listmmf.catalog_partitions(catalog, kind)})
    result = {
        "each": {name: figures(listmmf.catalog_to_dask(catalog, kind, instruments=[name])) for name in names},
        "all": figures(listmmf.catalog_to_dask(catalog, kind)),
        "snapshot": {name: figures(listmmf.catalog_to_dask(catalog, kind, instruments=[name], snapshot=snapshot))
                     for name in names},
    }
    print(json.dumps(result, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(*sys.argv[1:]))
