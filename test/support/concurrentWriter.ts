// A second process writing one file many times with the extension's disk writer
// (src/util/atomicWrite.ts writeOnDisk), for the unit test of two writers at once
// (test/unit/util/atomicWrite.test.ts): `node concurrentWriter.js <file> <writer id> <rounds> <bytes> <start at>`.
// Each text is whole JSON naming its writer and round, padded to about <bytes>. Prints the number
// of writes that failed, and exits 0. Round n starts at <start at> + n × 10 ms, so two of them write
// in step whenever each was loaded.
import { writeOnDisk } from '../../src/util/atomicWrite';

/** Each round's slot: longer than one write, so the rounds do not drift apart. */
const ROUND_MS = 10;

async function main(): Promise<void> {
  const [file, writer, rounds, bytes, startAt] = process.argv.slice(2);
  if (!file || !writer) throw new Error('usage: concurrentWriter <file> <writer id> <rounds> <bytes> <start at, ms since the epoch>');
  let failed = 0;
  for (let round = 0; round < Number(rounds); round++) {
    // Both writers start each round at the same instant, whenever each process finished loading:
    // every write of one overlaps a write of the other (as two windows restored together write).
    while (Date.now() < Number(startAt) + round * ROUND_MS);
    const text = JSON.stringify({ writer, round, pad: `${writer}:${round}:`.repeat(Math.ceil(Number(bytes) / 8)) });
    await writeOnDisk(file, text).catch((error: unknown) => {
      failed++;
      process.stderr.write(`${String(error)}\n`);
    });
  }
  process.stdout.write(`${failed}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`${String(error)}\n`);
  process.exitCode = 1;
});
