"""Outcome tables: typed columns from kernel rows, atomic Parquet chunks, run.json."""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import polars as pl
from numba import njit


@dataclass(frozen=True)
class Column:
    name: str
    dtype: pl.DataType
    doc: str
    key: str | None = None  # the constant naming the column's row index in the kernel


def column_indices(columns, ncols: str) -> dict[str, int]:
    """Key -> row index of each keyed column, and ``ncols`` -> the column count: the kernel's
    indices, from the one declaration of the columns (``globals().update(...)`` in a game's
    outcomes module)."""
    out = {c.key: i for i, c in enumerate(columns) if c.key}
    if len(out) != sum(1 for c in columns if c.key):
        raise ValueError("two columns share a key")
    out[ncols] = len(columns)
    return out


def team_columns(columns, first: str, teams: int) -> None:
    """Check that ``first``'s team columns follow one another (the kernel writes team t's
    value at the first one's index + t)."""
    names = [c.name for c in columns]
    at = names.index(first)
    stem = first[:-1]
    for t in range(teams):
        if names[at + t] != f"{stem}{t}":
            raise ValueError(f"column {stem}{t} must follow {first} by {t}")


_NUMPY = {pl.Int8: np.int8, pl.Int16: np.int16, pl.Int32: np.int32, pl.Int64: np.int64}


def to_frame(cols: np.ndarray, columns, null_if_negative=(), index_base: int | None = None,
             index_column: str = "game_index") -> pl.DataFrame:
    """Kernel int32 columns (columns x rows, each column contiguous) -> typed DataFrame that
    owns its data (the kernel's buffers are reused for the next chunk). ``index_base`` turns
    the kernel's chunk-local game offsets in ``index_column`` into run-wide int64 indices;
    columns in ``null_if_negative`` have the kernel's -1 ("does not exist") as null."""
    series = []
    for j, col in enumerate(columns):
        v = cols[j]
        if col.name == index_column and index_base is not None:
            s = pl.Series(col.name, v.astype(np.int64) + index_base)
        elif isinstance(col.dtype, pl.Enum):
            cats = col.dtype.categories.to_list()
            s = pl.Series(col.name, v).replace_strict(dict(enumerate(cats)),
                                                      return_dtype=col.dtype)
        elif col.dtype == pl.Boolean:
            s = pl.Series(col.name, v != 0)
        else:
            s = pl.Series(col.name, v.astype(_NUMPY[col.dtype]))
        series.append(s)
    df = pl.DataFrame(series)
    nulls = [pl.when(pl.col(c) >= 0).then(pl.col(c)).alias(c) for c in null_if_negative]
    return df.with_columns(nulls) if nulls else df


def reuse(scratch: dict | None, key: str, shape: tuple, dtype=np.int32) -> np.ndarray:
    """A C-contiguous int32 row buffer of ``shape``, reused across calls when it is big enough
    (the kernel writes every cell of the rows it reports)."""
    rows = int(np.prod(shape))
    if scratch is None:
        return np.zeros(shape, dtype)
    buf = scratch.get(key)
    if buf is None or buf.size < rows:
        buf = np.zeros(rows, dtype)
        scratch[key] = buf
    return buf[:rows].reshape(shape)


def write_parquet_atomic(df: pl.DataFrame, path: Path) -> None:
    """Temp file + rename: a chunk file either exists whole or not at all."""
    tmp = path.with_name(path.name + ".tmp")
    df.write_parquet(tmp, compression="zstd", compression_level=1, statistics=True)
    os.replace(tmp, path)


def write_json_atomic(obj, path: Path) -> None:
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(obj, indent=2, sort_keys=False) + "\n")
    os.replace(tmp, path)


def schema_markdown(title: str, columns) -> str:
    lines = [f"### {title}", "", "| column | type | meaning |", "|---|---|---|"]
    for c in columns:
        lines.append(f"| `{c.name}` | {c.dtype} | {c.doc} |")
    return "\n".join(lines) + "\n"


@njit("int64(int32[:, ::1], int64, int64, int64, int64, int64, int64, int64)", cache=True)
def emit(log, kind, a, b, c, d, e, f):
    """Append an event row (kind, then six fields) to a replay log; ``log[0, 0]`` counts the
    rows used (row 0 is the header) and ``log[0, 1]`` is set when the log is full. Returns the
    row's index, or -1 when it did not fit (the caller then grows the log and replays)."""
    i = log[0, 0] + 1
    if i >= log.shape[0]:
        log[0, 1] = 1
        return -1
    log[0, 0] = i
    log[i, 0] = kind
    log[i, 1] = a
    log[i, 2] = b
    log[i, 3] = c
    log[i, 4] = d
    log[i, 5] = e
    log[i, 6] = f
    return i
