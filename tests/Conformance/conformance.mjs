// The conformance stage's engines (see .ci/conformance): what the tool and ListMmf.Arrow export must read the same
// in DuckDB, Polars, arrow-rs (parquet-wasm) and Arrow JS, statistics included; and the files those engines write
// with their usual settings (and each codec they offer) are what the tool must import. Values are compared as
// canonical text (Program.cs in this folder computes the same): integers in decimal, floating-point numbers as the bits
// they are stored in (NaN payloads, signalling NaNs, signs and -0 count), read from each engine's own buffers, never
// through a JavaScript number, which may quiet or change a NaN; times as nanoseconds since 1970. Types are compared too: each engine must see
// each column as the type of its own that a ListMmf type stands for (TINYINT stays TINYINT; a timestamp keeps its unit
// and its zone), and a file each engine writes must become the table columns of its types.
//   node conformance.mjs read DIR    DIR/expected/NAME.json against DIR/parquet/NAME.parquet and DIR/arrow/NAME.arrow
//   node conformance.mjs write DIR   DIR/foreign/ENGINE-NAME.parquet and, beside each, what it holds as JSON
//   node conformance.mjs hive DIR    DIR/hive (a catalog's Hive-partitioned export) against DIR/hive-expected.json
//   node conformance.mjs hive-write DIR   DIR/hive written again by DuckDB and Polars, as DIR/hive-duckdb and DIR/hive-polars
import { readFileSync, writeFileSync, readdirSync, mkdirSync } from "node:fs";
import { join, basename } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import * as arrow from "apache-arrow";
import pl from "nodejs-polars";
import * as wasm from "parquet-wasm/node";

const [command, dir] = process.argv.slice(2);

/** Each engine's name for the type of a ListMmf column: [DuckDB, Polars, Arrow]; times separately below. */
const TYPES = {
  SByte: ["TINYINT", "Int8", "Int8"], Byte: ["UTINYINT", "UInt8", "Uint8"],
  Int16: ["SMALLINT", "Int16", "Int16"], UInt16: ["USMALLINT", "UInt16", "Uint16"],
  Int32: ["INTEGER", "Int32", "Int32"], UInt32: ["UINTEGER", "UInt32", "Uint32"],
  Int64: ["BIGINT", "Int64", "Int64"], UInt64: ["UBIGINT", "UInt64", "Uint64"],
  Single: ["FLOAT", "Float32", "Float32"], Double: ["DOUBLE", "Float64", "Float64"],
};

/**
 * The type an engine must see for a column of ListMmf type `type` in a table recorded as UTC or not: Parquet keeps
 * Unix seconds as milliseconds (it has no seconds unit) and ticks as nanoseconds; Arrow IPC keeps seconds as seconds.
 * A UTC table's times are instants (DuckDB's TIMESTAMP WITH TIME ZONE, a zone in Polars and Arrow).
 */
function expectedType(engine, type, utc, ipc = false) {
  // Text: Parquet's dictionary-encoded strings read as each engine's strings; Arrow IPC keeps the dictionary.
  if (type === "Text") return { duckdb: "VARCHAR", polars: "String", "arrow-rs": "Utf8" }[engine] ?? (ipc ? "Dictionary<Int32, Utf8>" : "Utf8");
  if (type === "UnixSeconds" || type === "DateTime") {
    const unit = type === "DateTime" ? "ns" : ipc ? "s" : "ms";
    if (engine === "duckdb") return utc ? "TIMESTAMP WITH TIME ZONE" : { ns: "TIMESTAMP_NS", ms: "TIMESTAMP" }[unit];
    return `Datetime(${unit}, ${utc ? "UTC" : "none"})`;
  }
  return TYPES[type][{ duckdb: 0, polars: 1 }[engine] ?? 2];
}

/** An Arrow JS type as expectedType names it. */
function arrowType(type) {
  if (type instanceof arrow.Timestamp) return `Datetime(${["s", "ms", "us", "ns"][type.unit]}, ${type.timezone || "none"})`;
  if (type instanceof arrow.Int) return `${type.isSigned ? "Int" : "Uint"}${type.bitWidth}`;
  if (type instanceof arrow.Float) return { 1: "Float32", 2: "Float64" }[type.precision] ?? `Float(${type.precision})`;
  return String(type);
}

/** A Polars dtype as expectedType names it. */
function polarsType(dtype) {
  if (dtype.variant === "Datetime") return `Datetime(${dtype.timeUnit}, ${dtype.timeZone || "none"})`;
  return dtype.variant;
}
const NANOS = { 0: 1_000_000_000n, 1: 1_000_000n, 2: 1_000n, 3: 1n }; // Arrow's TimeUnit: s, ms, us, ns

/** The bits of each value of a Float32Array or Float64Array as stored, read through an integer view of its buffer. */
function floatBits(values) {
  const wide = values instanceof Float64Array;
  if (!wide && !(values instanceof Float32Array)) throw new Error(`not a float buffer: ${values?.constructor?.name}`);
  const view = wide ? new BigUint64Array(values.buffer, values.byteOffset, values.length) : new Uint32Array(values.buffer, values.byteOffset, values.length);
  return Array.from(view, v => v.toString(16).padStart(wide ? 16 : 8, "0"));
}

/** Float64Array values with the given bits at some rows (NaN payloads), written through an integer view: no number conversion. */
function withBits(values, bitsAt) {
  const view = new BigUint64Array(values.buffer, values.byteOffset, values.length);
  for (let i = 0; i < values.length; i++) { const bits = bitsAt(i); if (bits !== undefined) view[i] = bits; }
  return values;
}

/** An Arrow JS float column's bits, chunk by chunk. */
const arrowFloatBits = (vector) => vector.data.flatMap(d => floatBits(d.values.subarray(d.offset, d.offset + d.length)));

/** The bits of each column of a DuckDB query of float columns, from DuckDB's own vectors. */
async function duckFloatBits(duck, sql) {
  const result = await duck.run(sql);
  const columns = Array.from({ length: result.columnCount }, () => []);
  for (let chunk; (chunk = await result.fetchChunk()) && chunk.rowCount > 0;) {
    columns.forEach((column, j) => { for (const b of floatBits(chunk.getColumnVector(j).items)) column.push(b); });
  }
  return columns;
}

function canonical(kind, value, nanosPerUnit = 1n) {
  if (kind === "float") throw new Error("floats are compared by their stored bits: floatBits");
  if (kind === "text") return value;
  if (kind === "time") return (BigInt(value) * nanosPerUnit).toString();
  return BigInt(value).toString();
}

class Tally {
  constructor(engine) { Object.assign(this, { engine, files: 0, values: 0, different: 0, shown: 0 }); }
  compare(file, column, expected, actual) {
    for (let i = 0; i < expected.length; i++) {
      this.values++;
      if (expected[i] !== actual[i]) {
        this.different++;
        if (this.shown++ < 5) console.log(`${this.engine}: ${file} column '${column}' row ${i}: expected ${expected[i]}, read ${actual[i]}`);
      }
    }
    if (actual.length !== expected.length) {
      this.different++;
      console.log(`${this.engine}: ${file} column '${column}': ${actual.length} values read, ${expected.length} expected`);
    }
  }
  check(file, what, expected, actual) {
    this.values++;
    if (String(expected) !== String(actual)) {
      this.different++;
      console.log(`${this.engine}: ${file} ${what}: expected ${expected}, got ${actual}`);
    }
  }
  print() { console.log(`${this.engine}: ${this.files} files, ${this.values.toLocaleString("en-US")} values compared, ${this.different} different`); }
}

/** An Arrow JS column's raw values (times in their unit), chunk by chunk. */
function rawValues(vector) {
  const out = [];
  for (const data of vector.data) {
    const values = data.values;
    for (let i = 0; i < data.length; i++) {
      const at = data.offset + i;
      // Older Arrow JS keeps 64-bit values of some types as pairs of Int32.
      out.push(values.length === 2 * (data.offset + data.length) && values instanceof Int32Array
        ? (BigInt(values[2 * at + 1]) << 32n) | BigInt(values[2 * at] >>> 0)
        : values[at]);
    }
  }
  return out;
}

function readArrowTable(table, expected, file, tally, engine, ipc) {
  tally.check(file, "rows", expected.Rows, table.numRows);
  for (const column of expected.Columns) {
    const vector = table.getChild(column.Name);
    if (!vector) { tally.check(file, `column ${column.Name}`, "present", "missing"); continue; }
    tally.check(file, `type of ${column.Name}`, expectedType(engine, column.Type, expected.Utc, ipc), arrowType(vector.type));
    const unit = column.Kind === "time" ? NANOS[vector.type.unit] : 1n;
    tally.compare(file, column.Name, column.Values, column.Kind === "float" ? arrowFloatBits(vector)
      : column.Kind === "text" ? Array.from(vector, String)
      : rawValues(vector).map(v => canonical(column.Kind, v, unit)));
  }
  tally.files++;
}

/** Thresholds inside a column's range: the values at a third and at half of the rows, and past the end. */
function thresholds(values) {
  if (values.length === 0) return [0n];
  const sorted = values.map(BigInt).sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  return [sorted[Math.floor(sorted.length / 3)], sorted[Math.floor(sorted.length / 2)], sorted[sorted.length - 1] + 1n];
}

const countAtLeast = (values, threshold) => values.filter(v => BigInt(v) >= threshold).length;

async function readAll() {
  const duck = await (await DuckDBInstance.create(":memory:")).connect();
  const tallies = { duckdb: new Tally("duckdb"), polars: new Tally("polars"), arrowRs: new Tally("arrow-rs (parquet-wasm)"), arrowJs: new Tally("apache-arrow js (IPC)") };
  for (const name of readdirSync(join(dir, "expected")).filter(f => f.endsWith(".json")).sort()) {
    const stem = basename(name, ".json");
    const expected = JSON.parse(readFileSync(join(dir, "expected", name), "utf8"));
    const parquet = join(dir, "parquet", `${stem}.parquet`);
    const file = `${stem}.parquet`;

    // DuckDB: every value, then filtered counts (which prune row groups by the statistics) against the values.
    const types = Object.fromEntries((await duck.runAndReadAll(`describe select * from '${parquet}'`)).getRowObjects().map(r => [r.column_name, r.column_type]));
    expected.Columns.forEach(c => tallies.duckdb.check(file, `type of ${c.Name}`, expectedType("duckdb", c.Type, expected.Utc), types[c.Name]));
    const select = expected.Columns.map(c => c.Kind !== "time" ? `"${c.Name}"`
      : types[c.Name] === "TIMESTAMP_NS" ? `epoch_ns("${c.Name}")` : `epoch_us("${c.Name}")::HUGEINT * 1000`).join(", ");
    const rows = (await duck.runAndReadAll(`select ${select} from '${parquet}'`)).getRows();
    tallies.duckdb.check(file, "rows", expected.Rows, rows.length);
    // DuckDB's only zoned type, TIMESTAMP WITH TIME ZONE, holds microseconds: it reads a UTC nanosecond timestamp
    // truncated toward zero to the microsecond, so those columns are compared (and counted) as it holds them.
    const asDuckDb = (c) => types[c.Name] !== "TIMESTAMP WITH TIME ZONE" ? c.Values : c.Values.map(v => ((BigInt(v) / 1000n) * 1000n).toString());
    const floats = expected.Columns.filter(c => c.Kind === "float");
    const floatsRead = floats.length ? await duckFloatBits(duck, `select ${floats.map(c => `"${c.Name}"`).join(", ")} from '${parquet}'`) : [];
    expected.Columns.forEach((c, j) => tallies.duckdb.compare(file, c.Name, asDuckDb(c),
      c.Kind === "float" ? floatsRead[floats.indexOf(c)] : rows.map(r => canonical(c.Kind, r[j]))));
    for (const c of expected.Columns.filter(c => ["time", "int32", "int64", "uint64", "datetime"].includes(c.Name))) {
      for (const t of thresholds(c.Values)) {
        // A literal of the column's own resolution, so that DuckDB compares without casting the column.
        const nanosecondColumn = types[c.Name] === "TIMESTAMP_NS";
        if (c.Kind === "time" && !nanosecondColumn && t % 1000n !== 0n) continue;
        const literal = c.Kind !== "time" ? `${t}` : nanosecondColumn ? `make_timestamp_ns(${t})` : `make_timestamp(${t / 1000n})`;
        const where = `"${c.Name}" >= ${literal}`;
        const [[count]] = (await duck.runAndReadAll(`select count(*) from '${parquet}' where ${where}`)).getRows();
        tallies.duckdb.check(file, `count where ${c.Name} >= ${t}`, countAtLeast(asDuckDb(c), t), count);
      }
    }
    if (stem === "ticks-many") {
      // The two queries of the report that found a ticks table's statistics in the wrong unit: they must agree.
      const literal = "TIMESTAMP '2024-01-02 16:00'";
      const [[pruned]] = (await duck.runAndReadAll(`select count(*) from '${parquet}' where time >= ${literal}`)).getRows();
      const [[scanned]] = (await duck.runAndReadAll(`select count(*) from '${parquet}' where epoch_ns(time) >= epoch_ns(${literal})`)).getRows();
      console.log(`duckdb: ${file}: where time >= ${literal}: ${pruned} rows; by epoch_ns, a full scan: ${scanned} rows`);
      tallies.duckdb.check(file, "the report's two queries", scanned, pruned);
    }
    tallies.duckdb.files++;

    // Polars: every value (times as their stored integers), then lazy filtered counts on the integer columns.
    const frame = pl.readParquet(parquet);
    tallies.polars.check(file, "rows", expected.Rows, frame.height);
    for (const c of expected.Columns) {
      const series = frame.getColumn(c.Name);
      tallies.polars.check(file, `type of ${c.Name}`, expectedType("polars", c.Type, expected.Utc), polarsType(series.dtype));
      const unit = c.Kind === "time" ? { s: 1_000_000_000n, ms: 1_000_000n, us: 1_000n, ns: 1n }[series.dtype.timeUnit] : 1n;
      // Integers through text: Polars hands 64-bit integers to JavaScript as doubles, which round above 2^53.
      if (c.Kind === "float") {
        tallies.polars.compare(file, c.Name, c.Values, floatBits(series.toTypedArray()));
        continue;
      }
      const values = c.Kind === "time" ? series.cast(pl.Int64).cast(pl.Utf8).toArray()
        : c.Kind === "text" ? series.toArray() : series.cast(pl.Utf8).toArray();
      tallies.polars.compare(file, c.Name, c.Values, values.map(v => canonical(c.Kind, v, unit)));
    }
    for (const c of expected.Columns.filter(c => ["int32", "int64"].includes(c.Name))) {
      for (const t of thresholds(c.Values)) {
        if (t > 9007199254740991n || t < -9007199254740991n) continue;
        const counted = pl.scanParquet(parquet).filter(pl.col(c.Name).gtEq(Number(t))).select(pl.len().alias("n")).collectSync();
        tallies.polars.check(file, `count where ${c.Name} >= ${t}`, countAtLeast(c.Values, t), expected.Rows === 0 ? 0 : counted.getColumn("n").toArray()[0]);
      }
    }
    tallies.polars.files++;

    // arrow-rs: the Parquet file decoded in WebAssembly, handed over as an Arrow IPC stream.
    readArrowTable(arrow.tableFromIPC(wasm.readParquet(readFileSync(parquet)).intoIPCStream()), expected, file, tallies.arrowRs, "arrow-rs", false);

    // Arrow JS: the Arrow IPC file ListMmf.Arrow wrote.
    readArrowTable(arrow.tableFromIPC(readFileSync(join(dir, "arrow", `${stem}.arrow`))), expected, `${stem}.arrow`, tallies.arrowJs, "arrow-js", true);
  }
  Object.values(tallies).forEach(t => t.print());
  return Object.values(tallies).every(t => t.different === 0 && t.files > 0);
}

/**
 * What an engine wrote, as the JSON the C# side checks the imported table against: the values, the ListMmf type
 * each column must become (the time column: "DateTime" ticks, as a new table's time column is made), and whether the
 * times are instants in UTC.
 */
function writeExpected(path, columns, utc = false) {
  const rows = columns.length ? columns[0].Values.length : 0;
  writeFileSync(path, JSON.stringify({ Rows: rows, Utc: utc, Columns: columns }));
}

async function writeAll() {
  const foreign = join(dir, "foreign");
  mkdirSync(foreign, { recursive: true });
  const rows = 50_000;
  const duck = await (await DuckDBInstance.create(":memory:")).connect();

  // DuckDB, V1 (its default) and V2 (DELTA_BINARY_PACKED integers and timestamps); microsecond and nanosecond times.
  // Consecutive 32-bit values differ by less than 2^31 and UINTEGER stays below 2^31: beyond that DuckDB's V2 writer
  // stores forms Arrow's C++ and Rust readers both refuse (tests of the tool name those refusals).
  const source = `select (timestamp '2024-01-02 09:30:00' + to_microseconds(i * 250000))::TIMESTAMP as time,
      make_timestamp_ns(1704187800000000000 + i * 1234567) as stamp,
      (i % 256 - 128)::tinyint as i8, (i % 256)::utinyint as u8, (i * 7 % 65536 - 32768)::smallint as i16,
      (i * 13 % 65536)::usmallint as u16, (i * 48271 % 1000000 - 2147000000)::integer as i32,
      (2147000000 - i * 13)::uinteger as u32, (-9223372036000000000 + i * 1000003)::bigint as i64,
      (18446744073000000000 + i * 7)::ubigint as u64, (i * 0.37 - 5000)::float as f32,
      (case when i % 997 = 0 then 'nan'::double else i * 0.25 - 12345.5 end) as f64,
      ['Q', 'N', '', 'Ü,"x"', '日本😀'][1 + i % 5] || (case when i % 1000 = 0 then i::varchar else '' end) as sym
    from range(${rows}) t(i)`;
  const duckTypes = { time: "DateTime", stamp: "DateTime", i8: "SByte", u8: "Byte", i16: "Int16", u16: "UInt16", i32: "Int32",
    u32: "UInt32", i64: "Int64", u64: "UInt64", f32: "Single", f64: "Double", sym: "Text" };
  const kinds = { time: "time", stamp: "time", f32: "float", f64: "float", sym: "text" };
  const names = Object.keys(duckTypes);
  const duckValues = (await duck.runAndReadAll(`select ${names.map(n => kinds[n] === "time" ? `epoch_ns("${n}")` : `"${n}"`).join(", ")} from (${source})`)).getRows();
  const [f32Bits, f64Bits] = await duckFloatBits(duck, `select f32, f64 from (${source})`);
  const duckColumns = names.map((n, j) => ({ Name: n, Kind: kinds[n] ?? "int", Type: duckTypes[n],
    Values: n === "f32" ? f32Bits : n === "f64" ? f64Bits : duckValues.map(r => canonical(kinds[n] ?? "int", r[j])) }));
  // Its two writer versions, and every codec it offers (snappy is its default).
  for (const [version, codec] of [["v1", "snappy"], ["v2", "snappy"], ["v1", "zstd"], ["v1", "gzip"], ["v1", "brotli"], ["v1", "lz4"]]) {
    const path = join(foreign, `duckdb_${version}_${codec}-ticks.parquet`);
    await duck.run(`copy (${source}) to '${path}' (format parquet, parquet_version ${version}, compression ${codec}, row_group_size 12288)`);
    writeExpected(path.replace(/\.parquet$/, ".json"), duckColumns);
  }

  // DuckDB's TIMESTAMPTZ, written in a session of another zone: instants, which make a table recorded as UTC.
  await duck.run("set TimeZone = 'America/New_York'");
  const zonedPath = join(foreign, "duckdb_tz-ticks.parquet");
  const zoned = `select (timestamptz '2024-01-02 09:30:00-05' + to_microseconds(i * 250000)) as time, (i * 0.25)::DOUBLE as f64 from range(${rows}) t(i)`;
  await duck.run(`copy (${zoned}) to '${zonedPath}' (format parquet)`);
  const zonedValues = (await duck.runAndReadAll(`select epoch_ns(time) from (${zoned})`)).getRows();
  const [zonedF64] = await duckFloatBits(duck, `select f64 from (${zoned})`);
  writeExpected(zonedPath.replace(/\.parquet$/, ".json"), [
    { Name: "time", Kind: "time", Type: "DateTime", Values: zonedValues.map(r => canonical("time", r[0])) },
    { Name: "f64", Kind: "float", Type: "Double", Values: zonedF64 },
  ], true);

  // Polars: its defaults (zstd, statistics), every integer width, and millisecond times.
  const times = Array.from({ length: rows }, (_, i) => 1_704_187_800_000 + i * 250);
  const ints = (f) => Array.from({ length: rows }, (_, i) => f(i));
  const frame = pl.DataFrame({
    time: pl.Series("time", times, pl.Int64).cast(pl.Datetime("ms")),
    i8: pl.Series("i8", ints(i => (i % 256) - 128), pl.Int8),
    u16: pl.Series("u16", ints(i => (i * 13) % 65536), pl.UInt16),
    i32: pl.Series("i32", ints(i => ((i * 48271) % 4294967296) - 2147483648), pl.Int32),
    u32: pl.Series("u32", ints(i => (i * 48271) % 4294967296), pl.UInt32),
    i64: pl.Series("i64", ints(i => i * 1_000_003 - 25_000_000_000), pl.Int64),
    f32: pl.Series("f32", ints(i => Math.fround(i * 0.37 - 5000)), pl.Float32),
    // NaNs with payloads, both signs, quiet and signalling, put in through the buffer's bits.
    f64: pl.Series("f64", withBits(Float64Array.from(ints(i => i * 0.25 - 12345.5)),
      i => (i % 499 === 0 ? 0x7ff0000000000000n | BigInt(i + 1) | (i % 2 === 0 ? 0x0008000000000000n : 0n) | (i % 4 === 0 ? 1n << 63n : 0n) : undefined)), pl.Float64),
    // Text as Polars keeps it: a String column, and a Categorical one.
    sym: pl.Series("sym", ints(i => ["AAPL", "MSFT", "", "Ü 日本"][i % 4] + (i % 5000 === 0 ? String(i) : "")), pl.Utf8),
    cat: pl.Series("cat", ints(i => ["@", "F", "T"][(i * 7) % 3]), pl.Utf8).cast(pl.Categorical),
  });
  const polarsTypes = { i8: "SByte", u16: "UInt16", i32: "Int32", u32: "UInt32", i64: "Int64", f32: "Single", f64: "Double" };
  const polarsColumns = (frame) => [
    { Name: "time", Kind: "time", Type: "DateTime", Values: times.map(t => canonical("time", t, 1_000_000n)) },
    ...["i8", "u16", "i32", "u32", "i64"].map(n => ({ Name: n, Kind: "int", Type: polarsTypes[n], Values: frame.getColumn(n).toArray().map(v => canonical("int", v)) })),
    ...["f32", "f64"].map(n => ({ Name: n, Kind: "float", Type: polarsTypes[n], Values: floatBits(frame.getColumn(n).toTypedArray()) })),
    ...["sym", "cat"].map(n => ({ Name: n, Kind: "text", Type: "Text", Values: frame.getColumn(n).cast(pl.Utf8).toArray() })),
  ];
  // Its default (uncompressed in this build) and zstd, asked for by name.
  for (const compression of ["default", "zstd"]) {
    const polarsPath = join(foreign, `polars_${compression}-ms.parquet`);
    if (compression === "default") frame.writeParquet(polarsPath); else frame.writeParquet(polarsPath, { compression });
    writeExpected(polarsPath.replace(/\.parquet$/, ".json"), polarsColumns(frame));
  }

  // Polars with zoned times (Datetime("us", "UTC") and a zone of its own): instants, a table recorded as UTC.
  for (const zone of ["UTC", "America/New_York"]) {
    const zonedFrame = pl.DataFrame({ time: pl.Series("time", times, pl.Int64).cast(pl.Datetime("ms")).dt.replaceTimeZone("UTC").dt.convertTimeZone(zone), f64: frame.getColumn("f64") });
    const path = join(foreign, `polars_${zone === "UTC" ? "utc" : "ny"}-ms.parquet`);
    zonedFrame.writeParquet(path);
    writeExpected(path.replace(/\.parquet$/, ".json"), [polarsColumns(frame)[0], polarsColumns(frame).find(c => c.Name === "f64")], true);
  }

  // arrow-rs: writer version 2 with DELTA_BINARY_PACKED, nanosecond times, and unsigned 64-bit values above 2^63.
  const nanos = BigInt64Array.from({ length: rows }, (_, i) => 1_704_187_800_000_000_000n + BigInt(i) * 1_234_567n);
  const u64 = BigUint64Array.from({ length: rows }, (_, i) => (BigInt(i) * 11400714819323198485n) % 18446744073709551616n);
  const i16 = Int16Array.from({ length: rows }, (_, i) => ((i * 7) % 65536) - 32768);
  const f64 = withBits(Float64Array.from({ length: rows }, (_, i) => (i % 1009 === 0 ? -0 : i * 0.125)),
    i => (i % 997 === 0 ? 0xfff4000000000000n | BigInt(i + 1) : undefined));
  const symbols = Array.from({ length: rows }, (_, i) => ["ES", "NQ", "", "€uro"][i % 4] + (i % 7000 === 0 ? String(i) : ""));
  const table = new arrow.Table({
    time: arrow.makeVector({ type: new arrow.TimestampNanosecond(), data: nanos }),
    u64: arrow.makeVector(u64), i16: arrow.makeVector(i16), f64: arrow.makeVector(f64),
    sym: arrow.vectorFromArray(symbols, new arrow.Utf8()),
  });
  const properties = new wasm.WriterPropertiesBuilder()
    .setWriterVersion(wasm.WriterVersion.V2)
    .setDictionaryEnabled(false)
    .setEncoding(wasm.Encoding.DELTA_BINARY_PACKED)
    .setColumnEncoding("f64", wasm.Encoding.PLAIN)
    .setColumnEncoding("sym", wasm.Encoding.DELTA_BYTE_ARRAY)
    .setMaxRowGroupSize(12_000)
    .build();
  const arrowPath = join(foreign, "arrow_rs-ns.parquet");
  writeFileSync(arrowPath, wasm.writeParquet(wasm.Table.fromIPCStream(arrow.tableToIPC(table, "stream")), properties));
  writeExpected(arrowPath.replace(/\.parquet$/, ".json"), [
    { Name: "time", Kind: "time", Type: "DateTime", Values: [...nanos].map(v => canonical("time", v)) },
    { Name: "u64", Kind: "int", Type: "UInt64", Values: [...u64].map(v => canonical("int", v)) },
    { Name: "i16", Kind: "int", Type: "Int16", Values: [...i16].map(v => canonical("int", v)) },
    { Name: "f64", Kind: "float", Type: "Double", Values: floatBits(f64) },
    { Name: "sym", Kind: "text", Type: "Text", Values: symbols },
  ]);
  console.log(`wrote ${readdirSync(foreign).filter(f => f.endsWith(".parquet")).length} Parquet files into ${foreign}: DuckDB V1 and V2 ` +
    `(snappy, zstd, gzip, brotli, lz4; TIMESTAMPTZ), Polars (default, zstd; UTC and New York zones), arrow-rs`);
  return true;
}

/**
 * A catalog's Hive-partitioned export (DIR/hive, KIND/symbol=S/date=D/data.parquet) read by DuckDB and Polars as one
 * dataset each, every partition's rows, sum of sizes and first and last times asked with a predicate on the
 * partition columns, against DIR/hive-expected.json; each engine's count of partitions; and that DuckDB scans one file
 * of a kind's for a predicate naming one partition (its profile's "Scanning Files"), so the Hive layout prunes.
 */
async function readHive() {
  const expected = JSON.parse(readFileSync(join(dir, "hive-expected.json"), "utf8"));
  const tallies = { duckdb: new Tally("duckdb (Hive)"), polars: new Tally("polars (Hive)") };
  const duck = await (await DuckDBInstance.create(":memory:")).connect();
  for (const kind of [...new Set(expected.map(p => p.Kind))]) {
    const glob = join(dir, "hive", kind, "*", "*", "*.parquet").replaceAll("\\", "/");
    const ofKind = expected.filter(p => p.Kind === kind);
    const groups = (await duck.runAndReadAll(`select count(*) from (select distinct symbol, date from read_parquet('${glob}', hive_partitioning = true))`)).getRows();
    tallies.duckdb.check(kind, "partitions", ofKind.length, groups[0][0]);
    const frame = pl.scanParquet(join(dir, "hive", kind, "**", "*.parquet"), { hivePartitioning: true });
    tallies.polars.check(kind, "partitions", ofKind.length, frame.select("symbol", "date").unique().collectSync().height);
    // Pruning, not only right answers: DuckDB's profile of a query on one partition names the files it scanned (a
    // count alone it answers from the files' metadata, with no scan to profile).
    const one = ofKind[0];
    const profile = (await duck.runAndReadAll(`explain analyze select count(*), sum(size) from read_parquet('${glob}', hive_partitioning = true) ` +
      `where symbol = '${one.Symbol}' and date = DATE '${one.Date}'`)).getRows().flat().join("\n");
    const scanned = /Scanning Files: (\d+)\/(\d+)/.exec(profile);
    tallies.duckdb.check(kind, "files scanned for one partition (of all)", `1/${ofKind.length}`, scanned ? `${scanned[1]}/${scanned[2]}` : "no 'Scanning Files' in the profile");
    for (const p of ofKind) {
      const where = `symbol = '${p.Symbol}' and date = DATE '${p.Date}'`;
      const row = (await duck.runAndReadAll(`select count(*), sum(size), epoch_ns(min(time)), epoch_ns(max(time)) ` +
        `from read_parquet('${glob}', hive_partitioning = true) where ${where}`)).getRows()[0];
      tallies.duckdb.compare(`${kind} where ${where}`, "count, sum(size), first, last", [p.Rows, p.Size, p.First, p.Last].map(String), row.map(String));
      const found = frame.filter(pl.col("symbol").eq(pl.lit(p.Symbol)).and(pl.col("date").cast(pl.Utf8).eq(pl.lit(p.Date))))
        .select(pl.len().alias("n"), pl.col("size").cast(pl.Int64).sum().alias("s"),
          pl.col("time").cast(pl.Int64).min().alias("first"), pl.col("time").cast(pl.Int64).max().alias("last"))
        .select(pl.all().cast(pl.Utf8)) // as text: a JavaScript number cannot hold nanoseconds since 1970
        .collectSync().row(0);
      tallies.polars.compare(`${kind} where ${where}`, "count, sum(size), first, last", [p.Rows, p.Size, p.First, p.Last].map(String), found.map(String));
      tallies.duckdb.files++;
      tallies.polars.files++;
    }
  }
  Object.values(tallies).forEach(t => t.print());
  return Object.values(tallies).every(t => t.different === 0 && t.files > 0);
}

/**
 * The catalog's Hive export (DIR/hive) written again by each engine's own writer, for the tool to import into new
 * catalogs: DuckDB's COPY ... PARTITION_BY (symbol, date) into DIR/hive-duckdb/trades (symbol=S/date=D/data_0.parquet,
 * the keys in the folders' names only, each file's rows in no set order: imported with --sort), and Polars' frames
 * split by partitionBy, each written in time order with writeParquet into
 * DIR/hive-polars/trades/symbol=S/date=D/part-0.parquet.
 */
async function writeHive() {
  const glob = join(dir, "hive", "trades", "*", "*", "*.parquet").replaceAll("\\", "/");
  const duck = await (await DuckDBInstance.create(":memory:")).connect();
  mkdirSync(join(dir, "hive-duckdb"));
  await duck.run(`copy (select * from read_parquet('${glob}', hive_partitioning = true)) ` +
    `to '${join(dir, "hive-duckdb", "trades").replaceAll("\\", "/")}' (format parquet, partition_by (symbol, date))`);
  const files = readdirSync(join(dir, "hive-duckdb", "trades"), { recursive: true }).filter(name => String(name).endsWith(".parquet")).length;

  const frame = pl.scanParquet(join(dir, "hive", "trades", "**", "*.parquet"), { hivePartitioning: true }).collectSync();
  let written = 0;
  for (const part of frame.partitionBy(["symbol", "date"], true, true)) {
    const symbol = part.getColumn("symbol").get(0);
    const date = part.select(pl.col("date").cast(pl.Utf8)).getColumn("date").get(0);
    const folder = join(dir, "hive-polars", "trades", `symbol=${symbol}`, `date=${date}`);
    mkdirSync(folder, { recursive: true });
    part.drop("symbol", "date").sort("time").writeParquet(join(folder, "part-0.parquet"));
    written++;
  }
  console.log(`hive-write: DuckDB wrote the export's partitions again as ${files} files, Polars as ${written}`);
  return written > 0 && files === written;
}

const ok = command === "read" ? await readAll() : command === "write" ? await writeAll() : command === "hive" ? await readHive()
  : command === "hive-write" ? await writeHive()
  : (console.error("usage: read DIR | write DIR | hive DIR | hive-write DIR"), false);
process.exit(ok ? 0 : 1);
