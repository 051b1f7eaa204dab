/**
 * postgres.js keeps its pool's connections (open, busy, …) and each connection's sent queries in a
 * small queue of its own (`src/queue.js`). A connection taken from the front of `busy` goes back at
 * its end, so under load that queue is rotated for every query and is never emptied: the driver as
 * published kept a slot for every entry it had shifted out, and scanned those slots on every
 * `remove`, so a server's CPU per request grew for as long as it ran (see `patches/README.md`). These
 * tests check the patched queue: it keeps its order and length, and it does not grow.
 */
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { pathToFileURL } from "node:url";
import v8 from "node:v8";
import vm from "node:vm";
import { describe, expect, it } from "vitest";

interface Queue<T> {
  readonly length: number;
  push(entry: T): T;
  shift(): T | undefined;
  remove(entry: T): T | null;
}

// The queue is internal to the driver (its exports map does not name it): it is loaded from the file.
// Resolved as `require` would (the package's CommonJS build, `cjs/src/index.js`), two folders down.
const driverDir = join(dirname(createRequire(import.meta.url).resolve("postgres")), "../..");
const { default: makeQueue } = (await import(pathToFileURL(join(driverDir, "src/queue.js")).href)) as { default: <T>(initial?: T[]) => Queue<T> };

/** Heap in use after a full collection, in bytes. */
function heapUsed(): number {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
  return v8.getHeapStatistics().used_heap_size;
}

/** What `busy` goes through for each query while every connection is busy: shifted, removed (not there), pushed back. */
function rotate<T>(queue: Queue<T>, times: number): void {
  for (let i = 0; i < times; i++) {
    const entry = queue.shift()!;
    queue.remove(entry);
    queue.push(entry);
  }
}

describe("postgres.js's queue (patched)", () => {
  it("keeps its entries in order through shifts, pushes and removals, and is empty after its last", () => {
    const [a, b, c, d] = [{ n: "a" }, { n: "b" }, { n: "c" }, { n: "d" }];
    const queue = makeQueue([a, b]);
    queue.push(c);
    rotate(queue, 1_000); // 1,000 = 1 mod 3: b, c, a
    expect(queue.length).toBe(3);
    expect(queue.remove(d)).toBeNull();
    expect(queue.remove(c)).toBe(c);
    expect(queue.length).toBe(2);
    queue.push(d);
    expect([queue.shift(), queue.shift(), queue.shift()]).toEqual([b, a, d]);
    expect(queue.length).toBe(0);
    expect(queue.shift()).toBeUndefined();
    // Emptied by a removal rather than a shift, it starts over as well.
    queue.push(a);
    expect(queue.remove(a)).toBe(a);
    expect(queue.length).toBe(0);
    queue.push(b);
    expect(queue.shift()).toBe(b);
  });

  it("does not grow while it is rotated and never emptied, as the pool's busy connections are", () => {
    const connections = Array.from({ length: 10 }, (_, id) => ({ id }));
    const queue = makeQueue(connections);
    rotate(queue, 1_000); // warm: what the code needs to run is made before the measure
    const before = heapUsed();
    // Before the patch every rotation left a slot (8 bytes) behind: 1,000,000 of them were ~8 MB more.
    rotate(queue, 1_000_000);
    const grown = heapUsed() - before;
    expect(grown).toBeLessThan(1_000_000);
    expect(queue.length).toBe(10);
    expect(Array.from({ length: 10 }, () => queue.shift())).toEqual(connections);
  });
});
