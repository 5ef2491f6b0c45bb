"""Per-day VWAP and tick counts over a folder of tick tables, on a distributed.LocalCluster of two worker processes,
compared with the figures C# computed: the test host's ``tick-days DIR`` writes DIR/tables/SYMBOL-DAY and
DIR/expected.json.

    python3 dask_vwap.py DIR

Computes every table's figures, then those of a time range (two of the days) read with the range chosen before
reading; prints one line each and exits 1 when any figure differs.
"""

import json
import os
import sys

SOURCE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "src", "python")
# The worker processes import listmmf to make their partitions: they inherit the path through the environment.
os.environ["PYTHONPATH"] = os.pathsep.join(p for p in (SOURCE, os.environ.get("PYTHONPATH")) if p)
sys.path.insert(0, SOURCE)

import listmmf  # noqa: E402


def day_figures(frame):
    """Each table's tick count and VWAP, computed by the cluster."""
    frame = frame.assign(pv=frame["price"] * frame["size"])
    sums = frame.groupby("table").agg({"pv": "sum", "size": "sum", "price": "count"}).compute()
    return {name: {"Ticks": int(row["price"]), "Vwap": float(row["pv"] / row["size"])} for name, row in sums.iterrows()}


def compare(label, expected, computed):
    different = sorted(name for name in expected
                       if computed.get(name) != {"Ticks": expected[name]["Ticks"], "Vwap": expected[name]["Vwap"]})
    different += sorted(name for name in computed if name not in expected)
    for name in different[:5]:
        print(f"{label}: {name}: C# {expected.get(name)}, dask {computed.get(name)}")
    print(f"{label}: {len(expected)} tables, {2 * len(expected)} figures compared (ticks and VWAP), {len(different)} different")
    return not different


def main(directory):
    from distributed import Client, LocalCluster

    with open(os.path.join(directory, "expected.json")) as f:
        expected = json.load(f)
    tables = sorted(os.path.join(directory, "tables", name) for name in os.listdir(os.path.join(directory, "tables")))
    days = sorted({figures["Day"] for figures in expected.values()})
    start, end = days[1], days[3]  # the second and third days: [start, end)
    in_range = {name: figures for name, figures in expected.items() if start <= figures["Day"] < end}

    with LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None) as cluster, \
            Client(cluster) as client:
        workers = len(client.scheduler_info()["workers"])
        frame = listmmf.to_dask(tables, columns=["price", "size"])
        print(f"dask {__import__('dask').__version__}: {len(tables)} tables as {frame.npartitions} partitions, "
              f"on {workers} worker processes")
        whole = compare("dask, every day", expected, day_figures(frame))
        ranged = compare(f"dask, {start} to {end}", in_range,
                         day_figures(listmmf.to_dask(tables, start=start, end=end, columns=["price", "size"])))
    return 0 if whole and ranged and workers == 2 else 1


if __name__ == "__main__":
    if len(sys.argv) != 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1]))
