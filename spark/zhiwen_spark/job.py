"""Zhiwen's exact Hamming join on Apache Spark, and the passages it leads to.

Reads export folders written by ``zhiwen export --parquet`` (a corpus) and
``zhiwen fingerprint --parquet`` (suspects) and writes a run folder
``OUT/<run id>/{manifest.json,hits,doc_pairs,passages}`` that ``zhiwen report
--from-parquet`` turns into the reports ``zhiwen check`` makes.

The join (see ``src/engine/index/group_join.rs`` for the proof of exactness):

* every window goes to the k+1 = 4 groups (t, 16-bit block t of its fingerprint);
* each group is joined by the Rust kernel (Manku's method again on the other 48 bits,
  20 local tables) which emits a pair only in the first group and the first local
  table it shares, so every pair within k comes out exactly once; whole groups reach
  the kernel in batches of about 50,000 rows (the groups whose keys share their top
  bits), each group of a batch joined on its own;
* a group with more than ``hot_rows`` rows is split exactly: its windows go to the 20
  sub-groups (local combination, its 24 bits) and each is joined with that combination
  fixed. Nothing is dropped.

Run locally:   python -m zhiwen_spark.job check --corpus C --suspects S --out runs
On a cluster:  spark-submit spark/zhiwen_spark/job.py check --corpus hdfs://… …
Over Connect:  python -m zhiwen_spark.job check --remote sc://host:15002 --corpus s3a://… …
"""

from __future__ import annotations

import argparse
import contextlib
import hashlib
import json
import os
import sys
import time
import urllib.request
import uuid
from dataclasses import dataclass, field

import pyarrow as pa
from pyspark.sql import DataFrame, SparkSession
from pyspark.sql import Window
from pyspark.sql import functions as F
from pyspark.sql.types import IntegerType, LongType, StructField, StructType

import zhiwen_kernel as kernel

TABLES = kernel.TABLES
MAX_DISTANCE = kernel.MAX_DISTANCE
#: A group with more rows than this is split into sub-groups (``--hot-rows``).
DEFAULT_HOT_ROWS = 200_000

PAIR_SCHEMA = "left_doc long, left_ordinal long, right_doc long, right_ordinal long, distance int"
PASSAGE_SCHEMA = (
    "suspect_id long, source_id long, suspect_start long, suspect_end long, source_start long, "
    "source_end long, distance long, containment double, evidence_bits double, region long, "
    "similarity double, source_coverage double"
)
WINDOW_COLUMNS = ["doc_id", "ordinal", "fingerprint"]


# Manifests are small files beside the tables. On a classic session they are read and written
# through Hadoop's FileSystem in the driver's JVM (as Spark reads the tables), so folders may be
# local paths or any URI the cluster reaches (hdfs://, s3a://, ...). A Spark Connect client
# has no SparkContext and no JVM: there they are read and written with pyarrow's filesystems
# from the client (local paths, file:, s3:// and s3a://, gs://, hdfs://: storage the client
# shares with the server), or, for a URI pyarrow does not know (dbfs:, abfss:, ...), through
# the server with DataFrame reads and writes (a manifest then is a folder of one text part).


def is_connect(spark: SparkSession) -> bool:
    """Whether ``spark`` is a Spark Connect client session (no SparkContext, no JVM)."""
    return type(spark).__module__.startswith("pyspark.sql.connect")


def _filesystem(spark: SparkSession, path: str):
    jvm = spark.sparkContext._jvm
    p = jvm.org.apache.hadoop.fs.Path(path)
    return p.getFileSystem(spark.sparkContext._jsc.hadoopConfiguration()), p


def _arrow_fs(path: str):
    """(pyarrow filesystem, path in it) for ``path`` on a Connect client, or None when pyarrow
    has no filesystem for its scheme."""
    import pyarrow.fs as pafs

    if "://" not in path and not path.startswith("file:"):
        return pafs.LocalFileSystem(), os.path.abspath(path)
    uri = "s3://" + path[len("s3a://") :] if path.startswith("s3a://") else path
    if uri.startswith("file:") and not uri.startswith("file://"):
        uri = "file://" + uri[len("file:") :]
    try:
        return pafs.FileSystem.from_uri(uri)
    except (pa.ArrowInvalid, pa.ArrowNotImplementedError, ValueError, OSError):
        return None


def qualified(spark: SparkSession, path: str) -> str:
    """``path`` as a full URI (a local path becomes file:/abs/path; over Connect, relative to
    the client's working directory)."""
    if is_connect(spark):
        if "://" in path or path.startswith("file:"):
            return path
        return "file:" + os.path.abspath(path)
    fs, p = _filesystem(spark, path)
    return str(fs.makeQualified(p).toString())


def exists(spark: SparkSession, path: str) -> bool:
    if is_connect(spark):
        local = _arrow_fs(path)
        if local is not None:
            import pyarrow.fs as pafs

            fs, p = local
            return fs.get_file_info(p).type != pafs.FileType.NotFound
        try:
            spark.read.text(path).schema  # analysis lists the path: it fails when there is none
            return True
        except Exception:  # noqa: BLE001 - the Connect client's AnalysisException (PATH_NOT_FOUND)
            return False
    fs, p = _filesystem(spark, path)
    return bool(fs.exists(p))


def read_text(spark: SparkSession, path: str) -> str:
    if is_connect(spark):
        local = _arrow_fs(path)
        if local is not None:
            fs, p = local
            with fs.open_input_stream(p) as f:
                return f.read().decode("utf-8")
        # A file, or a folder of one part written by write_text below.
        return spark.read.text(path, wholetext=True).first()[0]
    fs, p = _filesystem(spark, path)
    stream = fs.open(p)
    try:
        jvm = spark.sparkContext._jvm
        return str(jvm.org.apache.commons.io.IOUtils.toString(stream, "UTF-8"))
    finally:
        stream.close()


def write_text(spark: SparkSession, path: str, text: str) -> None:
    if is_connect(spark):
        local = _arrow_fs(path)
        if local is not None:
            fs, p = local
            with fs.open_output_stream(p) as f:
                f.write(text.encode("utf-8"))
        else:
            spark.createDataFrame([(text,)], "value string").coalesce(1).write.mode("overwrite").text(path)
        return
    fs, p = _filesystem(spark, path)
    stream = fs.create(p, True)
    try:
        stream.write(bytearray(text.encode("utf-8")))
    finally:
        stream.close()


def default_parallelism(spark: SparkSession) -> int:
    """``SparkContext.defaultParallelism``; over Connect (no SparkContext), the partitions of
    a range without a partition count, which Spark gives the default parallelism."""
    if not is_connect(spark):
        return spark.sparkContext.defaultParallelism
    row = spark.range(0, 1 << 16).select(F.spark_partition_id().alias("p")).groupBy().agg(F.max("p").alias("p")).first()
    return int(row["p"]) + 1


def _local(uri: str) -> str:
    """A file: URI as the plain path `zhiwen report` reads; other URIs unchanged."""
    return uri[len("file:") :] if uri.startswith("file:") else uri


#: Rows a kernel call should get: whole groups are sent in batches of about this many
#: rows (all groups whose keys share their top bits), so the fixed cost of a call
#: (Spark's grouping, Arrow to Python and back) is paid per batch, not per group.
DEFAULT_BATCH_ROWS = 50_000


def keyed(windows: DataFrame, shift: int = 0) -> DataFrame:
    """Each window in its four groups: (t, key = 16-bit block t from the top), and the
    batch of groups a kernel call gets: (t, bucket = key >> shift)."""
    return (
        windows.select(*WINDOW_COLUMNS)
        .withColumn("t", F.explode(F.array(*[F.lit(t) for t in range(TABLES)])))
        .withColumn("key", F.expr("shiftrightunsigned(fingerprint, 48 - 16 * t) & 65535"))
        .withColumn("bucket", F.expr(f"shiftright(key, {int(shift)})"))
    )


def batch_shift(rows_per_table: int, batch_rows: int = DEFAULT_BATCH_ROWS) -> int:
    """How many low key bits a batch spans: 2^shift groups of about rows/65,536 rows each
    make about ``batch_rows`` rows (0: one group per call, for the largest inputs)."""
    per_group = max(rows_per_table, 1) / 65536
    shift = 0
    while shift < 16 and per_group * (1 << (shift + 1)) <= batch_rows:
        shift += 1
    return shift


def _empty_pairs() -> pa.Table:
    return pa.table(
        {
            "left_doc": pa.array([], pa.int64()),
            "left_ordinal": pa.array([], pa.int64()),
            "right_doc": pa.array([], pa.int64()),
            "right_ordinal": pa.array([], pa.int64()),
            "distance": pa.array([], pa.int32()),
        }
    )


def _window_table(t: pa.Table) -> pa.Table:
    return t.select(WINDOW_COLUMNS)


def _join_kernel(max_distance: int, sub_groups: bool, cogrouped: bool):
    """The function applyInArrow calls per group: (key, table) for a self-join,
    (key, left, right) for a cogroup. Keys are (t, bucket): a batch of whole groups, or,
    for a sub-group of a hot group, (t, key, combination, sub_key)."""

    def join(key, left: pa.Table, right: pa.Table | None) -> pa.Table:
        t = key[0].as_py()
        if left.num_rows == 0 or (right is not None and right.num_rows == 0):
            return _empty_pairs()
        if not sub_groups:
            columns = [*WINDOW_COLUMNS, "key"]
            r = None if right is None else right.select(columns)
            return kernel.join_groups(t, left.select(columns), r, max_distance)
        r = None if right is None else _window_table(right)
        return kernel.join_group(t, key[2].as_py(), _window_table(left), r, max_distance)

    if cogrouped:
        return lambda key, left, right: join(key, left, right)
    return lambda key, table: join(key, table, None)


def _explode_sub_keys(batches):
    """mapInArrow: each row of a hot group to its 20 sub-groups."""
    for batch in batches:
        table = pa.Table.from_batches([batch])
        subs = kernel.sub_keys(table.select(["t", "fingerprint"]))
        out = table.take(subs.column("row"))
        out = out.append_column("combination", subs.column("combination"))
        out = out.append_column("sub_key", subs.column("sub_key"))
        yield from out.to_batches()


def _sub_keyed(df: DataFrame) -> DataFrame:
    added = [StructField("combination", IntegerType(), False), StructField("sub_key", LongType(), False)]
    schema = StructType([*df.schema.fields, *added])
    return df.mapInArrow(_explode_sub_keys, schema)


#: Buckets of a corpus's keys table (``keys`` subcommand).
DEFAULT_BUCKETS = 64
KEYS_INFO = "_zhiwen_keys.json"


def _keys_table(corpus: str) -> str:
    return "zhiwen_keys_" + hashlib.sha1(corpus.encode()).hexdigest()[:12]


@dataclass
class KeyedCorpus:
    """A corpus's keys table (``keys`` mode) and the batch shift it was written with."""

    windows: DataFrame
    shift: int


def write_corpus_keys(
    spark: SparkSession, corpus: str, buckets: int = DEFAULT_BUCKETS, batch_rows: int = DEFAULT_BATCH_ROWS
) -> str:
    """Writes ``corpus/keys``: every stored window in its four groups, bucketed and
    sorted by (t, batch), once. Check runs then read the corpus side already partitioned
    the way the join groups it, so only the suspects are shuffled."""
    corpus = qualified(spark, corpus)
    path = corpus + "/keys"
    name = _keys_table(corpus)
    windows = spark.read.parquet(corpus + "/windows")
    shift = batch_shift(windows.count(), batch_rows)
    spark.sql(f"DROP TABLE IF EXISTS {name}")
    (
        keyed(windows, shift)
        .write.mode("error")
        .option("path", path)
        .bucketBy(buckets, "t", "bucket")
        .sortBy("t", "bucket")
        .saveAsTable(name)
    )
    # Spark's catalog forgets the table with the session; its layout stays here.
    write_text(spark, path + "/" + KEYS_INFO, json.dumps({"buckets": buckets, "bucketed_by": ["t", "bucket"], "shift": shift}))
    return path


def corpus_keys(spark: SparkSession, corpus: str) -> KeyedCorpus | None:
    """The corpus's bucketed keys table if ``keys`` wrote one, else None."""
    corpus = qualified(spark, corpus)
    path = corpus + "/keys"
    info = path + "/" + KEYS_INFO
    if not exists(spark, info):
        return None
    layout = json.loads(read_text(spark, info))
    name = _keys_table(corpus)
    if not spark.catalog.tableExists(name):
        # A new session's catalog has forgotten the table: declare it again over its files.
        # Spark accepts a bucketing spec only with the schema spelled out
        # (SPECIFY_BUCKETING_IS_NOT_ALLOWED otherwise); the files' own schema is it.
        columns = ", ".join(f"`{f.name}` {f.dataType.simpleString()}" for f in spark.read.parquet(path).schema.fields)
        spark.sql(
            f"CREATE TABLE {name} ({columns}) USING parquet CLUSTERED BY (t, bucket) SORTED BY (t, bucket) "
            f"INTO {int(layout['buckets'])} BUCKETS LOCATION '{path}'"
        )
    return KeyedCorpus(spark.table(name), int(layout["shift"]))


def hamming_join(
    left: DataFrame,
    right: DataFrame | None,
    max_distance: int = MAX_DISTANCE,
    hot_rows: int = DEFAULT_HOT_ROWS,
    stats: dict | None = None,
    left_keyed: KeyedCorpus | None = None,
    batch_rows: int = DEFAULT_BATCH_ROWS,
) -> DataFrame:
    """All window pairs within ``max_distance`` between ``left`` and ``right`` (or
    within ``left`` when ``right`` is None, each unordered pair once), exactly.

    Inputs have ``doc_id``, ``ordinal``, ``fingerprint`` (u64 bit-cast to long);
    ``left_keyed`` is ``left`` already in its groups (a corpus's keys table); whole
    groups go to the kernel in batches of about ``batch_rows`` rows.
    Returns ``left_doc, left_ordinal, right_doc, right_ordinal, distance``."""
    if not 0 <= max_distance <= MAX_DISTANCE:
        raise ValueError(f"the join is exact up to {MAX_DISTANCE} bits, not {max_distance}")
    if left_keyed is None:
        shift = batch_shift(left.count() + (0 if right is None else right.count()), batch_rows)
        lk = keyed(left, shift)
    else:
        shift = left_keyed.shift
        lk = left_keyed.windows.select(*WINDOW_COLUMNS, "t", "key", "bucket")
    rk = None if right is None else keyed(right, shift)
    groups = ["t", "key"]
    batches = ["t", "bucket"]
    hot = F.broadcast(_group_sizes(lk, rk).where(F.col("count") > hot_rows).select(*groups))
    if stats is not None:
        stats.update(group_stats(left, right, hot_rows))

    def whole(df):
        return df.join(hot, groups, "left_anti")

    def split(df):
        return _sub_keyed(df.join(hot, groups, "left_semi"))

    if rk is None:
        pairs = whole(lk).groupBy(*batches).applyInArrow(_join_kernel(max_distance, False, False), PAIR_SCHEMA)
        sub = split(lk)
        sub_pairs = sub.groupBy(*groups, "combination", "sub_key").applyInArrow(
            _join_kernel(max_distance, True, False), PAIR_SCHEMA
        )
    else:
        pairs = (
            whole(lk)
            .groupBy(*batches)
            .cogroup(whole(rk).groupBy(*batches))
            .applyInArrow(_join_kernel(max_distance, False, True), PAIR_SCHEMA)
        )
        sl, sr = split(lk), split(rk)
        sub_keys = [*groups, "combination", "sub_key"]
        sub_pairs = (
            sl.groupBy(*sub_keys).cogroup(sr.groupBy(*sub_keys)).applyInArrow(_join_kernel(max_distance, True, True), PAIR_SCHEMA)
        )
    return pairs.unionAll(sub_pairs)


def _group_sizes(lk: DataFrame, rk: DataFrame | None) -> DataFrame:
    keys = lk.select("t", "key") if rk is None else lk.select("t", "key").unionAll(rk.select("t", "key"))
    return keys.groupBy("t", "key").count()


def group_stats(left: DataFrame, right: DataFrame | None, hot_rows: int = DEFAULT_HOT_ROWS) -> dict:
    """What the join shuffles (one more pass over the windows): rows sent to groups
    (4 per window, and 20 more per window of a hot group), the largest group, the hot ones."""
    lk = keyed(left)
    rk = None if right is None else keyed(right)
    sizes = _group_sizes(lk, rk)
    row = sizes.agg(
        F.max("count").alias("largest"),
        F.sum("count").alias("rows"),
        F.sum(F.when(F.col("count") > hot_rows, 1).otherwise(0)).alias("hot_groups"),
        F.sum(F.when(F.col("count") > hot_rows, F.col("count")).otherwise(0)).alias("hot_rows"),
    ).first()
    rows, hot = int(row["rows"] or 0), int(row["hot_rows"] or 0)
    return {
        "largest_group": int(row["largest"] or 0),
        "hot_groups": int(row["hot_groups"] or 0),
        "rows_shuffled": rows + kernel.COMBINATIONS * hot,
    }


#: Texts one cell of the passages step may have to hold, at most (``default_text_cells``).
CELL_TEXT_BYTES = 256 << 20


def default_text_cells(parallelism: int, text_bytes: int, self_join: bool) -> int:
    """The buckets g per side of the passages step's cells: the fewest that give at least 4
    cells per core (g(g+1)/2 cells in a self-join, g^2 in a check) and keep a cell's texts
    (2/g of them at most) within ``CELL_TEXT_BYTES``. Each text moves to at most g cells."""
    g = 1
    while (g * (g + 1) // 2 if self_join else g * g) < 4 * max(parallelism, 1):
        g += 1
    return max(g, -(-2 * text_bytes // CELL_TEXT_BYTES), 1)


def _text_bytes(spark: SparkSession, export: str) -> int:
    """The texts' size in UTF-8, at most (3 bytes a character: CJK), from ``documents/``."""
    if not exists(spark, export + "/documents"):
        return 0
    row = spark.read.parquet(export + "/documents").agg(F.sum("chars").alias("chars")).first()
    return 3 * int(row["chars"] or 0)


def _bucket(column, g: int):
    return F.pmod(F.xxhash64(column), F.lit(g))


def passages_in_cells(
    spark: SparkSession,
    hits_dir: str,
    suspect_texts: DataFrame,
    source_texts: DataFrame,
    self_join: bool,
    g: int,
    params_json: str,
    options_json: str,
) -> DataFrame:
    """The passages of every (suspect, source) pair of ``hits``, by ``check::match_pair``,
    with each text moved to a few cells, not once per pair.

    Documents are hashed into ``g`` buckets per side; a pair belongs to the cell (bucket
    of its suspect, bucket of its source), and a cell gets its pairs' hits and, once each,
    the texts of the documents its pairs name: a text moves to at most g cells (to as many
    as it has pairs when fewer), where joining texts onto every pair moved it once per
    pair, twice for the suspect's. The kernel is called per pair with the same hits and
    texts as before, so the passages are the same.

    In a self-join (``hits`` holding both directions of each pair of documents) a cell is
    (bucket of the lower id, bucket of the higher), only the hits with the lower id as
    suspect are moved (the other direction is the same rows swapped), both directions are
    matched in the cell and the one `check --among` keeps is kept: the higher similarity,
    the lower id as suspect on a tie; a pair passing the thresholds in one direction only
    is kept in it. ``hits_dir``: the run's ``hits/`` (read twice: the pairs' texts and their
    hits are plans of their own, so their cogroup is no ambiguous self-join)."""

    suspect_bucket, source_bucket = _bucket("suspect_id", g), _bucket("source_id", g)
    if self_join:
        # Unordered: a document of bucket i is in the g cells (min(i, j), max(i, j)).
        cell = F.least(suspect_bucket, source_bucket) * g + F.greatest(suspect_bucket, source_bucket)
        cells = g * (g + 1) // 2
    else:
        cell = suspect_bucket * g + source_bucket
        cells = g * g

    def cell_hits():
        hits = spark.read.parquet(hits_dir)
        if self_join:
            hits = hits.where(F.col("suspect_id") < F.col("source_id"))
        return hits.select(cell.alias("cell"), "suspect_id", "source_id", "suspect_ordinal", "source_ordinal", "distance")

    hits = cell_hits()
    pairs = cell_hits().select("cell", "suspect_id", "source_id").distinct()
    # role 0: a suspect's text, 1: a source's (a check's suspects and corpus number their
    # documents apart); a self-join's texts are all the corpus's (role 0).
    suspect_docs = pairs.select("cell", F.lit(0).alias("role"), F.col("suspect_id").alias("id"))
    source_docs = pairs.select("cell", F.lit(0 if self_join else 1).alias("role"), F.col("source_id").alias("id"))
    docs = suspect_docs.unionAll(source_docs).distinct()
    if self_join:
        texts = docs.join(source_texts.select("id", "text"), "id")
    else:
        texts = docs.where(F.col("role") == 0).join(suspect_texts.select("id", "text"), "id").unionAll(
            docs.where(F.col("role") == 1).join(source_texts.select("id", "text"), "id")
        )
    texts = texts.select("cell", "role", "id", "text")
    # A partition per cell, up to the shuffle's partitions or 4 per core (many cells when g is
    # large for the texts' size: most are empty), both sides alike (so the cogroup adds no
    # exchange): the cells are CPU work, which adaptive execution would coalesce by their bytes.
    shuffle_partitions = int(spark.conf.get("spark.sql.shuffle.partitions"))
    partitions = min(cells, max(shuffle_partitions, 4 * default_parallelism(spark)))
    return (
        hits.repartition(partitions, "cell")
        .groupBy("cell")
        .cogroup(texts.repartition(partitions, "cell").groupBy("cell"))
        .applyInArrow(_cell_passages_kernel(params_json, options_json, self_join), PASSAGE_SCHEMA)
    )


def _cell_passages_kernel(params_json: str, options_json: str, self_join: bool):
    """applyInArrow over a cell: (key, hits, texts) -> the passages of its pairs. Needs
    pyarrow alone (the packed environment has no numpy)."""
    schema = _passage_arrow_schema()

    def match(hits: pa.Table, suspect_id: int, suspect_text: str, source_id: int, source_text: str) -> pa.Table:
        found = kernel.match_passages(
            hits.select(["suspect_ordinal", "source_ordinal", "distance"]),
            suspect_text,
            source_id,
            source_text,
            params_json,
            options_json,
        )
        n = found.num_rows
        found = found.add_column(0, "source_id", pa.array([source_id] * n, pa.int64()))
        found = found.add_column(0, "suspect_id", pa.array([suspect_id] * n, pa.int64()))
        return found.cast(schema)

    def run(key, hits: pa.Table, texts: pa.Table) -> pa.Table:
        if hits.num_rows == 0 or texts.num_rows == 0:
            return schema.empty_table()
        text_of = {
            (role, doc): text
            for role, doc, text in zip(
                texts.column("role").to_pylist(), texts.column("id").to_pylist(), texts.column("text").to_pylist()
            )
        }
        hits = hits.sort_by([("suspect_id", "ascending"), ("source_id", "ascending")])
        q = hits.column("suspect_id").to_pylist()
        s = hits.column("source_id").to_pylist()
        starts = [i for i in range(len(q)) if i == 0 or q[i] != q[i - 1] or s[i] != s[i - 1]]
        out = []
        for start, end in zip(starts, [*starts[1:], len(q)]):
            a, b = q[start], s[start]
            pair_hits = hits.slice(start, end - start)
            if not self_join:
                if (0, a) in text_of and (1, b) in text_of:
                    out.append(match(pair_hits, a, text_of[(0, a)], b, text_of[(1, b)]))
                continue
            if (0, a) not in text_of or (0, b) not in text_of:
                continue
            # a < b: these hits are a's windows against b's; b against a is the same rows swapped.
            swapped = pair_hits.select(["source_ordinal", "suspect_ordinal", "distance"]).rename_columns(
                ["suspect_ordinal", "source_ordinal", "distance"]
            )
            forward = match(pair_hits, a, text_of[(0, a)], b, text_of[(0, b)])
            backward = match(swapped, b, text_of[(0, b)], a, text_of[(0, a)])
            found = [f for f in (forward, backward) if f.num_rows > 0]
            if len(found) == 2:
                # The higher similarity; on a tie the lower id (a) as suspect.
                fs, bs = forward.column("similarity")[0].as_py(), backward.column("similarity")[0].as_py()
                found = [backward] if bs > fs else [forward]
            out.extend(found)
        return pa.concat_tables(out) if out else schema.empty_table()

    return run


def _passage_arrow_schema() -> pa.Schema:
    fields = []
    for part in PASSAGE_SCHEMA.split(","):
        name, kind = part.split()
        fields.append(pa.field(name, pa.int64() if kind == "long" else pa.float64()))
    return pa.schema(fields)


WINDOWS_SCHEMA = "doc_id long, ordinal int, fingerprint long, char_start long, char_end long"


def stored_windows(texts: DataFrame, params_json: str = "") -> DataFrame:
    """The stored windows of ``texts`` (columns ``id``, ``text``) as ``zhiwen import``
    makes them, by the same Rust code (tokenizer, anchors, simhash), on the executors:
    the columns of an export's ``windows/``. ``params_json``: the fingerprint parameters
    (empty: a new store's defaults)."""

    def windows(batches):
        for batch in batches:
            table = pa.Table.from_batches([batch]).select(["id", "text"])
            yield from kernel.stored_windows(table, params_json).to_batches()

    return texts.select("id", "text").mapInArrow(windows, WINDOWS_SCHEMA)


def read_raw_texts(spark: SparkSession, path: str) -> DataFrame:
    """Raw texts as (id, path, title, text): Parquet with ``id``, ``text`` and optionally
    ``title`` and ``path`` (a folder or file whose name ends in .parquet, or any folder of
    Parquet files), or UTF-8 text files (a folder, a file, a glob), numbered 1.. in path
    order, titled by their first non-empty line as ``zhiwen import`` titles them."""
    first_line = F.regexp_extract("text", r"^[\s\x{feff}]*([^\n]*?)\s*(\n|$)", 1)
    if path.rstrip("/").endswith(".parquet") or _holds_parquet(spark, path):
        df = spark.read.parquet(path)
        columns = set(df.columns)
        if not {"id", "text"} <= columns:
            raise ValueError(f"{path}: Parquet input needs columns id and text (it has {sorted(columns)})")
        title = F.col("title") if "title" in columns else first_line
        doc_path = F.col("path") if "path" in columns else F.concat(F.lit(path.rstrip("/") + "#"), F.col("id").cast("string"))
        return df.select(F.col("id").cast("long").alias("id"), doc_path.alias("path"), title.alias("title"), "text")
    files = spark.read.text(path, wholetext=True).select(F.input_file_name().alias("path"), F.col("value").alias("text"))
    numbered = files.withColumn("id", F.row_number().over(Window.orderBy("path")).cast("long"))
    return numbered.select("id", "path", first_line.alias("title"), "text")


def _holds_parquet(spark: SparkSession, path: str) -> bool:
    if any(c in path for c in "*?[{"):
        return False
    if is_connect(spark):
        local = _arrow_fs(path)
        if local is None:
            try:
                spark.read.parquet(path).schema  # a folder of Parquet files has a schema to infer
                return True
            except Exception:  # noqa: BLE001 - no such folder, or not Parquet
                return False
        import pyarrow.fs as pafs

        fs, p = local
        if fs.get_file_info(p).type != pafs.FileType.Directory:
            return False
        return any(i.base_name.endswith(".parquet") for i in fs.get_file_info(pafs.FileSelector(p)))
    fs, p = _filesystem(spark, path)
    if not fs.exists(p) or not fs.getFileStatus(p).isDirectory():
        return False
    return any(str(s.getPath().getName()).endswith(".parquet") for s in fs.listStatus(p))


def fingerprint_corpus(spark: SparkSession, texts: str, out: str, params_json: str = "") -> str:
    """Writes an export folder (``documents/``, ``texts/``, ``windows/``, ``manifest.json``,
    the layout of ``zhiwen export --parquet``) from raw texts, fingerprinted on the cluster."""
    params_json = params_json or kernel.default_params()
    out = qualified(spark, out).rstrip("/")
    docs = read_raw_texts(spark, qualified(spark, texts))
    docs.select("id", "text").write.mode("error").parquet(out + "/texts")
    texts_df = spark.read.parquet(out + "/texts")
    stored_windows(texts_df, params_json).write.mode("error").parquet(out + "/windows")
    (
        docs.select(
            "id",
            "path",
            F.substring("title", 1, 200).alias("title"),
            F.length("text").cast("long").alias("chars"),
            F.sha2("text", 256).alias("text_sha256"),
            F.lit("").alias("work"),
        ).write.mode("error").parquet(out + "/documents")
    )
    manifest = {
        "format": "zhiwen-parquet",
        "schema_version": 1,
        "kind": "corpus",
        "zhiwen_version": "spark",
        "fingerprint_params": json.loads(params_json),
        "max_distance": MAX_DISTANCE,
        "documents": spark.read.parquet(out + "/documents").count(),
        "windows": spark.read.parquet(out + "/windows").count(),
        "failed": [],
    }
    write_text(spark, out + "/manifest.json", json.dumps(manifest, indent=2))
    return _local(out)


def read_manifest(spark: SparkSession, path: str) -> dict:
    manifest = json.loads(read_text(spark, path.rstrip("/") + "/manifest.json"))
    if manifest.get("format") != "zhiwen-parquet":
        raise ValueError(f"{path}: not a Zhiwen export folder")
    return manifest


#: The prefix of the job descriptions the job's steps set (``Steps``): the Spark UI and its
#: REST API show each stage under the step it belongs to.
STEP_PREFIX = "zhiwen: "


@dataclass
class Steps:
    """The job's steps (join, passages, ...): each Spark job a step starts is described as
    ``zhiwen: <step>`` (``SparkContext.setJobDescription``), so its stages can be told apart
    in the UI and in the monitoring REST API; the wall time of each step is kept."""

    spark: SparkSession
    seconds: dict = field(default_factory=dict)

    @contextlib.contextmanager
    def __call__(self, name: str):
        # Over Connect there is no SparkContext to describe jobs with: only the times are kept.
        sc = None if is_connect(self.spark) else self.spark.sparkContext
        if sc is not None:
            sc.setJobDescription(STEP_PREFIX + name)
        started = time.monotonic()
        try:
            yield
        finally:
            self.seconds[name] = round(self.seconds.get(name, 0.0) + time.monotonic() - started, 3)
            if sc is not None:
                sc.setJobDescription(None)


STAGE_METRICS = {
    "shuffle_write_rows": "shuffleWriteRecords",
    "shuffle_write_bytes": "shuffleWriteBytes",
    "shuffle_read_rows": "shuffleReadRecords",
    "shuffle_read_bytes": "shuffleReadBytes",
    "input_rows": "inputRecords",
    "input_bytes": "inputBytes",
    "output_rows": "outputRecords",
    "executor_seconds": "executorRunTime",
}


def stage_metrics(spark: SparkSession, steps: Steps | None = None, settle: float = 30.0) -> dict | None:
    """Per step: the shuffle rows and bytes its stages wrote and read, their input and
    output, executor time, stages and tasks, from the monitoring REST API of this
    application (``<ui>/api/v1/applications/<id>/stages``), and the step's wall time from
    ``steps``. Stages not started by a step are summed under ``other``. None when the
    application has no UI (``spark.ui.enabled=false``), and over Spark Connect (the client
    has no SparkContext to find the UI and the application by)."""
    if is_connect(spark):
        print(
            "zhiwen: --metrics is not available over Spark Connect (no SparkContext): the manifest's stages are null",
            file=sys.stderr,
        )
        return None
    sc = spark.sparkContext
    ui = sc.uiWebUrl
    if not ui:
        return None
    url = f"{ui.rstrip('/')}/api/v1/applications/{sc.applicationId}/stages"
    # The status store is fed by a listener, asynchronously: wait until no stage is pending.
    deadline = time.monotonic() + settle
    while True:
        with urllib.request.urlopen(url, timeout=30) as r:
            stages = json.load(r)
        if not any(s.get("status") in ("ACTIVE", "PENDING") for s in stages) or time.monotonic() > deadline:
            break
        time.sleep(0.5)
    out: dict = {}
    for s in stages:
        if s.get("status") != "COMPLETE":
            continue  # skipped (its shuffle output reused) or failed attempts
        description = s.get("description") or ""
        name = description[len(STEP_PREFIX) :] if description.startswith(STEP_PREFIX) else "other"
        m = out.setdefault(name, {k: 0 for k in STAGE_METRICS} | {"stages": 0, "tasks": 0})
        for k, field_name in STAGE_METRICS.items():
            m[k] += s.get(field_name) or 0
        m["stages"] += 1
        m["tasks"] += s.get("numCompleteTasks") or 0
    for name, m in out.items():
        m["executor_seconds"] = round(m["executor_seconds"] / 1000, 3)
        if steps is not None and name in steps.seconds:
            m["seconds"] = steps.seconds[name]
    return out


def run(
    spark: SparkSession,
    mode: str,
    corpus: str,
    suspects: str | None,
    out: str,
    hot_rows: int = DEFAULT_HOT_ROWS,
    run_id: str | None = None,
    options: dict | None = None,
    measure: bool = True,
    batch_rows: int = DEFAULT_BATCH_ROWS,
    metrics: bool = False,
    text_cells: int | None = None,
) -> str:
    """Runs the job; returns the run folder. With ``metrics`` the manifest's ``stages``
    holds each step's shuffle rows and bytes and times (``stage_metrics``)."""
    started = time.monotonic()
    steps = Steps(spark)
    corpus = qualified(spark, corpus)
    suspects = qualified(spark, suspects) if suspects else None
    corpus_manifest = read_manifest(spark, corpus)
    max_distance = (options or {}).get("max_distance", MAX_DISTANCE)
    if mode == "check":
        if suspects is None:
            raise ValueError("a check needs --suspects")
        suspects_manifest = read_manifest(spark, suspects)
        if suspects_manifest["fingerprint_params"] != corpus_manifest["fingerprint_params"]:
            raise ValueError(f"{suspects} was fingerprinted with other parameters than {corpus}")
    elif mode != "self":
        raise ValueError(f"unknown mode {mode}")
    run_id = run_id or time.strftime("%Y%m%dT%H%M%SZ", time.gmtime()) + "-" + uuid.uuid4().hex[:6]
    run_dir = qualified(spark, out).rstrip("/") + "/" + run_id
    stats: dict | None = {} if measure else None

    corpus_windows = spark.read.parquet(corpus + "/windows")
    corpus_keyed = corpus_keys(spark, corpus)
    if mode == "check":
        suspect_windows = spark.read.parquet(suspects + "/windows")
        with steps("plan"):
            pairs = hamming_join(corpus_windows, suspect_windows, max_distance, hot_rows, stats, corpus_keyed, batch_rows)
        hits = pairs.select(
            F.col("right_doc").alias("suspect_id"),
            F.col("right_ordinal").alias("suspect_ordinal"),
            F.col("left_doc").alias("source_id"),
            F.col("left_ordinal").alias("source_ordinal"),
            "distance",
        )
        suspect_texts = spark.read.parquet(suspects + "/texts")
    else:
        with steps("plan"):
            pairs = hamming_join(corpus_windows, None, max_distance, hot_rows, stats, corpus_keyed, batch_rows)
        # Windows of one document repeating themselves are not copies. Each pair of documents
        # is matched both ways (either may be the better suspect, as in `check --among`);
        # the better direction is kept below.
        cross = pairs.where(F.col("left_doc") != F.col("right_doc"))
        # Both directions from one pass over the join's output (a union of two selections
        # would run the join twice).
        def direction(suspect: str, source: str):
            return F.struct(
                F.col(f"{suspect}_doc").alias("suspect_id"),
                F.col(f"{suspect}_ordinal").alias("suspect_ordinal"),
                F.col(f"{source}_doc").alias("source_id"),
                F.col(f"{source}_ordinal").alias("source_ordinal"),
                F.col("distance").alias("distance"),
            )

        hits = cross.select(F.explode(F.array(direction("left", "right"), direction("right", "left"))).alias("hit")).select(
            "hit.*"
        )
        suspect_texts = spark.read.parquet(corpus + "/texts")
    hits_dir = run_dir + "/hits"
    with steps("join"):
        hits.write.mode("error").parquet(hits_dir)

    corpus_texts = spark.read.parquet(corpus + "/texts")
    # Read again: a plan of its own, so the join with the passages is no ambiguous self-join.
    pair_counts = spark.read.parquet(hits_dir).groupBy("suspect_id", "source_id").agg(F.count("*").alias("hits"))
    if text_cells is None:
        with steps("plan"):
            text_bytes = _text_bytes(spark, corpus) + (_text_bytes(spark, suspects) if mode == "check" else 0)
        text_cells = default_text_cells(default_parallelism(spark), text_bytes, mode == "self")
    params_json = json.dumps(corpus_manifest["fingerprint_params"])
    options_json = json.dumps(options) if options else ""
    passages = passages_in_cells(spark, hits_dir, suspect_texts, corpus_texts, mode == "self", text_cells, params_json, options_json)
    with steps("passages"):
        passages.write.mode("error").parquet(run_dir + "/passages")
    passages = spark.read.parquet(run_dir + "/passages")
    doc_pairs = (
        passages.groupBy("suspect_id", "source_id")
        .agg(
            F.first("similarity").alias("similarity"),
            F.first("source_coverage").alias("source_coverage"),
            F.count("*").alias("passages"),
        )
        .join(pair_counts, ["suspect_id", "source_id"])
    )
    with steps("doc_pairs"):
        doc_pairs.write.mode("error").parquet(run_dir + "/doc_pairs")

    if stats is not None:
        with steps("stats"):
            stats["hits"] = spark.read.parquet(run_dir + "/hits").count()
            stats["doc_pairs"] = spark.read.parquet(run_dir + "/doc_pairs").count()
        stats["corpus_windows"] = corpus_manifest["windows"]
        stats["suspect_windows"] = suspects_manifest["windows"] if mode == "check" else 0
    manifest = {
        "format": "zhiwen-spark-run",
        "run_id": run_id,
        "mode": mode,
        "corpus": _local(corpus),
        "suspects": _local(suspects) if suspects else None,
        "max_distance": max_distance,
        "check_options": options or None,
        "hot_rows": hot_rows,
        "batch_rows": batch_rows,
        "corpus_keys": corpus_keyed is not None,
        "text_cells": text_cells,
        "stats": {**(stats or {}), "seconds": round(time.monotonic() - started, 3)},
    }
    if metrics:
        manifest["stages"] = stage_metrics(spark, steps)
    write_text(spark, run_dir + "/manifest.json", json.dumps(manifest, indent=2))
    return _local(run_dir)


def session(master: str | None = None, partitions: int | None = None, remote: str | None = None) -> SparkSession:
    """The session spark-submit (or ``python -m``) gives, as the cluster configured it:
    the UI and every setting are left alone; ``partitions`` (``--partitions``) sets
    ``spark.sql.shuffle.partitions`` for this job only. ``remote`` (``--remote``, else the
    environment's ``SPARK_REMOTE``) is a Spark Connect URL (``sc://host:15002``, or
    ``local[N]`` for a Connect server of this PySpark started here): the job then runs as a
    Connect client."""
    remote = remote or os.environ.get("SPARK_REMOTE") or None
    if remote:
        if master:
            raise ValueError("--master and --remote (SPARK_REMOTE) exclude each other: a Connect server has its own master")
        spark = SparkSession.builder.remote(remote).getOrCreate()
    else:
        builder = SparkSession.builder.appName("zhiwen")
        # Without a master (python -m …) PySpark runs locally on every core; spark-submit
        # passes the cluster's.
        if master:
            builder = builder.master(master)
        spark = builder.getOrCreate()
    if partitions:
        spark.conf.set("spark.sql.shuffle.partitions", str(int(partitions)))
    return spark


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="zhiwen_spark.job", description=__doc__.split("\n\n")[0])
    p.add_argument(
        "mode",
        choices=["check", "self", "keys", "fingerprint"],
        help="suspects against the corpus, the corpus against itself, write the corpus's keys once (bucketed), "
        "or fingerprint raw texts (--texts) into an export folder (--corpus)",
    )
    p.add_argument("--texts", help="raw texts (fingerprint mode): Parquet of id, title, text, or UTF-8 text files")
    p.add_argument("--params", default="", help="fingerprint parameters as JSON (fingerprint mode; default: a new store's)")
    p.add_argument("--buckets", type=int, default=DEFAULT_BUCKETS, help="buckets of the keys table (keys mode)")
    p.add_argument("--corpus", required=True, help="folder written by `zhiwen export --parquet`")
    p.add_argument("--suspects", help="folder written by `zhiwen fingerprint --parquet` (check mode)")
    p.add_argument("--out", help="folder that receives runs/<id> (check and self modes)")
    p.add_argument(
        "--hot-rows", type=int, default=DEFAULT_HOT_ROWS, help=f"split groups larger than this (default {DEFAULT_HOT_ROWS:,})"
    )
    p.add_argument(
        "--batch-rows",
        type=int,
        default=DEFAULT_BATCH_ROWS,
        help=f"rows per kernel call: whole groups are batched up to about this many (default {DEFAULT_BATCH_ROWS:,}; "
        "the number of groups per batch follows from the input's size)",
    )
    p.add_argument(
        "--partitions",
        type=int,
        help="spark.sql.shuffle.partitions for this job (default: the cluster's setting, adaptive execution coalescing)",
    )
    p.add_argument(
        "--text-cells",
        type=int,
        help="buckets per side of the passages step's cells: each text moves to at most this many cells "
        "(default: the fewest giving 4 cells per core whose texts stay within 256 MB)",
    )
    p.add_argument("--run-id", help="name of the run folder (default: UTC time and a random suffix)")
    p.add_argument("--master", help="Spark master (default: local[*] unless spark-submit sets one)")
    p.add_argument(
        "--remote",
        help="run as a Spark Connect client of this server: sc://host:port[/;token=...], or local[N] to start a local "
        "Connect server (default: the environment's SPARK_REMOTE; without either, a classic session)",
    )
    p.add_argument("--no-stats", action="store_true", help="skip the counts (each is one more pass)")
    p.add_argument(
        "--metrics",
        action="store_true",
        help="per step (join, passages, ...): shuffle rows and bytes written and read, and times, from Spark's "
        "monitoring REST API (needs the UI, on by default); written to the run's manifest and printed as JSON",
    )
    args = p.parse_args(argv)
    spark = session(args.master, args.partitions, args.remote)
    if args.mode == "keys":
        print(write_corpus_keys(spark, args.corpus, args.buckets, args.batch_rows))
        return
    if args.mode == "fingerprint":
        if not args.texts:
            p.error("fingerprint needs --texts")
        print(fingerprint_corpus(spark, args.texts, args.corpus, args.params))
        return
    if not args.out:
        p.error("--out is required")
    run_dir = run(
        spark,
        args.mode,
        args.corpus,
        args.suspects,
        args.out,
        args.hot_rows,
        args.run_id,
        measure=not args.no_stats,
        batch_rows=args.batch_rows,
        metrics=args.metrics,
        text_cells=args.text_cells,
    )
    if args.metrics:
        stages = json.loads(read_text(spark, run_dir.rstrip("/") + "/manifest.json")).get("stages")
        print(json.dumps({"stages": stages}))
    print(run_dir)


if __name__ == "__main__":
    main()
