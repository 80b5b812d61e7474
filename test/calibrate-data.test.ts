import { describe, expect, it } from 'vitest';
import { benchmarkName, isCsv, readMeasurements } from '../cli/calibrate/measurements.ts';

/** The error `f` throws (fails when it does not throw). */
function thrown(f: () => unknown): Error {
  try {
    f();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

/** The (bytes, value) pairs of points. */
const pairs = (ps: readonly { bytes: number | null; value: number }[]): [number | null, number][] => ps.map((p) => [p.bytes, p.value]);

describe('OSU text output', () => {
  it('osu_latency of OSU 5.x after launcher noise: sizes, values in us, lines and one curve', () => {
    const text = ['srun: job 4242 queued and waiting for resources', 'srun: job 4242 has been allocated resources', '# OSU MPI Latency Test v5.6.3', '# Size          Latency (us)', '0                       1.52', '1                       1.55', '8                       1.56', '4194304              2178.66', ''].join('\n');
    const ps = readMeasurements(text, 'lat.txt');
    expect(pairs(ps)).toEqual([[0, 1.52], [1, 1.55], [8, 1.56], [4194304, 2178.66]]);
    expect(ps.map((p) => p.line)).toEqual([5, 6, 7, 8]);
    expect(new Set(ps.map((p) => `${p.benchmark} ${p.unit} ${p.curve} ${p.file}`))).toEqual(new Set(['osu_latency us lat.txt:3 lat.txt']));
    expect(ps[0]!.nodes).toBeUndefined();
  });

  it('OSU 7.x: the datatype line before or after the column line, and the Validation column ignored', () => {
    const v75 = '# OSU MPI Latency Test v7.5\n# Datatype: MPI_CHAR.\n# Size       Avg Latency(us)        Validation\n1                       3.00              Pass\n2                       2.99              Pass\n';
    const v72 = '# OSU MPI Latency Test v7.2\n# Size          Latency (us)\n# Datatype: MPI_CHAR.\n1                       2.46\n2                       3.31\n';
    expect(pairs(readMeasurements(v75, 'a'))).toEqual([[1, 3], [2, 2.99]]);
    expect(pairs(readMeasurements(v72, 'b'))).toEqual([[1, 2.46], [2, 3.31]]);
  });

  it('bandwidth, bidirectional bandwidth and message rate outputs are MB/s; -f columns (min, max, iterations) are ignored', () => {
    const text = [
      '# OSU MPI Bandwidth Test v5.6.2',
      '# Size      Bandwidth (MB/s)',
      '1                       7.11',
      '',
      '# OSU MPI Bi-Directional Bandwidth Test v5.6.2',
      '# Size      Bandwidth (MB/s)',
      '1                       2.10',
      '',
      '# OSU MPI Multiple Bandwidth / Message Rate Test v5.6.3',
      '# [ pairs: 1 ] [ window size: 64 ]',
      '# Size                  MB/s        Messages/s',
      '1                       4.24        4235302.84',
      'openmpi@4.1.5 osu_allreduce',
      '# OSU MPI Allreduce Latency Test v6.2',
      '# Size       Avg Latency(us)   Min Latency(us)   Max Latency(us)  Iterations',
      '100000               1181.07           1168.71           1188.92         100',
    ].join('\n');
    const ps = readMeasurements(text, 'many.txt');
    expect(ps.map((p) => [p.benchmark, p.unit, p.bytes, p.value, p.line])).toEqual([
      ['osu_bw', 'MB/s', 1, 7.11, 3],
      ['osu_bibw', 'MB/s', 1, 2.1, 7],
      ['osu_mbw_mr', 'MB/s', 1, 4.24, 12],
      ['osu_allreduce', 'us', 100000, 1181.07, 16],
    ]);
    expect(new Set(ps.map((p) => p.curve)).size).toBe(4);
  });

  it('collectives by their titles; osu_barrier has no size; an unknown title is kept as the name', () => {
    const text = [
      '# OSU MPI All-to-All Personalized Exchange Latency Test v7.5',
      '# Datatype: MPI_CHAR.',
      '# Size       Avg Latency(us)',
      '1                      22.31',
      '# OSU MPI Broadcast Latency Test v7.3',
      '# Size       Avg Latency(us)',
      '1                       2.42',
      '# OSU MPI Barrier Latency Test v5.8',
      '# Avg Latency(us)',
      '             8.32',
      '# OSU MPI-CUDA Latency Test v5.6',
      '# Size          Latency (us)',
      '1                      20.5',
    ].join('\r\n');
    const ps = readMeasurements(text, 'coll.txt');
    expect(ps.map((p) => [p.benchmark, p.bytes, p.value])).toEqual([
      ['osu_alltoall', 1, 22.31],
      ['osu_bcast', 1, 2.42],
      ['osu_barrier', null, 8.32],
      ['OSU MPI-CUDA Latency Test', 1, 20.5],
    ]);
  });

  it('a truncated or broken output fails with the file, the line and what was expected', () => {
    const cases: [string, RegExp][] = [
      ['# OSU MPI Latency Test v5.6.3\n# Size          Latency (us)\n', /^t\.txt:1: the osu_latency output has no data lines after its column line \(line 2\); expected lines of "<size> <value>"$/],
      ['# OSU MPI Latency Test v4.2\n# Size       Avg Latency(us)\n----------\nmpirun noticed that process rank 3 exited\n', /^t\.txt:1: the osu_latency output has no data lines/],
      ['# OSU MPI Latency Test v5\n# Size  Latency (us)\n1   1.5\n2\n', /^t\.txt:4: expected "<size> <value>", got only "2" \(a truncated line\?\)$/],
      ['# OSU MPI Latency Test v5\n# Size  Latency (us)\n1   1.5\n2   1.x\n', /^t\.txt:4: expected "<size> <value>" with a positive latency in us, got "2 {3}1\.x"$/],
      ['# OSU MPI Bandwidth Test v5\n# Size  Bandwidth (MB/s)\n1.5   1.5\n', /^t\.txt:3: expected "<size> <value>" with a size in bytes, got "1\.5 {3}1\.5"$/],
      ['# OSU MPI Bandwidth Test v5\n# Size  Bandwidth (MB/s)\n8   0\n', /^t\.txt:3: .*positive bandwidth in MB\/s/],
      ['# OSU MPI Latency Test v5\n1   1.5\n', /^t\.txt:2: data before the column line of the osu_latency output \(line 1\)/],
      ['# OSU MPI Latency Test v5\n', /^t\.txt:1: the osu_latency output has no data lines and no column line/],
      ['1 1.5\n2 1.6\n', /^t\.txt: no OSU benchmark output found; expected a header line such as "# OSU MPI Latency Test v7\.3"$/],
      ['', /^t\.txt: no OSU benchmark output found/],
    ];
    for (const [text, want] of cases) {
      const e = thrown(() => readMeasurements(text, 't.txt'));
      expect(e).toBeInstanceOf(RangeError);
      expect(e.message).toMatch(want);
      expect(e.message).not.toContain('\n');
    }
  });
});

describe('CSV', () => {
  it('columns in any order and case, units converted to us and MB/s, nodes and ppn per row, names with or without osu_', () => {
    const text = ['# measured on 2024-05-01', 'Value,Benchmark,Bytes,Unit,Nodes,PPN', '1.5,osu_latency,8,us,,', '0.0021,latency,16,ms,,', '9.6,osu-bw,4KiB,GB/s,,', '1200,osu_bw,64KiB,,,', '"12.5","allreduce","1024","us","8","4"', '', '3.1,barrier,,,16,'].join('\n');
    expect(isCsv(text, 'data.txt')).toBe(true);
    const ps = readMeasurements(text, 'data.txt');
    expect(ps.map((p) => [p.benchmark, p.bytes, Number(p.value.toPrecision(6)), p.unit, p.nodes, p.ppn, p.line])).toEqual([
      ['osu_latency', 8, 1.5, 'us', undefined, undefined, 3],
      ['osu_latency', 16, 2.1, 'us', undefined, undefined, 4],
      ['osu_bw', 4096, 9600, 'MB/s', undefined, undefined, 5],
      ['osu_bw', 65536, 1200, 'MB/s', undefined, undefined, 6],
      ['osu_allreduce', 1024, 12.5, 'us', 8, 4, 7],
      ['osu_barrier', null, 3.1, 'us', 16, undefined, 9],
    ]);
    // one curve per benchmark, nodes and ppn
    expect(ps[0]!.curve).toBe(ps[1]!.curve);
    expect(ps[2]!.curve).toBe(ps[3]!.curve);
    expect(ps[0]!.curve).not.toBe(ps[2]!.curve);
  });

  it('a .csv name makes a file CSV; OSU text is not CSV', () => {
    expect(isCsv('x,y\n', 'a.CSV')).toBe(true);
    expect(isCsv('# OSU MPI Latency Test v5\n', 'a.txt')).toBe(false);
    expect(benchmarkName(' OSU-Latency ')).toBe('osu_latency');
  });

  it('bad CSV fails with the file, the line and what was expected', () => {
    const cases: [string, RegExp][] = [
      ['benchmark,bytes,val\n', /^d\.csv:1: unknown column "val"; expected benchmark, bytes, value and optionally nodes, ppn, unit$/],
      ['benchmark,bytes\nosu_latency,8\n', /^d\.csv:1: no column "value" in the header/],
      ['benchmark,bytes,value,bytes\n', /^d\.csv:1: column "bytes" appears twice$/],
      ['benchmark,bytes,value\nosu_latency,8,1.5\nosu_latency,16\n', /^d\.csv:3: expected 3 values \(benchmark,bytes,value\), got 2$/],
      ['benchmark,bytes,value\nosu_latency,8,-1\n', /^d\.csv:2: value "-1": expected a positive number$/],
      ['benchmark,bytes,value\nosu_latency,8 bytes,1\n', /^d\.csv:2: bytes "8 bytes": expected a size such as 64 or 4KiB/],
      ['benchmark,bytes,value,unit\nosu_latency,8,1,furlongs\n', /^d\.csv:2: unit "furlongs": expected a time \(us, ms, ns, s\) or a bandwidth/],
      ['benchmark,bytes,value,nodes\nosu_allreduce,8,1,0\n', /^d\.csv:2: nodes "0": expected a positive integer$/],
      ['benchmark,bytes,value\n,8,1\n', /^d\.csv:2: empty benchmark/],
      ['benchmark,bytes,value\n\n', /^d\.csv:1: a header and no data lines/],
      ['\n\n', /^d\.csv: empty; expected a CSV header line/],
    ];
    for (const [text, want] of cases) {
      const e = thrown(() => readMeasurements(text, 'd.csv'));
      expect(e).toBeInstanceOf(RangeError);
      expect(e.message).toMatch(want);
    }
  });
});
